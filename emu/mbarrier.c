/* mbarrier.c — mbarrier objects (sm_80 / sm_90): init, arrive, arrive_drop,
 * arrive.expect_tx, expect_tx, complete_tx, test_wait, try_wait (state and
 * .parity forms), pending_count, inval, and cp.async.mbarrier.arrive.
 *
 * The object is the 8-byte word in shared memory the program allocates.
 * Its layout is opaque in PTX; the emulator's is
 *     bits  0..20  pending arrivals of the current phase
 *     bits 21..41  expected arrivals per phase
 *     bits 42..62  transaction count still expected (expect_tx / complete_tx;
 *                  21-bit two's complement: a complete_tx may come first)
 *     bit  63      phase parity
 * A phase completes when pending arrivals and the transaction count are
 * both zero: the parity flips and pending is reset to the expected count.
 * The state an arrive returns holds the parity of the phase it arrived on,
 * so test_wait(state) is true once that phase has completed, and
 * test_wait.parity(p) once the phase of parity p has.  try_wait is
 * test_wait (it may return false, so programs loop on it: a spin site for
 * the contention counters and the --spin-limit check).  Using a word whose
 * expected count is 0 (never initialised, or invalidated) stops the run
 * with MBARRIER_INVALID; arriving more often than the pending count, or
 * a transaction count outside +-(2^20-1), with MBARRIER_OVERFLOW.
 * Memory ordering: in SC mode every interleaving is sequentially
 * consistent; the weak mode orders every operation both ways (weak.c). */
#include "emu/internal.h"

#define MB_MASK ((1ull << 21) - 1)
#define MB_PENDING(w) ((w) & MB_MASK)
#define MB_EXPECTED(w) (((w) >> 21) & MB_MASK)
#define MB_TX(w) ((int64_t)((w) << 1) >> 43)   /* signed */
#define MB_PHASE(w) ((w) >> 63)

static uint64_t mb_make(uint64_t pending, uint64_t expected, int64_t tx, uint64_t phase)
{
    return (pending & MB_MASK) | ((expected & MB_MASK) << 21) | (((uint64_t)tx & MB_MASK) << 42) | (phase << 63);
}

static const char *mb_name(int sub)
{
    static const char *const n[] = { "init", "arrive", "arrive_drop", "expect_tx", "complete_tx", "test_wait", "try_wait",
                                     "pending_count", "inval", "cp.async.mbarrier.arrive" };
    return n[sub];
}

/* Completes the phase when nothing is pending. */
static uint64_t mb_settle(uint64_t w)
{
    if (MB_PENDING(w) == 0 && MB_TX(w) == 0) w = mb_make(MB_EXPECTED(w), MB_EXPECTED(w), 0, MB_PHASE(w) ^ 1);
    return w;
}

