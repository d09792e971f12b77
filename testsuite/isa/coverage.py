"""coverage.py DIR — checks the ISA conformance suite's coverage list.

Every family in DIR/families.txt must be claimed by a module's
"// covers CATEGORY: NAME ..." line (or be marked "-- not coverable:"),
every claim must name a listed family, and the claiming module must contain
the family: an instruction whose opcode is NAME or starts with "NAME.", or
for directives (category dir) the directive as a word.  Prints one line per
category and the totals; exits 1 on any missing or unsupported claim."""
import os
import re
import sys

d = sys.argv[1]
listed = []          # (cat, name)
not_coverable = {}   # (cat, name) -> reason
for line in open(os.path.join(d, "families.txt")):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    head, _, reason = line.partition(" -- ")
    cat, name = head.split()
    listed.append((cat, name))
    if reason:
        not_coverable[(cat, name)] = reason

def code_lines(text):
    """The module's lines without comments."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return [re.sub(r"//.*", "", l) for l in text.splitlines()]

def has_instr(lines, name):
    if name == "{}":
        return any(re.fullmatch(r"\s+\{\s*", l) for l in lines)
    if name == "@":
        return any(re.match(r"\s*@!?%?\w+\s", l) for l in lines)
    want = name.split(".")
    for l in lines:
        m = re.match(r"\s*(?:@!?%?\w+\s+)?([A-Za-z_][\w.:]*)", l)
        if not m:
            continue
        op = m.group(1)
        if op == name or op.startswith(name + ".") or op.startswith(name + "::"):
            return True
        # "mad.cc" in "mad.lo.cc.u32": the name's parts in order among the
        # opcode's (a modifier compared without its "::" qualifier)
        parts = [p.split("::")[0] for p in op.split(".")]
        if parts[0] == want[0]:
            it = iter(parts[1:])
            if all(w in it for w in want[1:]):
                return True
    return False

def has_directive(lines, name):
    pat = re.compile(r"(^|[\s,(])" + re.escape(name) + r"($|[\s,;(])")
    return any(pat.search(l) for l in lines)

errors = []
claimed = {}         # (cat, name) -> [module]
for mod in sorted(os.listdir(d)):
    if not mod.endswith(".ptx"):
        continue
    text = open(os.path.join(d, mod)).read()
    lines = code_lines(text)
    for cat, names in re.findall(r"^// covers (\w+): (.*)$", text, flags=re.M):
        for name in names.split():
            key = (cat, name)
            if key not in listed:
                errors.append(f"{mod}: claims '{cat} {name}', which families.txt does not list")
                continue
            ok = has_directive(lines, name) if cat == "dir" else has_instr(lines, name)
            if not ok:
                errors.append(f"{mod}: claims '{cat} {name}' but does not contain it")
                continue
            claimed.setdefault(key, []).append(mod)

cats = []
for cat, _ in listed:
    if cat not in cats:
        cats.append(cat)
for cat in cats:
    fams = [k for k in listed if k[0] == cat]
    cov = [k for k in fams if k in claimed]
    print(f"{cat:8} {len(cov):3} of {len(fams):3}")
for key in listed:
    if key not in claimed and key not in not_coverable:
        errors.append(f"'{key[0]} {key[1]}' is listed but no module covers it")
    if key in claimed and key in not_coverable:
        errors.append(f"'{key[0]} {key[1]}' is covered by {claimed[key][0]} but marked not coverable")
ncov = sum(1 for k in listed if k in claimed)
print(f"covered: {ncov} of {len(listed)} families and directives listed; "
      f"{len(not_coverable)} not coverable with ptxas 13")
for e in errors:
    print("error:", e)
sys.exit(1 if errors else 0)
