/* emit.c — the code template (research/seed-003-shuffle.md §3.10,
 * with the hazards of §6.2 fixed and the per-site overhead of issue 12 cut).
 *
 * The shuffle's own validity predicate decides which lanes have a source
 * lane (shfl.sync ... d|p: p is false where lane + N leaves the warp), and
 * everything else that sends a lane to the original load is folded into
 * the shuffle's clamp operand c, computed once: c = 31 (down) or 0 (up)
 * when the shuffle may be used, and c = 0 (down) or 31 (up) when it may
 * not, which makes p false in every lane (PTX: maxLane = c with no
 * segment mask; down is valid iff lane + N <= maxLane, up iff
 * lane - N >= maxLane).  So a destination D costs, in a 32-bit site:
 *
 *     shfl.sync.down.b32  %fD|%p, %fS, N, %c, %m;   (up: |N|)
 *     @!%p ld.global...   %fD, [aD];                (the original load)
 *
 * Where the uniformity analysis proves every lane that entered the kernel
 * reaches D together (converged) and every warp is full and one row at a
 * %tid.x that is a multiple of 32, %m and %c are the immediates -1 and 31
 * (0 up): nothing else is emitted.  That holds with .reqntid (%ntid.x a
 * multiple of 32), and otherwise by versioning on the block shape
 * (version=1, the default, where a site is converged; issue 22):
 *
 *     mov.u32 %nx, %ntid.x;  and.b32 %nx, %nx, 31;  setp.ne.u32 %odd, %nx, 0;
 *     @%odd bra.uni $copy;           (the original body, untouched)
 *     ... the rewritten body
 *
 * The test is block-uniform, so the whole block takes one side and aligned
 * CTA barriers are no obstacle; blocks of other shapes (16x4, a 1-D block
 * of 48) run the original.  Without it (version=0, a body that cannot be
 * copied: declarations or scopes after the first instruction, brx.idx
 * tables, or an entry block that is a branch target), converged sites in
 * loops or in many blocks share a kernel-wide guard: %m the lanes the warp
 * has, from %ntid and %tid (about 16 instructions once), which ptxas for
 * sm_70..sm_89 cannot tell is the warp's active lanes (a convergence check
 * around every shuffle: MATCH.ANY, REDUX, VOTEU, a branch and a slow-path
 * call, about 9 SASS instructions per site; issue 12), so with a known
 * one-row shape it is versioned per warp (partial warps to the copy)
 * unless the body has an aligned CTA barrier.  Elsewhere (a divergent
 * region, lanes that may have exited, or a few straight-line converged
 * sites) one activemask per region (a run of sites in one block with no
 * exit, return or call between them) gives %m, and %c falls back unless all
 * 32 lanes are active:
 *
 *     activemask.b32  %m;  setp.ne.or.s32 %bad, %m, -1, %rowbad;
 *     selp.b32 %c, 0, 31, %bad;                       (and/or the up form)
 *
 * Row guard (block shape unknown, not versioned): tid.x % 32 is the lane
 * and tid.x + N in the same warp only if ntid.x % 32 == 0 or the block is
 * one row; %rowbad is computed once at entry (the alignment form,
 * ntid.x % 32 != 0 alone, where a site's no-wrap premise is warp
 * alignment) and folded into the regions' setp.  plan.c decides the form
 * once, for this file and the gate.
 *
 * Per-lane wrap check (wrap.c rule 3): where a widened index x of S's
 * address may wrap between the lanes and x' - x is a constant d, lane l
 * falls back where its x + d wraps:
 *     setp.gt.or.s32 %fb, %x, INT_MAX - d, !%p;   @%fb ld.global ...
 *
 * The source's value: S's destination register itself when nothing writes
 * it between S and D (src_live), else a copy made right after S
 * (mov.b32 %pw, %fS; one per source).  64-bit values are split once
 * (mov.b64 {%lo,%hi}, %fS), each half shuffled, joined before the
 * fallback.
 *
 * Runtime address check (S in a loop, an unsigned index that may wrap, a
 * clamped index): S's address is copied before S (which may overwrite its
 * own base register), shuffled with the value and compared with D's:
 *     add.s64 %da, %rD, offD;
 *     shfl.sync.* %glo|%p, %alo, ...;  shfl.sync.* %ghi|%p, %ahi, ...;
 *     mov.b64 %ga, {%glo,%ghi};
 *     setp.ne.or.u64 %fb, %ga, %da, !%p;
 *     @%fb ld.global... %fD, [aD];
 * (32-bit addresses: one shuffle, setp.ne.or.u32.)
 *
 * N = 0: mov.b32 %fD, %pw (the load is removed).  No branch is ever added;
 * the shuffle runs in every lane of %m (nothing but straight-line code lies
 * between the region's activemask and its shuffles). */
