/* machine.c — a launch's state: allocations (module variables and kernel
 * buffers), the kernel parameter block, CTAs with their threads, warps and
 * shared memory, call frames; and emu_run(), which ties them together. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/internal.h"

const ExecFn emu_exec_table[EK_COUNT] = {
    [EK_UNSUP] = exec_nop, [EK_NOP] = exec_nop,
    [EK_ADD] = exec_int, [EK_SUB] = exec_int, [EK_MUL] = exec_int, [EK_MAD] = exec_int, [EK_MUL24] = exec_int,
    [EK_MAD24] = exec_int, [EK_SAD] = exec_int, [EK_DIV] = exec_int, [EK_REM] = exec_int, [EK_ABS] = exec_int,
    [EK_NEG] = exec_int, [EK_MIN] = exec_int, [EK_MAX] = exec_int, [EK_POPC] = exec_int, [EK_CLZ] = exec_int,
    [EK_BFIND] = exec_int, [EK_FNS] = exec_int, [EK_BREV] = exec_int, [EK_BFE] = exec_int, [EK_BFI] = exec_int,
    [EK_SZEXT] = exec_int, [EK_BMSK] = exec_int, [EK_DP4A] = exec_int, [EK_DP2A] = exec_int, [EK_AND] = exec_int,
    [EK_OR] = exec_int, [EK_XOR] = exec_int, [EK_NOT] = exec_int, [EK_CNOT] = exec_int, [EK_LOP3] = exec_int,
    [EK_SHL] = exec_int, [EK_SHR] = exec_int, [EK_SHF] = exec_int, [EK_PRMT] = exec_int,
    [EK_FADD] = exec_float, [EK_FSUB] = exec_float, [EK_FMUL] = exec_float, [EK_FFMA] = exec_float,
    [EK_FDIV] = exec_float, [EK_FABS] = exec_float, [EK_FNEG] = exec_float, [EK_FMIN] = exec_float,
    [EK_FMAX] = exec_float, [EK_FRCP] = exec_float, [EK_FSQRT] = exec_float, [EK_FRSQRT] = exec_float,
    [EK_FSIN] = exec_float, [EK_FCOS] = exec_float, [EK_FLG2] = exec_float, [EK_FEX2] = exec_float,
    [EK_FTANH] = exec_float, [EK_TESTP] = exec_float, [EK_COPYSIGN] = exec_float,
    [EK_SETP] = exec_cmp, [EK_SET] = exec_cmp, [EK_SELP] = exec_cmp, [EK_SLCT] = exec_cmp,
    [EK_MOV] = exec_mov, [EK_CVT] = exec_cvt, [EK_CVTPACK] = exec_cvt, [EK_CVTA] = exec_mov, [EK_ISSPACEP] = exec_mov,
    [EK_LD] = exec_ld, [EK_ST] = exec_st, [EK_ATOM] = exec_atom, [EK_CPASYNC] = exec_cpasync,
    [EK_BRA] = exec_nop, [EK_BRX] = exec_nop, [EK_CALL] = exec_nop, [EK_RET] = exec_nop, [EK_EXIT] = exec_nop,
    [EK_TRAP] = exec_nop, [EK_BAR] = exec_nop, [EK_BARWARP] = exec_nop, [EK_SHFL] = exec_nop, [EK_VOTE] = exec_nop,
    [EK_MATCH] = exec_nop, [EK_REDUX] = exec_nop, [EK_ELECT] = exec_nop, [EK_ACTIVEMASK] = exec_activemask,
    [EK_NANOSLEEP] = exec_nop, [EK_MBAR] = exec_mbar, [EK_FENCE] = exec_fence,
};

/* ------------------------------------------------------------- program */

EmuProgram *emu_program_new(Module *m, FILE *diag)
{
    if (!m) return NULL;
    EmuProgram *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    arena_init(&p->arena);
    p->m = m;
    p->diag = diag ? diag : stderr;
    if (m->address_size == 32) {
        fprintf(p->diag, "%s: error: .address_size 32 is not supported by the emulator\n", m->filename);
        emu_program_free(p);
        return NULL;
    }
    if (!emu_layout_module(p) || !emu_decode(p)) { emu_program_free(p); return NULL; }
    emu_postdom(p);
    return p;
}

