// Tricubic (Catmull-Rom) interpolation of an nx*ny*nz volume at m sample
// points given as fractional coordinates (px, py, pz).  Indices are clamped to
// the volume; 64 gathered loads per sample.
__device__ __forceinline__ void catmull_rom_weights(float t, float w[4])
{
    float t2 = t * t, t3 = t2 * t;
    w[0] = 0.5f * (-t3 + 2.0f * t2 - t);
    w[1] = 0.5f * (3.0f * t3 - 5.0f * t2 + 2.0f);
    w[2] = 0.5f * (-3.0f * t3 + 4.0f * t2 + t);
    w[3] = 0.5f * (t3 - t2);
}

extern "C" __global__ void tricubic(float *out, const float *vol, const float *px,
                                    const float *py, const float *pz, int m,
                                    int nx, int ny, int nz)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= m)
        return;
    float fx = floorf(px[s]), fy = floorf(py[s]), fz = floorf(pz[s]);
    int ix = (int)fx, iy = (int)fy, iz = (int)fz;
    float wx[4], wy[4], wz[4];
    catmull_rom_weights(px[s] - fx, wx);
    catmull_rom_weights(py[s] - fy, wy);
    catmull_rom_weights(pz[s] - fz, wz);
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        int z = min(max(iz + k - 1, 0), nz - 1);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            int y = min(max(iy + j - 1, 0), ny - 1);
            float row = 0.0f;
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                int x = min(max(ix + i - 1, 0), nx - 1);
                row += wx[i] * vol[(z * ny + y) * nx + x];
            }
            acc += wz[k] * wy[j] * row;
        }
    }
    out[s] = acc;
}
