// corpus-archs: sm_80
// The naive intra-warp spin lock on a shared-memory mutex (CUDA by Example,
// Listing 7.2 of the thesis): spin until atomicCAS succeeds, critical
// section *after* the loop, release with atomicExch.  Every thread of the
// CTA adds in[tid] to a shared total under the lock; thread 0 writes the
// total and the number of critical sections to out[2*blockIdx.x + {0,1}].
// Terminates only with independent thread scheduling (sm_70+): under
// pre-Volta lock-step the winner waits at the loop's reconvergence point
// while its warp-mates spin (SIMT deadlock, seed 002 §3.5).
// Launch: one or more CTAs, e.g. --block=64; in has gridDim*blockDim ints.
extern "C" __global__ void spinlock_warp(int *out, const int *in)
{
    __shared__ int mutex;
    __shared__ volatile int total, entries;
    if (threadIdx.x == 0) {
        mutex = 0;
        total = 0;
        entries = 0;
    }
    __syncthreads();
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    while (atomicCAS(&mutex, 0, 1) != 0)
        ;
    __threadfence_block();
    total = total + v;
    entries = entries + 1;
    __threadfence_block();
    atomicExch(&mutex, 0);
    __syncthreads();
    if (threadIdx.x == 0) {
        out[2 * blockIdx.x] = total;
        out[2 * blockIdx.x + 1] = entries;
    }
}
