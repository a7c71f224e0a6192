//===- CudaHostShim.h - Just enough CUDA to run Kiln kernels on a CPU -----===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-cuda-emulate prepends this header to the generated CUDA C++ and
// compiles the result with the host C++ compiler into a shared library. It
// covers what Kiln's CUDA emitter prints (compiler/Codegen/CUDA), nothing
// more:
//   - qualifiers (__global__, __device__, ...) as plain C++;
//   - threadIdx/blockIdx/blockDim/gridDim as globals, set by the tool
//     (kiln_emu_enter) whenever it resumes a CUDA thread: the threads of a
//     block are fibers on one OS thread;
//   - __shared__ as `static` in the section kiln_shared, which the tool
//     fills with 0xff bytes before each block (blocks run one at a time, so
//     every thread of the running block sees the same array, as on a GPU);
//   - every load and store reported through -fsanitize-coverage=trace-loads,
//     trace-stores callbacks: those that hit kiln_shared go to the tool's
//     race and uninitialised-read checks and are where threads switch;
//   - __launch_bounds__ erased here: the tool reads it from the source and
//     enforces it at launch;
//   - __syncthreads() and __shfl_xor_sync() as calls back into the tool,
//     which owns the threads (BlockRunner.h), with the caller's line;
//   - float4, the bit casts, __half/__nv_bfloat16 with round-to-nearest-
//     even conversions; the math functions come from <math.h>;
//   - the WMMA fragments and operations the tensor-core contractions use,
//     each lane holding the whole tile (collective loads and MMAs compute
//     the same in every lane; lane 0 alone stores).
// Only C headers: this is compiled once per run, and <thread> and friends
// would triple the time that takes.
//
// The file must stay self-contained: it is embedded into the tool as text.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CUDA_HOST_SHIM_H
#define KILN_CUDA_HOST_SHIM_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
// `used` keeps the optimiser from folding reads of a variable it can prove
// was never written (a static is zero-initialised; shared memory is not).
#define __shared__ static __attribute__((section("kiln_shared"), used))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

inline dim3 threadIdx, blockIdx, blockDim, gridDim;

/// What the tool provides (kiln_emu_init).
struct KilnEmuHooks {
  void (*syncthreads)(int line);
  /// The value of lane `lane ^ laneMask` of the caller's warp.
  uint64_t (*shuffleXor)(uint64_t value, int laneMask, int width, int line);
  /// A load or store of __shared__ memory.
  void (*sharedAccess)(void *address, unsigned size, int isWrite);
  /// What would fault on a GPU; does not return.
  void (*fault)(const char *message);
};
inline KilnEmuHooks kiln_emu_hooks;

// The section holds at least this, so that its bounds always exist.
__attribute__((section("kiln_shared"), used)) static char kiln_emu_anchor[16];
extern "C" char __start_kiln_shared[], __stop_kiln_shared[];
inline char *kiln_emu_shared_begin, *kiln_emu_shared_end;

extern "C" void kiln_emu_init(const KilnEmuHooks *hooks, char **sharedBegin,
                              char **sharedEnd) {
  kiln_emu_hooks = *hooks;
  kiln_emu_shared_begin = *sharedBegin = __start_kiln_shared;
  kiln_emu_shared_end = *sharedEnd = __stop_kiln_shared;
}

/// Sets the running thread's indices: threadIdx, blockIdx, blockDim,
/// gridDim as 12 numbers.
extern "C" void kiln_emu_enter(const unsigned *ids) {
  threadIdx = {ids[0], ids[1], ids[2]};
  blockIdx = {ids[3], ids[4], ids[5]};
  blockDim = {ids[6], ids[7], ids[8]};
  gridDim = {ids[9], ids[10], ids[11]};
}

// Called before every load and store of the instrumented code; only those
// in kiln_shared go further. Hidden, so that a sanitizer runtime in the
// tool does not take them; not instrumented themselves.
#define KILN_EMU_ACCESS(name, bytes, write)                                    \
  extern "C"                                                                   \
      __attribute__((visibility("hidden"), no_sanitize("coverage"))) void      \
      name(void *p) {                                                          \
    if ((char *)p >= kiln_emu_shared_begin && (char *)p < kiln_emu_shared_end) \
      kiln_emu_hooks.sharedAccess(p, bytes, write);                            \
  }
