#!/bin/sh
# fake-kill.sh — fake-time.sh that, at its $FAKE_KILL_AT-th run (counted in
# the file $FAKE_COUNT), sends SIGTERM to the tuner and hangs, as when a
# tuning job is cancelled or its node dies: a deterministic interruption.
# The tuner is the parent of this command's process-group leader (the
# `/bin/sh -c CMD` it started).
if [ -n "$FAKE_KILL_AT" ]; then
    n=$(($(cat "$FAKE_COUNT" 2>/dev/null || echo 0) + 1))
    echo "$n" > "$FAKE_COUNT"
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
