// Kernels for the tinylock pass's spin-lock upgrade (issue 15 §2a), built
// with nvcc -arch=sm_80 -ptx -O3 (see regen.sh beside this file).

// shist: a per-bin lock in shared memory around a non-atomic update of
// the bin (the thesis's histogram with per-bin locks).  The fences
// (__threadfence_block) become acquire/release semantics on the lock.
// hist[k] += number of i < n with in[i] % 16 == k; lock/bins are
// initialised by the kernel.
extern "C" __global__ void shist(int *hist, const int *__restrict__ in, int n)
{
    __shared__ int lock[16];
    __shared__ volatile int bins[16];
    int t = threadIdx.x;
    if (t < 16) {
        lock[t] = 0;
        bins[t] = 0;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        int b = in[i] & 15;
        while (atomicCAS(&lock[b], 0, 1) != 0)
            ;
        __threadfence_block();
        bins[b] = bins[b] + 1;
        __threadfence_block();
        atomicExch(&lock[b], 0);
    }
    __syncthreads();
    if (t < 16)
        atomicAdd(&hist[t], bins[t]);
}

// gsum: one global lock around a two-word update (as the corpus's
// spinlock.cu, with the input read-only).  state[0] = n, state[1] = sum.
extern "C" __global__ void gsum(int *lock, volatile int *state, const int *__restrict__ in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = in[i];
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    __threadfence();
    state[0] = state[0] + 1;
    state[1] = state[1] + x;
    __threadfence();
    atomicExch(lock, 0);
}

// gsplit (negative): the release is in a different divergent region from
// the acquire (odd threads release from one branch, even threads from
// another, after a lane-dependent store): not the same divergent region
// -- the pass leaves it alone.
extern "C" __global__ void gsplit(int *lock, volatile int *state, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    __threadfence();
    state[0] = state[0] + 1;
    if (i & 1) {
        state[1] = state[1] + 1;
        __threadfence();
        atomicExch(lock, 0);
    } else {
        __threadfence();
        atomicExch(lock, 0);
        state[2] = i;
    }
}
