// main.cu - the host side of the nvcc build tests: launches kernels that
// live in other translation units (testsuite/kernels/*.cu), so that linking
// needs their objects.  It is linked, not run (the tests need no GPU).
#include <cstdio>

extern "C" __global__ void vote(int *flags, unsigned *ballots, const int *in, int n);
extern "C" __global__ void reduce_shfl_down(int *out, const int *in, int n);

int main()
{
    vote<<<1, 32>>>(nullptr, nullptr, nullptr, 0);
    reduce_shfl_down<<<1, 32>>>(nullptr, nullptr, 0);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("%s\n", cudaGetErrorString(e));
    return 0;
}
