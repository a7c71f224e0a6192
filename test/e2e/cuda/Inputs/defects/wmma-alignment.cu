// One warp multiplies two 16x16 int8 tiles staged in shared memory. The
// fixed kernel gives each tile 32-byte aligned rows of 32 bytes; the
// misaligned one starts B 16 bytes into its rows, as row-major int8 tiles
// with a 16-element K offset would (WMMA faults on such an address).
#include <mma.h>

template <int Offset>
__device__ void multiply(const float *in, float *out) {
  __shared__ __align__(32) signed char tiles[2][16][64];
  __shared__ __align__(32) int product[16][16];
  for (int e = threadIdx.x; e < 16 * 16; e += 32) {
    tiles[0][e / 16][e % 16] = (signed char)(int(in[e]) % 7 - 3);
    tiles[1][e / 16][Offset + e % 16] = (signed char)(int(in[e]) % 5 - 2);
  }
  __syncthreads();
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, signed char,
                         nvcuda::wmma::row_major>
      a;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, signed char,
                         nvcuda::wmma::row_major>
      b;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, int> c;
  nvcuda::wmma::fill_fragment(c, 0);
  nvcuda::wmma::load_matrix_sync(a, &tiles[0][0][0], 64);
  nvcuda::wmma::load_matrix_sync(b, &tiles[1][0][Offset], 64);
  nvcuda::wmma::mma_sync(c, a, b, c);
  nvcuda::wmma::store_matrix_sync(&product[0][0], c, 16,
                                  nvcuda::wmma::mem_row_major);
  __syncthreads();
  for (int e = threadIdx.x; e < 16 * 16; e += 32)
    out[e] = float(product[e / 16][e % 16]);
}

extern "C" __global__ void __launch_bounds__(32)
    int8_aligned(const float *in, float *out) {
  multiply<0>(in, out);
}

extern "C" __global__ void __launch_bounds__(32)
    int8_misaligned(const float *in, float *out) {
  multiply<16>(in, out);
}
