#!/bin/sh
# fake-time.sh — a stand-in --measure command for tune.test: the baseline
# (every warp caching, T = W = 8 for a block of 256) takes 1000; a bypass
# variant's time is a function of its threshold T: a bowl with its minimum
# at T = 3 for form=pairs (5 (T-3)^2 + 950), flat for form=versioning
# (1000), falling towards the baseline for form=l2policy (1100 - 10 T).
# Each call is logged to $FAKE_LOG.
v=$PTXOPT_VARIANT_BYPASS
echo "$v" >> "$FAKE_LOG"
case $v in none) echo 1000; exit 0;; esac
T=$(echo "$v" | sed 's/threshold=\([0-9]*\).*/\1/')
case $v in
*versioning*) echo 1000;;
*l2policy*) echo $(( 1100 - 10 * T ));;
*) echo $(( (T - 3) * (T - 3) * 5 + 950 ));;
esac
