/* report.c — how a run stops: the report (kind, instruction, CTA, warp,
 * lanes, details), the poison origins it quotes, and the event log. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "emu/internal.h"

static void msg_append(Machine *M, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return;
    if (M->msglen + (size_t)n + 1 > M->msgcap) {
        M->msgcap = (M->msglen + (size_t)n + 1) * 2;
        M->msg = realloc(M->msg, M->msgcap);
    }
    vsnprintf(M->msg + M->msglen, M->msgcap - M->msglen, fmt, ap);
    M->msglen += (size_t)n;
}

static void msg_add(Machine *M, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void msg_add(Machine *M, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    msg_append(M, fmt, ap);
    va_end(ap);
}

char *emu_lanes_text(uint32_t lanes, char *buf, size_t cap)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < 32;) {
        if (!((lanes >> i) & 1)) { i++; continue; }
        int j = i;
        while (j + 1 < 32 && ((lanes >> (j + 1)) & 1)) j++;
        int n = j == i ? snprintf(buf + k, cap - k, "%s%d", k ? "," : "", i)
                       : snprintf(buf + k, cap - k, "%s%d-%d", k ? "," : "", i, j);
        if (n < 0 || (size_t)n >= cap - k) break;
        k += (size_t)n;
        i = j + 1;
    }
    if (!k) snprintf(buf, cap, "none");
    return buf;
}

static void where(Machine *M, const EInst *I)
{
    char text[240];
    msg_add(M, "  at %s:%u: %s\n", M->P->m->filename, emu_inst_line(I), emu_inst_text(M->P, I, text, sizeof text));
    if (I->fn != M->kernel) msg_add(M, "  in function %s\n", M->P->funcs[I->fn].name);
}

static void who(Machine *M, const Warp *w, uint32_t lanes)
{
    char lt[160];
    const Cta *c = w->cta;
    msg_add(M, "  CTA (%u,%u,%u), warp %u, lane%s %s", c->id[0], c->id[1], c->id[2], w->id,
            __builtin_popcount(lanes) == 1 ? "" : "s", emu_lanes_text(lanes, lt, sizeof lt));
    if (lanes) {
        const Thread *T = w->t[__builtin_ctz(lanes)];
        msg_add(M, " (thread (%u,%u,%u)%s)", T->tid[0], T->tid[1], T->tid[2], __builtin_popcount(lanes) > 1 ? " first" : "");
    }
    msg_add(M, "\n");
}

void emu_fail(Machine *M, EmuStatus st, const char *kind, const EInst *I, const Warp *w, uint32_t lanes, const char *fmt, ...)
{
    if (M->failed) return;
    M->failed = true;
    M->status = st;
    M->kind = strdup(kind);
    va_list ap;
    va_start(ap, fmt);
    if (st == EMU_ERR_UNSUPPORTED && I) {
        char text[240];
        msg_add(M, "unsupported instruction '%s' at %s:%u (", emu_inst_text(M->P, I, text, sizeof text), M->P->m->filename,
                emu_inst_line(I));
        msg_append(M, fmt, ap);
        msg_add(M, ")\n");
    } else {
        msg_add(M, "%s: ", kind);
        msg_append(M, fmt, ap);
        msg_add(M, "\n");
        if (I) where(M, I);
    }
    va_end(ap);
    if (w) who(M, w, lanes);
}

void emu_fail_more(Machine *M, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    msg_append(M, fmt, ap);
    va_end(ap);
}

void emu_event(Machine *M, const char *fmt, ...)
{
    M->nevents++;
    if (M->nevents > 10) return;
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n >= 0) {
        if (M->evlen + (size_t)n + 2 > M->evcap) {
            M->evcap = (M->evlen + (size_t)n + 2) * 2;
            M->ev = realloc(M->ev, M->evcap);
        }
        vsnprintf(M->ev + M->evlen, M->evcap - M->evlen, fmt, ap);
        M->evlen += (size_t)n;
        M->ev[M->evlen++] = '\n';
        M->ev[M->evlen] = 0;
    }
    va_end(ap);
}

uint32_t emu_poison_new(Machine *M, int kind, const Exec *x, int lane, uint32_t pc, uint64_t addr, int space)
{
    if (!M->pev_index) M->pev_index = calloc((size_t)M->P->ncode * PE_COUNT + 1, sizeof(uint32_t));
    uint32_t *slot = &M->pev_index[(size_t)pc * PE_COUNT + (uint32_t)kind];
    if (*slot) return *slot;
    if (M->npev == M->cappev) {
        M->cappev = M->cappev ? M->cappev * 2 : 64;
        M->pev = realloc(M->pev, sizeof(PoisonEvent) * M->cappev);
    }
    PoisonEvent *e = &M->pev[M->npev++];
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->lane = (uint8_t)lane;
    e->pc = pc;
    e->addr = addr;
    e->space = (uint8_t)space;
    if (x) { e->cta = x->w->cta->linear; e->warp = x->w->id; }
    *slot = M->npev;          /* index + 1: 0 means clean */
    return *slot;
}

