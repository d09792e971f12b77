// corpus-archs: sm_80
// Histogram with one spin lock per bin (the thesis's fine-grained lock
// benchmark, pattern: per-bin critical section).  Thread i < n takes the
// lock of bin b = in[i] % nbins with the done-flag shape (acquire, critical
// section and release on one path, so it also terminates under pre-Volta
// lock-step), then does a non-atomic read-modify-write of count[b] and
// sum[b].  Result: count[b] = #{i : in[i] % nbins == b}, sum[b] = sum of
// those in[i].  locks, count, sum must be zero; nbins <= length of each.
// Launch: any grid/block, e.g. --grid=2 --block=64, n = 128, nbins = 4.
extern "C" __global__ void histo_lock(int *locks, volatile int *count, volatile int *sum,
                                      const int *in, int n, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    int b = (unsigned)v % (unsigned)nbins;
    bool done = false;
    while (!done) {
        if (atomicCAS(&locks[b], 0, 1) == 0) {
            __threadfence();
            count[b] = count[b] + 1;
            sum[b] = sum[b] + v;
            __threadfence();
            atomicExch(&locks[b], 0);
            done = true;
        }
    }
}
