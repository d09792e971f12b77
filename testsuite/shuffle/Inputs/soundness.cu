// soundness.cu: adversarial kernels for the shuffle pass (issue 10).
// soundness.ptx is `nvcc -ptx -arch=sm_80 -O3 soundness.cu` (CUDA 13.0).
// Class 1: a write later in the destination's loop.
extern "C" __global__ void later_write_n0(int *a, int off, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = a[i];
  for (int j = 0; j < n; j++) {
    int y = a[i];
    a[i + off] = y + x + j;
  }
}
extern "C" __global__ void later_write_n1(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  for (int j = 0; j < n; j++) {
    float y = a[i + 1];
    __syncthreads();
    a[i] = x + y;
    __syncthreads();
  }
}
// Class 2: lane-varying values that do not mention %tid.x
extern "C" __global__ void laneid_idx(const float *a, float *out) {
  int l; asm("mov.u32 %0, %%laneid;" : "=r"(l));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i + l];
  float y = a[i + 1 + l];
  out[i] = x + y;
}
extern "C" __global__ void atomic_idx(const float *a, float *out, int *ctr) {
  int k = atomicAdd(ctr, 1) & 7;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i + k];
  float y = a[i + 1 + k];
  out[i] = x + y;
}
extern "C" __global__ void merge_idx(const float *a, float *out, const int *sel, const int *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 1;
  if (sel[i] > 0) {
    k = c[0];
    out[i + 64] = 1.0f;
  }
  float x = a[i + k];
  float y = a[i + 1 + k];
  out[i] = x + y;
}
extern "C" __global__ void trip_idx(const float *a, float *out, const int *cnt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 0;
  for (int j = 0; j < cnt[i]; j++) k += 2;
  float x = a[i + k];
  float y = a[i + 1 + k];
  out[i] = x + y;
}
// Class 3: unsigned index that wraps
extern "C" __global__ void unsigned_wrap(const float *a, float *out, unsigned base) {
  unsigned i = base + threadIdx.x;
  float x = a[i];
  float y = a[i + 1];
  out[threadIdx.x] = x + y;
}
// Still rewritten: an unsigned index whose range is bounded (tid.x + 1 < 2^31),
// and a loop that reads its neighbour's element but writes elsewhere.
extern "C" __global__ void unsigned_small(const float *a, float *out) {
  unsigned i = threadIdx.x;
  float x = a[i];
  float y = a[i + 1];
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}
extern "C" __global__ void loop_reads_only(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  float s = 0;
  for (int j = 0; j < n; j++) {
    float y = a[i + 1];
    s += x * y + j;
    out[i] = s;
  }
}
extern "C" __global__ void loop_restrict(const float *__restrict__ a, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  float s = 0;
  for (int j = 0; j < n; j++) {
    float y = a[i + 1];
    s += x * y + j;
    out[i] = s;
  }
}
