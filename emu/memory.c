/* memory.c — address translation with bounds/alignment checks, the
 * poison shadow of memory, and the memory-access counters (32-byte sectors
 * per global request, shared-memory bank conflicts). */
#include <string.h>

#include "emu/internal.h"

static const char *access_word(bool write) { return write ? "store" : "load"; }

static bool bad(Exec *x, const EInst *I, int l, const char *kind, const char *fmt, uint64_t addr, uint32_t size, bool write,
                const char *detail)
{
    Machine *M = x->M;
    if (M->failed) return false;
    char what[200];
    snprintf(what, sizeof what, fmt, access_word(write), size);
    emu_fail(M, EMU_ERR_CHECK, kind, I, x->w, 1u << l, "%s address 0x%llx%s%s", what, (unsigned long long)addr,
             detail ? ": " : "", detail ? detail : "");
    return false;
}

bool mem_ref(Exec *x, const EInst *I, int l, int sp, uint64_t addr, uint32_t size, bool write, MemRef *out)
{
    Machine *M = x->M;
    Thread *T = x->T[l];
    if (sp == SP_GENERIC) {
        uint32_t tag = TAG_OF(addr);
        if (tag == TAG_SHARED) { sp = SP_SHARED; addr &= 0xffffffffu; }
        else if (tag == TAG_LOCAL) { sp = SP_LOCAL; addr &= 0xffffffffu; }
        else if (tag == TAG_KPARAM) { sp = SP_PARAM; addr &= 0xffffffffu; }
        else if (tag >= TAG_ALLOC0 && tag - TAG_ALLOC0 < M->nallocs) sp = M->allocs[tag - TAG_ALLOC0].space;
        else return bad(x, I, l, "BAD_ADDRESS", "generic %s of %u bytes at", addr, size, write,
                        addr == 0 ? "null pointer" : "not inside any allocation or window");
    }
    if (size > 1 && (addr & (size - 1)) && (size & (size - 1)) == 0)
        return bad(x, I, l, "MISALIGNED", "misaligned %s of %u bytes at", addr, size, write, NULL);
    out->space = sp;
    out->alloc = NULL;
    char detail[160];
    switch (sp) {
    case SP_GLOBAL:
    case SP_CONST: {
        uint32_t tag = TAG_OF(addr);
        if (tag < TAG_ALLOC0 || tag - TAG_ALLOC0 >= M->nallocs)
            return bad(x, I, l, "BAD_ADDRESS", sp == SP_GLOBAL ? "global %s of %u bytes at" : "const %s of %u bytes at", addr, size,
                       write, addr == 0 ? "null pointer" : "not inside any allocation");
        Alloc *A = &M->allocs[tag - TAG_ALLOC0];
        uint64_t off = addr & 0xffffffffu;
        if (A->space != sp) {
            snprintf(detail, sizeof detail, "it belongs to %s (a %s variable)", A->name, space_name(A->space));
            return bad(x, I, l, "WRONG_SPACE", sp == SP_GLOBAL ? "global %s of %u bytes at" : "const %s of %u bytes at", addr, size, write, detail);
        }
        if (off + size > A->size) {
            snprintf(detail, sizeof detail, "offset %llu of %s, which has %llu bytes", (unsigned long long)off, A->name,
                     (unsigned long long)A->size);
            return bad(x, I, l, "OUT_OF_BOUNDS", "out-of-bounds %s of %u bytes at", addr, size, write, detail);
        }
        if (write && A->readonly) {
            snprintf(detail, sizeof detail, "%s is read-only", A->name);
            return bad(x, I, l, "READ_ONLY", "%s of %u bytes at", addr, size, write, detail);
        }
        out->p = A->data + off;
        out->sh = A->sh + off;
        out->alloc = A;
        return true;
    }
    case SP_SHARED: {
        Cta *c = x->w->cta;
        if (addr + size > c->shared_size || addr >= c->shared_size) {
            snprintf(detail, sizeof detail, "the CTA has %llu bytes of shared memory", (unsigned long long)c->shared_size);
            return bad(x, I, l, "OUT_OF_BOUNDS", "out-of-bounds shared %s of %u bytes at", addr, size, write, detail);
        }
        out->p = c->shared + addr;
        out->sh = c->shared_sh + addr;
        return true;
    }
    case SP_LOCAL:
        if (addr + size > T->local_top || addr >= T->local_top) {
            snprintf(detail, sizeof detail, "the thread has %u bytes of local memory in use", T->local_top);
            return bad(x, I, l, "OUT_OF_BOUNDS", "out-of-bounds local %s of %u bytes at", addr, size, write, detail);
        }
        out->p = T->local + addr;
        out->sh = T->local_sh + addr;
        return true;
    case SP_PARAM:
        if (addr + size > M->kparam_size || addr >= M->kparam_size)
            return bad(x, I, l, "OUT_OF_BOUNDS", "out-of-bounds kernel-parameter %s of %u bytes at", addr, size, write, NULL);
        if (write) return bad(x, I, l, "READ_ONLY", "%s of %u bytes of kernel parameters at", addr, size, write, "kernel parameters are read-only");
        out->p = M->kparam + addr;
        out->sh = NULL;
        return true;
    case SP_FPARAM:
        if (addr + size > T->fparam_top || addr >= T->fparam_top)
            return bad(x, I, l, "OUT_OF_BOUNDS", "out-of-bounds parameter %s of %u bytes at", addr, size, write, NULL);
        out->p = T->fparam + addr;
        out->sh = T->fparam_sh + addr;
        return true;
    default:
        return bad(x, I, l, "BAD_ADDRESS", "%s of %u bytes in an unknown space at", addr, size, write, NULL);
    }
}

