// corpus-archs: sm_80 sm_86 sm_89 sm_90
// Scoped and typed atomics: atomicAdd_block / atomicAdd_system (atom.cta /
// atom.sys), double atomicAdd (atom.add.f64, sm_60+), half2 atomicAdd,
// fetch_add through cuda::atomic_ref with explicit memory order
// (atom.acq_rel.gpu), and atomicCAS on 16-bit values (sm_70+).
// acc[0] += 1 per element, dsum[0] += d[i], hsum[0] += h[i].
#include <cuda_fp16.h>
#include <cuda/atomic>

extern "C" __global__ void atomics_scoped(int *acc, double *dsum, __half2 *hsum,
                                          const double *d, const __half2 *h, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __shared__ int blockcount;
    if (threadIdx.x == 0)
        blockcount = 0;
    __syncthreads();
    atomicAdd_block(&blockcount, 1);
    atomicAdd_system(&acc[1], 0);
    atomicAdd(dsum, d[i]);
    atomicAdd(hsum, h[i]);
    cuda::atomic_ref<int, cuda::thread_scope_device> ref(acc[0]);
    ref.fetch_add(1, cuda::memory_order_acq_rel);
}

// 16-bit CAS: tag[j] for j = i/2 ends as 1 (first writer wins), per element.
extern "C" __global__ void atomic_cas16(unsigned short *tag, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicCAS(&tag[i / 2], (unsigned short)0, (unsigned short)1);
}
