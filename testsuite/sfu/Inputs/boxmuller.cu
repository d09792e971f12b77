// boxmuller.cu — the Box-Muller transform of pairs of uniform numbers into
// normal ones: BoxMullerGPU of the CUDA SDK sample MersenneTwister (thesis
// Table 6.6 "MEN": log, sqrt, sin, cos; the thesis's worked example of the
// split, Listings 6.2-6.3), written anew from the formula; a grid-stride
// loop as in the SDK.
// Regenerate: bash testsuite/sfu/Inputs/regen.sh
extern "C" __global__ void boxmuller(float *out, const float *u, int npairs)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < npairs; i += blockDim.x * gridDim.x) {
        float u1 = u[2 * i], u2 = u[2 * i + 1];
        float r = sqrtf(-2.0f * logf(u1));
        float phi = 6.28318530717958647692f * u2;
        out[2 * i] = r * cosf(phi);
        out[2 * i + 1] = r * sinf(phi);
    }
}
