// nbody.cu — all-pairs gravitational accelerations with softening, one body
// per thread: bodyBodyInteraction/integrateBodies of the CUDA SDK sample
// nbody (thesis Table 6.6 "NBO": rsqrt), written anew from the formula
// a_i = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + eps^2)^(3/2).
// The precise form is 1.0f / sqrtf(...) (sqrt.rn + rcp.rn, the thesis's
// 1/sqrt(x) row), the fast-math form rsqrt.approx.
// Regenerate: bash testsuite/sfu/Inputs/regen.sh
extern "C" __global__ void nbody(float *acc, const float4 *body, int n, float eps2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = body[i];
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; j++) {
        float4 q = body[j];
        float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
        float d2 = dx * dx + dy * dy + dz * dz + eps2;
        float inv = 1.0f / sqrtf(d2);
        float s = q.w * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    acc[3 * i] = ax;
    acc[3 * i + 1] = ay;
    acc[3 * i + 2] = az;
}
