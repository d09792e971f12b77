// particlefilter.cu — Rodinia 3.1 particlefilter
// (cuda/particlefilter/ex_particle_CUDA_float_seq.cu): find_index_kernel and
// likelihood_kernel.  Re-typed from the public source (Rodinia, University
// of Virginia, BSD-style licence: see its LICENSE).  Same access pattern:
// find_index has every thread scan the shared CDF[] from the start until
// CDF[x] >= u[i] (all threads re-read the same prefix: the reuse the thesis
// measures) and gather arrayX/arrayY; likelihood computes each particle's
// pixel indices from objxy[], gathers I[] and reduces the weights per block
// in shared memory.  The original perturbs arrayX/Y with d_randn() from
// per-particle seeds first; that arithmetic (no global loads besides
// seed[i]) is left out so a reference can be exact.
// Launch: 512 threads per block (16 warps, thesis Table 5.3), 1-D grid.
// corpus-archs: sm_80

extern "C" __global__ void find_index_kernel(const float *arrayX, const float *arrayY, const float *CDF,
                                             const float *u, float *xj, float *yj, int Nparticles)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < Nparticles) {
        int index = -1;
        for (int x = 0; x < Nparticles; x++) {
            if (CDF[x] >= u[i]) {
                index = x;
                break;
            }
        }
        if (index == -1)
            index = Nparticles - 1;
        xj[i] = arrayX[index];
        yj[i] = arrayY[index];
    }
}

__device__ static int dev_round_float(float value)
{
    int new_value = (int)value;
    if (value - new_value < .5f)
        return new_value;
    return new_value + 1;
}

extern "C" __global__ void likelihood_kernel(float *arrayX, float *arrayY, const float *xj, const float *yj,
                                             int *ind, const int *objxy, float *likelihood,
                                             const unsigned char *I, float *weights, int Nparticles,
                                             int countOnes, int max_size, int k, int IszY, int Nfr,
                                             float *partial_sums)
{
    __shared__ float buffer[512];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < Nparticles) {
        arrayX[i] = xj[i];
        arrayY[i] = yj[i];
        weights[i] = 1 / ((float)(Nparticles));
    }
    __syncthreads();
    if (i < Nparticles) {
        for (int y = 0; y < countOnes; y++) {
            int indX = dev_round_float(arrayX[i]) + objxy[y * 2 + 1];
            int indY = dev_round_float(arrayY[i]) + objxy[y * 2];
            ind[i * countOnes + y] = abs(indX * IszY * Nfr + indY * Nfr + k);
            if (ind[i * countOnes + y] >= max_size)
                ind[i * countOnes + y] = 0;
        }
        float sum = 0;
        for (int y = 0; y < countOnes; y++) {
            int v = I[ind[i * countOnes + y]];
            sum += ((float)((v - 100) * (v - 100)) - (float)((v - 228) * (v - 228))) / 50.0f;
        }
        likelihood[i] = sum / countOnes;
        weights[i] = weights[i] * expf(likelihood[i]);
    }
    buffer[threadIdx.x] = 0.0f;
    __syncthreads();
    if (i < Nparticles)
        buffer[threadIdx.x] = weights[i];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buffer[threadIdx.x] += buffer[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial_sums[blockIdx.x] = buffer[0];
}
