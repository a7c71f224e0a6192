//===- Reduce.cpp - Element-wise reductions of rank buffers ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Blocks of elements are accumulated in a local array: every input of a
// block is read before the block is written, so `out` may alias an input,
// and the inner loops vectorise.
//
//===----------------------------------------------------------------------===//

#include "Reduce.h"

#include "HalfFloat.h"

#include <algorithm>
#include <type_traits>

namespace kiln::rt {

namespace {

constexpr size_t kBlock = 512;

/// Integers wrap (through their unsigned type); floats propagate NaN.
template <typename Acc> struct Combine {
  using Bits =
      std::conditional_t<std::is_integral_v<Acc>, std::make_unsigned<Acc>,
                         std::common_type<Acc>>;
  using Wide = typename Bits::type;
  static Acc sum(Acc a, Acc b) { return Acc(Wide(a) + Wide(b)); }
  static Acc prod(Acc a, Acc b) {
    // Unsigned types narrower than int promote to (signed) int: widen them
    // to unsigned int first so the multiplication cannot overflow.
    using Promoted =
        std::conditional_t<(sizeof(Wide) < sizeof(unsigned)), unsigned, Wide>;
    return Acc(Wide(Promoted(Wide(a)) * Promoted(Wide(b))));
  }
  static bool isNaN(Acc a) {
    if constexpr (std::is_floating_point_v<Acc>)
      return a != a;
    return false;
  }
  static Acc max(Acc a, Acc b) { return (a > b || isNaN(a)) ? a : b; }
  static Acc min(Acc a, Acc b) { return (a < b || isNaN(a)) ? a : b; }
};

template <typename T> struct Plain {
  using Acc = T;
  static Acc load(T value) { return value; }
  static T store(Acc value) { return value; }
};
struct Half {
  using Acc = float;
  static Acc load(uint16_t value) { return f16ToFloat(value); }
  static uint16_t store(Acc value) { return floatToF16(value); }
};
struct BFloat {
  using Acc = float;
  static Acc load(uint16_t value) { return bf16ToFloat(value); }
  static uint16_t store(Acc value) { return floatToBf16(value); }
};

template <typename T, typename Codec, typename Fn>
void reduceWith(const void *const *inputs, size_t inputCount, size_t count,
                void *out, Fn combine) {
  using Acc = typename Codec::Acc;
  Acc acc[kBlock];
  T *result = static_cast<T *>(out);
  for (size_t begin = 0; begin < count; begin += kBlock) {
    size_t n = std::min(kBlock, count - begin);
    const T *first = static_cast<const T *>(inputs[0]) + begin;
    for (size_t k = 0; k < n; ++k)
      acc[k] = Codec::load(first[k]);
    for (size_t i = 1; i < inputCount; ++i) {
      const T *input = static_cast<const T *>(inputs[i]) + begin;
      for (size_t k = 0; k < n; ++k)
        acc[k] = combine(acc[k], Codec::load(input[k]));
    }
    for (size_t k = 0; k < n; ++k)
      result[begin + k] = Codec::store(acc[k]);
  }
}

template <typename T, typename Codec = Plain<T>>
void reduceTyped(ReduceOp op, const void *const *inputs, size_t inputCount,
                 size_t count, void *out) {
  using C = Combine<typename Codec::Acc>;
  switch (op) {
  case ReduceOp::kSum:
    return reduceWith<T, Codec>(inputs, inputCount, count, out, C::sum);
  case ReduceOp::kMax:
    return reduceWith<T, Codec>(inputs, inputCount, count, out, C::max);
  case ReduceOp::kMin:
    return reduceWith<T, Codec>(inputs, inputCount, count, out, C::min);
  case ReduceOp::kProd:
    return reduceWith<T, Codec>(inputs, inputCount, count, out, C::prod);
  }
}

} // namespace

bool canReduce(DType dtype) {
  return dtype != DType::kI1 && dtypeSize(dtype) != 0;
}

void reduceElements(DType dtype, ReduceOp op, const void *const *inputs,
                    size_t inputCount, size_t count, void *out) {
  if (inputCount == 0 || count == 0)
    return;
  switch (dtype) {
  case DType::kF32:
    return reduceTyped<float>(op, inputs, inputCount, count, out);
  case DType::kF64:
    return reduceTyped<double>(op, inputs, inputCount, count, out);
  case DType::kF16:
    return reduceTyped<uint16_t, Half>(op, inputs, inputCount, count, out);
  case DType::kBF16:
    return reduceTyped<uint16_t, BFloat>(op, inputs, inputCount, count, out);
  case DType::kI8:
    return reduceTyped<int8_t>(op, inputs, inputCount, count, out);
  case DType::kI16:
    return reduceTyped<int16_t>(op, inputs, inputCount, count, out);
  case DType::kI32:
    return reduceTyped<int32_t>(op, inputs, inputCount, count, out);
  case DType::kI64:
    return reduceTyped<int64_t>(op, inputs, inputCount, count, out);
  case DType::kU8:
    return reduceTyped<uint8_t>(op, inputs, inputCount, count, out);
  case DType::kU16:
    return reduceTyped<uint16_t>(op, inputs, inputCount, count, out);
  case DType::kU32:
    return reduceTyped<uint32_t>(op, inputs, inputCount, count, out);
  case DType::kU64:
    return reduceTyped<uint64_t>(op, inputs, inputCount, count, out);
  case DType::kI1:
    return; // canReduce() refuses it.
  }
}

} // namespace kiln::rt
