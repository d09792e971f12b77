/* collective.c — warp collectives and CTA barriers, shared by every
 * scheduling policy.
 *
 * Warp collectives (shfl/vote/match/redux/elect.sync, bar.warp.sync) are
 * rendezvous: an arriving lane blocks with a key (operation, qualifiers,
 * type) and its membermask.  The collective completes when every
 * non-exited lane named by the mask waits with the same key and mask (on
 * sm_70+ they may be at different static instructions); results are then
 * computed for those lanes from each lane's own instruction.  Checks: the
 * executing lane must be in its mask (UB_MASK_SELF); a shfl source lane
 * outside the mask, exited or absent gives poison; exited lanes named by
 * bar.warp.sync / elect.sync are UB_EXITED_IN_MASK; strict (pre-Volta)
 * mode also requires one static instruction (UB_NOT_CONVERGED).
 *
 * CTA barriers (bar/barrier .sync/.arrive/.red, 16 per CTA) count arriving
 * threads; without a count they wait for every non-exited thread, and an
 * exit re-checks them.  .aligned forbids the threads of one warp (and, for
 * a whole-CTA barrier, all waiting threads) to arrive through different
 * instructions in one phase (UB_ALIGNED). */
#include <string.h>

#include "emu/internal.h"

static const EOp *mask_operand(const EInst *I)
{
    switch (I->op) {
    case EK_BARWARP: return &I->o[0];
    case EK_SHFL: return &I->o[4];
    default: return &I->o[I->nops - 1];
    }
}

static const char *coll_name(const EInst *I)
{
    switch (I->op) {
    case EK_BARWARP: return "bar.warp.sync";
    case EK_SHFL: return "shfl.sync";
    case EK_VOTE: return "vote.sync";
    case EK_MATCH: return "match.sync";
    case EK_REDUX: return "redux.sync";
    case EK_ELECT: return "elect.sync";
    default: return "collective";
    }
}

static inline uint32_t coll_key(const EInst *I) { return (uint32_t)I->op | ((uint32_t)I->sub << 8) | ((uint32_t)I->t << 16) | ((uint32_t)I->t2 << 24); }

/* Builds an execution context with every listed lane of w loaded. */
static void full_exec(Exec *x, Machine *M, Warp *w, uint32_t lanes)
{
    x->M = M;
    x->w = w;
    x->mask = lanes;
    FOR_LANES(l, lanes) {
        Thread *T = w->t[l];
        x->T[l] = T;
        x->R[l] = T->fr->r;
        x->P[l] = T->fr->p;
    }
}

