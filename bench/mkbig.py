#!/usr/bin/env python3
"""mkbig.py OUT MB CORPUS_DIR... — write a PTX file of at least MB megabytes
made of the functions of the corpus files, repeated with renamed copies so
every function name stays unique (one .version/.target header)."""
import os
import re
import sys

out, mb, dirs = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
files = sorted(os.path.join(d, f) for d in dirs for f in os.listdir(d)
               if f.endswith(".sm_80.ptx"))
bodies = []
for path in files:
    text = open(path).read()
    if ".section" in text or ".file" in text:
        continue  # debug info refers to labels by name; keep the big file simple
    # drop the module header; keep everything after .address_size
    m = re.search(r"\.address_size\s+\d+\n", text)
    bodies.append(text[m.end():] if m else text)
names = set()
for b in bodies:
    names.update(re.findall(r"\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)", b))
names = sorted(names, key=len, reverse=True)
pat = re.compile(r"(?<![\w$])(" + "|".join(re.escape(n) for n in names) + r")(?![\w$])")
target = int(mb * 1e6)
size = 0
copy = 0
with open(out, "w") as f:
    f.write(".version 9.0\n.target sm_80\n.address_size 64\n")
    while size < target:
        for b in bodies:
            t = pat.sub(lambda mo: mo.group(1) + "_c%d" % copy, b)
            f.write(t)
            size += len(t)
        copy += 1
print("%s: %.1f MB, %d copies of %d files" % (out, size / 1e6, copy, len(bodies)))
