#!/bin/bash
# campaign.sh — ptxopt-tune --launcher=slurm against a real Slurm (issue 25
# item 9): this script starts a cluster of its own on localhost (munged,
# slurmctld and slurmd of Debian's slurm-wlm and munge, as root, with a
# configuration, key, ports and state in its temporary directory; one node,
# 2 CPUs, no GPU: the measuring command is CPU-only), then checks that
#   1. a two-slot campaign through Slurm gives the same table and report,
#      byte for byte, as --jobs=2 here, every run a job of its own, and
#      states its submission overhead per variant;
#   2. a run whose job is cancelled under it (as by preemption or a node
#      failure) is submitted again, and the report is still the same;
#   3. a tuner killed mid-campaign stops its jobs, and --resume finishes
#      the campaign to the same report, measuring only what was missing.
# Exit 77 (UNSUPPORTED, with the reason) where Slurm cannot start: not
# root, a program missing, a daemon that does not come up.  Never PASS
# without having run the campaign.
set -u
src=$PTXOPT_SRCDIR
bin=$PTXOPT_BUILDDIR
dir=$PTXOPT_TMP
tune="$bin/ptxopt-tune"
input="$src/testsuite/tune/Inputs/pressure.ptx"
measure="sh $src/testsuite/slurm/Inputs/measure.sh"

