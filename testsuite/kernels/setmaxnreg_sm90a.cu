// corpus-archs: sm_90a
// Hopper arch-specific feature (sm_90a only): setmaxnreg.inc/.dec through
// inline asm, the register reallocation used by warp-specialised kernels.
// Warpgroup 0 gives registers away, warpgroup 1 takes them; both then do
// out[i] = in[i] * (1 + warpgroup).  blockDim.x must be 256.
extern "C" __global__ void __launch_bounds__(256, 1)
setmaxnreg_warpgroups(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int wg = threadIdx.x / 128;
    if (wg == 0)
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    else
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    if (i < n)
        out[i] = in[i] * (float)(1 + wg);
}
