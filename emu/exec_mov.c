/* exec_mov.c — mov (including vector pack/unpack), special registers,
 * cvta/isspacep (generic addressing), activemask and no-ops. */
#include "emu/internal.h"

static uint64_t sreg_value(const Exec *x, uint32_t id, int l)
{
    const Machine *M = x->M;
    const Thread *T = x->T[l];
    const Cta *c = x->w->cta;
    const EmuLaunch *L = M->L;
    switch (id) {
    case SR_TID: case SR_TID + 1: case SR_TID + 2: return T->tid[id - SR_TID];
    case SR_NTID: case SR_NTID + 1: case SR_NTID + 2: return L->block[id - SR_NTID];
    case SR_CTAID: case SR_CTAID + 1: case SR_CTAID + 2: return c->id[id - SR_CTAID];
    case SR_NCTAID: case SR_NCTAID + 1: case SR_NCTAID + 2: return L->grid[id - SR_NCTAID];
    case SR_CLUSTERID: case SR_CLUSTERID + 1: case SR_CLUSTERID + 2: return c->id[id - SR_CLUSTERID];
    case SR_NCLUSTERID: case SR_NCLUSTERID + 1: case SR_NCLUSTERID + 2: return L->grid[id - SR_NCLUSTERID];
    case SR_CLUSTER_CTAID: case SR_CLUSTER_CTAID + 1: case SR_CLUSTER_CTAID + 2: return 0;
    case SR_CLUSTER_NCTAID: case SR_CLUSTER_NCTAID + 1: case SR_CLUSTER_NCTAID + 2: return 1;
    case SR_CLUSTER_CTARANK: return 0;
    case SR_CLUSTER_NCTARANK: return 1;
    case SR_IS_EXPLICIT_CLUSTER: return 0;
    case SR_LANEID: return (uint64_t)l;
    case SR_WARPID: return x->w->id;
    case SR_NWARPID: return 64;
    case SR_SMID: return 0;
    case SR_NSMID: return 1;
    case SR_GRIDID: return 1;
    case SR_LANEMASK_EQ: return 1ull << l;
    case SR_LANEMASK_LE: return (uint32_t)((2ull << l) - 1);
    case SR_LANEMASK_LT: return (uint32_t)((1ull << l) - 1);
    case SR_LANEMASK_GE: return (uint32_t)~((1ull << l) - 1);
    case SR_LANEMASK_GT: return (uint32_t)~((2ull << l) - 1);
    case SR_CLOCK: return (uint32_t)M->clock;
    case SR_CLOCK_HI: return (uint32_t)(M->clock >> 32);
    case SR_CLOCK64: return M->clock;
    case SR_GLOBALTIMER: return M->clock * 1000;
    case SR_GLOBALTIMER_LO: return (uint32_t)(M->clock * 1000);
    case SR_GLOBALTIMER_HI: return (uint32_t)((M->clock * 1000) >> 32);
    case SR_DYN_SMEM: return L->shared_dyn;
    case SR_TOTAL_SMEM: case SR_AGGR_SMEM: return c->shared_size;
    default: return 0;
    }
}

uint64_t opnd_slow(const Exec *x, const EOp *o, int l)
{
    switch (o->kind) {
    case EO_SREG:
        if (o->reg == SR_ENVREG) {
            /* cooperative launches: %envreg1:%envreg2 hold the address of the
             * grid-synchronisation workspace (as the CUDA driver provides it) */
            uint64_t a = x->M->coop_addr;
            return o->imm == 1 ? a >> 32 : o->imm == 2 ? (a & 0xffffffffu) : 0;
        }
        return sreg_value(x, o->reg, l);
    case EO_LOCALSYM:
        if (o->imm < 0) return (uint64_t)(-1 - o->imm);            /* module-scope .local */
        return x->T[l]->fr->local_base + (uint64_t)o->imm;
    case EO_FPARAMSYM: return x->T[l]->fr->fparam_base + (uint64_t)o->imm;
    case EO_FUNC: case EO_LABEL: return (uint64_t)o->imm;
    default: return 0;
    }
}

