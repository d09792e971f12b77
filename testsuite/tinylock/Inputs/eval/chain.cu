// corpus-archs: sm_80
// The thesis's validation chain (seed 002 §3.7 Pattern A, Listing 7.10):
// A[i + 32] = A[i] + f(i), mapped so that thread t of a CTA computes
//     A[t] = (t < 32 ? in[t] : A[t - 32]) + t
// i.e. every warp w > 0 consumes one value from the same lane of warp w - 1
// (distance 32: no intra-warp dependence).  Four synchronisation schemes,
// same result out[blockIdx.x * blockDim.x + t] = A[t]:
//   chain_barrier  bar.sync steps: before step s every warp meets, then warp
//                  s computes (each barrier orders one producer warp to one
//                  consumer warp: the barrier->channel rewrite target);
//   chain_flag     a volatile ready flag per element with membar.cta;
//   chain_acqrel   the same flags with cuda::atomic_ref release/acquire
//                  (st.release.cta / ld.acquire.cta: the target primitive);
//   chain_lock     "atom_lock" (Listing 7.11): every thread first holds the
//                  mutex of its element, the consumer takes the producer's
//                  mutex with atomicCAS (a lock used as a flag) and restores
//                  it, the producer releases with atomicExch.
// Launch: blockDim.x a multiple of 32, at most 512 (e.g. --block=512: 16
// warps), any grid; in and out have gridDim.x * blockDim.x ints.
#include <cuda/atomic>

extern "C" __global__ void chain_barrier(int *out, const int *in)
{
    __shared__ int A[512];
    int t = threadIdx.x, w = t / 32, g = blockIdx.x * blockDim.x + t;
    if (w == 0)
        A[t] = in[g] + t;
    for (int s = 1; s < (int)blockDim.x / 32; s++) {
        __syncthreads();
        if (w == s)
            A[t] = A[t - 32] + t;
    }
    __syncthreads();
    out[g] = A[t];
}

extern "C" __global__ void chain_flag(int *out, const int *in)
{
    __shared__ int A[512];
    __shared__ volatile int ready[512];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    ready[t] = 0;
    __syncthreads();
    int v;
    if (t < 32) {
        v = in[g];
    } else {
        while (ready[t - 32] == 0)
            ;
        __threadfence_block();
        v = A[t - 32];
    }
    A[t] = v + t;
    __threadfence_block();
    ready[t] = 1;
    out[g] = v + t;
}

extern "C" __global__ void chain_acqrel(int *out, const int *in)
{
    __shared__ int A[512];
    __shared__ int ready[512];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    ready[t] = 0;
    __syncthreads();
    int v;
    if (t < 32) {
        v = in[g];
    } else {
        cuda::atomic_ref<int, cuda::thread_scope_block> r(ready[t - 32]);
        while (r.load(cuda::memory_order_acquire) == 0)
            ;
        v = A[t - 32];
    }
    A[t] = v + t;
    cuda::atomic_ref<int, cuda::thread_scope_block>(ready[t]).store(1, cuda::memory_order_release);
    out[g] = v + t;
}

extern "C" __global__ void chain_lock(int *out, const int *in)
{
    __shared__ int A[512];
    __shared__ int mutex[512];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    mutex[t] = 1;            /* the producer holds its element's token */
    __syncthreads();
    int v;
    if (t < 32) {
        v = in[g];
    } else {
        while (atomicCAS(&mutex[t - 32], 0, 1) != 0)
            ;
        __threadfence_block();
        v = *(volatile int *)&A[t - 32];
        atomicExch(&mutex[t - 32], 0);   /* finalise: restore the token */
    }
    *(volatile int *)&A[t] = v + t;
    __threadfence_block();
    atomicExch(&mutex[t], 0);            /* release: the value is there */
    out[g] = v + t;
}