static void complete(Machine *M, Warp *w, uint32_t lanes)
{
    const EInst *code = M->P->code;
    Exec x;
    full_exec(&x, M, w, lanes);
    uint64_t val[32];
    uint32_t psn[32], pred[32];
    const EInst *I0 = &code[w->t[__builtin_ctz(lanes)]->wait_pc];
    switch (I0->op) {
    case EK_SHFL:
        FOR_LANES(j, lanes) {
            const EInst *I = &code[w->t[j]->wait_pc];
            if (opp(&x, &I->o[2], j) || opp(&x, &I->o[3], j)) {
                emu_poison_fail(&x, I, 1u << j, psn2(opp(&x, &I->o[2], j), opp(&x, &I->o[3], j)), "a shfl.sync lane operand");
                return;
            }
            uint32_t b = (uint32_t)opv(&x, &I->o[2], j) & 31, c = (uint32_t)opv(&x, &I->o[3], j);
            uint32_t cval = c & 31, seg = (c >> 8) & 31;
            int32_t lane = j;
            int32_t maxl = (int32_t)((lane & seg) | (cval & ~seg)), minl = (int32_t)(lane & seg);
            int32_t src;
            bool pv;
            switch (I->sub) {
            case SHFL_UP: src = lane - (int32_t)b; pv = src >= maxl; break;
            case SHFL_DOWN: src = lane + (int32_t)b; pv = src <= maxl; break;
            case SHFL_BFLY: src = lane ^ (int32_t)b; pv = src <= maxl; break;
            default: src = minl | (int32_t)(b & ~seg); pv = src <= maxl; break;
            }
            if (!pv) src = lane;
            pred[j] = pv;
            if (src >= 0 && src < 32 && ((lanes >> src) & 1)) {
                const EInst *Is = &code[w->t[src]->wait_pc];
                val[j] = opv(&x, &Is->o[1], src);
                psn[j] = opp(&x, &Is->o[1], src);
            } else {
                val[j] = 0;
                psn[j] = emu_poison_new(M, PE_SHFL_SOURCE, &x, j, w->t[j]->wait_pc, (uint64_t)src, SP_NONE);
            }
        }
        FOR_LANES(j, lanes) {
            const EInst *I = &code[w->t[j]->wait_pc];
            opw(&x, &I->o[0], j, val[j], psn[j]);
            opw(&x, &I->o[5], j, pred[j], 0);
        }
        break;
    case EK_VOTE: {
        uint32_t ballot = 0, bpsn = 0;
        FOR_LANES(j, lanes) {
            const EInst *I = &code[w->t[j]->wait_pc];
            if (opv(&x, &I->o[1], j) & 1) ballot |= 1u << j;
            bpsn = psn2(bpsn, opp(&x, &I->o[1], j));
        }
        FOR_LANES(j, lanes) {
            const EInst *I = &code[w->t[j]->wait_pc];
            uint64_t r;
            switch (I->sub) {
            case VOTE_ALL: r = ballot == lanes; break;
            case VOTE_ANY: r = ballot != 0; break;
            case VOTE_UNI: r = ballot == 0 || ballot == lanes; break;
            default: r = ballot; break;
            }
            opw(&x, &I->o[0], j, r, bpsn);
        }
        break;
    }
    case EK_MATCH: {
        uint32_t mpsn = 0;
        FOR_LANES(j, lanes) {
            const EInst *I = &code[w->t[j]->wait_pc];
            val[j] = opv(&x, &I->o[1], j) & mask_bits(ty_bits(I->t2));
            mpsn = psn2(mpsn, opp(&x, &I->o[1], j));
        }
        bool all = true;
        FOR_LANES(j, lanes) if (val[j] != val[__builtin_ctz(lanes)]) all = false;
        FOR_LANES(j, lanes) {
            const EInst *I = &code[w->t[j]->wait_pc];
            uint32_t m = 0;
            if (I->sub == 0) { FOR_LANES(k, lanes) if (val[k] == val[j]) m |= 1u << k; }
            else m = all ? lanes : 0;
            opw(&x, &I->o[0], j, m, mpsn);
            opw(&x, &I->o[5], j, all, mpsn);
        }
        break;
    }
    case EK_REDUX: {
        const EInst *I = I0;
        bool sgn = ty_signed(I->t);
        uint64_t acc = 0;
        uint32_t rpsn = 0;
        bool first = true;
        FOR_LANES(j, lanes) {
            const EInst *Ij = &code[w->t[j]->wait_pc];
            uint32_t v = (uint32_t)opv(&x, &Ij->o[1], j);
            rpsn = psn2(rpsn, opp(&x, &Ij->o[1], j));
            if (first) { acc = v; first = false; continue; }
            switch (I->sub) {
            case 0: acc = (uint32_t)(acc + v); break;
            case 1: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
            case 2: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
            case 3: acc &= v; break;
            case 4: acc |= v; break;
            default: acc ^= v; break;
            }
        }
        FOR_LANES(j, lanes) opw(&x, &code[w->t[j]->wait_pc].o[0], j, acc, rpsn);
        break;
    }
    case EK_ELECT: {
        int leader = __builtin_ctz(lanes);
        FOR_LANES(j, lanes) {
            const EInst *I = &code[w->t[j]->wait_pc];
            opw(&x, &I->o[0], j, (uint64_t)leader, 0);
            opw(&x, &I->o[5], j, j == leader, 0);
        }
        break;
    }
    default:
        break;
    }
    /* bar.warp.sync orders memory among the threads it names (weak mode) */
    if (M->weak && I0->op == EK_BARWARP) {
        FOR_LANES(j, lanes) weak_release(M, w->t[j]);
        FOR_LANES(j, lanes) weak_acquire_all(M, w->t[j], w->cta);
    }
    FOR_LANES(j, lanes) {
        Thread *T = w->t[j];
        T->status = TS_RUN;
        T->pc = T->wait_pc + 1;
    }
    M->cnt.collectives_completed++;
    M->last_progress = M->steps;
    warp_release(M, w, lanes);
}

/* Completes the rendezvous lane l waits in, if everyone it needs is there. */
static bool coll_try(Machine *M, Warp *w, int l)
{
    Thread *T0 = w->t[l];
    if (T0->status != TS_COLL) return false;
    uint32_t m = T0->wait_mask, key = T0->wait_key;
    const EInst *I = &M->P->code[T0->wait_pc];
    if ((I->op == EK_BARWARP || I->op == EK_ELECT) && (m & w->exited) && !M->L->allow_exited_sync) {
        char lt[120];
        emu_fail(M, EMU_ERR_CHECK, "UB_EXITED_IN_MASK", I, w, 1u << l,
                 "%s membermask 0x%08x names lanes %s, which have exited", coll_name(I), m, emu_lanes_text(m & w->exited, lt, sizeof lt));
        return false;
    }
    uint32_t need = m & w->exist & ~w->exited;
    FOR_LANES(j, need) {
        Thread *T = w->t[j];
        if (T->status != TS_COLL || T->wait_key != key || T->wait_mask != m) return false;
    }
    if (M->L->policy == EMU_POLICY_STRICT) {
        FOR_LANES(j, need)
            if (w->t[j]->wait_pc != T0->wait_pc) {
                emu_fail(M, EMU_ERR_CHECK, "UB_NOT_CONVERGED", I, w, need,
                         "%s lanes meet at different instructions (lines %u and %u), which sm_6x and earlier do not allow",
                         coll_name(I), emu_inst_line(I), emu_inst_line(&M->P->code[w->t[j]->wait_pc]));
                return false;
            }
    }
    complete(M, w, need);
    return true;
}

