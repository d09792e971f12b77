/* ncload.c — non-coherent loads (ld.global.nc, ldu) of written memory.
 *
 * ld.global.nc reads through the read-only (texture) cache, and ldu
 * promises data common to the warp and read-only; neither is coherent with
 * stores of the same launch.  Memory that any thread of the launch wrote
 * before the load (including the loading thread itself) may come back
 * stale on hardware, while the emulator's sequentially consistent memory
 * would return the fresh value and so hide the bug.  A rewrite that puts
 * .nc on written data, or a pass that trusts a .nc source to be immutable,
 * must therefore fail here instead of passing.
 *
 * Granularity is the byte: a store of element i does not taint element
 * i+1, so kernels that read an input with .nc and write a disjoint part of
 * the same allocation stay silent.  Only global memory is tracked, and only
 * when the program has a .nc or ldu load at all (decode.c sets has_nc):
 * then every allocation that is written gets a per-byte record of the last
 * writing instruction (4 bytes per byte, allocated at its first write), so
 * the report can name it.  Atomics count as writes.  A write that comes
 * after the last .nc read of a location is not reported: the value read was
 * the old one on hardware too.  Under ITS the order of writes and reads
 * varies with the seed, so --diff's several seeds find most orders. */
#include <stdlib.h>

#include "emu/internal.h"

void nc_note_write(Exec *x, const EInst *I, const MemRef *r, uint32_t size)
{
    Alloc *A = r->alloc;
    if (!A || r->space != SP_GLOBAL || !x->M->P->has_nc) return;
    if (!A->wpc) {
        A->wpc = calloc(A->size ? A->size : 1, sizeof *A->wpc);
        if (!A->wpc) return;   /* out of memory: the check is lost, the run stays correct */
    }
    uint64_t off = (uint64_t)(r->p - A->data);
    uint32_t pc1 = (uint32_t)(I - x->M->P->code) + 1;
    for (uint32_t i = 0; i < size && off + i < A->size; i++) A->wpc[off + i] = pc1;
}

bool nc_check_load(Exec *x, const EInst *I, int l, const MemRef *r, uint64_t addr, uint32_t size)
{
    Alloc *A = r->alloc;
    if (!A || !A->wpc || r->space != SP_GLOBAL) return true;
    uint64_t off = (uint64_t)(r->p - A->data);
    for (uint32_t i = 0; i < size && off + i < A->size; i++) {
        uint32_t pc1 = A->wpc[off + i];
        if (!pc1) continue;
        Machine *M = x->M;
        const EmuProgram *P = M->P;
        const EInst *W = &P->code[pc1 - 1];
        char text[240];
        emu_fail(M, EMU_ERR_CHECK, "UB_NC_WRITTEN", I, x->w, 1u << l,
                 "non-coherent load of %u bytes at 0x%llx (offset %llu of %s) reads memory this launch has written: "
                 "it may return a stale value",
                 size, (unsigned long long)addr, (unsigned long long)off, A->name);
        emu_fail_more(M, "  byte 0x%llx was last written by %s:%u: '%s'\n", (unsigned long long)(addr + i), P->m->filename,
                      emu_inst_line(W), emu_inst_text(P, W, text, sizeof text));
        if (W->fn != M->kernel) emu_fail_more(M, "  in function %s\n", P->funcs[W->fn].name);
        emu_fail_more(M, "  ld.global.nc and ldu need data that no thread writes during the launch; use a plain ld\n");
        return false;
    }
    return true;
}