void exec_mbar(Exec *x, const EInst *I, uint32_t em)
{
    Machine *M = x->M;
    /* weak memory: every mbarrier operation is a release and an acquire of
     * everything so far (arrive is .release.cta and a completed wait
     * .acquire.cta in PTX: this orders more) */
    if (M->weak) FOR_LANES(l, em) { weak_release(M, x->T[l]); weak_acquire_all(M, x->T[l], x->w->cta); }
    if (I->sub == MB_PENDING) {
        FOR_LANES(l, em) opw(x, &I->o[0], l, MB_PENDING(opv(x, &I->o[2], l)), opp(x, &I->o[2], l));
        return;
    }
    const EOp *a = &I->o[1];
    bool write = I->sub != MB_TEST_WAIT && I->sub != MB_TRY_WAIT;
    FOR_LANES(l, em) {
        uint32_t psn;
        uint64_t addr = mem_addr_of(x, a, l, &psn);
        if (psn) { emu_poison_fail(x, I, 1u << l, psn, "an mbarrier address"); return; }
        MemRef r;
        if (!mem_ref(x, I, l, I->space, addr, 8, write, &r)) return;
        uint64_t w = mem_load(&r, 8), nw = w;
        uint64_t v = I->o[2].kind != EO_NONE ? opv(x, &I->o[2], l) : 1;
        if (I->sub != MB_INIT && MB_EXPECTED(w) == 0) {
            emu_fail(M, EMU_ERR_CHECK, "MBARRIER_INVALID", I, x->w, 1u << l,
                     "mbarrier.%s on 0x%llx, which holds no initialised mbarrier (never initialised, or invalidated)",
                     mb_name(I->sub), (unsigned long long)addr);
            return;
        }
        switch (I->sub) {
        case MB_INIT:
            v &= 0xffffffffu;
            if (v < 1 || v > (1u << 20) - 1) {
                emu_fail(M, EMU_ERR_CHECK, "MBARRIER_OVERFLOW", I, x->w, 1u << l, "mbarrier.init count %llu is not in 1..2^20-1",
                         (unsigned long long)v);
                return;
            }
            nw = mb_make(v, v, 0, 0);
            break;
        case MB_INVAL:
            nw = 0;
            break;
        case MB_EXPECT_TX: case MB_COMPLETE_TX: case MB_ARRIVE: case MB_ARRIVE_DROP: case MB_CP_ARRIVE: {
            int64_t tx = MB_TX(w);
            uint64_t pend = MB_PENDING(w), exp = MB_EXPECTED(w), cnt = 0;
            v &= 0xffffffffu;
            if (I->sub == MB_EXPECT_TX || (I->sub2 & MBF_EXPECT_TX)) tx += (int64_t)v;
            else if (I->sub == MB_COMPLETE_TX) tx -= (int64_t)v;
            if (I->sub == MB_ARRIVE || I->sub == MB_ARRIVE_DROP) cnt = (I->sub2 & MBF_EXPECT_TX) ? 1 : v;
            if (I->sub == MB_CP_ARRIVE) cnt = (I->sub2 & MBF_NOINC) ? 1 : 0;   /* without .noinc: +1 then -1 */
            if (tx > (int64_t)(MB_MASK >> 1) || tx < -(int64_t)(MB_MASK >> 1)) {
                emu_fail(M, EMU_ERR_CHECK, "MBARRIER_OVERFLOW", I, x->w, 1u << l,
                         "mbarrier.%s: the transaction count %lld leaves the range -(2^20-1)..2^20-1", mb_name(I->sub), (long long)tx);
                return;
            }
            if (cnt > pend) {
                emu_fail(M, EMU_ERR_CHECK, "MBARRIER_OVERFLOW", I, x->w, 1u << l,
                         "mbarrier.%s of %llu arrivals, but only %llu are pending in this phase", mb_name(I->sub),
                         (unsigned long long)cnt, (unsigned long long)pend);
                return;
            }
            pend -= cnt;
            if (I->sub == MB_ARRIVE_DROP) exp -= cnt;
            nw = mb_settle(mb_make(pend, exp, tx, MB_PHASE(w)));
            if (I->o[0].kind == EO_REG) opw(x, &I->o[0], l, mb_make(pend, exp, 0, MB_PHASE(w)), 0);
            break;
        }
        case MB_TEST_WAIT: case MB_TRY_WAIT: {
            uint64_t want = (I->sub2 & MBF_PARITY) ? (v & 1) : MB_PHASE(v);
            bool done = MB_PHASE(w) != want;
            opw(x, &I->o[0], l, done, psn2(opp(x, &I->o[2], l), 0));
            spin_site(x, I, l, addr, done ? SPIN_OK : SPIN_FAIL);
            break;
        }
        default:
            break;
        }
        if (write) {
            mem_store(&r, 8, nw);
            mem_store_psn(M, &r, 8, 0);
            if (nw != w) { emu_progress(M, x->w); spin_wrote(x->T[l]); }
        }
    }
}
