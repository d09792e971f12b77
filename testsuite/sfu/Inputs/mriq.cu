// mriq.cu — the Q matrix of MRI reconstruction: ComputeQ_GPU of Parboil's
// mri-q (thesis Table 6.6 "MRQ": sin, cos), written anew from the formula
// Q_r(x) = sum_k phiMag_k cos(2 pi k.x), Q_i(x) = sum_k phiMag_k sin(2 pi k.x).
// Regenerate: bash testsuite/sfu/Inputs/regen.sh
extern "C" __global__ void mriq(float *qr, float *qi, const float *x, const float *y, const float *z,
                                const float *kx, const float *ky, const float *kz, const float *phimag,
                                int nx, int nk)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx) return;
    float sr = 0, si = 0;
    for (int k = 0; k < nk; k++) {
        float arg = 6.28318530717958647692f * (kx[k] * x[i] + ky[k] * y[i] + kz[k] * z[i]);
        sr += phimag[k] * cosf(arg);
        si += phimag[k] * sinf(arg);
    }
    qr[i] = sr;
    qi[i] = si;
}