#include "opt/shuffle/internal.h"

#include <stdint.h>
#include <stdlib.h>

#include "ir/clone.h"
#include <string.h>

typedef struct SrcCopy {
    Stmt *src;
    Reg *lo, *hi;      /* the value (32-bit: lo only); NULL until needed */
    Reg *alo, *ahi;    /* the address, for the runtime check (NULL until needed) */
} SrcCopy;

/* The mask and clamp operands shared by the shuffles of a region (or of
 * the kernel's converged sites). */
typedef struct Guard {
    bool made;         /* false: not made yet */
    Operand mask;      /* a register, or the immediate -1 (every warp full) */
    Reg *bad;          /* the shuffle may not be used anywhere in the region; NULL: never */
    Operand cdown, cup; /* clamp operands, made on demand (kind OPND_NONE until then) */
    bool have_down, have_up;
    Stmt *at;          /* where the region's setup goes (before its first site) */
} Guard;

static Stmt *add_before(Stmt *pos, Stmt *s) { ir_insert_before(pos, s); return s; }
static Stmt *add_after(Stmt *pos, Stmt *s) { ir_insert_after(pos, s); return s; }

static Stmt *instr2(Function *fn, const char *full, Operand a, Operand b)
{
    Stmt *s = ir_new_instr(fn, full, 2);
    s->u.instr.ops[0] = a, s->u.instr.ops[1] = b;
    return s;
}

static Stmt *instr3(Function *fn, const char *full, Operand a, Operand b, Operand c)
{
    Stmt *s = ir_new_instr(fn, full, 3);
    s->u.instr.ops[0] = a, s->u.instr.ops[1] = b, s->u.instr.ops[2] = c;
    return s;
}

static Stmt *instr4(Function *fn, const char *full, Operand a, Operand b, Operand c, Operand d)
{
    Stmt *s = ir_new_instr(fn, full, 4);
    s->u.instr.ops[0] = a, s->u.instr.ops[1] = b, s->u.instr.ops[2] = c, s->u.instr.ops[3] = d;
    return s;
}

static SrcCopy *copy_of(SrcCopy *copies, int *n, Stmt *src)
{
    for (int i = 0; i < *n; i++)
        if (copies[i].src == src) return &copies[i];
    SrcCopy *c = &copies[(*n)++];
    memset(c, 0, sizeof *c);
    c->src = src;
    return c;
}

/* S's value as 32-bit registers, copied once right after S. */
static void copy_value(Function *fn, SrcCopy *c, int bits)
{
    if (c->lo) return;
    Operand dst = c->src->u.instr.ops[0];
    c->lo = ir_fresh_reg(fn, ".b32");
    if (bits == 32) {
        add_after(c->src, instr2(fn, "mov.b32", ir_op_reg(c->lo), dst));
        return;
    }
    c->hi = ir_fresh_reg(fn, ".b32");
    Operand halves[2] = { ir_op_reg(c->lo), ir_op_reg(c->hi) };
    add_after(c->src, instr2(fn, "mov.b64", ir_op_vec(fn->mod, halves, 2), dst));
}

/* reg+off of a [reg+off] address operand, into a fresh register of the
 * register's width, before pos. */
static Reg *address_value(Function *fn, Stmt *pos, const Operand *addr)
{
    const Operand *base = &addr->u.elems[0];
    bool wide = base->u.reg->cls == RC_B64;
    Reg *r = ir_fresh_reg(fn, wide ? ".b64" : ".b32");
    if (addr->value == 0)
        add_before(pos, instr2(fn, wide ? "mov.b64" : "mov.b32", ir_op_reg(r), *base));
    else
        add_before(pos, instr3(fn, wide ? "add.s64" : "add.s32", ir_op_reg(r), *base, ir_op_int(fn->mod, addr->value)));
    return r;
}