KILN_EMU_ACCESS(__sanitizer_cov_load1, 1, 0)
KILN_EMU_ACCESS(__sanitizer_cov_load2, 2, 0)
KILN_EMU_ACCESS(__sanitizer_cov_load4, 4, 0)
KILN_EMU_ACCESS(__sanitizer_cov_load8, 8, 0)
KILN_EMU_ACCESS(__sanitizer_cov_load16, 16, 0)
KILN_EMU_ACCESS(__sanitizer_cov_store1, 1, 1)
KILN_EMU_ACCESS(__sanitizer_cov_store2, 2, 1)
KILN_EMU_ACCESS(__sanitizer_cov_store4, 4, 1)
KILN_EMU_ACCESS(__sanitizer_cov_store8, 8, 1)
KILN_EMU_ACCESS(__sanitizer_cov_store16, 16, 1)
#undef KILN_EMU_ACCESS

/// A kernel argument from the tool's untyped array: converts to whatever
/// pointer the kernel takes.
struct KilnEmuArg {
  void *p;
  template <typename T> operator T *() const { return static_cast<T *>(p); }
};

#define __syncthreads() kiln_emu_hooks.syncthreads(__LINE__)

template <typename T>
inline T kiln_emu_shfl_xor(int line, unsigned /*mask*/, T value, int laneMask,
                           int width = 32) {
  static_assert(sizeof(T) <= 8, "shuffles move at most 8 bytes");
  uint64_t bits = 0;
  memcpy(&bits, &value, sizeof(T));
  bits = kiln_emu_hooks.shuffleXor(bits, laneMask, width, line);
  T result;
  memcpy(&result, &bits, sizeof(T));
  return result;
}
#define __shfl_xor_sync(...) kiln_emu_shfl_xor(__LINE__, __VA_ARGS__)

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

struct alignas(16) float4 {
  float x, y, z, w;
};
inline float4 make_float4(float x, float y, float z, float w) {
  return {x, y, z, w};
}

inline float __int_as_float(int bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}
inline double __longlong_as_double(long long bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }

struct __half {
  uint16_t bits;
};
struct __nv_bfloat16 {
  uint16_t bits;
};

inline float __half2float(__half h) {
  _Float16 f;
  memcpy(&f, &h.bits, sizeof f);
  return static_cast<float>(f);
}
inline __half __float2half_rn(float x) {
  // The conversion rounds to nearest even, as IEEE 754 (and cvt.rn) does.
  _Float16 f = static_cast<_Float16>(x);
  __half h;
  memcpy(&h.bits, &f, sizeof f);
  return h;
}
inline float __bfloat162float(__nv_bfloat16 b) {
  uint32_t bits = uint32_t(b.bits) << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}
