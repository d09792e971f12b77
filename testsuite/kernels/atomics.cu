// Global atomics: atomicAdd on int and float, atomicMax and atomicMin on int,
// and a compare-and-swap loop that implements a float multiply (no native
// atomic exists for it).  counters[0] += in_i, counters[1] = max, counters[2]
// = min, fsum[0] += fin, fprod[0] *= scale (order-independent only when every
// scale is a power of two; tests should use 1.0f or 2.0f).
__device__ float atomic_mul_float(float *addr, float v)
{
    int *iaddr = (int *)addr;
    int old = *iaddr, assumed;
    do {
        assumed = old;
        old = atomicCAS(iaddr, assumed, __float_as_int(__int_as_float(assumed) * v));
    } while (assumed != old);
    return __int_as_float(old);
}

extern "C" __global__ void atomics(int *counters, float *fsum, float *fprod,
                                   const int *in, const float *fin, const float *scale, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomicAdd(&counters[0], in[i]);
    atomicMax(&counters[1], in[i]);
    atomicMin(&counters[2], in[i]);
    atomicAdd(fsum, fin[i]);
    atomic_mul_float(fprod, scale[i]);
}

// Bitwise and counting atomics (results are order-independent):
// state[0] &= in[i], state[1] |= in[i], state[2] ^= in[i], state[3] counts
// threads (atomicInc, no wrap), state[4..5] is a 64-bit sum of in[i]
// (state must be 8-byte aligned).
extern "C" __global__ void atomics_bitwise(unsigned *state, const unsigned *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    atomicAnd(&state[0], in[i]);
    atomicOr(&state[1], in[i]);
    atomicXor(&state[2], in[i]);
    atomicInc(&state[3], 0xffffffffu);
    atomicAdd((unsigned long long *)&state[4], (unsigned long long)in[i]);
}
