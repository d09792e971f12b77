/* weak.c — the weak-memory mode (--memory=weak[:SEED], issue 23): an
 * operational model of what the PTX memory model allows for global and
 * shared memory, so that a rewrite that weakens ordering can be caught.
 *
 * The reference is the PTX ISA manual's memory consistency model as
 * formalised by Lustig, Sahasrabuddhe and Giroux (ASPLOS 2019; the Alloy
 * model ptx.als of NVlabs/ptxmemorymodel).  The model here is *sound*: it
 * only produces outcomes those axioms allow (no-thin-air, sequential
 * consistency per location for morally strong accesses, atomicity,
 * coherence, causality); where that needs care it orders more than PTX
 * does.  What it does, per thread T:
 *
 * * Store buffer.  Plain and .relaxed stores of global and shared memory
 *   enter T's buffer; buffered stores drain to memory one at a time, in an
 *   order the seed chooses (stores to overlapping bytes in program order),
 *   at the scheduler's steps, when the buffer is full, and all of them at a
 *   release (st.release, atom.release/acq_rel), a fence, a barrier, an
 *   mbarrier operation or exit.  T's own loads see its buffered stores.  A
 *   release store and every atomic act on memory directly (atomics after
 *   the buffered stores to their address).  Draining everything at every
 *   release and fence, whatever its scope, orders more than PTX: a .cta
 *   release is still told apart from a .gpu one at the acquiring side.
 *
 * * Stale loads.  Memory keeps, per 4-byte word, its last WHIST writes
 *   (time, writer, the bytes they replaced, release information).  A load
 *   reads the word as it was at some time tau >= T's lower bound for it,
 *   chosen by the seed: the latest of T's own writes, the write T last
 *   observed there with a strong load (sequential consistency per
 *   location), every write up to T's floor, and the oldest time the
 *   history still covers.  T's floor rises when T synchronises: an
 *   acquire (ld.acquire, atom.acquire/acq_rel, or a strong load followed
 *   by a fence: the acquire pattern) that reads a write carrying release
 *   information (a release, or a strong write after a fence of T': the
 *   release pattern, also inherited along read-modify-write chains), when
 *   the two are morally strong (each in the other's scope: the same CTA, or
 *   both .gpu/.sys), raises it to the time of that release; a fence.sc
 *   raises it to the time of the latest fence.sc it is ordered after (same
 *   CTA, or both .gpu: the fence-SC order); a barrier or mbarrier wait to
 *   the present.  So a .cta release/acquire pair, or .cta fences, in
 *   different CTAs order nothing.
 *
 * * Stores ahead of loads (load buffering).  A plain or .relaxed load may
 *   let a store a few instructions later be performed first, when nothing
 *   in between is a memory access, a branch or a fence, and no register the
 *   store reads is written from the load to it (no dependency: the
 *   no-thin-air axiom only forbids cycles of reads-from and dependencies).
 *
 * Where it orders more than PTX (so some allowed outcomes never show; see
 * man/ptxopt-emu.1, WEAK MEMORY): every release and fence drains the
 * whole buffer, whatever its scope, and a release store is performed at
 * once (never after a later store); a write seen by a weak load counts as
 * observed for cumulativity (PTX needs a morally strong read); RMW chains
 * merge release information to the widest scope; .cluster is .gpu; a
 * fence of a kind it does not know is fence.sc.gpu; mbarrier operations
 * release and acquire everything.  What it does not model: torn values
 * (an access reads one snapshot), the async proxy (cp.async data, mbarrier
 * words: performed at once), local, param and const memory (private or
 * read-only), and accesses larger than 32 bytes (sequentially consistent).
 */
#include <stdlib.h>
#include <string.h>

#include "emu/internal.h"

#define WHIST 4          /* writes remembered per word */
#define WPAGE_WORDS 256  /* words per history page */
#define WBUF_CAP 8       /* stores a thread's buffer holds */
#define WOBS 8           /* words whose observed write a thread remembers */

/* One write of a word: what it replaced, and what a load of it learns. */
typedef struct WRec {
    uint64_t ts;        /* when it was performed (M->wts) */
    uint64_t rel_ts;    /* release information: an acquire that reads it may see every write up to rel_ts (0: none) */
    uint32_t writer;    /* WThread.uid */
    uint32_t cta, rel_cta;
    uint32_t old;       /* the bytes it replaced (under mask) */
    uint32_t old_sh;    /* their poison shadow */
    uint8_t mask;       /* bytes of the word written */
    uint8_t scope;      /* WS_NONE: a weak write; else a strong one of that scope */
    uint8_t rel_scope;
} WRec;

typedef struct WWord {
    WRec r[WHIST];      /* oldest first */
    uint8_t n;
    uint64_t horizon;   /* a forgotten write: no load goes before it */
} WWord;

typedef struct WHist {
    uint8_t *data, *sh; /* the memory it describes */
    uint64_t size;
    WWord **pages;
    uint64_t npages;
} WHist;

/* Release information a write carries (release, release pattern, or inherited). */
typedef struct WRel { uint64_t ts; uint32_t cta; uint8_t scope; } WRel;

typedef struct WEntry {
    uint64_t when;      /* M->clock when it was buffered (the drain bound) */
    WHist *h;
    uint64_t off;
    uint32_t size;
    uint8_t scope;      /* WS_NONE weak, else strong */
    WRel rel;
    uint8_t data[32], dsh[32];
} WEntry;

