// corpus-archs: sm_80
// Hash-table insert with one spin lock per bucket (chained buckets of fixed
// capacity; the thesis's lock benchmark pattern "hash table").  Thread i < n
// inserts key = in[i] into bucket h = (key * 2654435761) >> 16 mod nbuckets:
// it spins on atomicExch(&locks[h], 1) until it returns 0, appends the key
// at slots[h * cap + fill[h]], increments fill[h], and releases with a
// fenced atomicExch(&locks[h], 0).  The order inside a bucket depends on the
// schedule; the multiset of keys per bucket does not.  Keys that do not fit
// (fill[h] == cap) are counted in overflow[h] (under the same lock).
// locks, fill, overflow (nbuckets ints each) zero.
// Launch: e.g. --grid=2 --block=64, n = 128, nbuckets = 8, cap = 32.
extern "C" __global__ void hash_insert(int *locks, volatile int *fill, volatile int *slots, volatile int *overflow,
                                       const int *in, int n, int nbuckets, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int key = in[i];
    unsigned h = (((unsigned)key * 2654435761u) >> 16) % (unsigned)nbuckets;
    bool done = false;
    while (!done) {
        if (atomicExch(&locks[h], 1) == 0) {
            __threadfence();
            int f = fill[h];
            if (f < cap) {
                slots[h * cap + f] = key;
                fill[h] = f + 1;
            } else {
                overflow[h] = overflow[h] + 1;
            }
            __threadfence();
            atomicExch(&locks[h], 0);
            done = true;
        }
    }
}