void coll_arrive(Exec *x, const EInst *I, uint32_t em, uint32_t pc)
{
    Machine *M = x->M;
    Warp *w = x->w;
    const EOp *mo = mask_operand(I);
    uint32_t notin = 0, m0 = 0;
    FOR_LANES(l, em) {
        if (opp(x, mo, l)) { emu_poison_fail(x, I, 1u << l, opp(x, mo, l), "a membermask"); return; }
        uint32_t m = (uint32_t)opv(x, mo, l);
        if (!((m >> l) & 1)) { if (!notin) m0 = m; notin |= 1u << l; }
    }
    if (notin) {
        char lt[120];
        emu_fail(M, EMU_ERR_CHECK, "UB_MASK_SELF", I, w, notin, "lanes %s execute %s with membermask 0x%08x, which does not include them",
                 emu_lanes_text(notin, lt, sizeof lt), coll_name(I), m0);
        return;
    }
    uint32_t key = coll_key(I);
    FOR_LANES(l, em) {
        Thread *T = w->t[l];
        T->status = TS_COLL;
        T->wait_key = key;
        T->wait_mask = (uint32_t)opv(x, mo, l);
        T->wait_pc = pc;
    }
    FOR_LANES(l, em) {
        if (M->failed) return;
        coll_try(M, w, l);
    }
}

void coll_recheck_after_exit(Machine *M, Warp *w)
{
    uint32_t live = w->exist & ~w->exited;
    FOR_LANES(l, live) {
        if (M->failed) return;
        coll_try(M, w, l);
    }
}

void coll_describe_waits(Machine *M, Warp *w)
{
    uint32_t waiting = 0;
    FOR_LANES(l, w->exist & ~w->exited) if (w->t[l]->status == TS_COLL) waiting |= 1u << l;
    while (waiting) {
        Thread *T = w->t[__builtin_ctz(waiting)];
        uint32_t g = 0;
        FOR_LANES(l, waiting) if (w->t[l]->wait_mask == T->wait_mask && w->t[l]->wait_key == T->wait_key) g |= 1u << l;
        const EInst *I = &M->P->code[T->wait_pc];
        char lt[120], lt2[120];
        uint32_t missing = T->wait_mask & w->exist & ~w->exited & ~g;
        emu_fail_more(M, "    lanes %s wait at %s (%s:%u) with membermask 0x%08x", emu_lanes_text(g, lt, sizeof lt), coll_name(I),
                      M->P->m->filename, emu_inst_line(I), T->wait_mask);
        if (missing) emu_fail_more(M, "; lanes %s named by the mask never join it", emu_lanes_text(missing, lt2, sizeof lt2));
        emu_fail_more(M, "\n");
        waiting &= ~g;
    }
}

/* ---------------------------------------------------------------- barriers */

static void bar_reset(Barrier *B)
{
    B->arrived = 0;
    B->expected = 0;
    B->counted = false;
    B->sync_pc = NO_PC;
    for (int i = 0; i < 32; i++) B->wpc[i] = NO_PC;
    B->popc = 0;
    B->all = 1;
    B->any = 0;
    B->red_psn = 0;
}

static void bar_try(Machine *M, Cta *c, uint32_t id)
{
    Barrier *B = &c->bar[id];
    if (!B->arrived) return;
    uint32_t threshold = B->counted ? B->expected : c->live;
    if (B->arrived < threshold) return;
    const EInst *code = M->P->code;
    uint32_t popc = B->popc, all = B->all, any = B->any, rpsn = B->red_psn;
    bar_reset(B);
    M->cnt.barriers_completed++;
    M->last_progress = M->steps;
    for (uint32_t k = 0; k < c->nwarps; k++) {
        Warp *w = &c->warps[k];
        uint32_t rel = 0;
        FOR_LANES(l, w->exist) {
            Thread *T = w->t[l];
            if (T->status == TS_BAR && T->bar_id == id) rel |= 1u << l;
        }
        if (!rel) continue;
        Exec x;
        full_exec(&x, M, w, rel);
        FOR_LANES(l, rel) {
            Thread *T = w->t[l];
            const EInst *I = &code[T->wait_pc];
            if (I->sub == BAR_RED_POPC) opw(&x, &I->o[3], l, popc, rpsn);
            else if (I->sub == BAR_RED_AND) opw(&x, &I->o[3], l, all, rpsn);
            else if (I->sub == BAR_RED_OR) opw(&x, &I->o[3], l, any, rpsn);
            T->status = TS_RUN;
            T->pc = T->wait_pc + 1;
            if (M->weak) weak_acquire_all(M, T, c);   /* every arrival drained its stores */
        }
        warp_release(M, w, rel);
    }
}

