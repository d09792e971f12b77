// corpus-flags: -G -lineinfo
// Debug build (-G; nvcc ignores -lineinfo next to -G and says so, the flag
// is kept to mirror real build lines): unoptimised code with .loc
// directives, a multi-entry .file table and large .section .debug_* blocks
// (DWARF as .b8/.b32/.b64 lists).  It is the largest file of the corpus on
// purpose, for parser/printer throughput benchmarks.
//
// Besides its own kernel it compiles, unchanged, a selection of the plain
// corpus kernels (same names and semantics as their own files; references
// written for those apply here).  Only files that use no code from CUDA or
// host-compiler headers are included: under -G such code adds .file entries
// naming the toolkit's install path, which would tie the PTX to a machine.
#include "stencil1d_3pt.cu"
#include "stencil2d_5pt.cu"
#include "blur5x5.cu"
#include "stencil3d_7pt.cu"
#include "stencil3d_13pt.cu"
#include "tricubic.cu"
#include "jacobi_restrict.cu"
#include "grid_stride.cu"
#include "block_reduce_shared.cu"
#include "matmul_tiled.cu"
#include "matmul_naive.cu"
#include "bitonic_sort.cu"
#include "math_transcendental.cu"
#include "math_double.cu"
#include "divergent_return.cu"
#include "local_array.cu"
#include "switch_brx.cu"
#include "many_params.cu"
#include "int64_math.cu"
#include "noinline_calls.cu"
#include "recursion.cu"
#include "block2d.cu"
#include "block3d.cu"
#include "dynamic_shared.cu"

// Struct-typed locals and a by-value struct argument give the DWARF a
// user-defined type: out[i] = 0.25*in[i-1] + 0.5*in[i] + 0.25*in[i+1]
// (boundaries copied) + sum_{k<4} k*in[i]  (= 6*in[i]).
struct weights3 {
    float left, centre, right;
};

__device__ float weighted(weights3 w, float l, float c, float r)
{
    return w.left * l + w.centre * c + w.right * r;
}

extern "C" __global__ void debug_stencil(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    weights3 w = { 0.25f, 0.5f, 0.25f };
    float v;
    if (i == 0 || i == n - 1)
        v = in[i];
    else
        v = weighted(w, in[i - 1], in[i], in[i + 1]);
    float extra = 0.0f;
    for (int k = 0; k < 4; ++k)
        extra += (float)k * in[i];
    out[i] = v + extra;
}
