#!/bin/sh
# fake-srun.sh — srun without Slurm, for testsuite/tune/launcher.test: it
# records its options, drops them and runs the rest (/bin/sh -c WRAPPER)
# here, as srun would run it on a node.
#   FAKE_SRUN_LOG=FILE     append the options, one line per run
#   FAKE_SRUN_REFUSE=MSG   refuse every submission: "srun: error: MSG",
#                          exit 1, nothing run
#   FAKE_SRUN_LOSE=FILE    the first run of variant 3 (while FILE does not
#                          exist) starts and then loses its job, as a
#                          cancelled or preempted one does
opts=""
while [ $# -gt 0 ] && [ "$1" != /bin/sh ]; do opts="$opts $1"; shift; done
[ -n "$FAKE_SRUN_LOG" ] && echo "$opts" >> "$FAKE_SRUN_LOG"
if [ -n "$FAKE_SRUN_REFUSE" ]; then
    echo "srun: error: $FAKE_SRUN_REFUSE" >&2
    exit 1
fi
if [ -n "$FAKE_SRUN_LOSE" ] && [ "$PTXOPT_VARIANT_ID" = 3 ] && [ ! -e "$FAKE_SRUN_LOSE" ]; then
    : > "$FAKE_SRUN_LOSE"
    echo "ptxopt-tune-launch: started" >&2
    echo "srun: error: *** STEP 7.0 ON node1 CANCELLED AT 2026-01-01T00:00:00 ***" >&2
    exit 143
fi
exec "$@"
