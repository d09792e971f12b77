#!/bin/sh
# fake-time.sh — a deterministic stand-in for a timing harness, for the
# ptxopt-tune tests.  The "time" it prints grows with the distance between
# the variant's register count and $FAKE_BEST_REGS (default 64), so the
# variant that uses exactly that many registers must win.
#   FAKE_FAIL_CAP=N       exit 3 for the variant capped at N registers
#   FAKE_NONUMBER_CAP=N   print no time for the variant capped at N
#   FAKE_LOG=FILE         append "id kernel regs maxnreg arch ptx cubin" per run
best=${FAKE_BEST_REGS:-64}
regs=$PTXOPT_VARIANT_REGS
if [ -n "$FAKE_LOG" ]; then
    ptx=missing; [ -f "$PTXOPT_VARIANT_PTX" ] && ptx=ptx-ok
    cubin=missing; [ -f "$PTXOPT_VARIANT_CUBIN" ] && cubin=cubin-ok
    echo "$PTXOPT_VARIANT_ID $PTXOPT_VARIANT_KERNEL $regs $PTXOPT_VARIANT_MAXNREG $PTXOPT_VARIANT_ARCH $ptx $cubin" >> "$FAKE_LOG"
fi
if [ "$PTXOPT_VARIANT_MAXNREG" = "${FAKE_FAIL_CAP:-x}" ]; then
    echo "fake-time: simulated launch failure" >&2
    exit 3
fi
echo "warming up"
if [ "$PTXOPT_VARIANT_MAXNREG" = "${FAKE_NONUMBER_CAP:-x}" ]; then
    echo "done"
    exit 0
fi
d=$((regs - best))
[ "$d" -lt 0 ] && d=$((-d))
echo "$((d + 1)).25 ms"
