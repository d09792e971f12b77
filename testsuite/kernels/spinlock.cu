// A global spin lock built from atomicCAS/atomicExch with __threadfence,
// protecting a non-atomic read-modify-write of two counters (the pattern
// the tiny-lock pass targets).  Every thread i < n takes the lock once:
// afterwards state[0] = n and state[1] = sum of in[0..n).  lock must be 0.
// Relies on independent thread scheduling (sm_70+) for intra-warp progress.
__device__ void lock_acquire(int *lock)
{
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    __threadfence();
}

__device__ void lock_release(int *lock)
{
    __threadfence();
    atomicExch(lock, 0);
}

extern "C" __global__ void spinlock(int *lock, volatile int *state, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    lock_acquire(lock);
    state[0] = state[0] + 1;
    state[1] = state[1] + in[i];
    lock_release(lock);
}
