// Five functions of one argument (issue 24 item 2): nvcc shares sinf's and
// cosf's range reduction and |x| between sinf, powf and tanhf, and logf's
// and powf's constants.  Regenerate:
//   nvcc -arch=sm_80 -O3 -ptx -o five.sm_80.ptx five.cu
extern "C" __global__ void k_five(const float *a, const float *b, float *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    o[i] = sinf(x) + cosf(x) + logf(x) + powf(x, b[i]) + tanhf(x);
}