/* The source's address as 32-bit halves, computed once before the source. */
static void copy_address(Function *fn, SrcCopy *c)
{
    if (c->alo) return;
    const Operand *addr = &c->src->u.instr.ops[1], *base = &addr->u.elems[0];
    if (base->u.reg->cls != RC_B64) {
        c->alo = address_value(fn, c->src, addr);
        return;
    }
    Operand whole = addr->value == 0 ? *base : ir_op_reg(address_value(fn, c->src, addr));
    c->alo = ir_fresh_reg(fn, ".b32");
    c->ahi = ir_fresh_reg(fn, ".b32");
    Operand halves[2] = { ir_op_reg(c->alo), ir_op_reg(c->ahi) };
    add_before(c->src, instr2(fn, "mov.b64", ir_op_vec(fn->mod, halves, 2), whole));
}

/* Copies of index registers for the per-lane wrap check, one per
 * (definition, register), made right after the definition. */
typedef struct IndexCopies {
    struct { Stmt *after; Reg *reg, *copy; } *v;
    int n;
} IndexCopies;

static Reg *index_copy(Function *fn, IndexCopies *ic, const ShflWrap *w)
{
    for (int i = 0; i < ic->n; i++)
        if (ic->v[i].after == w->copy_after && ic->v[i].reg == w->reg) return ic->v[i].copy;
    ic->v = realloc(ic->v, (size_t)(ic->n + 1) * sizeof *ic->v);
    if (!ic->v) abort();
    Reg *cp = ir_fresh_reg(fn, ".b32");
    add_after(w->copy_after, instr2(fn, "mov.b32", ir_op_reg(cp), ir_op_reg(w->reg)));
    ic->v[ic->n].after = w->copy_after, ic->v[ic->n].reg = w->reg, ic->v[ic->n].copy = cp;
    return ic->v[ic->n++].copy;
}

static Stmt *shuffle(Function *fn, int delta, Operand out, Reg *pred, Operand in, Operand clamp, Operand mask)
{
    Stmt *sh = ir_new_instr(fn, delta > 0 ? "shfl.sync.down.b32" : "shfl.sync.up.b32", 5);
    sh->u.instr.ops[0] = ir_op_pair(fn->mod, out, ir_op_reg(pred));
    sh->u.instr.ops[1] = in;
    sh->u.instr.ops[2] = ir_op_int(fn->mod, delta > 0 ? delta : -delta);
    sh->u.instr.ops[3] = clamp;
    sh->u.instr.ops[4] = mask;
    return sh;
}

/* ---------------------------------------------------------- guards */

/* Once per kernel, at entry: %rowbad (see the file comment).  aligned:
 * %ntid.x % 32 != 0 alone (a site's no-wrap premise is warp alignment,
 * wrap.c), 3 instructions. */
