#!/bin/sh
# signal.sh PTXOPT INPUT SCRATCH — SIGTERM to `ptxopt --sass-report` while
# its ptxas runs (a stand-in that records its pid and sleeps): ptxopt dies of
# the signal, takes the stand-in with it and leaves no scratch directory.
ptxopt=$1 input=$2 t=$3
rm -rf "$t" && mkdir -p "$t/tmp" || exit 1
printf '#!/bin/sh\necho $$ > "%s/ptxas.pid"\nexec sleep 60\n' "$t" > "$t/ptxas"
chmod +x "$t/ptxas"
TMPDIR=$t/tmp PTXAS=$t/ptxas "$ptxopt" --sass-report "$input" -o /dev/null 2>/dev/null &
pid=$!
i=0
while [ ! -s "$t/ptxas.pid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -s "$t/ptxas.pid" ] || { echo "ptxas never started"; kill -KILL $pid; exit 1; }
echo "scratch while running: $(ls "$t/tmp" | sed 's/\..*//')"
kill -TERM $pid
wait $pid
echo "ptxopt: status $?"
child=$(cat "$t/ptxas.pid")
sleep 0.2
if kill -0 "$child" 2>/dev/null; then echo "ptxas still running"; kill -KILL "$child"; else echo "ptxas ended"; fi
echo "scratch after: $(ls "$t/tmp" | wc -l) entries"