void emu_describe_poison(Machine *M, uint32_t psn)
{
    const EmuProgram *P = M->P;
    char buf[240];
    if (!psn) return;
    psn = psn_full(M, psn); /* a value undefined in some bits: where they came from */
    if (psn & 0x80000000u) {
        uint32_t reg;
        int f = emu_func_of_reg(P, psn & 0x7fffffffu, &reg);
        if (f < 0) { msg_add(M, "  origin: a never-written register\n"); return; }
        msg_add(M, "  origin: register %s of %s was read before it was ever written\n", emu_reg_name(P, (uint32_t)f, reg, buf, sizeof buf),
                P->funcs[f].name);
        return;
    }
    if (psn - 1 >= M->npev) { msg_add(M, "  origin: unknown\n"); return; }
    const PoisonEvent *e = &M->pev[psn - 1];
    const EInst *I = &P->code[e->pc];
    char text[240];
    emu_inst_text(P, I, text, sizeof text);
    switch (e->kind) {
    case PE_NEVER_WRITTEN_MEM:
        msg_add(M, "  origin: %s:%u: '%s' read never-written %s memory at 0x%llx (lane %u of warp %u, CTA #%llu)\n",
                P->m->filename, emu_inst_line(I), text, space_name(e->space), (unsigned long long)e->addr, e->lane, e->warp,
                (unsigned long long)e->cta);
        break;
    case PE_POISON_MEM:
        msg_add(M, "  origin: %s:%u: '%s' read %s memory at 0x%llx that holds a poisoned value\n", P->m->filename,
                emu_inst_line(I), text, space_name(e->space), (unsigned long long)e->addr);
        break;
    case PE_SHFL_SOURCE:
        msg_add(M, "  origin: %s:%u: '%s' read lane %llu, which is not in the membermask, has exited or does not exist (lane %u of warp %u)\n",
                P->m->filename, emu_inst_line(I), text, (unsigned long long)e->addr, e->lane, e->warp);
        break;
    case PE_DIV_ZERO:
        msg_add(M, "  origin: %s:%u: '%s' divided by zero (lane %u of warp %u, CTA #%llu); PTX leaves the result unspecified\n",
                P->m->filename, emu_inst_line(I), text, e->lane, e->warp, (unsigned long long)e->cta);
        break;
    case PE_COLL_SOURCE:
        msg_add(M, "  origin: %s:%u: '%s' combined a poisoned value\n", P->m->filename, emu_inst_line(I), text);
        break;
    default:
        msg_add(M, "  origin: %s:%u: '%s'\n", P->m->filename, emu_inst_line(I), text);
    }
}

void emu_poison_fail(Exec *x, const EInst *I, uint32_t lanes, uint32_t psn, const char *what)
{
    Machine *M = x->M;
    if (M->failed) return;
    emu_fail(M, EMU_ERR_CHECK, "POISON", I, x->w, lanes, "a poisoned (undefined) value is used as %s", what);
    emu_describe_poison(M, psn);
}
