// A device function called from another translation unit (needs -rdc).
__device__ float twice(float x) { return 2.0f * x; }
