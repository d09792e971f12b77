"""check_properties.py PTXOPT DIR — the fuzzer's properties on every file of
DIR: rejected with status 1, or lossless and with an idempotent canonical
form.  Prints each file's verdict; exits 1 if any file breaks a property."""
import os
import subprocess
import sys
import tempfile

ptxopt, d = sys.argv[1], sys.argv[2]
bad = 0
with tempfile.TemporaryDirectory() as tmp:
    for name in sorted(os.listdir(d)):
        path = os.path.join(d, name)
        c1, c2 = os.path.join(tmp, "c1.ptx"), os.path.join(tmp, "c2.ptx")
        r = subprocess.run([ptxopt, path, "-o", os.path.join(tmp, "same.ptx")], capture_output=True)
        if r.returncode == 1:
            print(f"{name}: rejected (status 1)")
            continue
        ok = r.returncode == 0 and open(path, "rb").read() == open(os.path.join(tmp, "same.ptx"), "rb").read()
        ok = ok and subprocess.run([ptxopt, "--canonical", path, "-o", c1]).returncode == 0
        ok = ok and subprocess.run([ptxopt, "--canonical", c1, "-o", c2]).returncode == 0
        ok = ok and open(c1, "rb").read() == open(c2, "rb").read()
        print(f"{name}: {'ok' if ok else 'PROPERTY BROKEN (status %d)' % r.returncode}")
        bad += not ok
sys.exit(1 if bad else 0)
