// corpus-archs: sm_80 sm_86 sm_89 sm_90
// Warp-level mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 through
// inline asm (sm_80+).  Each block is one warp and solves one independent
// problem p = blockIdx.x:  D[16x8] = A[16x16] * B[16x8]  with
//   A row-major   at a  + p*256  (a[r*16 + k]),
//   B given transposed (column-major) at bt + p*128  (bt[col*16 + k]),
//   D row-major   at d  + p*128  (d[r*8 + col]), all half except D (float).
#include <cuda_fp16.h>

extern "C" __global__ void mma_m16n8k16_f16_f32(float *d, const __half *a, const __half *bt)
{
    const __half *A = a + blockIdx.x * 256;
    const __half *B = bt + blockIdx.x * 128;
    float *D = d + blockIdx.x * 128;
    int lane = threadIdx.x & 31;
    int g = lane >> 2, t = lane & 3;

    // Fragment layouts from the PTX ISA (m16n8k16, .f16 A/B, .f32 C/D).
    unsigned a0 = *(const unsigned *)(A + g * 16 + t * 2);
    unsigned a1 = *(const unsigned *)(A + (g + 8) * 16 + t * 2);
    unsigned a2 = *(const unsigned *)(A + g * 16 + t * 2 + 8);
    unsigned a3 = *(const unsigned *)(A + (g + 8) * 16 + t * 2 + 8);
    unsigned b0 = *(const unsigned *)(B + g * 16 + t * 2);
    unsigned b1 = *(const unsigned *)(B + g * 16 + t * 2 + 8);
    float c0 = 0.0f, c1 = 0.0f, c2 = 0.0f, c3 = 0.0f;

    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));

    D[g * 8 + t * 2] = c0;
    D[g * 8 + t * 2 + 1] = c1;
    D[(g + 8) * 8 + t * 2] = c2;
    D[(g + 8) * 8 + t * 2 + 1] = c3;
}