uint64_t mem_load(const MemRef *r, uint32_t size)
{
    uint64_t v = 0;
    memcpy(&v, r->p, size > 8 ? 8 : size);
    return v;
}

void mem_store(const MemRef *r, uint32_t size, uint64_t v)
{
    memcpy(r->p, &v, size > 8 ? 8 : size);
}

uint32_t mem_load_psn(Exec *x, const MemRef *r, uint32_t size, int l, const EInst *I, uint64_t addr, int sp)
{
    if (!r->sh) return 0;
    uint8_t any = 0;
    for (uint32_t i = 0; i < size; i++) any |= r->sh[i];
    if (!any) return 0;
    Machine *M = x->M;
    uint32_t pc = (uint32_t)(I - M->P->code);
    if ((any & 2) && r->alloc && r->alloc->poison_origin) return r->alloc->poison_origin;
    return emu_poison_new(M, (any & 1) ? PE_NEVER_WRITTEN_MEM : PE_POISON_MEM, x, l, pc, addr, sp);
}

void mem_store_psn(Machine *M, const MemRef *r, uint32_t size, uint32_t psn)
{
    (void)M;
    if (!r->sh) return;
    memset(r->sh, psn ? 2 : 0, size);
    if (psn && r->alloc && !r->alloc->poison_origin) r->alloc->poison_origin = psn;
}

uint64_t mem_addr_of(Exec *x, const EOp *a, int l, uint32_t *psn)
{
    switch (a->ab) {
    case AB_REG:
        *psn = x->P[l][a->reg];
        /* a 32-bit address register: the sum wraps in 32 bits (nvcc
         * folds negative offsets into the register, [%r+4] with %r = -4) */
        if (a->bits == 32) return (x->R[l][a->reg] + (uint64_t)a->imm) & 0xffffffffu;
        return x->R[l][a->reg] + (uint64_t)a->imm;
    case AB_ABS:
        *psn = 0;
        return (uint64_t)a->imm;
    case AB_FLOCAL:
        *psn = 0;
        if (a->imm < 0) return (uint64_t)(-1 - a->imm);
        return x->T[l]->fr->local_base + (uint64_t)a->imm;
    case AB_FPARAM:
        *psn = 0;
        return x->T[l]->fr->fparam_base + (uint64_t)a->imm;
    default:
        *psn = 0;
        return 0;
    }
}

/* Counters: for global accesses the number of distinct 32-byte sectors the
 * lanes touch; for shared accesses the number of wavefronts (the largest
 * number of distinct 4-byte words any of the 32 banks must serve). */
void mem_count_access(Exec *x, const EInst *I, uint32_t em, const uint64_t *addr, uint32_t size, bool store)
{
    Machine *M = x->M;
    int sp = I->space;
    if (sp == SP_GENERIC && em) {
        uint32_t tag = TAG_OF(addr[__builtin_ctz(em)]);
        sp = tag == TAG_SHARED ? SP_SHARED : (tag >= TAG_ALLOC0 ? SP_GLOBAL : SP_LOCAL);
    }
    if (sp == SP_GLOBAL) {
        uint64_t sec[32 * 5];
        int n = 0;
        FOR_LANES(l, em) {
            uint64_t first = addr[l] >> 5, last = (addr[l] + size - 1) >> 5;
            for (uint64_t s = first; s <= last && n < (int)(sizeof sec / sizeof sec[0]); s++) {
                bool dup = false;
                for (int k = 0; k < n; k++) if (sec[k] == s) { dup = true; break; }
                if (!dup) sec[n++] = s;
            }
        }
        if (store) { M->cnt.gst_requests++; M->cnt.gst_sectors += (uint64_t)n; }
        else { M->cnt.gld_requests++; M->cnt.gld_sectors += (uint64_t)n; }
    } else if (sp == SP_SHARED) {
        uint32_t words[32][32];
        uint8_t nw[32] = { 0 };
        uint32_t maxw = 0;
        FOR_LANES(l, em) {
            uint64_t w0 = (addr[l] & 0xffffffffu) >> 2, w1 = ((addr[l] & 0xffffffffu) + size - 1) >> 2;
            for (uint64_t w = w0; w <= w1; w++) {
                uint32_t bank = (uint32_t)(w & 31);
                bool dup = false;
                for (int k = 0; k < nw[bank]; k++) if (words[bank][k] == (uint32_t)w) { dup = true; break; }
                if (!dup && nw[bank] < 32) words[bank][nw[bank]++] = (uint32_t)w;
                if (nw[bank] > maxw) maxw = nw[bank];
            }
        }
        if (maxw == 0) maxw = 1;
        M->cnt.shared_accesses++;
        M->cnt.shared_wavefronts += maxw;
        M->cnt.bank_conflicts += maxw - 1;
    }
}