static Reg *row_guard(Function *fn, Stmt *entry, bool aligned)
{
    Module *m = fn->mod;
    if (aligned) {
        Reg *nx = ir_fresh_reg(fn, ".u32"), *rowbad = ir_fresh_reg(fn, ".pred");
        add_before(entry, instr2(fn, "mov.u32", ir_op_reg(nx), ir_op_special(fn, "%ntid", 'x')));
        add_before(entry, instr3(fn, "and.b32", ir_op_reg(nx), ir_op_reg(nx), ir_op_int(m, 31)));
        add_before(entry, instr3(fn, "setp.ne.u32", ir_op_reg(rowbad), ir_op_reg(nx), ir_op_int(m, 0)));
        return rowbad;
    }
    Reg *nx = ir_fresh_reg(fn, ".u32"), *nyz = ir_fresh_reg(fn, ".u32"), *nz = ir_fresh_reg(fn, ".u32");
    Reg *p1 = ir_fresh_reg(fn, ".pred"), *rowbad = ir_fresh_reg(fn, ".pred");
    add_before(entry, instr2(fn, "mov.u32", ir_op_reg(nx), ir_op_special(fn, "%ntid", 'x')));
    add_before(entry, instr3(fn, "and.b32", ir_op_reg(nx), ir_op_reg(nx), ir_op_int(m, 31)));
    add_before(entry, instr3(fn, "setp.ne.u32", ir_op_reg(p1), ir_op_reg(nx), ir_op_int(m, 0)));
    add_before(entry, instr2(fn, "mov.u32", ir_op_reg(nyz), ir_op_special(fn, "%ntid", 'y')));
    add_before(entry, instr2(fn, "mov.u32", ir_op_reg(nz), ir_op_special(fn, "%ntid", 'z')));
    add_before(entry, instr3(fn, "mul.lo.u32", ir_op_reg(nyz), ir_op_reg(nyz), ir_op_reg(nz)));
    add_before(entry, instr4(fn, "setp.ne.and.u32", ir_op_reg(rowbad), ir_op_reg(nyz), ir_op_int(m, 1), ir_op_reg(p1)));
    return rowbad;
}

/* Once per kernel, at entry: the lanes this warp has.  The linear thread
 * index of the warp's first lane is (linear & ~31); the block has
 * ntid.x*ntid.y*ntid.z threads; 1 << (those left) - 1 is the mask (a shift
 * of 32 or more gives 0, so the mask is then all ones). */
static Reg *warp_lanes(Function *fn, Stmt *entry)
{
    Module *m = fn->mod;
    Reg *nx = ir_fresh_reg(fn, ".u32"), *ny = ir_fresh_reg(fn, ".u32"), *nz = ir_fresh_reg(fn, ".u32");
    Reg *lin = ir_fresh_reg(fn, ".u32"), *t = ir_fresh_reg(fn, ".u32"), *tot = ir_fresh_reg(fn, ".u32");
    Reg *mask = ir_fresh_reg(fn, ".b32");
    add_before(entry, instr2(fn, "mov.u32", ir_op_reg(nx), ir_op_special(fn, "%ntid", 'x')));
    add_before(entry, instr2(fn, "mov.u32", ir_op_reg(ny), ir_op_special(fn, "%ntid", 'y')));
    add_before(entry, instr2(fn, "mov.u32", ir_op_reg(nz), ir_op_special(fn, "%ntid", 'z')));
    add_before(entry, instr2(fn, "mov.u32", ir_op_reg(lin), ir_op_special(fn, "%tid", 'z')));
    add_before(entry, instr2(fn, "mov.u32", ir_op_reg(t), ir_op_special(fn, "%tid", 'y')));
    add_before(entry, instr4(fn, "mad.lo.u32", ir_op_reg(lin), ir_op_reg(lin), ir_op_reg(ny), ir_op_reg(t)));
    add_before(entry, instr2(fn, "mov.u32", ir_op_reg(t), ir_op_special(fn, "%tid", 'x')));
    add_before(entry, instr4(fn, "mad.lo.u32", ir_op_reg(lin), ir_op_reg(lin), ir_op_reg(nx), ir_op_reg(t)));
    add_before(entry, instr3(fn, "and.b32", ir_op_reg(lin), ir_op_reg(lin), ir_op_int(m, -32)));
    add_before(entry, instr3(fn, "mul.lo.u32", ir_op_reg(tot), ir_op_reg(nx), ir_op_reg(ny)));
    add_before(entry, instr3(fn, "mul.lo.u32", ir_op_reg(tot), ir_op_reg(tot), ir_op_reg(nz)));
    add_before(entry, instr3(fn, "sub.u32", ir_op_reg(tot), ir_op_reg(tot), ir_op_reg(lin)));
    add_before(entry, instr2(fn, "mov.b32", ir_op_reg(mask), ir_op_int(m, 1)));
    add_before(entry, instr3(fn, "shl.b32", ir_op_reg(mask), ir_op_reg(mask), ir_op_reg(tot)));
    add_before(entry, instr3(fn, "add.s32", ir_op_reg(mask), ir_op_reg(mask), ir_op_int(m, -1)));
    return mask;
}

