#!/usr/bin/env python3
"""make_input.py KIND OUT [ARGS] - generate bad (or stressful) inputs that
are too big or too binary to commit.  Every KIND is deterministic.

  png          8-byte PNG signature followed by 4 KB of pseudo-random bytes
  elf          a 64-bit ELF header (what a .cubin starts with) plus padding
  huge-valid   a valid module whose one initializer line is over 2 MB long
  huge-error   a valid module with a 2 MB instruction line that ends in a
               stray '`'; prints the 1-based column of the '`' on stdout
  nul SRC NEEDLE
               SRC with one NUL byte inserted right after the first NEEDLE;
               prints "LINE:COL" (1-based, bytes) of the NUL on stdout
"""
import sys

HEADER = b".version 7.0\n.target sm_75\n.address_size 64\n\n"


def pseudo_random(n, seed=20240611):
    # A fixed linear congruential generator: identical bytes on every Python.
    out = bytearray()
    x = seed
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((x >> 16) & 0xFF)
    return bytes(out)


def png():
    return b"\x89PNG\r\n\x1a\n" + pseudo_random(4096)


def elf():
    ident = b"\x7fELF\x02\x01\x01\x33" + b"\x00" * 8
    rest = b"\x02\x00\xbe\x00" + b"\x01\x00\x00\x00" + b"\x00" * 40
    return ident + rest + pseudo_random(512, seed=7)


def huge_valid():
    n = 700000  # "0, " is 3 bytes: about 2.1 MB on one line
    body = b", ".join([b"0"] * n)
    return (HEADER + b".global .align 1 .b8 big[%d] = {" % n + body + b"};\n\n"
            b".visible .entry huge_kernel(\n    .param .u64 out\n)\n{\n"
            b"    .reg .b32 %r<2>;\n    .reg .b64 %rd<2>;\n"
            b"    ld.param.u64 %rd1, [out];\n    ld.global.u8 %r1, [big+12345];\n"
            b"    st.global.u32 [%rd1], %r1;\n    ret;\n}\n")


def huge_error():
    stmt = b"add.s32 %r1, %r1, 1; "
    prefix = b"    " + stmt * 100000  # 2,100,004 bytes before the stray '`'
    text = (HEADER + b".visible .entry huge_kernel(\n    .param .u64 out\n)\n{\n"
            b"    .reg .b32 %r<2>;\n" + prefix + b"`\n    ret;\n}\n")
    return text, len(prefix) + 1


def nul(src, needle):
    data = open(src, "rb").read()
    at = data.find(needle.encode())
    if at < 0:
        sys.exit("make_input.py: %r not found in %s" % (needle, src))
    at += len(needle)
    line = data.count(b"\n", 0, at) + 1
    col = at - (data.rfind(b"\n", 0, at) + 1) + 1
    return data[:at] + b"\x00" + data[at:], "%d:%d" % (line, col)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    kind, out = sys.argv[1], sys.argv[2]
    report = None
    if kind == "png":
        data = png()
    elif kind == "elf":
        data = elf()
    elif kind == "huge-valid":
        data = huge_valid()
    elif kind == "huge-error":
        data, report = huge_error()
    elif kind == "nul" and len(sys.argv) == 5:
        data, report = nul(sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
    with open(out, "wb") as f:
        f.write(data)
    if report is not None:
        print(report)


main()