typedef struct WThread {
    uint32_t uid, cta;
    WEntry buf[WBUF_CAP];
    uint32_t n;
    int32_t listed;     /* index in M->wlist, -1 */
    uint64_t floor;
    uint64_t pend_cta, pend_gpu;  /* releases observed by strong loads, for a later fence (acquire pattern) */
    WRel relf;          /* the latest release fence: strong stores after it are releases */
    struct { WHist *h; uint64_t word, ts; } obs[WOBS];
    uint32_t nobs, obs_next;
    uint32_t hoist_pc1; /* pc + 1 of a store already performed ahead of a load */
} WThread;

/* ------------------------------------------------------------- helpers */

static inline uint64_t wrand(Machine *M)
{
    uint64_t z = (M->wrng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

bool emu_memory_parse(const char *s, EmuMemory *m, uint64_t *seed, bool *has_seed)
{
    *has_seed = false;
    if (strcmp(s, "sc") == 0) { *m = EMU_MEMORY_SC; return true; }
    if (strncmp(s, "weak", 4) != 0) return false;
    *m = EMU_MEMORY_WEAK;
    if (!s[4]) return true;
    if (s[4] != ':' || !s[5]) return false;
    char *end;
    unsigned long long v = strtoull(s + 5, &end, 10);
    if (*end) return false;
    *seed = v;
    *has_seed = true;
    return true;
}

void weak_setup(Machine *M)
{
    const EmuLaunch *L = M->L;
    M->weak = L->memory == EMU_MEMORY_WEAK;
    uint64_t s = L->has_memory_seed ? L->memory_seed : L->seed;
    M->wrng = s * 0xd1b54a32d192ed03ull + 0x5851f42d4c957f2dull;
}

static WThread *wthread(Machine *M, Thread *T, const Cta *c)
{
    if (!T->wk) {
        T->wk = calloc(1, sizeof(WThread));
        T->wk->uid = ++M->wuid;
        T->wk->cta = (uint32_t)c->linear;
        T->wk->listed = -1;
    }
    return T->wk;
}

static WHist *hist_new(uint8_t *data, uint8_t *sh, uint64_t size)
{
    WHist *h = calloc(1, sizeof *h);
    h->data = data;
    h->sh = sh;
    h->size = size;
    h->npages = (size / 4 + WPAGE_WORDS) / WPAGE_WORDS;
    h->pages = calloc(h->npages, sizeof(WWord *));
    return h;
}

void weak_hist_free(WHist *h)
{
    if (!h) return;
    for (uint64_t i = 0; i < h->npages; i++) free(h->pages[i]);
    free(h->pages);
    free(h);
}

static WWord *hist_word(WHist *h, uint64_t word, bool create)
{
    uint64_t pg = word / WPAGE_WORDS;
    if (pg >= h->npages) return NULL;
    if (!h->pages[pg]) {
        if (!create) return NULL;
        h->pages[pg] = calloc(WPAGE_WORDS, sizeof(WWord));
    }
    return &h->pages[pg][word % WPAGE_WORDS];
}

/* The history of the memory a global or shared MemRef points into (NULL:
 * not weakly ordered: local, param, const). */
static WHist *hist_of(Exec *x, const MemRef *r, uint64_t *off)
{
    if (r->space == SP_SHARED) {
        Cta *c = x->w->cta;
        if (!c->hist) c->hist = hist_new(c->shared, c->shared_sh, c->shared_size);
        *off = (uint64_t)(r->p - c->shared);
        return c->hist;
    }
    if (r->space == SP_GLOBAL && r->alloc && !r->alloc->readonly) {
        Alloc *A = r->alloc;
        if (!A->hist) A->hist = hist_new(A->data, A->sh, A->size);
        *off = (uint64_t)(r->p - A->data);
        return A->hist;
    }
    return NULL;
}

/* ------------------------------------------------------ performing writes */

typedef struct WMeta { uint32_t writer, cta; uint8_t scope; WRel rel; } WMeta;

/* Writes size bytes at off into memory as one write at a new time, and
 * remembers what it replaced.  Returns its time. */
static uint64_t hist_write(Machine *M, WHist *h, uint64_t off, const uint8_t *data, const uint8_t *dsh, uint32_t size,
                           const WMeta *m)
{
    uint64_t ts = ++M->wts;
    for (uint64_t w = off / 4; w * 4 < off + size; w++) {
        WWord *ww = hist_word(h, w, true);
        if (!ww) continue;
        WRec rec = { 0 };
        rec.ts = ts;
        rec.writer = m->writer;
        rec.cta = m->cta;
        rec.scope = m->scope;
        rec.rel_ts = m->rel.ts;
        rec.rel_cta = m->rel.cta;
        rec.rel_scope = m->rel.scope;
        for (int b = 0; b < 4; b++) {
            uint64_t a = w * 4 + (uint64_t)b;
            if (a >= h->size) break;
            rec.old |= (uint32_t)h->data[a] << (8 * b);
            rec.old_sh |= (uint32_t)h->sh[a] << (8 * b);
            if (a >= off && a < off + size) rec.mask |= (uint8_t)(1u << b);
        }
        if (ww->n == WHIST) {
            ww->horizon = umax(ww->horizon, ww->r[0].ts);
            memmove(&ww->r[0], &ww->r[1], sizeof(WRec) * (WHIST - 1));
            ww->n--;
        }
        ww->r[ww->n++] = rec;
    }
    memcpy(h->data + off, data, size);
    memcpy(h->sh + off, dsh, size);
    return ts;
}

static void wlist_add(Machine *M, Thread *T)
{
    if (T->wk->listed >= 0) return;
    if (M->nwlist == M->capwlist) {
        M->capwlist = M->capwlist ? M->capwlist * 2 : 64;
        M->wlist = realloc(M->wlist, sizeof(Thread *) * M->capwlist);
    }
    T->wk->listed = (int32_t)M->nwlist;
    M->wlist[M->nwlist++] = T;
}

static void wlist_remove(Machine *M, Thread *T)
{
    int32_t i = T->wk->listed;
    if (i < 0) return;
    Thread *last = M->wlist[--M->nwlist];
    M->wlist[i] = last;
    last->wk->listed = i;
    T->wk->listed = -1;
}

static bool overlap(const WEntry *a, const WHist *h, uint64_t off, uint32_t size)
{
    return a->h == h && a->off < off + size && off < a->off + a->size;
}

/* Drains entry k of T's buffer (every older entry it overlaps must be gone). */
static void drain_one(Machine *M, Thread *T, uint32_t k)
{
    WThread *wk = T->wk;
    WEntry *e = &wk->buf[k];
    WMeta m = { wk->uid, wk->cta, e->scope, e->rel };
    hist_write(M, e->h, e->off, e->data, e->dsh, e->size, &m);
    memmove(&wk->buf[k], &wk->buf[k + 1], sizeof(WEntry) * (wk->n - k - 1));
    if (--wk->n == 0) wlist_remove(M, T);
}

/* A random entry that no older entry overlaps. */
static void drain_random(Machine *M, Thread *T)
{
    WThread *wk = T->wk;
    uint32_t cand[WBUF_CAP], nc = 0;
    for (uint32_t k = 0; k < wk->n; k++) {
        bool ok = true;
        for (uint32_t j = 0; j < k && ok; j++)
            if (overlap(&wk->buf[j], wk->buf[k].h, wk->buf[k].off, wk->buf[k].size)) ok = false;
        if (ok) cand[nc++] = k;
    }
    drain_one(M, T, cand[wrand(M) % nc]);
}

static void drain_overlapping(Machine *M, Thread *T, WHist *h, uint64_t off, uint32_t size)
{
    WThread *wk = T->wk;
    if (!wk) return;
    for (uint32_t k = 0; k < wk->n;) {
        if (overlap(&wk->buf[k], h, off, size)) drain_one(M, T, k);
        else k++;
    }
}

void weak_release(Machine *M, Thread *T)
{
    WThread *wk = T->wk;
    if (!wk) return;
    while (wk->n) drain_one(M, T, 0);
}

void weak_acquire_all(Machine *M, Thread *T, const Cta *c)
{
    wthread(M, T, c)->floor = M->wts;
}

/* A buffered store is performed within this many warp issues: hardware
 * drains its store buffers in bounded time, and a lock released by a
 * thread the scheduler does not pick (parked at a reconvergence point,
 * say) must still become free for the threads spinning on it. */
#define WDRAIN_BOUND 2048

void weak_tick(Machine *M)
{
    if (!M->nwlist) return;
    uint64_t z = wrand(M);
    int n = (int)(z & 3);          /* 0..3 drains */
    for (int i = 0; i < n && M->nwlist; i++) {
        Thread *T = M->wlist[(z >> 8) % M->nwlist];
        drain_random(M, T);
        z = wrand(M);
    }
    if ((M->clock & 63) == 0)
        for (uint32_t i = 0; i < M->nwlist;) {
            Thread *T = M->wlist[i];
            while (T->wk->n && M->clock - T->wk->buf[0].when > WDRAIN_BOUND) drain_one(M, T, 0);
            if (T->wk->listed == (int32_t)i) i++;   /* else it left the list and another took its place */
        }
}

void weak_end_group(Machine *M)
{
    M->hoist_yield = false;
    M->failed = false;
}

void weak_thread_free(Thread *T)
{
    free(T->wk);
    T->wk = NULL;
}

void weak_free(Machine *M)
{
    for (uint32_t i = 0; i < M->nallocs; i++) { weak_hist_free(M->allocs[i].hist); M->allocs[i].hist = NULL; }
    free(M->wlist);
    M->wlist = NULL;
}

/* ---------------------------------------------------------------- loads */

/* Whether a strong read of scope rscope in CTA rcta and the strong write
 * rec are morally strong (each in the other's scope). */
static bool morally_strong(uint8_t rscope, uint32_t rcta, const WRec *rec)
{
    if (rscope == WS_NONE || rec->scope == WS_NONE) return false;
    return rec->cta == rcta || (rscope >= WS_GPU && rec->scope >= WS_GPU);
}

/* Whether a release of (scope, cta) and an acquirer of scope ascope in
 * CTA acta are morally strong. */
static bool rel_sync(const WRel *r, uint8_t ascope, uint32_t acta)
{
    if (!r->ts) return false;
    return r->cta == acta || (r->scope >= WS_GPU && ascope >= WS_GPU);
}

static uint64_t obs_get(const WThread *wk, const WHist *h, uint64_t word)
{
    for (uint32_t i = 0; i < wk->nobs; i++)
        if (wk->obs[i].h == h && wk->obs[i].word == word) return wk->obs[i].ts;
    return 0;
}

/* T observed the write of time ts at word (a strong load): it never reads
 * an older one there.  A forgotten observation raises the floor instead
 * (which orders more). */
static void obs_put(WThread *wk, WHist *h, uint64_t word, uint64_t ts)
{
    for (uint32_t i = 0; i < wk->nobs; i++)
        if (wk->obs[i].h == h && wk->obs[i].word == word) { wk->obs[i].ts = umax(wk->obs[i].ts, ts); return; }
    uint32_t i;
    if (wk->nobs < WOBS) i = wk->nobs++;
    else { i = wk->obs_next; wk->obs_next = (wk->obs_next + 1) % WOBS; wk->floor = umax(wk->floor, wk->obs[i].ts); }
    wk->obs[i].h = h;
    wk->obs[i].word = word;
    wk->obs[i].ts = ts;
}

/* The earliest time T may read word at. */
static uint64_t word_min(const WThread *wk, WHist *h, uint64_t word, const WWord *ww)
{
    uint64_t t = obs_get(wk, h, word);
    if (ww) {
        t = umax(t, ww->horizon);
        for (int i = 0; i < ww->n; i++)
            if (ww->r[i].writer == wk->uid || ww->r[i].ts <= wk->floor) t = umax(t, ww->r[i].ts);
    }
    return t;
}

/* Reads size bytes at off as memory was at time tau (after the writes of
 * time <= tau); returns the write that the first word holds then (NULL:
 * none remembered, the initial value or a forgotten one). */
static const WRec *hist_read(WHist *h, uint64_t off, uint32_t size, uint64_t tau, uint8_t *out, uint8_t *osh)
{
    memcpy(out, h->data + off, size);
    memcpy(osh, h->sh + off, size);
    const WRec *first = NULL;
    for (uint64_t w = off / 4; w * 4 < off + size; w++) {
        WWord *ww = hist_word(h, w, false);
        if (!ww) continue;
        const WRec *seen = NULL;
        for (int i = ww->n - 1; i >= 0; i--) {
            const WRec *r = &ww->r[i];
            if (r->ts <= tau) { seen = r; break; }
            for (int b = 0; b < 4; b++) {
                uint64_t a = w * 4 + (uint64_t)b;
                if (!(r->mask >> b & 1) || a < off || a >= off + size) continue;
                out[a - off] = (uint8_t)(r->old >> (8 * b));
                osh[a - off] = (uint8_t)(r->old_sh >> (8 * b));
            }
        }
        if (w == off / 4) first = seen;
    }
    return first;
}

/* One lane's load of size bytes (global or shared): a snapshot at a time
 * the seed picks, T's buffered stores on top.  Strong loads record what
 * they observed and synchronise. */
static void weak_read(Exec *x, const EInst *I, int l, WHist *h, uint64_t off, uint32_t size, uint8_t *out, uint8_t *osh)
{
    Machine *M = x->M;
    Thread *T = x->T[l];
    WThread *wk = wthread(M, T, x->w->cta);
    uint8_t order = MSEM_ORDER(I->msem), scope = MSEM_SCOPE(I->msem);
    bool strong = order != MS_WEAK;
    /* the earliest time allowed, and the times at which the value changes */
    uint64_t lo = 0, cand[4 * WHIST + 1];
    int nc = 0;
    for (uint64_t w = off / 4; w * 4 < off + size; w++) lo = umax(lo, word_min(wk, h, w, hist_word(h, w, false)));
    cand[nc++] = lo;
    for (uint64_t w = off / 4; w * 4 < off + size && nc < (int)(sizeof cand / sizeof cand[0]); w++) {
        WWord *ww = hist_word(h, w, false);
        for (int i = 0; ww && i < ww->n; i++)
            if (ww->r[i].ts > lo && nc < (int)(sizeof cand / sizeof cand[0])) cand[nc++] = ww->r[i].ts;
    }
    uint64_t z = wrand(M), tau;
    if (nc == 1 || (z & 1)) tau = (z & 2) ? lo : M->wts;   /* the oldest allowed, or the present */
    else tau = cand[(z >> 8) % (uint64_t)nc];
    const WRec *rec = hist_read(h, off, size, tau, out, osh);
    /* T's own buffered stores, oldest first */
    bool own = false;
    for (uint32_t k = 0; k < wk->n; k++) {
        const WEntry *e = &wk->buf[k];
        if (!overlap(e, h, off, size)) continue;
        for (uint32_t b = 0; b < e->size; b++) {
            uint64_t a = e->off + b;
            if (a < off || a >= off + size) continue;
            out[a - off] = e->data[b];
            osh[a - off] = e->dsh[b];
            if (a == off) own = true;
        }
    }
    if (!strong) return;
    /* sequential consistency per location binds morally strong pairs only
     * (ptx.als location_sc: strong[com] + po_loc): what a strong load read
     * from a write it is morally strong with, it never reads older of */
    for (uint64_t w = off / 4; w * 4 < off + size; w++) {
        WWord *ww = hist_word(h, w, false);
        const WRec *seen = NULL;
        for (int i = ww ? ww->n - 1 : -1; i >= 0; i--)
            if (ww->r[i].ts <= tau) { seen = &ww->r[i]; break; }
        if (seen && (seen->writer == wk->uid || morally_strong(scope, wk->cta, seen))) obs_put(wk, h, w, seen->ts);
    }
    if (own || !rec || !morally_strong(scope, wk->cta, rec)) return;
    WRel rel = { rec->rel_ts, rec->rel_cta, rec->rel_scope };
    if (order == MS_ACQUIRE || order == MS_ACQREL) {
        if (rel_sync(&rel, scope, wk->cta)) wk->floor = umax(wk->floor, rel.ts);
    } else {
        if (rel_sync(&rel, WS_CTA, wk->cta)) wk->pend_cta = umax(wk->pend_cta, rel.ts);
        if (rel_sync(&rel, WS_GPU, wk->cta)) wk->pend_gpu = umax(wk->pend_gpu, rel.ts);
    }
}

/* ------------------------------------------------------ stores ahead */

/* Whether instruction J may write register reg: its destinations are
 * o[0] (a register or a vector of them) and o[5] (the predicate of d|p
 * and p|q forms); a store writes none. */
static bool writes_reg(const EmuProgram *P, const EInst *J, uint32_t reg)
{
    if (J->op == EK_ST) return false;
    const int dst[2] = { 0, 5 };
    for (int k = 0; k < 2; k++) {
        const EOp *o = &J->o[dst[k]];
        if ((o->kind == EO_REG || o->kind == EO_REGNEG) && o->reg == reg) return true;
        if (o->kind == EO_VEC)
            for (int i = 0; i < o->n; i++) {
                const EOp *e = &P->pool[o->reg + (uint32_t)i];
                if ((e->kind == EO_REG || e->kind == EO_REGNEG) && e->reg == reg) return true;
            }
    }
    return false;
}

/* The registers store S reads (address base, values, guard). */
static int store_regs(const EmuProgram *P, const EInst *S, uint32_t *regs)
{
    int n = 0;
    if (S->guard >= 0) regs[n++] = (uint32_t)S->guard;
    const EOp *a = &S->o[0], *v = &S->o[1];
    if (a->kind == EO_ADDR && a->ab == AB_REG) regs[n++] = a->reg;
    else if (a->kind == EO_ADDR && a->ab != AB_ABS) return -1;
    if (v->kind == EO_REG || v->kind == EO_REGNEG) regs[n++] = v->reg;
    else if (v->kind == EO_VEC) {
        for (int i = 0; i < v->n && n < 16; i++) {
            const EOp *e = &P->pool[v->reg + (uint32_t)i];
            if (e->kind == EO_REG || e->kind == EO_REGNEG) regs[n++] = e->reg;
            else if (e->kind != EO_IMM) return -1;
        }
    } else if (v->kind != EO_IMM) return -1;
    return n;
}

static void store_lane(Exec *x, const EInst *S, int l, bool counted);

/* An address in the generic form (shared and local space offsets in their
 * windows), so that two accesses to the same bytes compare equal. */
static uint64_t norm_addr(int space, uint64_t a)
{
    if (space == SP_SHARED) return WINDOW(TAG_SHARED) | (a & 0xffffffffu);
    if (space == SP_LOCAL) return WINDOW(TAG_LOCAL) | (a & 0xffffffffu);
    return a;
}

/* The load I of the group may let a plain or relaxed store up to four
 * instructions later go first (load buffering, allowed by PTX when no
 * dependency links them).  True when it did: the group stops before I. */
static bool hoist_store(Exec *x, const EInst *I, uint32_t em, const uint64_t *laddr, uint32_t lsize)
{
    Machine *M = x->M;
    const EmuProgram *P = M->P;
    if ((wrand(M) & 3) != 0) return false;
    const EFunc *f = &P->funcs[I->fn];
    uint32_t pc = (uint32_t)(I - P->code);
    FOR_LANES(l, x->mask) if (x->T[l]->wk && x->T[l]->wk->hoist_pc1) return false;
    for (uint32_t j = pc + 1; j < f->pcn && j <= pc + 4; j++) {
        const EInst *S = &P->code[j];
        if (S->flow != FL_NORMAL || S->loophead) return false;
        if (S->op != EK_ST) {
            if (S->cls == EMU_CLS_MEM || S->cls == EMU_CLS_BARRIER || S->op == EK_UNSUP) return false;
            continue;
        }
        uint8_t so = MSEM_ORDER(S->msem);
        if (so != MS_WEAK && so != MS_RELAXED) return false;
        if (S->space != SP_GLOBAL && S->space != SP_SHARED && S->space != SP_GENERIC) return false;
        uint32_t regs[20];
        int nr = store_regs(P, S, regs);
        if (nr < 0) return false;
        for (uint32_t k = pc; k < j; k++)
            for (int i = 0; i < nr; i++)
                if (writes_reg(P, &P->code[k], regs[i])) return false;
        /* its lanes (guard), addresses: never the bytes the load reads */
        uint32_t sm = x->mask;
        if (S->guard >= 0) {
            sm = 0;
            FOR_LANES(l, x->mask) {
                if (x->P[l][S->guard]) return false;
                if ((x->R[l][S->guard] ^ S->guard_neg) & 1) sm |= 1u << l;
            }
        }
        if (!sm) return false;
        uint32_t ssize = (ty_bits(S->t) < 8 ? 1 : (uint32_t)ty_bits(S->t) / 8) * S->vec;
        FOR_LANES(l, sm) {
            uint32_t psn;
            uint64_t sa = norm_addr(S->space, mem_addr_of(x, &S->o[0], l, &psn));
            if (psn) return false;
            FOR_LANES(k, em) {
                uint64_t la = norm_addr(I->space, laddr[k]);
                if (sa < la + lsize && la < sa + ssize) return false;
            }
        }
        FOR_LANES(l, sm) {
            store_lane(x, S, l, false);
            if (M->failed) return true;
            wthread(M, x->T[l], x->w->cta)->hoist_pc1 = j + 1;
        }
        emu_progress(M, x->w);
        M->hoist_yield = true;
        M->failed = true;
        return true;
    }
    return false;
}

/* ------------------------------------------------ the instructions */

static inline uint32_t elem_size(int t) { int b = ty_bits(t); return b < 8 ? 1 : (uint32_t)b / 8; }

static void poisoned_address(Exec *x, const EInst *I, const EOp *a, uint32_t em)
{
    uint32_t bad = 0, first = 0;
    FOR_LANES(l, em) {
        if (x->P[l][a->reg]) { if (!bad) first = x->P[l][a->reg]; bad |= 1u << l; }
    }
    emu_poison_fail(x, I, bad, first, "an address");
}

void weak_ld(Exec *x, const EInst *I, uint32_t em)
{
    const EOp *d = &I->o[0], *a = &I->o[1];
    uint32_t es = elem_size(I->t), n = I->vec, size = es * n;
    int bits = ty_bits(I->t);
    bool sgn = ty_signed(I->t) && !ty_is_float(I->t);
    uint64_t addr[32];
    if (a->ab == AB_REG) {
        uint32_t bad = 0;
        FOR_LANES(l, em) if (x->P[l][a->reg]) bad |= 1u << l;
        if (bad) { poisoned_address(x, I, a, em); return; }
    }
    uint8_t order = MSEM_ORDER(I->msem);
    if ((order == MS_WEAK || order == MS_RELAXED) && I->sub != LD_NC && size <= 32 &&
        (I->space == SP_GLOBAL || I->space == SP_SHARED || I->space == SP_GENERIC)) {
        FOR_LANES(l, em) { uint32_t psn; addr[l] = mem_addr_of(x, a, l, &psn); }
        if (hoist_store(x, I, em, addr, size)) return;
    }
    const EOp *el = n > 1 ? &x->M->P->pool[d->reg] : d;
    FOR_LANES(l, em) {
        uint32_t psn;
        addr[l] = mem_addr_of(x, a, l, &psn);
        MemRef r;
        if (!mem_ref(x, I, l, I->space, addr[l], size, false, &r)) return;
        if (I->sub == LD_NC && r.alloc && !nc_check_load(x, I, l, &r, addr[l], size)) return;
        uint64_t off;
        WHist *h = (I->sub == LD_NC || size > 32) ? NULL : hist_of(x, &r, &off);
        uint8_t buf[32], bsh[32];
        if (h) {
            weak_read(x, I, l, h, off, size, buf, bsh);
            r.p = buf;
            r.sh = bsh;
            r.alloc = NULL;   /* the poison origin of a stale value is its own */
        }
        for (uint32_t k = 0; k < n; k++) {
            MemRef rk = r;
            rk.p += k * es;
            if (rk.sh) rk.sh += k * es;
            uint64_t v = mem_load(&rk, es);
            uint32_t vp = mem_load_psn(x, &rk, es, l, I, addr[l] + k * es, r.space);
            if (sgn) opw_s(x, &el[k], l, v, bits, vp);
            else opw(x, &el[k], l, v, vp);
        }
        if (I->sub2 == LD_SYNC && r.space != SP_LOCAL) spin_site(x, I, l, addr[l], SPIN_READ);
    }
    mem_count_access(x, I, em, addr, size, false);
}

/* The thread's release information for a strong write it makes now. */
static WRel own_release(const WThread *wk, uint8_t order, uint8_t scope, uint64_t now)
{
    WRel r = wk->relf;
    if (order == MS_RELEASE || order == MS_ACQREL) {
        r.ts = now;
        r.scope = r.scope > scope ? r.scope : scope;
        r.cta = wk->cta;
    }
    return r;
}

/* Merges release information conservatively: the later time, the wider
 * scope (more synchronisation, never less). */
static WRel rel_merge(WRel a, const WRel *b)
{
    if (!b->ts) return a;
    if (!a.ts) return *b;
    WRel r = { umax(a.ts, b->ts), a.cta, a.scope > b->scope ? a.scope : b->scope };
    if (a.cta != b->cta) r.scope = WS_GPU;
    return r;
}

/* One lane of a store: buffered (plain, relaxed), or performed after the
 * buffer drained (release).  counted: the caller counts the access. */
static void store_lane(Exec *x, const EInst *S, int l, bool counted)
{
    (void)counted;
    Machine *M = x->M;
    Thread *T = x->T[l];
    const EOp *a = &S->o[0], *v = &S->o[1];
    uint32_t es = elem_size(S->t), n = S->vec, size = es * n;
    uint32_t psn;
    uint64_t addr = mem_addr_of(x, a, l, &psn);
    MemRef r;
    if (!mem_ref(x, S, l, S->space, addr, size, true, &r)) return;
    nc_note_write(x, S, &r, size);
    const EOp *el = n > 1 ? &M->P->pool[v->reg] : v;
    uint64_t off;
    WHist *h = size <= 32 ? hist_of(x, &r, &off) : NULL;
    if (!h) {
        for (uint32_t k = 0; k < n; k++) {
            MemRef rk = r;
            rk.p += k * es;
            if (rk.sh) rk.sh += k * es;
            mem_store(&rk, es, opv(x, &el[k], l));
            mem_store_psn(M, &rk, es, opp(x, &el[k], l));
        }
        spin_wrote(T);
        return;
    }
    WThread *wk = wthread(M, T, x->w->cta);
    WEntry e;
    e.h = h;
    e.off = off;
    e.size = size;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t val = opv(x, &el[k], l);
        uint32_t vp = opp(x, &el[k], l);
        memcpy(e.data + k * es, &val, es);
        memset(e.dsh + k * es, vp ? 2 : 0, es);
        if (vp && r.alloc && !r.alloc->poison_origin) r.alloc->poison_origin = vp;
    }
    uint8_t order = MSEM_ORDER(S->msem), scope = MSEM_SCOPE(S->msem);
    e.scope = order == MS_WEAK ? WS_NONE : scope;
    e.rel = order == MS_WEAK ? (WRel){ 0, 0, 0 } : wk->relf;
    if (order == MS_RELEASE || order == MS_ACQREL) {
        weak_release(M, T);
        WMeta m = { wk->uid, wk->cta, scope, own_release(wk, order, scope, M->wts + 1) };
        hist_write(M, h, off, e.data, e.dsh, size, &m);
    } else {
        if (wk->n == WBUF_CAP) drain_random(M, T);
        e.when = M->clock;
        wk->buf[wk->n++] = e;
        wlist_add(M, T);
    }
    spin_wrote(T);
}

void weak_st(Exec *x, const EInst *I, uint32_t em)
{
    const EOp *a = &I->o[0];
    uint32_t es = elem_size(I->t), size = es * I->vec;
    uint64_t addr[32];
    if (a->ab == AB_REG) {
        uint32_t bad = 0;
        FOR_LANES(l, em) if (x->P[l][a->reg]) bad |= 1u << l;
        if (bad) { poisoned_address(x, I, a, em); return; }
    }
    uint32_t pc1 = (uint32_t)(I - x->M->P->code) + 1;
    FOR_LANES(l, em) {
        uint32_t psn;
        addr[l] = mem_addr_of(x, a, l, &psn);
        WThread *wk = x->T[l]->wk;
        if (wk && wk->hoist_pc1 == pc1) { wk->hoist_pc1 = 0; continue; }   /* performed ahead of a load */
        store_lane(x, I, l, true);
        if (x->M->failed) return;
    }
    emu_progress(x->M, x->w);
    mem_count_access(x, I, em, addr, size, true);
}

/* The value an atomic computes (exec_mem.c). */
uint64_t emu_atom_new(const EInst *I, uint64_t old, uint64_t b, uint64_t c, bool global_space);
int emu_atom_order(const Exec *x, const EInst *I, uint32_t em, uint8_t *order);

void weak_atom(Exec *x, const EInst *I, uint32_t em)
{
    Machine *M = x->M;
    bool red = I->sub2;
    int first = red ? 0 : 1;
    const EOp *d = &I->o[0], *a = &I->o[first], *b = &I->o[first + 1], *c = &I->o[first + 2];
    uint32_t size = elem_size(I->t);
    if (a->ab == AB_REG) {
        uint32_t bad = 0;
        FOR_LANES(l, em) if (x->P[l][a->reg]) bad |= 1u << l;
        if (bad) { poisoned_address(x, I, a, em); return; }
    }
    uint8_t order = MSEM_ORDER(I->msem), scope = MSEM_SCOPE(I->msem);
    uint64_t addr[32];
    uint8_t ord[32];
    int n = emu_atom_order(x, I, em, ord);
    uint64_t mk = mask_bits(ty_bits(I->t));
    for (int k = 0; k < n; k++) {
        int l = ord[k];
        Thread *T = x->T[l];
        uint32_t psn;
        addr[l] = mem_addr_of(x, a, l, &psn);
        MemRef r;
        if (!mem_ref(x, I, l, I->space, addr[l], size, true, &r)) return;
        nc_note_write(x, I, &r, size);
        uint64_t off;
        WHist *h = hist_of(x, &r, &off);
        WThread *wk = h ? wthread(M, T, x->w->cta) : NULL;
        const WRec *rec = NULL;
        if (h) {
            if (order == MS_RELEASE || order == MS_ACQREL) weak_release(M, T);
            else drain_overlapping(M, T, h, off, size);
            WWord *ww = hist_word(h, off / 4, false);
            if (ww && ww->n) rec = &ww->r[ww->n - 1];
        }
        /* A .cta atomic on global memory is atomic only against the
         * accesses it is morally strong with (ptx.als atomicity: strong fr
         * and co): it may read the location as it was before writes of
         * other CTAs, and its write still comes last. */
        uint8_t ob[8], osh[8];
        MemRef rr = r;
        if (h && scope == WS_CTA && r.space == SP_GLOBAL && (wrand(M) & 1)) {
            uint64_t lo = word_min(wk, h, off / 4, hist_word(h, off / 4, false));
            WWord *ww = hist_word(h, off / 4, false);
            for (int i = 0; ww && i < ww->n; i++)
                if (ww->r[i].cta == wk->cta) lo = umax(lo, ww->r[i].ts);
            const WRec *seen = hist_read(h, off, size, lo, ob, osh);
            rec = seen;
            rr.p = ob;
            rr.sh = osh;
            rr.alloc = NULL;
        }
        uint64_t old = mem_load(&rr, size);
        uint32_t opsn = mem_load_psn(x, &rr, size, l, I, addr[l], r.space);
        uint64_t vb = opv(x, b, l), vc = I->sub == AO_CAS ? opv(x, c, l) : 0;
        uint32_t vpsn = psn2(opp(x, b, l), I->sub == AO_CAS ? opp(x, c, l) : 0);
        uint64_t nv = emu_atom_new(I, old, vb, vc, r.space == SP_GLOBAL);
        bool writes = !(I->sub == AO_CAS && (old & mk) != (vb & mk));
        if (nv != (old & mk)) { emu_progress(M, x->w); spin_wrote(T); }
        if (!red && I->sub == AO_CAS)
            spin_site(x, I, l, addr[l], (old & mk) == (vb & mk) ? SPIN_OK : SPIN_FAIL);
        else if (!red && I->sub == AO_EXCH && vb != 0)
            spin_site(x, I, l, addr[l], nv != (old & mk) ? SPIN_OK : SPIN_FAIL);
        uint32_t npsn = psn2(opsn, (I->sub == AO_CAS && nv == old) ? 0 : vpsn);
        WRel inh = { 0, 0, 0 };
        bool strong_rf = rec && morally_strong(scope, wk->cta, rec);
        if (strong_rf) inh = (WRel){ rec->rel_ts, rec->rel_cta, rec->rel_scope };
        if (h && writes) {
            uint8_t nb[8], nsh[8];
            memcpy(nb, &nv, size);
            memset(nsh, npsn ? 2 : 0, size);
            if (npsn && r.alloc && !r.alloc->poison_origin) r.alloc->poison_origin = npsn;
            WMeta m = { wk->uid, wk->cta, scope, rel_merge(own_release(wk, order, scope, M->wts + 1), &inh) };
            uint64_t ts = hist_write(M, h, off, nb, nsh, size, &m);
            obs_put(wk, h, off / 4, ts);
        } else {
            if (!h) mem_store(&r, size, nv);
            if (!h) mem_store_psn(M, &r, size, npsn);
            if (h && rec) obs_put(wk, h, off / 4, rec->ts);
        }
        if (h && strong_rf) {
            if (order == MS_ACQUIRE || order == MS_ACQREL) {
                if (rel_sync(&inh, scope, wk->cta)) wk->floor = umax(wk->floor, inh.ts);
            } else {
                if (rel_sync(&inh, WS_CTA, wk->cta)) wk->pend_cta = umax(wk->pend_cta, inh.ts);
                if (rel_sync(&inh, WS_GPU, wk->cta)) wk->pend_gpu = umax(wk->pend_gpu, inh.ts);
            }
        }
        if (!red) opw(x, d, l, old, opsn);
        M->cnt.atomics++;
    }
    mem_count_access(x, I, em, addr, size, true);
}

/* fence.sc / fence.acq_rel / membar: a release (the buffer drains; strong
 * stores after it carry its release) and an acquire (the floor rises to
 * the releases observed by earlier strong loads); fence.sc also to the
 * latest fence.sc it is morally strong with. */
void exec_fence(Exec *x, const EInst *I, uint32_t em)
{
    Machine *M = x->M;
    if (!M->weak) return;
    uint8_t order = MSEM_ORDER(I->msem), scope = MSEM_SCOPE(I->msem);
    Cta *c = x->w->cta;
    FOR_LANES(l, em) {
        Thread *T = x->T[l];
        WThread *wk = wthread(M, T, c);
        weak_release(M, T);
        WRel f = { M->wts, wk->cta, scope };
        wk->relf = rel_merge(f, &wk->relf);
        wk->relf.ts = M->wts;
        wk->floor = umax(wk->floor, scope >= WS_GPU ? wk->pend_gpu : wk->pend_cta);
        if (order == MS_SC) {
            wk->floor = umax(wk->floor, c->last_sc);
            if (scope >= WS_GPU) wk->floor = umax(wk->floor, M->last_sc_gpu);
            c->last_sc = M->wts;
            if (scope >= WS_GPU) M->last_sc_gpu = M->wts;
        }
    }
}

/* cp.async and other writes the emulator performs at once: remembered. */
void weak_direct_write(Exec *x, int l, const MemRef *r, const uint8_t *data, const uint8_t *dsh, uint32_t size)
{
    Machine *M = x->M;
    uint64_t off;
    WHist *h = hist_of(x, r, &off);
    if (!h) { memcpy(r->p, data, size); if (r->sh) memcpy(r->sh, dsh, size); return; }
    Thread *T = x->T[l];
    WThread *wk = wthread(M, T, x->w->cta);
    drain_overlapping(M, T, h, off, size);
    WMeta m = { wk->uid, wk->cta, WS_NONE, { 0, 0, 0 } };
    hist_write(M, h, off, data, dsh, size, &m);
}