inline __nv_bfloat16 __float2bfloat16_rn(float x) {
  uint32_t bits;
  memcpy(&bits, &x, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep it a quiet NaN
    return {uint16_t((bits >> 16) | 0x40u)};
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return {uint16_t(bits >> 16)};
}

//===----------------------------------------------------------------------===//
// Tensor cores (nvcuda::wmma, as in <mma.h>)
//===----------------------------------------------------------------------===//

namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
namespace precision {
struct tf32 {};
} // namespace precision
enum layout_t { mem_row_major, mem_col_major };

template <typename T> struct kiln_storage { using type = T; };
template <> struct kiln_storage<precision::tf32> { using type = float; };
/// A fragment's logical shape: A is M x K, B is K x N, C is M x N.
template <typename Use, int M, int N, int K> struct kiln_shape;
template <int M, int N, int K> struct kiln_shape<matrix_a, M, N, K> {
  static constexpr int rows = M, cols = K;
};
template <int M, int N, int K> struct kiln_shape<matrix_b, M, N, K> {
  static constexpr int rows = K, cols = N;
};
template <int M, int N, int K> struct kiln_shape<accumulator, M, N, K> {
  static constexpr int rows = M, cols = N;
};

/// Row-major, whole: the lane-to-element layout of real fragments is
/// opaque to kernels, so any layout is faithful for element-wise use.
template <typename Use, int M, int N, int K, typename T, typename Layout = void>
struct fragment {
  static constexpr int rows = kiln_shape<Use, M, N, K>::rows;
  static constexpr int cols = kiln_shape<Use, M, N, K>::cols;
  static constexpr int num_elements = rows * cols;
  typename kiln_storage<T>::type x[num_elements];
};

inline float kiln_value(float v) { return v; }
inline int kiln_value(signed char v) { return v; }
inline int kiln_value(unsigned char v) { return v; }
inline float kiln_value(__half v) { return __half2float(v); }
inline float kiln_value(__nv_bfloat16 v) { return __bfloat162float(v); }

/// Round to nearest, ties away from zero, to 10 mantissa bits
/// (cvt.rna.tf32.f32); the result is a float with the low 13 bits clear.
inline float __float_to_tf32(float x) {
  uint32_t bits;
  memcpy(&bits, &x, sizeof bits);
  if ((bits & 0x7f800000u) != 0x7f800000u) // leave NaN and infinity
    bits = (bits + 0x1000u) & 0xffffe000u;
  memcpy(&x, &bits, sizeof x);
  return x;
}

/// A GPU faults (misaligned address) unless a tile starts 256-bit aligned
/// and its rows are a multiple of 16 bytes apart (the CUDA programming
/// guide's WMMA rules).
inline void kiln_wmma_check(const char *what, const void *p, unsigned ldm,
                            unsigned elementBytes) {
  uintptr_t address = reinterpret_cast<uintptr_t>(p);
  if (address % 32 == 0 && ldm * elementBytes % 16 == 0)
    return;
  char message[256];
  snprintf(message, sizeof message,
           "%s: tile at an address %u bytes past a 32-byte boundary, rows "
           "%u bytes apart (WMMA wants 32-byte aligned tiles, rows a "
           "multiple of 16 bytes apart)",
           what, unsigned(address % 32), ldm * elementBytes);
  kiln_emu_hooks.fault(message);
}

template <typename Use, int M, int N, int K, typename T, typename P>
inline void load_matrix_sync(fragment<Use, M, N, K, T, row_major> &f,
                             const P *p, unsigned ldm) {
  kiln_wmma_check("wmma::load_matrix_sync", p, ldm, sizeof(P));
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c)
      f.x[r * f.cols + c] = p[r * ldm + c];
}

template <int M, int N, int K, typename T, typename V>
inline void fill_fragment(fragment<accumulator, M, N, K, T> &f, V value) {
  for (int i = 0; i < f.num_elements; ++i)
    f.x[i] = value;
}

/// Fragments are registers on a GPU, never shared memory: not instrumented
/// (and not inlined into code that is), as each lane multiplies the whole
/// tile and the hooks would dominate the run.
/// Float accumulators sum float products; int ones (int8 operands) exact
/// int products.
template <int M, int N, int K, typename C, typename A, typename B, typename LA,
          typename LB>
__attribute__((noinline, no_sanitize("coverage"))) void
mma_sync(fragment<accumulator, M, N, K, C> &d,
         const fragment<matrix_a, M, N, K, A, LA> &a,
         const fragment<matrix_b, M, N, K, B, LB> &b,
         const fragment<accumulator, M, N, K, C> &c) {
  C result[M * N];
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C sum = c.x[i * N + j];
      for (int k = 0; k < K; ++k)
        sum += kiln_value(a.x[i * K + k]) * kiln_value(b.x[k * N + j]);
      result[i * N + j] = sum;
    }
  memcpy(d.x, result, sizeof result);
}

/// Every lane holds the same tile; lane 0 writes it (the kernels
/// synchronise before anyone reads it back).
template <int M, int N, int K, typename T>
inline void store_matrix_sync(T *p, const fragment<accumulator, M, N, K, T> &f,
                              unsigned ldm, layout_t layout) {
  kiln_wmma_check("wmma::store_matrix_sync", p, ldm, sizeof(T));
  unsigned linear =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if (linear % 32 != 0)
    return;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      T *slot = layout == mem_row_major ? p + r * ldm + c : p + c * ldm + r;
      *slot = f.x[r * N + c];
    }
}
} // namespace wmma
} // namespace nvcuda

#endif // KILN_CUDA_HOST_SHIM_H
