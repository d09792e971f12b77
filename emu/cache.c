/* cache.c — the cache model of ptxopt-emu --cache (opt-in).
 *
 * Why: the bypass pass (issue 13) changes which warps cache their loads and
 * with which operator; without a GPU its effect can only be judged by
 * replaying the kernel's accesses through a model of the caches.  This is
 * that model.  It sees every global access of the run in the order the
 * scheduler issues them, never changes a value, and counts.
 *
 * Structure.  One sectored L1 per simulated SM and one L2 for all of them
 * (the chip's slices folded into one cache), both set-associative with
 * 128-byte lines of four 32-byte sectors (model/cache.h gives the geometry
 * per target).  Set index: a multiplicative hash of the line address
 * modulo the number of sets (index=mod: the line address itself, for
 * hand-computed tests).  A way holds a tag, a valid and a dirty mask of sectors, an
 * LRU stamp and an eviction priority; the victim is an empty way, else the
 * way of the lowest priority class (evict_first < normal < evict_last),
 * least recently used within it.  A miss fetches only the missing sectors.
 *
 * CTAs go to SMs round-robin, skipping full SMs (ctas-per-sm resident per
 * SM); the scheduler admits sms x ctas-per-sm CTAs at once instead of
 * --resident, so the warps of the CTAs on one SM interleave as the policy
 * (its/hanoi) runs them.
 *
 * Operators (decode.c turns modifiers into EInst.cl1/cl2):
 *   loads    default, .ca, .nc, ldu, .cg.nc   L1 allocate, normal priority
 *            .cs, .lu (also .nc)                L1 and L2 evict-first
 *            .L1::evict_first/normal/last       the L1 priority of the line;
 *            .L1::evict_unchanged               a hit keeps the line's
 *            .L1::no_allocate                   hits are served, misses are not
 *                                               allocated, LRU is not touched
 *            .cg, strong (.relaxed/.acquire) at gpu/cluster/sys scope
 *                                               bypass L1 (counted "bypassed")
 *            .cv, .volatile, .mmio              bypass L1 and drop its copy;
 *                                               the L2 copy counts as stale:
 *                                               every sector is an L2 miss
 *                                               and a DRAM read
 *            .L2::evict_*                       the L2 priority
 *            .L2::cache_hint + createpolicy     the policy's primary priority
 *                                               for a fraction of the lines
 *                                               (chosen by a hash of the line
 *                                               address), its secondary for
 *                                               the rest; the policy is read
 *                                               from the first active lane
 *   stores   write-through, no L1 allocation (a present L1 line is updated
 *            in place, its state unchanged); the L2 allocates the sectors
 *            written (no DRAM read: byte-masked writes) and marks them dirty;
 *            a dirty sector evicted from the L2 is a DRAM write
 *   atomics  performed at the L2 (a DRAM read on a miss, dirty), and the
 *            issuing SM's L1 copy of the sectors is dropped
 *   cp.async .ca allocates in L1, .cg bypasses it (counted as loads)
 * Not modelled: local memory (spills), constant and texture paths, the
 * instruction cache, MSHRs, bandwidth and timing, L1 coherence between
 * SMs, prefetch and applypriority/discard, atomics' cache hints.
 *
 * Cost: per warp access a sort of at most 32 x 4 sector numbers and one
 * scan of a set per distinct line; nothing is allocated after setup. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/internal.h"
#include "model/cache.h"
#include "model/occupancy.h"

typedef struct CLine {
    uint64_t stamp;             /* last use, for LRU */
    uint8_t valid, dirty;       /* sector masks; valid 0: the way is empty */
    uint8_t pri;                /* CPRI_FIRST, CPRI_NORMAL, CPRI_LAST */
} CLine;

/* Tags live apart from the rest of a way so that a lookup scans one
 * contiguous array (a set of the default L1 has hundreds of ways); an
 * empty way's tag is NO_TAG.  mru[set] is the way hit last, tried first. */
