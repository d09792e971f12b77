// BoxMullerGPU from the CUDA SDK's MersenneTwister sample (the thesis's
// worked example, research §2.5), precise math: logf, sqrtf, cosf, sinf.
// Regenerate: nvcc -arch=sm_75 -O3 -ptx -o boxmuller_regs.sm_75.ptx boxmuller_regs.cu
#define PI 3.14159265358979f
#define MT_RNG_COUNT 4096

__device__ inline void BoxMuller(float &u1, float &u2)
{
    float r = sqrtf(-2.0f * logf(u1));
    float phi = 2 * PI * u2;
    u1 = r * cosf(phi);
    u2 = r * sinf(phi);
}

extern "C" __global__ void BoxMullerGPU(float *d_Random, int nPerRng)
{
    const int tid = blockDim.x * blockIdx.x + threadIdx.x;
    for (int iOut = 0; iOut < nPerRng; iOut += 2) {
        float u1 = d_Random[tid + (iOut + 0) * MT_RNG_COUNT];
        float u2 = d_Random[tid + (iOut + 1) * MT_RNG_COUNT];
        BoxMuller(u1, u2);
        d_Random[tid + (iOut + 0) * MT_RNG_COUNT] = u1;
        d_Random[tid + (iOut + 1) * MT_RNG_COUNT] = u2;
    }
}
