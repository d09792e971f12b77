#!/usr/bin/env python3
"""cut.py SRC NEEDLE EXTRA OUT - write the first bytes of SRC to OUT, ending
EXTRA bytes after the first occurrence of NEEDLE (a plain ASCII string).

The bad-input tests use it to make truncated files from corpus files without
committing near-copies of them: a file cut in the middle of an instruction,
of a string, or of a block comment."""
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: cut.py SRC NEEDLE EXTRA OUT")
    src, needle, extra, out = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3]), sys.argv[4]
    data = open(src, "rb").read()
    at = data.find(needle)
    if at < 0:
        sys.exit("cut.py: %r not found in %s" % (needle, src))
    with open(out, "wb") as f:
        f.write(data[:at + extra])


main()