void bar_arrive(Exec *x, const EInst *I, uint32_t em, uint32_t pc)
{
    Machine *M = x->M;
    Warp *w = x->w;
    Cta *c = w->cta;
    uint32_t touched = 0, arrive_only = 0;
    if (M->weak) FOR_LANES(l, em) weak_release(M, w->t[l]);   /* a barrier arrival releases */
    FOR_LANES(l, em) {
        uint32_t ps = psn2(opp(x, &I->o[0], l), I->o[1].kind != EO_NONE ? opp(x, &I->o[1], l) : 0);
        if (ps) { emu_poison_fail(x, I, 1u << l, ps, "a barrier operand"); return; }
        uint32_t id = (uint32_t)opv(x, &I->o[0], l);
        if (id >= 16) {
            emu_fail(M, EMU_ERR_CHECK, "BARRIER_MISUSE", I, w, 1u << l, "barrier number %u (there are 16, 0..15)", id);
            return;
        }
        bool counted = I->o[1].kind != EO_NONE;
        uint32_t cnt = counted ? (uint32_t)opv(x, &I->o[1], l) : 0;
        if (counted && (cnt == 0 || cnt % 32)) {
            emu_fail(M, EMU_ERR_CHECK, "BARRIER_MISUSE", I, w, 1u << l, "barrier %u thread count %u is not a positive multiple of 32", id, cnt);
            return;
        }
        Barrier *B = &c->bar[id];
        if (B->arrived == 0) {
            bar_reset(B);
            B->counted = counted;
            B->expected = cnt;
        } else if (B->counted != counted || B->expected != cnt) {
            emu_fail(M, EMU_ERR_CHECK, "BARRIER_MISUSE", I, w, 1u << l,
                     "barrier %u: this arrival gives %s%u, an earlier arrival in the same phase gave %s%u", id,
                     counted ? "thread count " : "no count", cnt, B->counted ? "thread count " : "no count", B->expected);
            return;
        }
        if (I->aligned) {
            uint32_t *wp = &B->wpc[w->id & 31];
            if (*wp == NO_PC) *wp = pc;
            else if (*wp != pc) {
                emu_fail(M, EMU_ERR_CHECK, "UB_ALIGNED", I, w, em,
                         "threads of one warp reach aligned barrier %u through different instructions (lines %u and %u)", id,
                         emu_inst_line(&M->P->code[*wp]), emu_inst_line(I));
                return;
            }
            if (!counted && I->sub != BAR_ARRIVE) {
                if (B->sync_pc == NO_PC) B->sync_pc = pc;
                else if (B->sync_pc != pc) {
                    emu_fail(M, EMU_ERR_CHECK, "UB_ALIGNED", I, w, em,
                             "threads of the CTA wait at aligned barrier %u through different instructions (lines %u and %u)", id,
                             emu_inst_line(&M->P->code[B->sync_pc]), emu_inst_line(I));
                    return;
                }
            }
        }
        if (I->sub == BAR_RED_POPC || I->sub == BAR_RED_AND || I->sub == BAR_RED_OR) {
            uint32_t v = (uint32_t)opv(x, &I->o[2], l) & 1;
            B->red_psn = psn2(B->red_psn, opp(x, &I->o[2], l));
            B->popc += v;
            B->all &= v;
            B->any |= v;
        }
        B->arrived++;
        touched |= 1u << id;
        Thread *T = w->t[l];
        T->wait_pc = pc;
        if (I->sub == BAR_ARRIVE) {
            arrive_only |= 1u << l;
            T->pc = pc + 1;
        } else {
            T->status = TS_BAR;
            T->bar_id = id;
        }
    }
    if (arrive_only) warp_release(M, w, arrive_only);
    for (uint32_t id = 0; id < 16; id++)
        if (touched & (1u << id)) bar_try(M, c, id);
}

void bar_recheck_after_exit(Machine *M, Cta *c)
{
    for (uint32_t id = 0; id < 16 && !M->failed; id++)
        if (c->bar[id].arrived && !c->bar[id].counted) bar_try(M, c, id);
}
