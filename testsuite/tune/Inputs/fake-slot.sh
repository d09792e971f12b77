#!/bin/sh
# fake-slot.sh — fake-time.sh, after checking the slot it was given
# (ptxopt-tune --jobs): $PTXOPT_SLOT must be a number below $PTXOPT_JOBS and
# must not be held by another running command.  A slot is held by making
# the directory $FAKE_SLOTS/slotN (mkdir is atomic: it fails when another
# command holds the slot).  What is wrong goes to $FAKE_SLOTS/errors; the
# slots used go to $FAKE_SLOTS/used.
#   FAKE_BARRIER=N  wait (10 s at most) until N commands have started, then
#                   append the number of slots held at that moment to
#                   $FAKE_SLOTS/held: N when N commands really run at once
dir=$FAKE_SLOTS
slot=$PTXOPT_SLOT
case "$slot" in
'' | *[!0-9]*) echo "slot '$slot' is not a number" >> "$dir/errors"; exit 9 ;;
esac
[ "$slot" -lt "$PTXOPT_JOBS" ] || echo "slot $slot is not below PTXOPT_JOBS=$PTXOPT_JOBS" >> "$dir/errors"
mkdir "$dir/slot$slot" 2>/dev/null || echo "slot $slot held by two commands at once" >> "$dir/errors"
echo "$slot" >> "$dir/used"
: > "$dir/started.$$"
if [ -n "$FAKE_BARRIER" ]; then
    i=0
    while [ "$(ls "$dir" | grep -c '^started\.')" -lt "$FAKE_BARRIER" ] && [ $i -lt 200 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    ls "$dir" | grep -c '^slot' >> "$dir/held"
fi
sleep 0.02
rmdir "$dir/slot$slot"
exec sh "$(dirname "$0")/fake-time.sh"
