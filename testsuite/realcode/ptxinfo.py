"""ptxinfo.py -- what the sweep needs to know about a PTX module's text,
found without ptxopt (so that the corpus does not depend on the code it
tests): its module-scope statements, kernels and functions, whether ptxas
must assemble it as relocatable code, and merging many modules into one.
"""
import re

IDENT = re.compile(r"(?<![\w$%.])([A-Za-z_$][\w$]*)(?![\w$])")
HEADER = re.compile(r"^[ \t]*\.(version|target|address_size)\b[^\n]*\n?", re.M)
LINE_DIRECTIVE = re.compile(r"^\s*\.(version|target|address_size|file)\b")
VERSION = re.compile(r"^[ \t]*\.version[ \t]+(\d+)\.(\d+)", re.M)


def _strip_comments(line, in_block):
    """The line without comments (block comments may span lines)."""
    out, i = [], 0
    while i < len(line):
        if in_block:
            j = line.find("*/", i)
            if j < 0:
                return "".join(out), True
            i, in_block = j + 2, False
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            in_block, i = True, i + 2
        else:
            out.append(line[i])
            i += 1
    return "".join(out), in_block


def statements(text):
    """Yields (start, end, code, body) for each module-scope statement: the
    character span of its text, the code without comments up to its ';' or
    its body's '{', and whether it has a body (a function definition).  The
    span of a definition covers the body."""
    pos, n = 0, len(text)
    depth, in_block = 0, False
    start, code = None, []
    body = False
    while pos < n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl + 1
        line, in_block = _strip_comments(text[pos:end], in_block)
        if depth == 0 and start is None and LINE_DIRECTIVE.match(line):
            # .version, .target, .address_size, .file: no ';', end at the line's end
            yield pos, end, line, False
            pos = end
            continue
        for i, ch in enumerate(line):
            if depth == 0 and start is None and not ch.isspace():
                start, code, body = pos + i, [], False
            if ch == "{":
                # a body, unless it is a variable's initializer (after '=')
                if depth == 0 and start is not None and not body and "=" not in "".join(code):
                    body = True
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0 and start is not None and body:
                    yield start, end, "".join(code), True
                    start = None
            elif depth == 0 and start is not None:
                if ch == ";":
                    yield start, pos + i + 1, "".join(code), False
                    start = None
                else:
                    code.append(ch)
        if depth == 0 and start is not None:
            code.append(" ")
        pos = end


def classify(code):
    """(kind, name) of a module-scope statement: kind is entry, func,
    extern-func, var, or other."""
    words = code.split()
    if not words:
        return "other", None
    mods = set()
    while words and words[0] in (".visible", ".weak", ".extern", ".common"):
        mods.add(words.pop(0))
    if not words:
        return "other", None
    head = words[0]
    rest = code[code.find(head) + len(head):]
    if head in (".entry", ".func"):
        rest = rest.strip()
        if rest.startswith("("):         # return parameters
            d = 0
            for k, ch in enumerate(rest):
                d += ch == "("
                d -= ch == ")"
                if d == 0:
                    rest = rest[k + 1:]
                    break
        m = re.match(r"\s*([A-Za-z_$%][\w$]*)", rest)
        name = m.group(1) if m else None
        if head == ".entry":
            return "entry", name
        return ("extern-func" if ".extern" in mods else "func"), name
    if head in (".global", ".const", ".shared", ".local"):
        decl = re.split(r"=", code, 1)[0]
        decl = re.sub(r"\[[^\]]*\]", " ", decl)
        toks = decl.split()
        name = toks[-1] if toks else None
        if name:
            name = re.sub(r"<\d+>$", "", name)
        return "var", name
    return "other", None


def scan(text):
    """Counts of kernels (.entry definitions) and functions (.entry and .func
    definitions), and whether the module calls functions it only declares
    (then ptxas needs -c)."""
    kernels = functions = 0
    externs = set()
    for _, _, code, body in statements(text):
        kind, name = classify(code)
        if body and kind in ("entry", "func"):
            functions += 1
            kernels += kind == "entry"
        if kind == "extern-func":
            externs.add(name)
    return {"kernels": kernels, "functions": functions, "externs": sorted(externs)}


def merge(texts, target):
    """One module from many: the header once (the highest .version, the
    given target), each module's module-scope names given a suffix of its
    own (__mN) so that nothing clashes, the .extern .func declarations of
    functions defined nowhere in the merge (vprintf, malloc, __assertfail,
    ...) kept once each."""
    version = (0, 0)
    externs = {}
    bodies = []
    for n, text in enumerate(texts):
        for m in VERSION.finditer(text):
            version = max(version, (int(m.group(1)), int(m.group(2))))
        rename, cut = {}, []
        for s, e, code, body in statements(text):
            kind, name = classify(code)
            if kind == "extern-func":
                externs.setdefault(name, text[s:e])
                cut.append((s, e))
            elif kind in ("entry", "func", "var") and name:
                rename[name] = "%s__m%d" % (name, n)
        pieces, last = [], 0
        for s, e in cut:
            pieces.append(text[last:s])
            last = e
        pieces.append(text[last:])
        body = HEADER.sub("", "".join(pieces))
        body = IDENT.sub(lambda m: rename.get(m.group(1), m.group(1)), body)
        bodies.append("\n// ---- module %d\n" % n + body)
    head = "//\n// merged by ptxopt's testsuite/realcode/build_corpus.py from %d modules\n//\n\n" % len(texts)
    head += ".version %d.%d\n.target %s\n.address_size 64\n\n" % (version + (target,))
    return head + "\n".join(externs.values()) + "\n" + "".join(bodies)
