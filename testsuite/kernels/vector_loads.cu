// Vectorised memory access: float4/int2/double2 loads and stores
// (ld.global.v4.f32, v2.s32, v2.f64) and __ldg (ld.global.nc).
// out4[i] = in4[i] * s + __ldg(&bias4[i]);  outd[i] = ind[i] swapped.
extern "C" __global__ void vector_loads(float4 *out4, const float4 *in4, const float4 *bias4,
                                        double2 *outd, const double2 *ind, int2 *outi,
                                        const int2 *ini, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 v = in4[i];
    float4 b = __ldg(&bias4[i]);
    out4[i] = make_float4(v.x * s + b.x, v.y * s + b.y, v.z * s + b.z, v.w * s + b.w);
    double2 d = ind[i];
    outd[i] = make_double2(d.y, d.x);
    int2 k = ini[i];
    outi[i] = make_int2(k.x + k.y, k.x - k.y);
}
