/* guard.c — see guard.h. */
#include "opt/guard.h"

#include <stdlib.h>
#include <string.h>

#include "support/clock.h"

const Stmt *guard_opaque_stmt(const Function *fn)
{
    if (!fn->opaque) return NULL;
    FOR_EACH_BLOCK(b, fn)
        FOR_EACH_STMT(s, b) {
            if (s->kind == STMT_VERBATIM && s->u.dir.ntok) {
                /* an unknown directive inside a body is verbatim too, but
                 * harmless: only an instruction makes the function opaque */
                if (s->u.dir.tok[0].text.len && s->u.dir.tok[0].text.p[0] != '.') return s;
            }
            if (s->kind == STMT_INSTR && s->u.instr.op == OP_UNKNOWN) return s;
        }
    return NULL;
}

/* The opcode of s: its text up to the first blank (verbatim text is one
 * token holding the whole statement). */
static Str opcode_text(const Stmt *s)
{
    if (s->kind == STMT_INSTR) return s->u.instr.full;
    Str t = s->u.dir.tok[0].text;
    size_t i = 0, n;
#define BLANK(ch) ((ch) == ' ' || (ch) == '\t' || (ch) == '\n' || (ch) == '\r')
    if (t.len && t.p[0] == '@') { /* a guard: the opcode follows it */
        while (i < t.len && !BLANK(t.p[i])) i++;
        while (i < t.len && BLANK(t.p[i])) i++;
    }
    for (n = i; n < t.len && !BLANK(t.p[n]) && t.p[n] != ';'; n++) {}
#undef BLANK
    return (Str){ t.p + i, n - i };
}

void guard_remark_opaque(Remarks *rm, const char *pass, const Function *fn)
{
    const Stmt *s = guard_opaque_stmt(fn);
    if (s) {
        Str op = opcode_text(s);
        remark(rm, pass, fn, s, REMARK_MISSED,
               "unknown instruction '%.*s': it may read or write any register or memory, so no analysis of the kernel holds; "
               "kernel left unchanged", STR_FMT(op));
    } else {
        remark(rm, pass, fn, NULL, REMARK_MISSED, "a register is declared twice with different types; kernel left unchanged");
    }
}

/* Is fn named in the comma-separated list? */
static bool named_in(const char *list, const Function *fn)
{
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == fn->name.len && memcmp(p, fn->name.p, n) == 0) return true;
        p = e ? e + 1 : NULL;
    }
    return false;
}

void budget_start(Budget *b, long ms, const Function *fn)
{
    b->ms = ms > 0 ? ms : 0;
    b->deadline = now_ms() + (double)b->ms;
    b->forced = b->ms && named_in(getenv("PTXOPT_EXPIRE_BUDGET"), fn);
    b->expired = false;
}

bool budget_expired(Budget *b)
{
    if (!b->expired) b->expired = b->forced || (b->ms && now_ms() >= b->deadline);
    return b->expired;
}

long budget_left(const Budget *b, long cap)
{
    if (!b->ms) return cap;
    double left = b->deadline - now_ms();
    long l = left < 1 ? 1 : (long)left;
    return l < cap ? l : cap;
}