void emu_program_free(EmuProgram *p)
{
    if (!p) return;
    free(p->code);
    free(p->pool);
    free(p->tabs);
    free(p->vars);
    free(p->vbucket);
    free(p->vnext);
    arena_free(&p->arena);
    free(p);
}

int emu_program_nkernels(const EmuProgram *p)
{
    int n = 0;
    for (uint32_t i = 0; i < p->nfuncs; i++) n += p->funcs[i].entry;
    return n;
}

const char *emu_program_kernel(const EmuProgram *p, int k)
{
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (p->funcs[i].entry && k-- == 0) return p->funcs[i].name;
    return NULL;
}

void emu_launch_init(EmuLaunch *L)
{
    memset(L, 0, sizeof *L);
    for (int i = 0; i < 3; i++) L->grid[i] = L->block[i] = 1;
    L->policy = EMU_POLICY_ITS;
    L->seed = 1;
    L->max_steps = 2000000000ull;
    L->resident = 8;
    L->watchdog = 4096;
    L->split_percent = 20;
}

/* --------------------------------------------------------------- threads */

#define MAX_DEPTH 4096

static bool grow(uint8_t **data, uint8_t **sh, uint32_t *cap, uint32_t need)
{
    if (need <= *cap && *data) return true;   /* allocated even when empty: no NULL + 0 arithmetic */
    uint32_t nc = *cap ? *cap : 256;
    while (nc < need) nc *= 2;
    uint8_t *d = realloc(*data, nc);
    if (!d) return false;
    *data = d;
    uint8_t *s = realloc(*sh, nc);
    if (!s) return false;
    *sh = s;
    *cap = nc;
    return true;
}

bool thread_push_frame(Machine *M, Thread *T, uint32_t fn, uint32_t ret_pc, uint32_t call_pc)
{
    const EFunc *ef = &M->P->funcs[fn];
    if (T->depth >= MAX_DEPTH) return false;
    if (T->depth == T->fcap) {
        uint32_t nc = T->fcap ? T->fcap * 2 : 4;
        Frame *nf = realloc(T->frames, sizeof(Frame) * nc);
        if (!nf) return false;
        memset(nf + T->fcap, 0, sizeof(Frame) * (nc - T->fcap));
        T->frames = nf;
        T->fcap = nc;
    }
    Frame *F = &T->frames[T->depth];
    if (F->cap < ef->nregs || !F->r) {
        uint32_t nc = ef->nregs;
        F->r = realloc(F->r, sizeof(uint64_t) * (nc ? nc : 1));
        F->p = realloc(F->p, sizeof(uint32_t) * (nc ? nc : 1));
        F->cap = nc;
    }
    F->fn = fn;
    F->ret_pc = ret_pc;
    F->call_pc = call_pc;
    memset(F->r, 0, sizeof(uint64_t) * ef->nregs);
    for (uint32_t i = 0; i < ef->nregs; i++) F->p[i] = 0x80000000u | (ef->uninit0 + i);
    /* .local and .param areas, never written so far */
    uint32_t lb = (T->local_top + ef->local_align - 1) / ef->local_align * ef->local_align;
    if (!grow(&T->local, &T->local_sh, &T->local_cap, lb + ef->local_size)) return false;
    memset(T->local_sh + T->local_top, 1, lb + ef->local_size - T->local_top);
    F->local_base = lb;
    T->local_top = lb + ef->local_size;
    uint32_t pb = (T->fparam_top + 15) & ~15u;
    if (!grow(&T->fparam, &T->fparam_sh, &T->fparam_cap, pb + ef->fparam_size)) return false;
    memset(T->fparam_sh + T->fparam_top, 1, pb + ef->fparam_size - T->fparam_top);
    F->fparam_base = pb;
    T->fparam_top = pb + ef->fparam_size;
    T->depth++;
    T->fr = F;
    return true;
}

