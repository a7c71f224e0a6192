//===- RandomInputs.cpp - Seeded inputs for timed workloads ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "RandomInputs.h"

#include <cstring>

namespace kiln::gpucheck {

namespace {
/// SplitMix64: tiny, and the same sequence everywhere (unlike the standard
/// library's distributions).
uint64_t next(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// k / 64 for k in [-64, 64] as f16 bits (exact: at most 7 significant bits).
uint16_t gridToHalf(int k) {
  if (k == 0)
    return 0;
  uint16_t sign = k < 0 ? 0x8000 : 0;
  int magnitude = k < 0 ? -k : k, exponent = 0;
  while (magnitude >= 128) // normalise to [64, 128): 7 bits, leading one
    magnitude >>= 1, ++exponent;
  while (magnitude < 64)
    magnitude <<= 1, --exponent;
  // k = magnitude * 2^exponent, so k / 64 = (magnitude / 64) * 2^exponent.
  int biased = exponent + 15;
  return uint16_t(sign | (biased << 10) | ((magnitude - 64) << 4));
}

template <typename T> void store(uint8_t *data, int64_t i, T value) {
  std::memcpy(data + sizeof(T) * i, &value, sizeof(T));
}
} // namespace

std::vector<rt::HostTensor>
randomTensors(const std::vector<rt::TensorSpec> &specs, uint64_t seed) {
  std::vector<rt::HostTensor> tensors;
  uint64_t state = seed;
  for (const rt::TensorSpec &spec : specs) {
    rt::HostTensor tensor;
    tensor.dtype = spec.dtype;
    tensor.shape = spec.shape;
    int64_t count = tensor.numElements();
    tensor.data.resize(size_t(count) * rt::dtypeSize(spec.dtype));
    uint8_t *p = tensor.data.data();
    for (int64_t i = 0; i < count; ++i) {
      uint64_t bits = next(state);
      int grid = int(bits % 129) - 64; // k in [-64, 64]
      int small = int(bits % 8);
      float value = float(grid) / 64;
      switch (spec.dtype) {
      case rt::DType::kF32:
        store<float>(p, i, value);
        break;
      case rt::DType::kF64:
        store<double>(p, i, value);
        break;
      case rt::DType::kF16:
        store<uint16_t>(p, i, gridToHalf(grid));
        break;
      case rt::DType::kBF16: {
        uint32_t wide;
        std::memcpy(&wide, &value, 4);
        store<uint16_t>(p, i, uint16_t(wide >> 16)); // exact: few bits set
        break;
      }
      case rt::DType::kI1:
        p[i] = bits & 1;
        break;
      case rt::DType::kI8:
      case rt::DType::kU8:
        p[i] = uint8_t(small);
        break;
      case rt::DType::kI16:
      case rt::DType::kU16:
        store<uint16_t>(p, i, uint16_t(small));
        break;
      case rt::DType::kI32:
      case rt::DType::kU32:
        store<uint32_t>(p, i, uint32_t(small));
        break;
      case rt::DType::kI64:
      case rt::DType::kU64:
        store<uint64_t>(p, i, uint64_t(small));
        break;
      }
    }
    tensors.push_back(std::move(tensor));
  }
  return tensors;
}

std::vector<float> asFloats(const rt::HostTensor &tensor) {
  std::vector<float> values(size_t(tensor.numElements()));
  std::memcpy(values.data(), tensor.data.data(), values.size() * 4);
  return values;
}

} // namespace kiln::gpucheck
