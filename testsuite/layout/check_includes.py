#!/usr/bin/env python3
"""check_includes.py SRCDIR — the source tree's dependency directions.

The rules (README.md, Layout):
  * ir/ is what a pass edits: it includes nothing from analysis/, opt/ or tools/;
  * analysis/ is what a pass asks: nothing from opt/ or tools/;
  * the library (everything but tools/, testsuite/, bench/) includes nothing
    from tools/: the programs use the library, never the reverse;
  * support/ includes only support/ (and the system);
  * a program's folder tools/P/ includes no other program's folder
    (tools/common/ is what they share).
Prints every violation as FILE:LINE: message and exits 1 if there is one.
With --headers CC, also compiles each header of analysis/, support/ and
tools/common/ on its own (a header includes what it needs)."""
import os
import re
import subprocess
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_EXT = ('.c', '.h', '.y', '.l', '.def')
LIBRARY = ('lexer', 'parser', 'ir', 'analysis', 'opt', 'codegen', 'model', 'emu', 'sass', 'support')


def top(path):
    return path.split('/', 1)[0]


def program(path):
    """tools/P/... -> P, else None."""
    parts = path.split('/')
    return parts[1] if parts[0] == 'tools' and len(parts) > 2 else None


def violation(src, inc):
    t, it = top(src), top(inc)
    if t == 'ir' and it in ('analysis', 'opt', 'tools'):
        return 'ir/ must not include %s/ (the IR does not know who asks about it)' % it
    if t == 'analysis' and it in ('opt', 'tools'):
        return 'analysis/ must not include %s/ (analyses do not know the passes or programs)' % it
    if t in LIBRARY and it == 'tools':
        return 'the library must not include tools/ (programs use the library, not the reverse)'
    if t == 'support' and it not in ('support',) and '/' in inc:
        return 'support/ includes only support/'
    p, ip = program(src), program(inc)
    if p and ip and p != ip and ip != 'common':
        return 'tools/%s/ must not include another program\'s folder tools/%s/' % (p, ip)
    return None


def check(srcdir):
    bad = 0
    for d in LIBRARY + ('tools',):
        for root, _, files in os.walk(os.path.join(srcdir, d)):
            for f in sorted(files):
                if not f.endswith(SOURCE_EXT):
                    continue
                path = os.path.join(root, f)
                rel = os.path.relpath(path, srcdir)
                with open(path, errors='replace') as fh:
                    for n, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m or '/' not in m.group(1):
                            continue
                        why = violation(rel, m.group(1))
                        if why:
                            print('%s:%d: includes "%s": %s' % (rel, n, m.group(1), why))
                            bad += 1
    return bad


def headers_compile(srcdir, cc, builddir):
    bad = 0
    for d in ('analysis', 'support', 'tools/common'):
        for f in sorted(os.listdir(os.path.join(srcdir, d))):
            if not f.endswith('.h'):
                continue
            with tempfile.NamedTemporaryFile('w', suffix='.c') as t:
                t.write('#include "%s/%s"\n' % (d, f))
                t.flush()
                r = subprocess.run([cc, '-std=c17', '-D_GNU_SOURCE', '-fsyntax-only', '-Wall', '-Werror',
                                    '-I', srcdir, '-I', builddir, t.name], capture_output=True, text=True)
                if r.returncode:
                    print('%s/%s: does not compile on its own:\n%s' % (d, f, r.stderr.strip()))
                    bad += 1
    return bad


def main():
    args = sys.argv[1:]
    cc = None
    builddir = None
    if args[:1] == ['--headers']:
        cc, builddir, args = args[1], args[2], args[3:]
    srcdir = args[0]
    bad = check(srcdir)
    if cc:
        bad += headers_compile(srcdir, cc, builddir)
    print('%d violation%s' % (bad, '' if bad == 1 else 's'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
