// srad.cu — Rodinia 3.1 srad_v2 (cuda/srad/srad_v2/srad_kernel.cu):
// srad_cuda_1 and srad_cuda_2.  Re-typed from the public source (Rodinia,
// University of Virginia, BSD-style licence: see its LICENSE).  Same access
// pattern: 16x16 blocks (2-D) stage the tile and its north/south/west/east
// halo rows of J in shared memory (kernel 1, which writes the four
// derivatives and the diffusion coefficient c), then read the tile of J,
// the south/east halo of c and the four derivative arrays (kernel 2, which
// updates J in place).  The original reads J[index_n] before the first row
// and C[index_s] past the last one (out of bounds) and then overwrites the
// value with the clamped edge; here the edge element is read instead, which
// is the same value without the stray access.  Constants stay double, as in
// the original.  Launch: grid (cols/16, rows/16), block (16, 16): 8 warps
// (the thesis ran srad_v1 with 16 warps per 1-D block; v2 is the 2-D one).
// corpus-archs: sm_80

#define BS 16

extern "C" __global__ void srad_cuda_1(float *E_C, float *W_C, float *N_C, float *S_C, const float *J,
                                       float *C, int cols, int rows, float q0sqr)
{
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int base = cols * BS * by + BS * bx;
    int index = base + cols * ty + tx;
    __shared__ float temp[BS][BS], temp_result[BS][BS];
    __shared__ float north[BS][BS], south[BS][BS], east[BS][BS], west[BS][BS];

    north[ty][tx] = by == 0 ? J[BS * bx + tx] : J[base + tx - cols];
    south[ty][tx] = by == gridDim.y - 1 ? J[cols * BS * (gridDim.y - 1) + BS * bx + cols * (BS - 1) + tx]
                                        : J[base + cols * BS + tx];
    __syncthreads();
    west[ty][tx] = bx == 0 ? J[cols * BS * by + cols * ty] : J[base + cols * ty - 1];
    east[ty][tx] = bx == gridDim.x - 1 ? J[cols * BS * by + BS * (gridDim.x - 1) + cols * ty + BS - 1]
                                       : J[base + cols * ty + BS];
    __syncthreads();
    temp[ty][tx] = J[index];
    __syncthreads();

    float jc = temp[ty][tx];
    float n = (ty == 0 ? north[ty][tx] : temp[ty - 1][tx]) - jc;
    float s = (ty == BS - 1 ? south[ty][tx] : temp[ty + 1][tx]) - jc;
    float w = (tx == 0 ? west[ty][tx] : temp[ty][tx - 1]) - jc;
    float e = (tx == BS - 1 ? east[ty][tx] : temp[ty][tx + 1]) - jc;

    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
    float den = 1 + (.25 * l);
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    float c = 1.0 / (1.0 + den);
    temp_result[ty][tx] = c < 0 ? 0 : c > 1 ? 1 : c;
    __syncthreads();
    C[index] = temp_result[ty][tx];
    E_C[index] = e;
    W_C[index] = w;
    S_C[index] = s;
    N_C[index] = n;
}

extern "C" __global__ void srad_cuda_2(const float *E_C, const float *W_C, const float *N_C, const float *S_C,
                                       float *J, const float *C, int cols, int rows, float lambda, float q0sqr)
{
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int base = cols * BS * by + BS * bx;
    int index = base + cols * ty + tx;
    __shared__ float south_c[BS][BS], east_c[BS][BS], c_temp[BS][BS], c_result[BS][BS], temp[BS][BS];

    temp[ty][tx] = J[index];
    __syncthreads();
    south_c[ty][tx] = by == gridDim.y - 1 ? C[cols * BS * (gridDim.y - 1) + BS * bx + cols * (BS - 1) + tx]
                                          : C[base + cols * BS + tx];
    __syncthreads();
    east_c[ty][tx] = bx == gridDim.x - 1 ? C[cols * BS * by + BS * (gridDim.x - 1) + cols * ty + BS - 1]
                                         : C[base + cols * ty + BS];
    __syncthreads();
    c_temp[ty][tx] = C[index];
    __syncthreads();

    float cc = c_temp[ty][tx];
    float cn = cc, cw = cc;
    float cs = ty == BS - 1 ? south_c[ty][tx] : c_temp[ty + 1][tx];
    float ce = tx == BS - 1 ? east_c[ty][tx] : c_temp[ty][tx + 1];
    float d_sum = cn * N_C[index] + cs * S_C[index] + cw * W_C[index] + ce * E_C[index];
    c_result[ty][tx] = temp[ty][tx] + 0.25 * lambda * d_sum;
    __syncthreads();
    J[index] = c_result[ty][tx];
}
