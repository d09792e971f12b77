#!/bin/sh
# measure.sh — the measuring command of testsuite/slurm/campaign.sh: a
# CPU-only stand-in for a GPU benchmark (testsuite/tune/Inputs/fake-time.sh:
# a deterministic time from the variant's register count), which also says
# where it ran.
#   JOBLOG=FILE      append "JOB SLOT VARIANT" per run (JOB: $SLURM_JOB_ID,
#                    "local" outside Slurm)
#   FAKE_SLEEP=S     sleep S seconds first (a campaign long enough to kill)
#   CANCEL_ONCE=FILE the first run of variant 3 (when FILE does not exist
#                    yet) cancels its own Slurm job, as a preemption or a
#                    node failure would, and hangs: the tuner must submit
#                    that run again
[ -n "$JOBLOG" ] && echo "${SLURM_JOB_ID:-local} $PTXOPT_SLOT $PTXOPT_VARIANT_ID" >> "$JOBLOG"
if [ -n "$CANCEL_ONCE" ] && [ "$PTXOPT_VARIANT_ID" = 3 ] && [ ! -e "$CANCEL_ONCE" ] && [ -n "$SLURM_JOB_ID" ]; then
    echo "$SLURM_JOB_ID" > "$CANCEL_ONCE"
    scancel "$SLURM_JOB_ID"
    sleep 30
    echo "measure.sh: not cancelled" >&2
    exit 1
fi
[ -n "$FAKE_SLEEP" ] && sleep "$FAKE_SLEEP"
exec sh "$(dirname "$0")/../../tune/Inputs/fake-time.sh"