void thread_pop_frame(Thread *T)
{
    Frame *F = T->fr;
    T->local_top = F->local_base;
    T->fparam_top = F->fparam_base;
    T->depth--;
    T->fr = T->depth ? &T->frames[T->depth - 1] : NULL;
}

uint8_t *thread_local_grow(Thread *T, uint32_t need)
{
    if (!grow(&T->local, &T->local_sh, &T->local_cap, need)) return NULL;
    return T->local;
}

/* ------------------------------------------------------------------ CTAs */

Cta *cta_new(Machine *M, uint64_t linear)
{
    const EmuLaunch *L = M->L;
    const EmuProgram *P = M->P;
    Cta *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->linear = linear;
    c->id[0] = (uint32_t)(linear % L->grid[0]);
    c->id[1] = (uint32_t)((linear / L->grid[0]) % L->grid[1]);
    c->id[2] = (uint32_t)(linear / ((uint64_t)L->grid[0] * L->grid[1]));
    c->nthreads = M->threads_per_cta;
    c->nwarps = M->warps_per_cta;
    c->threads = calloc(c->nthreads, sizeof(Thread));
    c->warps = calloc(c->nwarps, sizeof(Warp));
    uint64_t dyn_at = (P->shared_static + P->dyn_align - 1) / P->dyn_align * P->dyn_align;
    c->shared_size = dyn_at + L->shared_dyn;
    c->shared = calloc(c->shared_size + 1, 1);
    c->shared_sh = malloc(c->shared_size + 1);
    if (!c->threads || !c->warps || !c->shared || !c->shared_sh) { cta_free(M, c); return NULL; }
    memset(c->shared_sh, 1, c->shared_size + 1);
    for (int i = 0; i < 16; i++) {
        c->bar[i].arrived = 0;
        c->bar[i].sync_pc = NO_PC;
        for (int k = 0; k < 32; k++) c->bar[i].wpc[k] = NO_PC;
    }
    const EFunc *kf = &P->funcs[M->kernel];
    for (uint32_t t = 0; t < c->nthreads; t++) {
        Thread *T = &c->threads[t];
        T->linear = t;
        T->tid[0] = t % L->block[0];
        T->tid[1] = (t / L->block[0]) % L->block[1];
        T->tid[2] = t / (L->block[0] * L->block[1]);
        T->lane = (uint8_t)(t & 31);
        T->status = TS_RUN;
        /* module-scope .local variables sit below the first frame */
        if (P->modlocal_size) {
            if (!thread_local_grow(T, P->modlocal_size)) { cta_free(M, c); return NULL; }
            memset(T->local_sh, 1, P->modlocal_size);
            T->local_top = P->modlocal_size;
        }
        if (!thread_push_frame(M, T, M->kernel, NO_PC, NO_PC)) { cta_free(M, c); return NULL; }
        T->pc = kf->pc0;
    }
    for (uint32_t k = 0; k < c->nwarps; k++) {
        Warp *w = &c->warps[k];
        w->cta = c;
        w->id = k;
        for (int l = 0; l < 32; l++) {
            uint32_t t = k * 32 + (uint32_t)l;
            if (t < c->nthreads) { w->t[l] = &c->threads[t]; w->exist |= 1u << l; }
        }
        w->runnable = w->exist;
        if (L->policy != EMU_POLICY_ITS) {
            w->capws = 8;
            w->ws = malloc(sizeof(Split) * 8);
            w->ws[0] = (Split){ kf->pc0, w->exist, NO_PC };
            w->nws = 1;
        }
    }
    c->live = c->nthreads;
    return c;
}

void cta_free(Machine *M, Cta *c)
{
    (void)M;
    if (!c) return;
    if (c->threads) {
        for (uint32_t t = 0; t < c->nthreads; t++) {
            Thread *T = &c->threads[t];
            for (uint32_t f = 0; f < T->fcap; f++) { free(T->frames[f].r); free(T->frames[f].p); }
            free(T->frames);
            free(T->local);
            free(T->local_sh);
            free(T->fparam);
            free(T->fparam_sh);
            weak_thread_free(T);
        }
    }
    if (c->warps)
        for (uint32_t k = 0; k < c->nwarps; k++) { free(c->warps[k].ws); free(c->warps[k].rec); }
    free(c->threads);
    free(c->warps);
    weak_hist_free(c->hist);
    free(c->shared);
    free(c->shared_sh);
    free(c);
}

