// clamp.cu: clamp-to-edge indices for the shuffle pass (issue 10 §6).
// clamp.ptx is `nvcc -ptx -arch=sm_80 -O3 clamp.cu` (CUDA 13.0).
// Inside: the offset is inside the clamp, so the shift commutes with it
// and the proof alone accepts the pairs.
extern "C" __global__ void clamp_inside(const float *in, float *out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int dx = -2; dx <= 2; ++dx) s += in[min(max(x + dx, 0), w - 1)];
  out[x] = s;
}
// Outside: the offset is added after the clamp; where the clamp bites the
// neighbour's address differs, and only the runtime address check knows.
extern "C" __global__ void clamp_outside(const float *in, float *out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int c = min(x, w - 1);
  out[x] = in[c] + 2.0f * in[c + 1];
}