#define NO_TAG UINT64_MAX
typedef struct CLevel {
    uint32_t nsets, assoc;
    bool hashed;                /* set = hash(line) mod sets, else line mod sets */
    uint64_t *tag;              /* line address (byte address >> line shift), nsets * assoc */
    CLine *way;                 /* nsets * assoc */
    uint32_t *mru;              /* nsets */
} CLevel;

struct CacheSim {
    uint32_t line_shift, sector_shift, spl;   /* spl: sectors per line */
    uint32_t sms, cpsm, rr;
    uint32_t *load;             /* resident CTAs per SM */
    CLevel *l1;                 /* one per SM */
    CLevel l2;
    uint64_t clock;
    int partition;
    int32_t *site_of_pc;        /* -1: not a site */
    EmuCacheSite *sites;
    uint32_t nsites;
    EmuCacheReport rep;         /* geometry and totals, moved to the result */
};

/* ------------------------------------------------------------- levels */

/* The set of line la.  Hashed (the default, index=hash): a
 * multiplicative hash spreads power-of-two strides over the sets as the
 * hardware's (unpublished) hashing does; with index=mod a row stride of a
 * multiple of sets x 128 bytes would put every row of a warp in one set.
 * index=mod is for hand-computed tests. */
static inline uint32_t set_of(const CLevel *L, uint64_t la)
{
    uint64_t h = L->hashed ? (la * 0x9e3779b97f4a7c15ull) >> 32 : la;
    return (uint32_t)(h % L->nsets);
}

static CLine *find(CLevel *L, uint64_t la)
{
    uint32_t set = set_of(L, la);
    size_t base = (size_t)set * L->assoc;
    const uint64_t *t = &L->tag[base];
    uint32_t k = L->mru[set];
    if (t[k] != la)
        for (k = 0; k < L->assoc && t[k] != la; k++) {}
    if (k == L->assoc) return NULL;
    L->mru[set] = k;
    return &L->way[base + k];
}

/* The way to fill with line la (its tag is set here). */
static CLine *victim(CLevel *L, uint64_t la)
{
    uint32_t set = set_of(L, la);
    size_t base = (size_t)set * L->assoc;
    CLine *s = &L->way[base];
    uint32_t best = 0;
    for (uint32_t k = 0; k < L->assoc; k++) {
        CLine *w = &s[k];
        if (!w->valid) { best = k; break; }
        if (w->pri < s[best].pri || (w->pri == s[best].pri && w->stamp < s[best].stamp)) best = k;
    }
    L->tag[base + best] = la;
    L->mru[set] = best;
    return &s[best];
}

/* Empties way w of level L (its sectors were all dropped). */
static void drop(CLevel *L, CLine *w)
{
    L->tag[w - L->way] = NO_TAG;
    w->valid = 0;
    w->dirty = 0;
}

static inline uint64_t pop(uint32_t m) { return (uint64_t)__builtin_popcount(m); }

/* An L1 access of the sectors m of line la; returns the sectors L2 must
 * supply. */
static uint32_t l1_line(struct CacheSim *S, CLevel *L, uint64_t la, uint32_t m, int mode, int pri, EmuCacheCounts *c)
{
    CLine *w;
    uint32_t hit = 0;
    switch (mode) {
    case CL1_BYPASS:
        c->l1_bypassed += pop(m);
        return m;
    case CL1_INVALIDATE:
        if ((w = find(L, la)) && !(w->valid &= (uint8_t)~m)) drop(L, w);
        c->l1_bypassed += pop(m);
        return m;
    case CL1_NOALLOC:
        if ((w = find(L, la))) hit = w->valid & m;
        break;
    default:
        if ((w = find(L, la))) {
            hit = w->valid & m;
            w->valid |= (uint8_t)m;
            if (pri != CPRI_UNCHANGED) w->pri = (uint8_t)pri;
        } else {
            w = victim(L, la);
            w->valid = (uint8_t)m;
            w->dirty = 0;
            w->pri = (uint8_t)(pri == CPRI_UNCHANGED ? CPRI_NORMAL : pri);
        }
        w->stamp = ++S->clock;
        break;
    }
    c->l1_hits += pop(hit);
    c->l1_misses += pop(m & ~hit);
    return m & ~hit;
}

