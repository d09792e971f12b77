#!/usr/bin/env python3
"""tty_run.py COMMAND... — run COMMAND with its stdout and stderr on a
pseudo-terminal; print what it wrote, carriage returns turned into
newlines and terminal escape sequences removed; exit with its status."""
import os
import pty
import re
import sys

pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
text = out.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
sys.stdout.write(text)
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8)
