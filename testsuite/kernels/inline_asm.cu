// Inline PTX: lop3.b32 a ^ (b & c) (LUT 0x78), a custom add.cc/addc 64-bit
// add through two 32-bit halves, bfe/bfi bit-field ops, a %laneid read and
// an asm-local register declared in a { } scope.
__device__ __forceinline__ unsigned lop3_and_xor(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("lop3.b32 %0, %1, %2, %3, 0x78;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ __forceinline__ unsigned long long add64_carry(unsigned long long a, unsigned long long b)
{
    unsigned lo, hi;
    asm("{\n\t"
        ".reg .u32 alo, ahi, blo, bhi;\n\t"
        "mov.b64 {alo, ahi}, %2;\n\t"
        "mov.b64 {blo, bhi}, %3;\n\t"
        "add.cc.u32 %0, alo, blo;\n\t"
        "addc.u32 %1, ahi, bhi;\n\t"
        "}"
        : "=r"(lo), "=r"(hi) : "l"(a), "l"(b));
    return ((unsigned long long)hi << 32) | lo;
}

__device__ __forceinline__ unsigned lane_id()
{
    unsigned l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

// out[i] = (a ^ (b&c)) + bfe(a, 4, 8) + laneid; wide[i] = x[i] + y[i] (64-bit).
extern "C" __global__ void inline_asm(unsigned *out, unsigned long long *wide, const unsigned *a,
                                      const unsigned *b, const unsigned *c,
                                      const unsigned long long *x, const unsigned long long *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned field;
    asm("bfe.u32 %0, %1, 4, 8;" : "=r"(field) : "r"(a[i]));
    unsigned r = lop3_and_xor(a[i], b[i], c[i]) + field + lane_id();
    asm("bfi.b32 %0, %1, %0, 0, 0;" : "+r"(r) : "r"(0u));
    out[i] = r;
    wide[i] = add64_carry(x[i], y[i]);
}
