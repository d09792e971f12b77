// issue22.cu - the three shuffle soundness classes of issue 22, each a
// rewrite the pass made at the defaults (sm_80: max-delta=1, the
// profitability gate; the loads bypass L1 and are 64-bit, which the gate
// accepts) and at profit=off before the fix, and the emulator found wrong.
// nvcc -ptx -arch=sm_80 issue22.cu

__device__ __forceinline__ int ld_acquire(const int *p)
{
    int v;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_release(int *p, int v)
{
    asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Class 1: a load from a warp-uniform address is not a warp-uniform value
// when the lanes execute it at different times.  CTA 1 writes cfg[0] once
// CTA 0's lane 0 has read it; CTA 0's other lanes wait for that write.  Lane
// 0 reads the old value, the others the new one, and nothing races; the
// shuffle would hand lane 0 an element at lane 1's offset.
extern "C" __global__ void late_cfg(const double *a, double *out, int *cfg, int *flag, int *sig)
{
    unsigned lane = threadIdx.x & 31;
    if (blockIdx.x == 1) {
        if (threadIdx.x == 0) {
            while (ld_acquire(sig) == 0) { }
            cfg[0] = 7;
            st_release(flag, 1);
        }
        return;
    }
    if (lane != 0)
        while (ld_acquire(flag) == 0) { }
    int m = cfg[0];
    if (lane == 0) st_release(sig, 1);
    __syncwarp();
    int t = (int)threadIdx.x;
    double x = __ldcg(&a[t + m]);
    double y = __ldcg(&a[t + 1 + m]);
    out[t] = x * 2.0 + y;
}

// Class 2: a loop whose back edge is lane-divergent is not converged: the
// load next to the divergent break runs without the lanes that left.
extern "C" __global__ void late_brk(const double *a, double *out, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double x = __ldcg(&a[i]);
    double s = 0;
    for (int k = 0; k < m; k++) {
        s += __ldcg(&a[i + 1]) * (k + 1) + x;
        if (s > (double)(threadIdx.x % 5)) break;
    }
    out[i] = s;
}

// Class 3: PTX integers wrap.  The index wraps by definition (unsigned
// arithmetic converted to int); a[(long long)i + 1] does not overflow in C.
// Where lane l's i is INT_MAX, lane l+1's is INT_MIN: its source address
// lies 2^34 bytes below lane l's destination.  (d0..d8 place the two sides
// in allocations 2^34 apart in the emulator's address space.)
extern "C" __global__ void wrap_int(const double *a, unsigned base, const double *d0, const double *d1, const double *d2,
                                    const double *d3, const double *d4, const double *d5, const double *d6,
                                    const double *d7, const double *d8, double *out)
{
    int t = (int)threadIdx.x;
    int i = (int)(base + threadIdx.x);
    double x = __ldcg(&a[i]);
    double y = __ldcg(&a[(long long)i + 1]);
    out[t] = x * 2.0 + y;
}