/* An L2 access of sectors m of line la.  need_data: the sectors missing
 * are read from DRAM (loads, atomics); write: they become dirty. */
static void l2_line(struct CacheSim *S, uint64_t la, uint32_t m, int pri, bool refetch, bool write, bool need_data,
                    EmuCacheCounts *c)
{
    CLevel *L = &S->l2;
    CLine *w = find(L, la);
    uint32_t hit = 0;
    if (w) {
        hit = refetch ? 0 : (w->valid & m);
        if (pri != CPRI_UNCHANGED) w->pri = (uint8_t)pri;
    } else {
        w = victim(L, la);
        if (w->valid) S->rep.dram_write_sectors += pop(w->dirty);
        w->valid = 0;
        w->dirty = 0;
        w->pri = (uint8_t)(pri == CPRI_UNCHANGED ? CPRI_NORMAL : pri);
    }
    w->valid |= (uint8_t)m;
    if (write) w->dirty |= (uint8_t)m;
    w->stamp = ++S->clock;
    c->l2_hits += pop(hit);
    c->l2_misses += pop(m & ~hit);
    if (need_data) c->dram_sectors += pop(m & ~hit);
}

/* ------------------------------------------------------------- accesses */

static inline void count_add(EmuCacheCounts *d, const EmuCacheCounts *s)
{
    d->requests += s->requests;
    d->sectors += s->sectors;
    d->l1_hits += s->l1_hits;
    d->l1_misses += s->l1_misses;
    d->l1_bypassed += s->l1_bypassed;
    d->l2_hits += s->l2_hits;
    d->l2_misses += s->l2_misses;
    d->dram_sectors += s->dram_sectors;
}

/* The L2 priority of line la under an .L2::cache_hint policy. */
static int hint_pri(uint64_t pol, uint64_t la, int dflt)
{
    if ((pol >> 56) != CPOL_TAG) return dflt;
    uint32_t frac = (uint32_t)(pol >> 4) & 0x1ff;
    uint64_t h = la * 0x9e3779b97f4a7c15ull;
    uint32_t r = (uint32_t)(h >> 56);          /* 0..255, fixed per line */
    return r < frac ? (int)(pol & 3) : (int)((pol >> 2) & 3);
}

