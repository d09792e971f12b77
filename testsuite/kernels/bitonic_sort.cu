// Bitonic sort of 512-element segments in shared memory, ascending; one
// block of 256 threads per segment, each thread handles two elements per
// stage.  Elements past n are padded with INT_MAX and not written back.
#define SEG 512
extern "C" __global__ void bitonic_sort512(int *data, int n)
{
    __shared__ int s[SEG];
    int base = blockIdx.x * SEG;
    for (int t = threadIdx.x; t < SEG; t += blockDim.x)
        s[t] = (base + t < n) ? data[base + t] : 0x7fffffff;
    __syncthreads();
    for (int size = 2; size <= SEG; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            for (int t = threadIdx.x; t < SEG / 2; t += blockDim.x) {
                int lo = 2 * t - (t & (stride - 1));
                int hi = lo + stride;
                bool ascending = (lo & size) == 0;
                int a = s[lo], b = s[hi];
                if ((a > b) == ascending) {
                    s[lo] = b;
                    s[hi] = a;
                }
            }
            __syncthreads();
        }
    }
    for (int t = threadIdx.x; t < SEG; t += blockDim.x)
        if (base + t < n)
            data[base + t] = s[t];
}
