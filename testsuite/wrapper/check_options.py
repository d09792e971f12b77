#!/usr/bin/env python3
"""check_options.py HELP-TEXT TABLE — the wrapper knows every ptxas option.

HELP-TEXT is `ptxas --help` output; TABLE is `ptxopt-ptxas
--ptxopt-list-options` output ("--long (-short) none|required|attached|
optional").  Every option in the help must be in the table with the same
short name, and take a value exactly when the help shows one ("<...>"),
except for the options that ptxas 13.0 is known to document without their
value (QUIRKS, each checked against the real ptxas by hand: "-dlcm cg"
consumes "cg").  Options in the table but not in the help are reported too
(an older or newer ptxas may differ: that is a reason to look, and fails).
"""
import re
import sys

QUIRKS = {"def-load-cache", "def-store-cache", "force-load-cache", "force-store-cache"}

help_opts = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"^--(\S+)\s+(<[^>]*>(?:,\.\.\.)?)?\s*\(-(\S+)\)", line)
    if m:
        help_opts[m.group(1)] = (m.group(3), m.group(2) is not None)

table = {}
for line in open(sys.argv[2], encoding="utf-8"):
    m = re.match(r"^--(\S+) \(-(\S+)\) (none|required|attached|optional)$", line.strip())
    if not m:
        print("bad table line: %r" % line)
        sys.exit(1)
    table[m.group(1)] = (m.group(2), m.group(3) != "none")

bad = 0
for name, (short, has_value) in sorted(help_opts.items()):
    if name not in table:
        print("missing from the wrapper's table: --%s (-%s)" % (name, short)); bad += 1; continue
    tshort, tvalue = table[name]
    if tshort != short:
        print("--%s: short name -%s, the help says -%s" % (name, tshort, short)); bad += 1
    if tvalue != (has_value or name in QUIRKS):
        print("--%s: value %s, the help says %s" % (name, tvalue, has_value)); bad += 1
for name in sorted(set(table) - set(help_opts)):
    print("in the table but not in this ptxas's help: --%s" % name); bad += 1
print("%d options in the help, %d in the table, %d problems" % (len(help_opts), len(table), bad))
sys.exit(1 if bad or len(help_opts) < 40 else 0)