/* Full-warp versioning (see the file comment): copies the body from
 * `entry` on to the end of the function and sends warps whose lane mask
 * `lanes` is not full to the copy.  `entry` follows the guard code, which
 * stays in the head block.  False (nothing changed but a block split,
 * which prints the same) when the body cannot be copied; *why says what
 * was in the way. */
static bool version_on_full_warps(Function *fn, Stmt *entry, Reg *lanes, const char **why)
{
    Block *head = entry->block;
    Block *body = ir_split_block_before(entry);
    CloneMap map;
    Block *copy = ir_clone_blocks(fn, body, fn->last, fn->last, &map, why);
    if (!copy) return false;
    Reg *partial = ir_fresh_reg(fn, ".pred");
    ir_append(head, instr3(fn, "setp.ne.s32", ir_op_reg(partial), ir_op_reg(lanes), ir_op_int(fn->mod, -1)));
    Stmt *br = ir_new_instr(fn, "bra.uni", 1);
    br->u.instr.ops[0] = ir_op_sym(fn->mod, ir_block_label(copy), 0);
    br->u.instr.guard = partial;
    ir_append(head, br);
    /* head now ends in a guarded branch: the body is its fall-through */
    return true;
}

/* Versioning on rows of whole warps (see the file comment): a
 * block-uniform test at `entry`, %ntid.x % 32 != 0, sends the block to a
 * copy of the original body; the rewritten body then runs only where every
 * warp is full and one row at a %tid.x that is a multiple of 32.  The whole
 * block takes one side, so aligned CTA barriers are no obstacle.  False
 * (nothing changed but a block split) when the body cannot be copied. */
static bool version_on_rows(Function *fn, Stmt *entry, const char **why)
{
    Block *head = entry->block;
    Block *body = ir_split_block_before(entry);
    CloneMap map;
    Block *copy = ir_clone_blocks(fn, body, fn->last, fn->last, &map, why);
    if (!copy) return false;
    Module *m = fn->mod;
    Reg *nx = ir_fresh_reg(fn, ".u32"), *bad = ir_fresh_reg(fn, ".pred");
    ir_append(head, instr2(fn, "mov.u32", ir_op_reg(nx), ir_op_special(fn, "%ntid", 'x')));
    ir_append(head, instr3(fn, "and.b32", ir_op_reg(nx), ir_op_reg(nx), ir_op_int(m, 31)));
    ir_append(head, instr3(fn, "setp.ne.u32", ir_op_reg(bad), ir_op_reg(nx), ir_op_int(m, 0)));
    Stmt *br = ir_new_instr(fn, "bra.uni", 1);
    br->u.instr.ops[0] = ir_op_sym(m, ir_block_label(copy), 0);
    br->u.instr.guard = bad;
    ir_append(head, br);
    return true;
}

/* The guard's clamp operand for a shuffle direction, made at g->at: an
 * immediate where the region can never be bad. */
static Operand clamp_of(Function *fn, Guard *g, int delta)
{
    Operand *c = delta > 0 ? &g->cdown : &g->cup;
    bool *have = delta > 0 ? &g->have_down : &g->have_up;
    if (*have) return *c;
    *have = true;
    Module *m = fn->mod;
    /* bad: p false in every lane (down: maxLane 0 < lane + N; up: maxLane 31 > lane - N) */
    Operand yes = ir_op_int(m, delta > 0 ? 0 : 31), no = ir_op_int(m, delta > 0 ? 31 : 0);
    if (!g->bad) return *c = no;
    Reg *r = ir_fresh_reg(fn, ".b32");
    add_before(g->at, instr4(fn, "selp.b32", ir_op_reg(r), yes, no, ir_op_reg(g->bad)));
    return *c = ir_op_reg(r);
}

/* ------------------------------------------------------------ emit */

