// Each thread reads its neighbour's element of a shared array: without a
// __syncthreads() between the writes and the reads (shift_racy) that is a
// race; shift_synced is the fixed kernel.
extern "C" __global__ void __launch_bounds__(64) shift_racy(const float *in,
                                                            float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  out[blockIdx.x * 64 + threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}

extern "C" __global__ void __launch_bounds__(64) shift_synced(const float *in,
                                                              float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}

// No shared memory, but every thread of the grid adds into out[0]: the
// result depends on the schedule, which two seeds show.
extern "C" __global__ void __launch_bounds__(64) global_race(const float *in,
                                                             float *out) {
  float seen = out[0];
  out[1 + blockIdx.x * 64 + threadIdx.x] = seen;
  out[0] = seen + in[blockIdx.x * 64 + threadIdx.x];
}