void cache_access(Exec *x, const EInst *I, uint32_t em, const uint64_t *addr, uint32_t size)
{
    Machine *M = x->M;
    struct CacheSim *S = M->cache;
    if (!S || !em || !size) return;
    uint32_t pc = (uint32_t)(I - M->P->code);
    int32_t site = S->site_of_pc[pc];
    if (site < 0) return;
    /* the distinct sectors of the global lanes, ascending */
    uint64_t sec[32 * 4];
    int n = 0;
    FOR_LANES(l, em) {
        uint64_t a = addr[l];
        uint32_t tag = TAG_OF(a);
        if (tag < TAG_ALLOC0 || tag - TAG_ALLOC0 >= M->nallocs || M->allocs[tag - TAG_ALLOC0].space != SP_GLOBAL) continue;
        uint64_t first = a >> S->sector_shift, last = (a + size - 1) >> S->sector_shift;
        for (uint64_t s = first; s <= last && n < (int)(sizeof sec / sizeof sec[0]); s++) {
            int k = n++;
            while (k > 0 && sec[k - 1] > s) { sec[k] = sec[k - 1]; k--; }
            sec[k] = s;
        }
    }
    if (!n) return;
    int kind = I->op == EK_ST ? EMU_CACHE_STORE : I->op == EK_ATOM ? EMU_CACHE_ATOMIC : EMU_CACHE_LOAD;
    int part = S->partition >= 0 && x->w->id >= (uint32_t)S->partition ? EMU_CACHE_BYPASSING : EMU_CACHE_CACHING;
    CLevel *L1 = &S->l1[x->w->cta->sm];
    int mode = CL1_MODE(I->cl1), p1 = CL1_PRI(I->cl1), p2 = CL2_PRI(I->cl2);
    bool refetch = (I->cl2 & CL2_REFETCH) != 0;
    uint64_t pol = 0;
    if (I->cl2 & CL2_HINT) pol = opv(x, &I->o[2], __builtin_ctz(em));
    EmuCacheCounts c;
    memset(&c, 0, sizeof c);
    c.requests = 1;
    uint32_t lsh = S->line_shift - S->sector_shift;
    for (int i = 0; i < n;) {
        uint64_t la = sec[i] >> lsh;
        uint32_t m = 0;
        for (; i < n && (sec[i] >> lsh) == la; i++) m |= 1u << (sec[i] & (S->spl - 1));   /* duplicates fold */
        c.sectors += pop(m);
        int q2 = (I->cl2 & CL2_HINT) ? hint_pri(pol, la, p2) : p2;
        if (kind == EMU_CACHE_LOAD) {
            uint32_t miss = l1_line(S, L1, la, m, mode, p1, &c);
            if (miss) l2_line(S, la, miss, q2, refetch, false, true, &c);
        } else if (kind == EMU_CACHE_STORE) {
            c.l1_bypassed += pop(m);              /* write-through; a present line is updated in place */
            l2_line(S, la, m, q2, false, true, false, &c);
        } else {
            l1_line(S, L1, la, m, CL1_INVALIDATE, CPRI_NORMAL, &c);
            l2_line(S, la, m, q2, false, true, true, &c);
        }
    }
    count_add(&S->sites[site].part[part], &c);
    count_add(&S->rep.kind[kind][part], &c);
}

/* ----------------------------------------------------------- residency */

uint32_t cache_resident_limit(const Machine *M, uint32_t dflt)
{
    const struct CacheSim *S = M->cache;
    if (!S || M->L->cooperative) return dflt;
    return S->sms * S->cpsm;
}

void cache_cta_start(Machine *M, Cta *c)
{
    struct CacheSim *S = M->cache;
    if (!S) return;
    uint32_t sm = S->rr % S->sms;
    for (uint32_t k = 0; k < S->sms; k++) {
        uint32_t t = (S->rr + k) % S->sms;
        if (S->load[t] < S->cpsm) { sm = t; break; }
    }
    c->sm = sm;
    S->load[sm]++;
    S->rr = sm + 1;
}

void cache_cta_end(Machine *M, Cta *c)
{
    struct CacheSim *S = M->cache;
    if (S && S->load[c->sm]) S->load[c->sm]--;
}

/* ---------------------------------------------------------------- setup */

