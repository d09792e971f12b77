// A dense switch whose cases do different work (not a value lookup).  nvcc
// 13.0 lowers it to a tree of setp/bra (tried: 16 and 64 cases, in loops,
// -O3), never to a jump table, so a second kernel below spells brx.idx out
// in inline asm.  out[i] = case result for op[i] & 15, plus 0.25 (except
// case 3, which stores v - 3 and returns early).
__device__ __noinline__ float side(float x) { return x * 0.5f + 1.0f; }

extern "C" __global__ void switch_brx(float *out, const float *x, const int *op, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i], r;
    switch (op[i] & 15) {
    case 0: r = v + 1.0f; break;
    case 1: r = v * v; break;
    case 2: r = side(v); break;
    case 3: r = v - 3.0f; out[i] = r; return;
    case 4: r = fabsf(v) * 2.0f; break;
    case 5: r = side(v * 3.0f) + v; break;
    case 6: r = fminf(v, 2.0f); break;
    case 7: r = fmaxf(v, -2.0f) * 7.0f; break;
    case 8: r = floorf(v); break;
    case 9: r = ceilf(v) + 9.0f; break;
    case 10: r = side(side(v)); break;
    case 11: r = v * 11.0f - 1.0f; break;
    case 12: r = truncf(v) * 12.0f; break;
    case 13: r = -v; break;
    case 14: r = v * v * v; break;
    default: r = 0.0f; break;
    }
    out[i] = r + 0.25f;
}

// nvcc 13.0 lowers the switch above to a compare tree (its NVVM never emits
// brx.idx; clang >= 20 does).  To keep an indirect branch in the corpus,
// this kernel writes one by hand: out[i] = {10, 20, 30, 40}[sel[i] & 3] + i,
// chosen through .branchtargets / brx.idx inside a scoped asm block.
extern "C" __global__ void brx_idx_asm(int *out, const int *sel, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int r;
    asm volatile("{\n\t"
                 ".reg .u32 idx;\n\t"
                 "and.b32 idx, %1, 3;\n"
                 "brx_tab: .branchtargets brx_c0, brx_c1, brx_c2, brx_c3;\n\t"
                 "brx.idx idx, brx_tab;\n"
                 "brx_c0:\n\t"
                 "mov.u32 %0, 10;\n\t"
                 "bra.uni brx_end;\n"
                 "brx_c1:\n\t"
                 "mov.u32 %0, 20;\n\t"
                 "bra.uni brx_end;\n"
                 "brx_c2:\n\t"
                 "mov.u32 %0, 30;\n\t"
                 "bra.uni brx_end;\n"
                 "brx_c3:\n\t"
                 "mov.u32 %0, 40;\n"
                 "brx_end:\n\t"
                 "}"
                 : "=r"(r) : "r"(sel[i]));
    out[i] = r + i;
}
