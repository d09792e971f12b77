/* tinylock.h — fine-grained synchronisation primitives and safe lock and
 * barrier rewrites for post-Volta GPUs (the thesis's tiny-lock insertion,
 * research/seed-002-sfu-lock.md §3; issue 15).
 *
 *   --passes='tinylock'                                every rewrite, defaults
 *   --passes='tinylock<rewrite=spinlock,barrier;debug-spin=100000>'
 *
 * Rewrites (each only where its proof obligations hold; everything else
 * stays byte-identical, with a remark naming the obligation that failed):
 *   spinlock  an atom.cas spin-acquire loop with a full fence after it and
 *             a fence + atom.exch / st release of the same word becomes an
 *             acquire-CAS loop and a releasing store (no full fences);
 *   barrier   a CTA barrier (bar.sync 0) that only orders
 *             one-producer -> one-consumer shared-memory dependences
 *             (unique producer thread %tid.x + N: affine addresses, or Z3
 *             under the path conditions) becomes point-to-point flag
 *             channels (st.release / ld.acquire with epochs), one shared
 *             flag word per thread;
 *   flag      a lock used as a flag (a token each producer holds from the
 *             start and releases once; consumers take it only to read and
 *             restore it) becomes an ld.acquire wait and a st.release.
 * Options:
 *   rewrite=LIST   which rewrites to try (default spinlock,barrier,flag);
 *   debug-spin=N   every spin loop the pass emits or rewrites counts its
 *                  iterations and executes trap after N (0 = off, default);
 *   backoff=NS     nanosleep.u32 NS after a failed attempt (sm_70+;
 *                  default 0 = none);
 *   profit=auto|off  barrier rewrites only when they remove more barriers
 *                  than the flags' initialisation adds (auto, default).
 * Primitives are chosen by .target and .version (primitives.c): the
 * release/acquire forms need sm_70 and PTX 6.0; below, volatile accesses
 * and membar.cta (the legacy form).  Details: ptxopt-passes(7). */
#ifndef PTXOPT_TINYLOCK_H
#define PTXOPT_TINYLOCK_H

#include "ir/ir.h"
#include "opt/pass.h"

extern const PassInfo pass_tinylock;

/* ----------------------------------------------------- primitive library */

/* What the module's .target/.version allow. */
typedef struct TlTarget {
    int sm;             /* 0: unknown (treated as sm_70+) */
    int ptx;            /* .version as major*10+minor; 0: unknown (treated as new) */
    bool ordered;       /* ld.acquire/st.release/atom.acquire, nanosleep: sm_70+, PTX 6.0+ */
    bool its;           /* independent thread scheduling: sm_70+ */
    bool warp_sync;     /* activemask, bar.warp.sync: PTX 6.2+ */
    bool mbarrier;      /* mbarrier.init/arrive/test_wait.parity: sm_80+, PTX 7.1+ */
    bool mbar_scoped;   /* mbarrier.try_wait, .release/.acquire on mbarrier, elect.sync: sm_90+, PTX 8.0+ */
    long long module_smem; /* bytes of the module-scope .shared variables (every kernel sees them):
                              counted once per run, not once per kernel (that was quadratic) */
} TlTarget;

TlTarget tl_target(const Module *m, int sm_override);

/* An insertion point: primitives are inserted before `at`; spin loops
 * split the block (at then starts a block of its own). */
typedef struct TlEmit {
    Function *fn;
    Stmt *at;
    TlTarget t;
    long debug_spin;    /* trap after this many iterations (0: off) */
    long backoff;       /* nanosleep after a failed attempt (0: off) */
} TlEmit;

/* Flag/tag channel on a 32-bit shared word at [addr] (addr: a .b32 shared
 * address register).  publish: every access before it is visible to a
 * thread that sees `value`; wait: spins while the word is below `value`
 * (unsigned, epochs only grow), only where `active` is true (NULL: all). */
void tl_flag_publish(TlEmit *e, Reg *addr, uint32_t value);
void tl_flag_wait(TlEmit *e, Reg *addr, uint32_t value, Reg *active);
/* Mutex word ([addr], `space` ".shared"/".global"/"" for generic, 0 =
 * free) at `scope` ("cta", "gpu", "sys"): acquire-CAS spin, releasing
 * store.  addr: a register of the space's address width. */
void tl_mutex_acquire(TlEmit *e, Reg *addr, const char *space, const char *scope);
void tl_mutex_release(TlEmit *e, Reg *addr, const char *space, const char *scope);
/* mbarrier channel (needs t.mbarrier): init with `count` arrivals, arrive,
 * wait for phase `parity` to complete.  addr: a .b32 shared address of an
 * 8-byte aligned .b64 word. */
void tl_mbar_init(TlEmit *e, Reg *addr, uint32_t count);
void tl_mbar_arrive(TlEmit *e, Reg *addr);
void tl_mbar_wait(TlEmit *e, Reg *addr, uint32_t parity);
/* Warp-shared lock: the active lanes elect one leader (activemask + bfind,
 * or elect.sync on sm_90), the leader acquires, bar.warp.sync orders the
 * warp; unlock: bar.warp.sync, then the leader releases.  *mask and *leader
 * are made by lock and passed back to unlock.  Needs t.warp_sync. */
void tl_warp_lock(TlEmit *e, Reg *addr, Reg **mask, Reg **leader);
void tl_warp_unlock(TlEmit *e, Reg *addr, Reg *mask, Reg *leader);

#endif