static bool fail(Machine *M, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Machine *M, const char *fmt, ...)
{
    char buf[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    emu_fail(M, EMU_ERR_SETUP, "SETUP", NULL, NULL, 0, "--cache (%s): %s", M->L->cache->arch, buf);
    return false;
}

static bool level_init(CLevel *L, uint64_t bytes, uint32_t line, uint32_t assoc, bool hashed)
{
    L->hashed = hashed;
    uint64_t lines = bytes / line;
    if (!assoc || lines < assoc || lines % assoc) return false;
    L->assoc = assoc;
    L->nsets = (uint32_t)(lines / assoc);
    L->way = calloc(lines, sizeof(CLine));
    L->tag = malloc(sizeof(uint64_t) * lines);
    L->mru = calloc(L->nsets, sizeof(uint32_t));
    if (!L->way || !L->tag || !L->mru) return false;
    for (uint64_t i = 0; i < lines; i++) L->tag[i] = NO_TAG;
    return true;
}

static bool is_site(const EInst *I)
{
    if (I->op != EK_LD && I->op != EK_ST && I->op != EK_ATOM && I->op != EK_CPASYNC) return false;
    return I->op == EK_CPASYNC || I->space == SP_GLOBAL || I->space == SP_GENERIC;
}

bool cache_setup(Machine *M)
{
    const EmuCacheConfig *cf = M->L->cache;
    if (!cf) return true;
    const EmuProgram *P = M->P;
    const Arch *a = arch_find(cf->arch);
    const CacheGeom *g = cache_geom_of(a);
    if (!g) return fail(M, "no cache geometry for this target (sm_70 ... sm_90 have one)");
    struct CacheSim *S = calloc(1, sizeof *S);
    if (!S) return fail(M, "out of memory");
    M->cache = S;
    EmuCacheReport *R = &S->rep;
    snprintf(R->arch, sizeof R->arch, "%s", a->name);
    R->gpu = g->gpu;
    R->line_bytes = (uint32_t)g->line_bytes;
    R->sector_bytes = (uint32_t)g->sector_bytes;
    S->line_shift = (uint32_t)__builtin_ctz(R->line_bytes);
    S->sector_shift = (uint32_t)__builtin_ctz(R->sector_bytes);
    S->spl = R->line_bytes / R->sector_bytes;
    S->sms = cf->sms > 0 ? (uint32_t)cf->sms : 1;
    R->sms = S->sms;
    R->warps_per_cta = M->warps_per_cta;
    S->partition = cf->partition;
    R->partition = cf->partition;

    /* residency: the occupancy count (threads, CTAs and shared memory per
     * SM; registers are unknown to the emulator), or ctas-per-sm */
    OccInput in = occ_input((int)M->threads_per_cta, 0);
    in.smem_static = (long long)P->shared_static;
    in.smem_dynamic = M->L->shared_dyn;
    in.smem_optin = in.smem_static + in.smem_dynamic > a->smem_per_block;
    Occupancy oc = occ_compute(a, &in);
    long long smem_cta = oc.smem_per_block;
    uint32_t cpsm = cf->ctas_per_sm > 0 ? (uint32_t)cf->ctas_per_sm : (oc.blocks_per_sm > 0 ? (uint32_t)oc.blocks_per_sm : 1);
    if (cf->ctas_per_sm <= 0 && cf->carveout_kb >= 0 && smem_cta > 0) {
        long long fit = (long long)cf->carveout_kb * 1024 / smem_cta;
        if (fit < 1) return fail(M, "one CTA's %lld bytes of shared memory do not fit in a carve-out of %d KiB", smem_cta, cf->carveout_kb);
        if ((long long)cpsm > fit) cpsm = (uint32_t)fit;
    }
    S->cpsm = cpsm;
    R->ctas_per_sm = cpsm;

    /* L1: the unified array minus the carve-out (by default the smallest
     * step that holds the resident CTAs' shared memory, as the driver picks
     * it), unless l1= gives the size */
    int carve = cf->carveout_kb;
    if (carve < 0) {
        long long need = smem_cta > 0 && P->shared_static + M->L->shared_dyn > 0 ? smem_cta * cpsm : 0;
        long long step = arch_carveout_at_least(a, need);
        carve = step < 0 ? a->smem_per_sm / 1024 : (int)(step / 1024);
    }
    R->carveout_kb = carve;
    long long l1 = cf->l1_kb >= 0 ? (long long)cf->l1_kb * 1024 : cache_l1_bytes(g, carve);
    if (l1 < 0) return fail(M, "a carve-out of %d KiB is larger than the unified L1/shared array (%d KiB)", carve, g->l1_combined_kb);
    if (l1 < g->line_bytes) return fail(M, "an L1 of %lld bytes holds no %d-byte line", l1, g->line_bytes);
    uint64_t l1lines = (uint64_t)l1 / (uint64_t)g->line_bytes;
    uint32_t assoc = cf->assoc > 0 ? (uint32_t)cf->assoc
                                   : (uint32_t)(l1lines >= (uint64_t)g->l1_sets && l1lines % (uint64_t)g->l1_sets == 0 ? l1lines / (uint64_t)g->l1_sets : l1lines);
    S->l1 = calloc(S->sms, sizeof(CLevel));
    S->load = calloc(S->sms, sizeof(uint32_t));
    if (!S->l1 || !S->load) return fail(M, "out of memory");
    for (uint32_t k = 0; k < S->sms; k++)
        if (!level_init(&S->l1[k], (uint64_t)l1, R->line_bytes, assoc, !cf->index_mod))
            return fail(M, "an L1 of %lld bytes is not a whole number of sets of %u ways of %u-byte lines", l1, assoc, R->line_bytes);
    R->l1_bytes = (uint64_t)l1;
    R->l1_assoc = assoc;
    R->l1_sets = S->l1[0].nsets;

    long long l2 = cf->l2_kb > 0 ? (long long)cf->l2_kb * 1024 : cache_l2_share_bytes(g, (int)S->sms);
    uint32_t l2a = cf->l2_assoc > 0 ? (uint32_t)cf->l2_assoc : (uint32_t)g->l2_assoc;
    if (!level_init(&S->l2, (uint64_t)l2, R->line_bytes, l2a, !cf->index_mod))
        return fail(M, "an L2 of %lld bytes is not a whole number of sets of %u ways of %u-byte lines", l2, l2a, R->line_bytes);
    R->l2_bytes = (uint64_t)l2;
    R->l2_assoc = l2a;
    R->l2_sets = S->l2.nsets;
    R->index_mod = cf->index_mod;

    /* one site per global (or generic) memory instruction */
    S->site_of_pc = malloc(sizeof(int32_t) * (P->ncode + 1));
    if (!S->site_of_pc) return fail(M, "out of memory");
    uint32_t ns = 0;
    for (uint32_t pc = 0; pc < P->ncode; pc++) S->site_of_pc[pc] = is_site(&P->code[pc]) ? (int32_t)ns++ : -1;
    S->sites = calloc(ns + 1, sizeof(EmuCacheSite));
    if (!S->sites) return fail(M, "out of memory");
    for (uint32_t pc = 0; pc < P->ncode; pc++) {
        if (S->site_of_pc[pc] < 0) continue;
        EmuCacheSite *s = &S->sites[S->site_of_pc[pc]];
        const EInst *I = &P->code[pc];
        s->pc = pc;
        s->line = emu_inst_line(I);
        s->kind = I->op == EK_ST ? EMU_CACHE_STORE : I->op == EK_ATOM ? EMU_CACHE_ATOMIC : EMU_CACHE_LOAD;
    }
    S->nsites = ns;
    return true;
}

/* Moves the counters of the sites that ran into the result. */
void cache_finish(Machine *M)
{
    struct CacheSim *S = M->cache;
    if (!S || !S->l1 || !S->sites) return;
    EmuCacheReport *R = malloc(sizeof *R);
    if (!R) return;
    *R = S->rep;
    R->sites = calloc(S->nsites + 1, sizeof(EmuCacheSite));
    R->nsites = 0;
    for (uint32_t i = 0; i < S->nsites && R->sites; i++) {
        EmuCacheSite *s = &S->sites[i];
        if (!s->part[0].requests && !s->part[1].requests) continue;
        char text[240];
        R->sites[R->nsites] = *s;
        R->sites[R->nsites].text = strdup(emu_inst_text(M->P, &M->P->code[s->pc], text, sizeof text));
        R->nsites++;
    }
    M->res->cache = R;
}

void cache_free(Machine *M)
{
    struct CacheSim *S = M->cache;
    if (!S) return;
    if (S->l1)
        for (uint32_t k = 0; k < S->sms; k++) { free(S->l1[k].way); free(S->l1[k].tag); free(S->l1[k].mru); }
    free(S->l1);
    free(S->l2.way);
    free(S->l2.tag);
    free(S->l2.mru);
    free(S->load);
    free(S->site_of_pc);
    free(S->sites);
    free(S);
    M->cache = NULL;
}

void emu_cache_report_free(EmuCacheReport *c)
{
    if (!c) return;
    for (uint32_t i = 0; i < c->nsites; i++) free(c->sites[i].text);
    free(c->sites);
    free(c);
}