unsupported() { echo "UNSUPPORTED: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || unsupported "not root: munged, slurmctld and slurmd are started as root"
for p in munged slurmctld slurmd srun sinfo squeue scancel python3; do
    command -v "$p" > /dev/null 2>&1 || unsupported "$p not found (apt-get install slurm-wlm munge)"
done

# --- the cluster
cleanup() {
    scancel --full --quiet --user=root > /dev/null 2>&1
    for d in slurmd slurmctld munged; do
        [ -s "$dir/$d.pid" ] && kill "$(cat "$dir/$d.pid")" 2> /dev/null
    done
    sleep 1
    for d in slurmd slurmctld munged; do
        [ -s "$dir/$d.pid" ] && kill -9 "$(cat "$dir/$d.pid")" 2> /dev/null
    done
}
trap cleanup EXIT
ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
ctld_port=$1 slurmd_port=$2
mkdir -p "$dir/state" "$dir/spool" "$dir/w"
head -c 1024 /dev/urandom > "$dir/munge.key" && chmod 400 "$dir/munge.key"
munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" 2> "$dir/munged.err" ||
    unsupported "munged does not start: $(tail -n 1 "$dir/munged.err")"
cat > "$dir/slurm.conf" << CONF
ClusterName=ptxopttest
SlurmctldHost=localhost
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
KillWait=2
SchedulerType=sched/backfill
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" > "$dir/slurmctld.err" 2>&1 || unsupported "slurmctld does not start: $(tail -n 1 "$dir/slurmctld.err")"
slurmd -f "$SLURM_CONF" -N localhost > "$dir/slurmd.err" 2>&1 || unsupported "slurmd does not start: $(tail -n 1 "$dir/slurmd.err")"
up=""
for i in $(seq 1 60); do
    [ "$(sinfo -h -o %T 2> /dev/null)" = idle ] && { up=1; break; }
    sleep 0.5
done
[ -n "$up" ] || unsupported "the node did not come up in 30 s: $(tail -n 2 "$dir/slurmctld.log" "$dir/slurmd.log" 2> /dev/null | tr '\n' ' ')"
srun --quiet -N1 -n1 true || unsupported "srun cannot run a job: $(tail -n 2 "$dir/slurmctld.log" | tr '\n' ' ')"
echo "cluster: slurmctld on port $ctld_port, slurmd on $slurmd_port, $(sinfo -h -o '%N %c CPUs %T')"

common=(-k pressure --block=256 --repeat=2 --workdir="$dir/w" "--measure=$measure")

# --- 1. --jobs=2 here and two slots through Slurm: the same report
"$tune" -q "${common[@]}" --jobs=2 --report="$dir/local.json" "$input" > "$dir/local.table" || fail "the local campaign failed"
JOBLOG="$dir/jobs.1" "$tune" "${common[@]}" --jobs=2 --launcher=slurm --slurm-gpus-per-task=0 \
    --report="$dir/slurm.json" "$input" > "$dir/slurm.table" 2> "$dir/slurm.err" || fail "the Slurm campaign failed: $(tail -n 3 "$dir/slurm.err")"
cmp "$dir/local.table" "$dir/slurm.table" || fail "the tables differ"
cmp "$dir/local.json" "$dir/slurm.json" || fail "the reports differ"
runs=$(wc -l < "$dir/jobs.1")
[ "$runs" -eq 16 ] || fail "$runs runs, not 16 (8 variants, --repeat=2)"
grep -qv '^[0-9][0-9]* [01] [0-9]' "$dir/jobs.1" && fail "a run outside a Slurm job or slot: $(grep -v '^[0-9][0-9]* [01] ' "$dir/jobs.1" | head -n 1)"
[ "$(cut -d' ' -f1 "$dir/jobs.1" | sort -u | wc -l)" -eq 16 ] || fail "not one job per run"
[ "$(cut -d' ' -f2 "$dir/jobs.1" | sort -u | tr '\n' ' ')" = "0 1 " ] || fail "the runs did not use both slots"
[ "$(grep -c 'measure \[.*; Slurm submission overhead [0-9.]* s)$' "$dir/slurm.err")" -eq 8 ] ||
    fail "no submission overhead per variant: $(grep 'measure \[' "$dir/slurm.err" | head -n 1)"
grep -q '^ptxopt-tune: Slurm: 8 variants sent through srun: submission overhead [0-9.]* s per variant (median), [0-9.]* s in all; 0 runs submitted again' "$dir/slurm.err" ||
    fail "no overhead summary"
echo "1. the same report; $(grep '^ptxopt-tune: Slurm:' "$dir/slurm.err" | sed 's/^ptxopt-tune: //')"

# --- 2. a job cancelled under a run: submitted again, the same report
JOBLOG="$dir/jobs.2" CANCEL_ONCE="$dir/cancelled" "$tune" "${common[@]}" --jobs=2 --launcher=slurm --slurm-gpus-per-task=0 \
    --report="$dir/cancel.json" "$input" > "$dir/cancel.table" 2> "$dir/cancel.err" || fail "the campaign with a cancelled job failed: $(tail -n 3 "$dir/cancel.err")"
[ -s "$dir/cancelled" ] || fail "no job was cancelled"
grep -q '^ptxopt-tune: v3: its job ended before the command did (.*); submitted again (1 of 2)$' "$dir/cancel.err" ||
    fail "the lost job was not submitted again: $(grep -i 'v3' "$dir/cancel.err" | head -n 3)"
cmp "$dir/local.table" "$dir/cancel.table" || fail "the tables differ after a cancelled job"
cmp "$dir/local.json" "$dir/cancel.json" || fail "the reports differ after a cancelled job"
grep -q '1 run submitted again after a lost job' "$dir/cancel.err" || fail "the summary does not count the resubmission"
echo "2. job $(cat "$dir/cancelled") cancelled under variant 3: submitted again, the same report"

# --- 3. the tuner killed mid-campaign, then --resume
rm -f "$dir/resumed.json"
JOBLOG="$dir/jobs.3" FAKE_SLEEP=1 "$tune" -q "${common[@]}" --jobs=2 --launcher=slurm --slurm-gpus-per-task=0 \
    --resume="$dir/resumed.json" "$input" > /dev/null 2> "$dir/killed.err" &
pid=$!
for i in $(seq 1 200); do
    [ -s "$dir/resumed.json" ] && [ "$(grep -o '"status":"ok"' "$dir/resumed.json" | wc -l)" -ge 2 ] && break
    sleep 0.1
done
kill -TERM $pid
wait $pid
st=$?
[ $st -eq 143 ] || fail "the killed tuner exited with $st, not 143"
grep -q '"complete":false' "$dir/resumed.json" || fail "the report of the killed run is not partial"
gone=""
for i in $(seq 1 50); do
    [ -z "$(squeue -h -n ptxopt-tune 2> /dev/null)" ] && { gone=1; break; }
    sleep 0.2
done
[ -n "$gone" ] || fail "jobs left behind by the killed tuner: $(squeue -h -n ptxopt-tune | head -n 2)"
before=$(wc -l < "$dir/jobs.3")
JOBLOG="$dir/jobs.3b" "$tune" -q "${common[@]}" --jobs=2 --launcher=slurm --slurm-gpus-per-task=0 \
    --resume="$dir/resumed.json" "$input" > "$dir/resumed.table" 2> "$dir/resumed.err" || fail "the resumed campaign failed: $(tail -n 3 "$dir/resumed.err")"
cmp "$dir/local.table" "$dir/resumed.table" || fail "the tables differ after --resume"
cmp "$dir/local.json" "$dir/resumed.json" || fail "the reports differ after --resume"
after=$(wc -l < "$dir/jobs.3b")
[ "$after" -lt 16 ] || fail "the resumed run measured everything again ($after runs)"
echo "3. killed after $before runs (its jobs cancelled), resumed with $after more: the same report"
exit 0
