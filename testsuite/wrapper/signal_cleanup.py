#!/usr/bin/env python3
"""signal_cleanup.py - a signal that ends a program must end its children too
and leave no temporary file behind (issue 11, section 8).

  signal_cleanup.py --signal=TERM|INT|HUP|KILL [--group] --tmpdir=DIR
                    [--ready=FILE]... [--children=N] [--ignore=SIG] [--survives]
                    [--keep-dir=NAME]... [--no-tmpdir] -- COMMAND...

Starts COMMAND in a session of its own with TMPDIR=DIR (an empty directory
made here) and the signals at their default action, waits (polling, no
fixed sleep) until every --ready file exists, the program has N
descendants (--children, default 1) and DIR holds its temporary
directory, records all its descendants, then sends
the signal to the program (or with --group to its process group, as Ctrl-C
does).  Checks:
  * the program died of that signal (the conventional status);
  * none of the recorded descendants is alive (a zombie counts as dead);
  * DIR is empty (but for the --keep-dir directories, which must be empty:
    a cache directory made on purpose, say).
--no-tmpdir: the program makes no temporary directory; do not wait for one.
--ignore=SIG starts COMMAND with SIG ignored (nohup); with --survives the
program must still run after the signal (it keeps the SIG_IGN it was given),
and is then ended with SIGTERM, which must clean up as above.
Each check prints one line; the exit status is 1 when any fails."""
import argparse
import os
import signal
import subprocess
import sys
import time

DEADLINE = 60.0


def children(pid):
    """Direct children of pid, from /proc."""
    out = []
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def descendants(pid):
    seen, todo = [], [pid]
    while todo:
        for c in children(todo.pop()):
            if c not in seen:
                seen.append(c)
                todo.append(c)
    return seen


def alive(pid):
    """True unless pid is gone or a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (OSError, IndexError):
        return False


def wait_until(what, cond):
    end = time.monotonic() + DEADLINE
    while not cond():
        if time.monotonic() > end:
            print("FAIL: timed out waiting for %s" % what)
            return False
        time.sleep(0.02)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--signal", required=True)
    ap.add_argument("--group", action="store_true")
    ap.add_argument("--tmpdir", required=True)
    ap.add_argument("--ready", action="append", default=[])
    ap.add_argument("--ignore")
    ap.add_argument("--survives", action="store_true")
    ap.add_argument("--keep-dir", action="append", default=[])
    ap.add_argument("--no-tmpdir", action="store_true")
    ap.add_argument("--children", type=int, default=1)
    ap.add_argument("command", nargs="+")
    a = ap.parse_args()
    sig = getattr(signal, "SIG" + a.signal)
    ignored = getattr(signal, "SIG" + a.ignore) if a.ignore else None

    os.makedirs(a.tmpdir, exist_ok=True)
    if os.listdir(a.tmpdir):
        print("FAIL: %s is not empty to begin with" % a.tmpdir)
        return 1

    def child_setup():
        # whatever the test harness ignores, the program starts as from a shell
        for s in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
            signal.signal(s, signal.SIG_DFL)
        if ignored:
            signal.signal(ignored, signal.SIG_IGN)

    env = dict(os.environ, TMPDIR=os.path.abspath(a.tmpdir))
    p = subprocess.Popen(a.command, env=env, start_new_session=True, preexec_fn=child_setup)
    ok = wait_until("the ready files", lambda: all(os.path.exists(r) for r in a.ready) or p.poll() is not None)
    ok = ok and wait_until("%d descendant(s)" % a.children,
                           lambda: len(descendants(p.pid)) >= a.children or p.poll() is not None)
    if not a.no_tmpdir:
        ok = ok and wait_until("the temporary directory", lambda: os.listdir(a.tmpdir) or p.poll() is not None)
    if p.poll() is not None:
        print("FAIL: the program ended before the signal (status %d)" % p.returncode)
        return 1
    if not ok:
        p.kill()
        return 1
    kids = descendants(p.pid)
    print("running: %d descendant(s)%s" % (len(kids), "" if a.no_tmpdir else ", temporary directory made"))

    def send(s):
        if a.group:
            os.killpg(p.pid, s)
        else:
            os.kill(p.pid, s)

    send(sig)
    if a.survives:
        try:
            p.wait(timeout=0.5)
            print("FAIL: SIG%s ended the program although it was started with it ignored" % a.signal)
            return 1
        except subprocess.TimeoutExpired:
            print("ok: SIG%s ignored, as it was when the program started" % a.signal)
        sig = signal.SIGTERM
        os.kill(p.pid, sig)
    try:
        p.wait(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        print("FAIL: the program did not end after SIG%s" % signal.Signals(sig).name[3:])
        p.kill()
        return 1
    failed = False
    if p.returncode == -sig:
        print("ok: died of SIG%s" % signal.Signals(sig).name[3:])
    else:
        print("FAIL: status %d, not death by SIG%s" % (p.returncode, signal.Signals(sig).name[3:]))
        failed = True
    # a descendant the program killed on its way out may still be on its
    # way to the zombie state on a loaded machine: give it 2 s
    end = time.monotonic() + 2.0
    left = [k for k in kids if alive(k)]
    while left and time.monotonic() < end:
        time.sleep(0.02)
        left = [k for k in kids if alive(k)]
    if left:
        print("FAIL: still running: %s" % left)
        for k in left:
            os.kill(k, signal.SIGKILL)
        failed = True
    else:
        print("ok: no child left")
    rest = []
    for e in sorted(os.listdir(a.tmpdir)):
        path = os.path.join(a.tmpdir, e)
        if e in a.keep_dir and os.path.isdir(path) and not os.path.islink(path):
            rest += [os.path.join(e, x) for x in os.listdir(path)]
        else:
            rest.append(e)
    if rest:
        print("FAIL: left in TMPDIR: %s" % rest)
        failed = True
    else:
        print("ok: TMPDIR empty")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
