#!/usr/bin/env python3
"""check_found.py PTXOPT PTXOPT-EMU DIR SCRATCH — rerun every reduced
reproducer DIR/*.ptx (written by fuzz.py: its header comments give the
pipeline, the launch and the emulator options) through the oracle.

DIR/XFAIL lists reproducers of known, not yet fixed bugs, one a line:
"FILE  class N: what".  Each must still fail (XFAIL); one that passes is
an XPASS and fails this check, so that whoever fixes the bug moves the
line out.  Any other reproducer must pass.  Exit status 1 on an unexpected
failure or an XPASS."""
import glob
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402
import reduce as reducer  # noqa: E402


def header(text, key):
    m = re.search(r"(?m)^// %s: ?(.*)$" % key, text)
    return m.group(1).strip() if m else ""


def main():
    ptxopt, emu, d, scratch = sys.argv[1:5]
    os.makedirs(scratch, exist_ok=True)
    tools = oracle.Tools(ptxopt, emu)
    xfail = {}
    if os.path.exists(os.path.join(d, "XFAIL")):
        with open(os.path.join(d, "XFAIL")) as f:
            for line in f:
                w = line.split(None, 1)
                if w and not w[0].startswith("#"):
                    xfail[w[0]] = w[1].strip() if len(w) > 1 else ""
    bad = 0
    files = sorted(glob.glob(os.path.join(d, "*.ptx")))
    for path in files:
        name = os.path.basename(path)
        with open(path) as f:
            text = f.read()
        kernel = re.search(r"\.entry\s+(\w+)", text).group(1)
        launch = shlex.split(header(text, "LAUNCH"))
        sig = reducer.failure(tools, path, kernel, header(text, "PIPELINE"), launch, header(text, "EMU"), scratch)
        valid, why = oracle.original_valid(tools, path, kernel, launch)
        if not valid or not tools.ptxas_ok(path)[0]:
            print("BROKEN %s: the reproducer itself is not valid (%s)" % (name, why or "ptxas rejects it"))
            bad += 1
        elif name in xfail:
            if sig:
                print("XFAIL  %s: %s (%s)" % (name, sig, xfail[name]))
            else:
                print("XPASS  %s: passes now; remove it from XFAIL (%s)" % (name, xfail[name]))
                bad += 1
        elif sig:
            print("FAIL   %s: %s" % (name, sig))
            bad += 1
        else:
            print("PASS   %s" % name)
    for name in sorted(set(xfail) - {os.path.basename(p) for p in files}):
        print("MISSING %s is listed in XFAIL" % name)
        bad += 1
    print("check_found.py: %d reproducers, %d listed as known failures, %d unexpected" % (len(files), len(xfail), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
