/* calls.c — call/ret with parameter passing, per thread.
 *
 * Each call pushes a frame: fresh registers (poisoned as never written), a
 * .local area and a .param area on the thread's stacks.  Arguments are
 * copied from the caller's .param variables (the nvcc "callseq" pattern:
 * `.param .b32 param0; st.param [param0], %r; call (retval0), f, (param0);`),
 * or from registers/immediates, into the callee's formal parameters by
 * position; return values are copied back from the callee's return
 * parameters into the caller's variables or registers by ret. */
#include <string.h>

#include "emu/internal.h"

/* Writes `size` bytes of v (and their poison) into frame-parameter memory. */
static void put_fparam(Thread *T, uint32_t off, uint32_t size, uint64_t v, uint32_t psn)
{
    if (size > 8) size = 8;
    memcpy(T->fparam + off, &v, size);
    memset(T->fparam_sh + off, psn ? 2 : 0, size);
}

static uint64_t get_fparam(const Thread *T, uint32_t off, uint32_t size, uint32_t *psn, Machine *M, const Exec *x, int l,
                           const EInst *I)
{
    uint64_t v = 0;
    if (size > 8) size = 8;
    memcpy(&v, T->fparam + off, size);
    uint8_t any = 0;
    for (uint32_t i = 0; i < size; i++) any |= T->fparam_sh[off + i];
    *psn = any ? emu_poison_new(M, any & 1 ? PE_NEVER_WRITTEN_MEM : PE_POISON_MEM, x, l, (uint32_t)(I - M->P->code), off, SP_FPARAM) : 0;
    return v;
}

bool emu_do_call(Exec *x, const EInst *I, int l, uint32_t callee, uint32_t call_pc)
{
    Machine *M = x->M;
    const EmuProgram *P = M->P;
    Thread *T = x->T[l];
    const EFunc *cf = &P->funcs[callee];
    const EOp *args = &I->o[2];
    uint32_t nargs = args->kind == EO_LIST ? args->n : 0;
    if (nargs != cf->nparams) {
        emu_fail(M, EMU_ERR_CHECK, "BAD_CALL", I, x->w, 1u << l, "call passes %u argument%s to %s, which takes %u", nargs,
                 nargs == 1 ? "" : "s", cf->name, cf->nparams);
        return false;
    }
    const EOp *rets = &I->o[0];
    uint32_t nrets = rets->kind == EO_LIST ? rets->n : 0;
    if (nrets > cf->nrets) {
        emu_fail(M, EMU_ERR_CHECK, "BAD_CALL", I, x->w, 1u << l, "call expects %u return value%s from %s, which returns %u", nrets,
                 nrets == 1 ? "" : "s", cf->name, cf->nrets);
        return false;
    }
    /* argument values from registers/immediates, read before the frame changes */
    uint64_t regval[64];
    uint32_t regpsn[64];
    uint32_t caller_fparam = T->fr->fparam_base;
    for (uint32_t k = 0; k < nargs && k < 64; k++) {
        const EOp *a = &P->pool[args->reg + k];
        if (a->kind != EO_FPARAMSYM) { regval[k] = opv(x, a, l); regpsn[k] = opp(x, a, l); }
    }
    if (!thread_push_frame(M, T, callee, call_pc + 1, call_pc)) {
        emu_fail(M, EMU_ERR_CHECK, "STACK_OVERFLOW", I, x->w, 1u << l, "call stack deeper than %d frames (runaway recursion?)", 4096);
        return false;
    }
    Frame *F = T->fr;
    for (uint32_t k = 0; k < nargs; k++) {
        const EOp *a = &P->pool[args->reg + k];
        const EParam *fp = &cf->params[k];
        if (a->kind == EO_FPARAMSYM) {
            uint32_t src = caller_fparam + (uint32_t)a->imm;
            if (fp->isreg) {
                uint32_t psn;
                uint64_t v = get_fparam(T, src, fp->size, &psn, M, x, l, I);
                F->r[fp->reg] = v & mask_bits(fp->bits);
                F->p[fp->reg] = psn;
            } else {
                memmove(T->fparam + F->fparam_base + fp->off, T->fparam + src, fp->size);
                memmove(T->fparam_sh + F->fparam_base + fp->off, T->fparam_sh + src, fp->size);
            }
        } else if (k < 64) {
            if (fp->isreg) {
                F->r[fp->reg] = regval[k] & mask_bits(fp->bits);
                F->p[fp->reg] = regpsn[k];
            } else {
                put_fparam(T, F->fparam_base + fp->off, fp->size, regval[k], regpsn[k]);
            }
        }
    }
    return true;
}

/* Copies the return values into the caller and pops the frame; the
 * thread's pc becomes the caller's continuation. */
void emu_do_return(Exec *x, const EInst *I, int l)
{
    Machine *M = x->M;
    const EmuProgram *P = M->P;
    Thread *T = x->T[l];
    Frame *F = T->fr;
    Frame *C = &T->frames[T->depth - 2];
    const EInst *CI = &P->code[F->call_pc];
    const EFunc *cf = &P->funcs[F->fn];
    const EOp *rets = &CI->o[0];
    uint32_t nrets = rets->kind == EO_LIST ? rets->n : 0;
    for (uint32_t k = 0; k < nrets && k < cf->nrets; k++) {
        const EOp *dst = &P->pool[rets->reg + k];
        const EParam *rp = &cf->rets[k];
        if (dst->kind == EO_FPARAMSYM && !rp->isreg) {
            uint32_t to = C->fparam_base + (uint32_t)dst->imm;
            memmove(T->fparam + to, T->fparam + F->fparam_base + rp->off, rp->size);
            memmove(T->fparam_sh + to, T->fparam_sh + F->fparam_base + rp->off, rp->size);
            continue;
        }
        uint64_t v;
        uint32_t psn;
        if (rp->isreg) { v = F->r[rp->reg]; psn = F->p[rp->reg]; }
        else v = get_fparam(T, F->fparam_base + rp->off, rp->size, &psn, M, x, l, I);
        if (dst->kind == EO_FPARAMSYM) {
            put_fparam(T, C->fparam_base + (uint32_t)dst->imm, rp->size, v, psn);
        } else if (dst->kind == EO_REG) {
            C->r[dst->reg] = v & mask_bits(dst->bits);
            C->p[dst->reg] = psn;
        }
    }
    uint32_t ret_pc = F->ret_pc;
    thread_pop_frame(T);
    T->pc = ret_pc;
}