/* ------------------------------------------------------------ the launch */

uint8_t *emu_arg_buffer_data(const EmuArg *a, char *err, size_t errlen);   /* args.c */

static bool setup_fail(Machine *M, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool setup_fail(Machine *M, const char *fmt, ...)
{
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    M->failed = true;
    M->status = EMU_ERR_SETUP;
    M->kind = strdup("SETUP");
    M->msg = strdup(buf);
    M->msglen = strlen(buf);
    M->msgcap = M->msglen + 1;
    return false;
}

bool machine_setup(Machine *M)
{
    const EmuProgram *P = M->P;
    const EmuLaunch *L = M->L;
    /* the kernel */
    int found = -1, nentries = 0;
    for (uint32_t i = 0; i < P->nfuncs; i++) {
        if (!P->funcs[i].entry) continue;
        nentries++;
        if (L->kernel ? strcmp(P->funcs[i].name, L->kernel) == 0 : nentries == 1) found = (int)i;
    }
    if (!L->kernel && nentries != 1) return setup_fail(M, "the file has %d kernels: choose one with --kernel", nentries);
    if (found < 0) return setup_fail(M, "no kernel named '%s' in %s", L->kernel ? L->kernel : "", P->m->filename);
    M->kernel = (uint32_t)found;
    const EFunc *kf = &P->funcs[found];
    if (!kf->has_body) return setup_fail(M, "kernel %s has no body", kf->name);
    uint64_t nt = (uint64_t)L->block[0] * L->block[1] * L->block[2];
    if (!L->block[0] || !L->block[1] || !L->block[2] || nt > 1024)
        return setup_fail(M, "block %ux%ux%u: need 1 to 1024 threads", L->block[0], L->block[1], L->block[2]);
    if (!L->grid[0] || !L->grid[1] || !L->grid[2]) return setup_fail(M, "grid dimensions must be positive");
    if (L->shared_dyn > (16u << 20)) return setup_fail(M, "--shared-dyn %u: at most 16 MiB of dynamic shared memory", L->shared_dyn);
    if (P->shared_static > (16u << 20)) return setup_fail(M, "the kernel declares %llu bytes of shared memory (at most 16 MiB)",
                                                        (unsigned long long)P->shared_static);
    M->threads_per_cta = (uint32_t)nt;
    M->warps_per_cta = (uint32_t)((nt + 31) / 32);
    M->ncta = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    if ((uint32_t)L->nargs != kf->nparams)
        return setup_fail(M, "kernel %s takes %u parameter%s, %d argument%s given", kf->name, kf->nparams, kf->nparams == 1 ? "" : "s",
                          L->nargs, L->nargs == 1 ? "" : "s");
    /* allocations: module variables first, then buffers */
    uint32_t nbuf = 0;
    for (int i = 0; i < L->nargs; i++) nbuf += L->args[i].kind == EMU_ARG_BUFFER;
    M->nallocs = P->nglobal_allocs + nbuf + (L->cooperative ? 1 : 0);
    M->allocs = calloc(M->nallocs + 1, sizeof(Alloc));
    for (uint32_t v = 0; v < P->nvars; v++) {
        const EVar *var = &P->vars[v];
        if (var->space != SP_GLOBAL && var->space != SP_CONST) continue;
        Alloc *A = &M->allocs[var->alloc];
        A->size = var->size;
        A->data = calloc(var->size + 1, 1);
        A->sh = calloc(var->size + 1, 1);
        if (var->init) memcpy(A->data, var->init, var->size);
        if (var->init_failed) memset(A->sh, 1, var->size);
        A->space = var->space;
        A->readonly = var->space == SP_CONST;
        A->arg = -1;
        A->name = var->name;
    }
    M->kparam_size = kf->kparam_size;
    M->kparam = calloc(kf->kparam_size + 8, 1);
    uint32_t next = P->nglobal_allocs;
    for (int i = 0; i < L->nargs; i++) {
        const EmuArg *a = &L->args[i];
        uint32_t psize = kf->kparam_size_of[i], off = kf->kparam_off[i];
        if (a->kind == EMU_ARG_BUFFER) {
            if (psize != 8) return setup_fail(M, "argument %d (%s): parameter %d is %u bytes, not a 64-bit pointer", i, a->spec, i, psize);
            char err[300];
            Alloc *A = &M->allocs[next];
            A->size = (uint64_t)a->count * emu_type_size(a->type);
            if (A->size > 0xffffffffull) return setup_fail(M, "argument %d (%s): buffers are limited to 4 GiB", i, a->spec);
            A->data = emu_arg_buffer_data(a, err, sizeof err);
            if (!A->data) return setup_fail(M, "argument %d (%s): %s", i, a->spec, err);
            A->sh = calloc(A->size + 1, 1);
            A->space = SP_GLOBAL;
            A->arg = i;
            char *nm = malloc(48);
            snprintf(nm, 48, "buffer argument %d", i);
            A->name = nm;
            uint64_t addr = WINDOW(TAG_ALLOC0 + next);
            memcpy(M->kparam + off, &addr, 8);
            next++;
        } else if (a->kind == EMU_ARG_SCALAR) {
            size_t sz = emu_type_size(a->type);
            if (sz != psize) return setup_fail(M, "argument %d (%s): parameter %d is %u byte%s, the value is %zu", i, a->spec, i, psize,
                                               psize == 1 ? "" : "s", sz);
            memcpy(M->kparam + off, &a->bits, sz);
        } else {
            if (a->nbytes != psize) return setup_fail(M, "argument %d (%s): parameter %d is %u bytes, %zu given", i, a->spec, i, psize, a->nbytes);
            memcpy(M->kparam + off, a->bytes, a->nbytes);
        }
    }
    if (L->cooperative) {
        if (L->resident && L->resident < M->ncta)
            return setup_fail(M, "a cooperative launch needs every CTA resident (--resident=0 or >= %llu)", (unsigned long long)M->ncta);
        Alloc *A = &M->allocs[next];
        A->size = 64;
        A->data = calloc(A->size, 1);
        A->sh = calloc(A->size, 1);
        A->space = SP_GLOBAL;
        A->arg = -1;
        A->name = "the cooperative-launch workspace";
        M->coop_addr = WINDOW(TAG_ALLOC0 + next);
        next++;
    }
    return true;
}

void machine_free(Machine *M)
{
    spin_free(M);
    for (uint32_t i = 0; i < M->nres; i++) cta_free(M, M->res_cta[i]);
    free(M->res_cta);
    weak_free(M);
    for (uint32_t i = 0; i < M->nallocs; i++) {
        free(M->allocs[i].data);
        free(M->allocs[i].sh);
        free(M->allocs[i].wpc);
        if (M->allocs[i].arg >= 0) free((char *)M->allocs[i].name);
    }
    free(M->allocs);
    free(M->kparam);
    free(M->active);
    free(M->pev);
    free(M->pev_index);
    free(M->ppsn);
    cache_free(M);
}

/* A buffer that holds a poisoned value is an output with undefined contents. */
static void check_outputs(Machine *M)
{
    for (uint32_t i = 0; i < M->nallocs && !M->failed; i++) {
        Alloc *A = &M->allocs[i];
        if (A->arg < 0) continue;
        for (uint64_t k = 0; k < A->size; k++) {
            if (A->sh[k] != 2) continue;
            size_t es = emu_type_size(M->L->args[A->arg].type);
            emu_fail(M, EMU_ERR_CHECK, "POISON", NULL, NULL, 0, "buffer argument %d element %llu holds a poisoned (undefined) value",
                     A->arg, (unsigned long long)(k / es));
            emu_describe_poison(M, A->poison_origin);
            break;
        }
    }
}

/* Notes for reads of volatile special registers in the kernel and the
 * functions it calls (%warpid and %smid may change while a thread runs;
 * %clock and %globaltimer depend on the schedule). */
static void note_volatile_sregs(Machine *M)
{
    const EmuProgram *P = M->P;
    uint8_t *seen = calloc(P->nfuncs + 1, 1);
    uint32_t *queue = malloc(sizeof(uint32_t) * (P->nfuncs + 1));
    uint32_t qn = 0;
    queue[qn++] = M->kernel;
    seen[M->kernel] = 1;
    int notes = 0;
    for (uint32_t qi = 0; qi < qn; qi++) {
        const EFunc *ef = &P->funcs[queue[qi]];
        for (uint32_t pc = ef->pc0; pc < ef->pcn; pc++) {
            const EInst *I = &P->code[pc];
            if (I->op == EK_CALL && I->aux != NO_PC && I->aux < P->nfuncs && !seen[I->aux]) { seen[I->aux] = 1; queue[qn++] = I->aux; }
            for (int k = 0; k < 6; k++) {
                const EOp *o = &I->o[k];
                if (o->kind != EO_SREG) continue;
                const char *name = o->reg == SR_WARPID ? "%warpid" : o->reg == SR_SMID ? "%smid" : NULL;
                if (name && notes++ < 4)
                    emu_event(M, "note: %s:%u reads %s, which is volatile (it may change while a thread runs); derive warp and "
                                 "block indices from %%tid and %%ctaid", P->m->filename, emu_inst_line(I), name);
            }
        }
    }
    free(seen);
    free(queue);
}

EmuStatus emu_run(EmuProgram *p, const EmuLaunch *L, EmuResult *res)
{
    memset(res, 0, sizeof *res);
    Machine M;
    memset(&M, 0, sizeof M);
    M.P = p;
    M.L = L;
    M.res = res;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (machine_setup(&M) && cache_setup(&M)) {
        weak_setup(&M);
        note_volatile_sregs(&M);
        emu_schedule(&M);
        if (!M.failed) check_outputs(&M);
        cache_finish(&M);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    res->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    res->status = M.failed ? M.status : EMU_OK;
    res->kind = M.kind;
    res->message = M.msg;
    res->events = M.ev;
    if (M.nevents > 10 && M.ev) {
        char tail[80];
        snprintf(tail, sizeof tail, "note: ... %u more events\n", M.nevents - 10);
        res->events = realloc(M.ev, M.evlen + strlen(tail) + 1);
        strcpy(res->events + M.evlen, tail);
    }
    res->counters = M.cnt;
    spin_result(&M, res);
    if (M.kernel < p->nfuncs && !(M.failed && M.status == EMU_ERR_SETUP)) res->kernel = strdup(p->funcs[M.kernel].name);
    res->nbufs = L->nargs;
    res->bufs = calloc((size_t)(L->nargs ? L->nargs : 1), sizeof(EmuBuffer));
    for (uint32_t i = 0; i < M.nallocs; i++) {
        Alloc *A = &M.allocs[i];
        if (A->arg < 0 || !A->data) continue;
        EmuBuffer *b = &res->bufs[A->arg];
        b->data = A->data;
        b->shadow = A->sh;
        b->size = A->size;
        b->type = L->args[A->arg].type;
        b->count = L->args[A->arg].count;
        A->data = NULL;
        A->sh = NULL;
    }
    machine_free(&M);
    return res->status;
}

void emu_result_free(EmuResult *res)
{
    for (int i = 0; i < res->nbufs; i++) { free(res->bufs[i].data); free(res->bufs[i].shadow); free(res->bufs[i].poison_note); }
    free(res->bufs);
    free(res->kind);
    free(res->message);
    free(res->events);
    free(res->kernel);
    emu_cache_report_free(res->cache);
    for (int i = 0; i < res->nspin_sites; i++) free(res->spin_sites[i].text);
    free(res->spin_sites);
    memset(res, 0, sizeof *res);
}
