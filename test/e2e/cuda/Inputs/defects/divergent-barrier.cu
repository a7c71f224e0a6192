// __syncthreads() that not every thread of the block reaches.

// Threads past the data return before the barrier.
extern "C" __global__ void __launch_bounds__(64) exit_before_barrier(
    float *data) {
  __shared__ float tile[64];
  if (threadIdx.x >= 48)
    return;
  tile[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = tile[47 - threadIdx.x];
}

// Each side of a branch has its own barrier.
extern "C" __global__ void __launch_bounds__(64) barrier_in_branch(
    float *data) {
  __shared__ float tile[64];
  tile[threadIdx.x] = data[threadIdx.x];
  if (threadIdx.x < 48)
    __syncthreads();
  else
    __syncthreads();
  data[threadIdx.x] = tile[63 - threadIdx.x];
}