void exec_mov(Exec *x, const EInst *I, uint32_t em)
{
    const EOp *d = &I->o[0], *a = &I->o[1];
    const EmuProgram *P = x->M->P;
    switch (I->op) {
    case EK_MOV:
        /* poison follows the bits (poison_bits.c): a copy keeps them; a pack
         * of a defined and an undefined half is undefined in that half only;
         * an unpack gives each element its own bits' state */
        if (I->sub == 0) {
            FOR_LANES(l, em) {
                uint32_t psn = opp(x, a, l);
                if (psn && d->kind == EO_REG && a->kind == EO_REG && d->bits < a->bits)
                    psn = psn_with_bits(x->M, psn, psn_bits(x->M, psn, a->bits), d->bits);
                opw_bits(x, d, l, opv(x, a, l), psn);
            }
        } else if (I->sub == 1) {
            int eb = I->t2;
            const EOp *el = &P->pool[a->reg];
            FOR_LANES(l, em) {
                uint64_t v = 0, bad = 0;
                uint32_t psn = 0;
                for (int i = 0; i < a->n; i++) {
                    uint32_t pi = opp(x, &el[i], l);
                    v |= (opv(x, &el[i], l) & mask_bits(eb)) << (eb * i);
                    bad |= psn_bits(x->M, pi, eb) << (eb * i);
                    psn = psn2(psn, pi);
                }
                opw_bits(x, d, l, v, psn_with_bits(x->M, psn, bad, eb * a->n));
            }
        } else {
            int eb = I->t2;
            const EOp *el = &P->pool[d->reg];
            FOR_LANES(l, em) {
                uint64_t v = opv(x, a, l);
                uint32_t psn = opp(x, a, l);
                uint64_t bad = psn_bits(x->M, psn, eb * d->n);
                for (int i = 0; i < d->n; i++)
                    opw_bits(x, &el[i], l, (v >> (eb * i)) & mask_bits(eb), psn_with_bits(x->M, psn, bad >> (eb * i), eb));
            }
        }
        return;
    case EK_CVTA:
        FOR_LANES(l, em) {
            uint64_t v = opv(x, a, l), r = v;
            uint32_t tag = TAG_OF(v);
            uint32_t want = I->space == SP_SHARED ? TAG_SHARED : I->space == SP_LOCAL ? TAG_LOCAL : I->space == SP_PARAM ? TAG_KPARAM : 0;
            if (want) {
                if (I->sub == 0) r = WINDOW(want) | (v & 0xffffffffu);
                else r = tag == want ? (v & 0xffffffffu) : (0xffffffff00000000ull | (v & 0xffffffffu));
            }
            opw(x, d, l, r, opp(x, a, l));
        }
        return;
    case EK_ISSPACEP:
        FOR_LANES(l, em) {
            uint32_t tag = TAG_OF(opv(x, a, l));
            bool r;
            switch (I->space) {
            case SP_SHARED: r = tag == TAG_SHARED; break;
            case SP_LOCAL: r = tag == TAG_LOCAL; break;
            case SP_PARAM: r = tag == TAG_KPARAM; break;
            case SP_GLOBAL:
                r = tag >= TAG_ALLOC0 && tag - TAG_ALLOC0 < x->M->nallocs && x->M->allocs[tag - TAG_ALLOC0].space == SP_GLOBAL;
                break;
            case SP_CONST:
                r = tag >= TAG_ALLOC0 && tag - TAG_ALLOC0 < x->M->nallocs && x->M->allocs[tag - TAG_ALLOC0].space == SP_CONST;
                break;
            default: r = false;
            }
            opw(x, d, l, r, opp(x, a, l));
        }
        return;
    default:
        emu_fail(x->M, EMU_ERR_UNSUPPORTED, "UNSUPPORTED", I, x->w, em, "unsupported move");
    }
}

void exec_activemask(Exec *x, const EInst *I, uint32_t em)
{
    FOR_LANES(l, em) opw(x, &I->o[0], l, em, 0);
}

void exec_nop(Exec *x, const EInst *I, uint32_t em)
{
    (void)x; (void)I; (void)em;
}