ShflEmitResult shfl_emit(Function *fn, const ShflSite *sites, int nsites, const ShflEmitOptions *o)
{
    ShflEmitResult res = { 0 };
    Module *m = fn->mod;
    ShflPlan plan = shfl_plan(fn, sites, nsites, o);
    res.need_mask = plan.need_mask;
    res.no_version = plan.no_version;
    Stmt *entry = shfl_entry_point(fn);
    Guard kernel = { 0 };
    Reg *rowbad = NULL;
    if (plan.version_rows && !version_on_rows(fn, entry, &res.no_version)) {
        /* the copy failed after all (the plan checks what ir/clone.h refuses,
         * so this is not expected): the unversioned form */
        ShflEmitOptions o2 = *o;
        o2.version = false;
        shfl_plan_free(&plan);
        plan = shfl_plan(fn, sites, nsites, &o2);
    } else if (plan.version_rows) {
        res.versioned = res.on_rows = true;
    }
    if (plan.rows) {
        /* rows of whole warps: converged sites need no guard at all */
        kernel = (Guard){ .made = true, .mask = ir_op_int(m, -1), .at = entry };
    } else {
        if (plan.row_guard) rowbad = row_guard(fn, entry, o->aligned_guard);
        if (plan.kernel_guard) {
            kernel.made = true;
            kernel.at = entry;
            kernel.mask = ir_op_int(m, -1);
            kernel.bad = rowbad;
            if (plan.kernel_lanes) {
                Reg *lanes = warp_lanes(fn, entry);
                if (plan.version_lanes && version_on_full_warps(fn, entry, lanes, &res.no_version)) {
                    res.versioned = true; /* full warps only from here on: a constant mask */
                } else {
                    kernel.mask = ir_op_reg(lanes);
                    kernel.bad = ir_fresh_reg(fn, ".pred");
                    if (rowbad)
                        add_before(entry, instr4(fn, "setp.ne.or.s32", ir_op_reg(kernel.bad), ir_op_reg(lanes), ir_op_int(m, -1),
                                                 ir_op_reg(rowbad)));
                    else
                        add_before(entry, instr3(fn, "setp.ne.s32", ir_op_reg(kernel.bad), ir_op_reg(lanes), ir_op_int(m, -1)));
                }
            }
        }
    }
    bool kernel_guard = plan.kernel_guard;

    SrcCopy *copies = calloc((size_t)nsites + 1, sizeof *copies);
    int ncopies = 0;
    IndexCopies icopies = { 0 };
    Guard region = { 0 };
    for (int i = 0; i < nsites; i++) {
        const ShflSite *st = &sites[i];
        SrcCopy *c = copy_of(copies, &ncopies, st->src);
        Stmt *d = st->dst;
        Operand dst = d->u.instr.ops[0];
        if (st->delta == 0 || o->no_load) {
            /* plain reuse (or the no-load ablation): the load goes away */
            if (st->src_live) {
                add_before(d, instr2(fn, st->bits == 32 ? "mov.b32" : "mov.b64", dst, c->src->u.instr.ops[0]));
            } else {
                copy_value(fn, c, st->bits);
                if (st->bits == 32) {
                    add_before(d, instr2(fn, "mov.b32", dst, ir_op_reg(c->lo)));
                } else {
                    Operand halves[2] = { ir_op_reg(c->lo), ir_op_reg(c->hi) };
                    add_before(d, instr2(fn, "mov.b64", dst, ir_op_vec(m, halves, 2)));
                }
            }
            ir_remove(d);
            continue;
        }
        Guard *g = &kernel;
        if (!st->converged || !kernel_guard) {
            /* a new region unless the previous site's activemask still holds */
            if (plan.region_start[i]) {
                Reg *am_reg = ir_fresh_reg(fn, ".b32");
                region = (Guard){ .made = true, .mask = ir_op_reg(am_reg), .bad = ir_fresh_reg(fn, ".pred"), .at = d };
                Stmt *am = ir_new_instr(fn, "activemask.b32", 1);
                am->u.instr.ops[0] = ir_op_reg(am_reg);
                add_before(d, am);
                if (rowbad)
                    add_before(d, instr4(fn, "setp.ne.or.s32", ir_op_reg(region.bad), ir_op_reg(am_reg), ir_op_int(m, -1),
                                         ir_op_reg(rowbad)));
                else
                    add_before(d, instr3(fn, "setp.ne.s32", ir_op_reg(region.bad), ir_op_reg(am_reg), ir_op_int(m, -1)));
            }
            g = &region;
        }
        Operand clamp = clamp_of(fn, g, st->delta);
        Reg *p = ir_fresh_reg(fn, ".pred");
        Reg *da = st->check ? address_value(fn, d, &d->u.instr.ops[1]) : NULL;
        if (st->bits == 32) {
            Operand in = st->src_live ? c->src->u.instr.ops[0] : (copy_value(fn, c, 32), ir_op_reg(c->lo));
            add_before(d, shuffle(fn, st->delta, dst, p, in, clamp, g->mask));
        } else {
            copy_value(fn, c, 64);
            Reg *lo = ir_fresh_reg(fn, ".b32"), *hi = ir_fresh_reg(fn, ".b32");
            add_before(d, shuffle(fn, st->delta, ir_op_reg(lo), p, ir_op_reg(c->lo), clamp, g->mask));
            add_before(d, shuffle(fn, st->delta, ir_op_reg(hi), p, ir_op_reg(c->hi), clamp, g->mask));
            Operand hv[2] = { ir_op_reg(lo), ir_op_reg(hi) };
            add_before(d, instr2(fn, "mov.b64", dst, ir_op_vec(m, hv, 2)));
        }
        Reg *fb = p;
        bool fb_neg = true;          /* fall back where !p */
        if (da) {
            copy_address(fn, c);
            fb = ir_fresh_reg(fn, ".pred");
            fb_neg = false;
            Operand notp = ir_op_reg(p);
            notp.flags |= OPNDF_NEG;
            if (!c->ahi) {
                Reg *got = ir_fresh_reg(fn, ".b32");
                add_before(d, shuffle(fn, st->delta, ir_op_reg(got), p, ir_op_reg(c->alo), clamp, g->mask));
                add_before(d, instr4(fn, "setp.ne.or.u32", ir_op_reg(fb), ir_op_reg(got), ir_op_reg(da), notp));
            } else {
                Reg *glo = ir_fresh_reg(fn, ".b32"), *ghi = ir_fresh_reg(fn, ".b32"), *got = ir_fresh_reg(fn, ".b64");
                add_before(d, shuffle(fn, st->delta, ir_op_reg(glo), p, ir_op_reg(c->alo), clamp, g->mask));
                add_before(d, shuffle(fn, st->delta, ir_op_reg(ghi), p, ir_op_reg(c->ahi), clamp, g->mask));
                Operand gv[2] = { ir_op_reg(glo), ir_op_reg(ghi) };
                add_before(d, instr2(fn, "mov.b64", ir_op_reg(got), ir_op_vec(m, gv, 2)));
                add_before(d, instr4(fn, "setp.ne.or.u64", ir_op_reg(fb), ir_op_reg(got), ir_op_reg(da), notp));
            }
        }
        for (int k = 0; k < st->nwrap && !da; k++) {
            /* the per-lane wrap check (wrap.c rule 3): fall back where
             * lane l's index plus delta wraps */
            const ShflWrap *w = &st->wrap[k];
            Reg *x = w->copy_after ? index_copy(fn, &icopies, w) : w->reg;
            int64_t dl = w->delta, K;
            const char *op;
            if (w->sgn) op = dl > 0 ? "setp.gt.or.s32" : "setp.lt.or.s32", K = dl > 0 ? INT32_MAX - dl : INT32_MIN - dl;
            else op = dl > 0 ? "setp.gt.or.u32" : "setp.lt.or.u32", K = dl > 0 ? (int64_t)UINT32_MAX - dl : -dl;
            Reg *nfb = ir_fresh_reg(fn, ".pred");
            Operand prev = ir_op_reg(fb);
            if (fb_neg) prev.flags |= OPNDF_NEG;
            add_before(d, instr4(fn, op, ir_op_reg(nfb), ir_op_reg(x), ir_op_int(m, K), prev));
            fb = nfb, fb_neg = false;
        }
        if (o->no_corner) {
            ir_remove(d);
        } else {
            d->u.instr.guard = fb;
            d->u.instr.guard_neg = fb_neg;
            ir_touch(d);
        }
    }
    free(copies);
    free(icopies.v);
    shfl_plan_free(&plan);
    return res;
}
