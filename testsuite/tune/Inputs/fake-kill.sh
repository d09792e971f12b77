#!/bin/sh
# fake-kill.sh — fake-time.sh that, at its $FAKE_KILL_AT-th run (counted in
# the file $FAKE_COUNT), sends SIGTERM to the tuner and hangs, as when a
# tuning job is cancelled or its node dies: a deterministic interruption.
# The tuner is the parent of this command's process-group leader (the
# `/bin/sh -c CMD` it started).  With --jobs several run at once: each
# appends its pid to $FAKE_COUNT (one short O_APPEND write: atomic) and its
# run's number is the line it landed on, so no number is skipped or given
# twice (reading the count and writing it back raced: a reader could see
# the file just truncated, and the count went back to 1).
if [ -n "$FAKE_KILL_AT" ]; then
    echo "$$" >> "$FAKE_COUNT"
    n=$(grep -n -x "$$" "$FAKE_COUNT" | tail -n 1 | cut -d: -f1)
    if [ "$n" -eq "$FAKE_KILL_AT" ]; then
        read -r _ _ _ _ pgrp _ < /proc/$$/stat
        read -r _ _ _ tuner _ < /proc/"$pgrp"/stat
        [ -n "$FAKE_PIDS" ] && echo "$$ $pgrp" > "$FAKE_PIDS"
        kill -TERM "$tuner"
        sleep 30
        echo "fake-kill: not stopped by the tuner" >&2
        exit 1
    fi
fi
exec sh "$(dirname "$0")/fake-time.sh"
