//===- NumericsCheck.cpp - NaN and Inf in each step's results -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The scans read bit patterns, not values: a NaN never compares equal to
// anything, and f16/bf16 have no host arithmetic type.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/NumericsCheck.h"

#include <cstring>

namespace kiln::rt {

namespace {
/// Exponent all ones: an infinity (mantissa zero) or a NaN.
template <typename Bits>
std::optional<uint64_t> scan(const uint8_t *bytes, uint64_t count,
                             Bits exponentMask) {
  for (uint64_t i = 0; i < count; ++i) {
    Bits bits;
    std::memcpy(&bits, bytes + i * sizeof(Bits), sizeof(Bits));
    if ((bits & exponentMask) == exponentMask)
      return i;
  }
  return std::nullopt;
}

/// Decodes the value at `element` into (nan, negative).
std::pair<bool, bool> classify(const uint8_t *bytes, uint64_t element,
                               DType type) {
  auto read = [&](auto bits, auto mantissaMask, int signBit) {
    std::memcpy(&bits, bytes + element * sizeof(bits), sizeof(bits));
    return std::make_pair((bits & mantissaMask) != 0,
                          ((bits >> signBit) & 1) != 0);
  };
  switch (type) {
  case DType::kF64:
    return read(uint64_t(), uint64_t(0x000FFFFFFFFFFFFFull), 63);
  case DType::kF16:
    return read(uint16_t(), uint16_t(0x03FF), 15);
  case DType::kBF16:
    return read(uint16_t(), uint16_t(0x007F), 15);
  default:
    return read(uint32_t(), uint32_t(0x007FFFFF), 31);
  }
}

const char *stepKindName(Step::Kind kind) {
  switch (kind) {
  case Step::Kind::kDispatch:
    return "dispatch";
  case Step::Kind::kLaunchKernel:
    return "launch";
  case Step::Kind::kCopy:
    return "copy";
  case Step::Kind::kFill:
    return "fill";
  case Step::Kind::kCollective:
    return "collective";
  case Step::Kind::kBarrier:
    return "barrier";
  }
  return "step";
}

std::string rangeText(const KernelArg &range) {
  static const char *const bases[] = {"?", "input", "output", "arena",
                                      "constants"};
  uint32_t base = uint32_t(range.base);
  std::string text = bases[base < 5 ? base : 0];
  if (range.base == KernelArg::Base::kInput ||
      range.base == KernelArg::Base::kOutput)
    text += " " + std::to_string(range.index);
  return text + "[" + std::to_string(range.offset) + " : " +
         std::to_string(range.bytes) + "]";
}
} // namespace

std::optional<uint64_t> firstNonFinite(const uint8_t *bytes, uint64_t size,
                                       DType element) {
  switch (element) {
  case DType::kF32:
    return scan<uint32_t>(bytes, size / 4, 0x7F800000u);
  case DType::kF64:
    return scan<uint64_t>(bytes, size / 8, 0x7FF0000000000000ull);
  case DType::kF16:
    return scan<uint16_t>(bytes, size / 2, 0x7C00);
  case DType::kBF16:
    return scan<uint16_t>(bytes, size / 2, 0x7F80);
  default:
    return std::nullopt;
  }
}

std::string NumericsFinding::describe() const {
  std::string what = nan ? "NaN" : negative ? "-inf" : "+inf";
  std::string text = "step #" + std::to_string(step);
  if (!kernel.empty())
    text += " (" + kernel + ")";
  text += " produced " + what + " at element " + std::to_string(element) +
          " of " + rangeText(result.range) + " (" + dtypeName(result.element) +
          ")";
  text += "; source: " +
          (source.empty() ? "unknown (the compiler recorded none)" : source);
  return text;
}

void NumericsCheck::afterStep(const StepEvent &event) {
  const Step &step = *event.step;
  if (step.results.empty())
    return;
  std::optional<NumericsFinding> found;
  for (const Step::Result &result : step.results) {
    const uint8_t *bytes = event.buffers->address(result.range);
    if (!bytes)
      continue;
    std::optional<uint64_t> element =
        firstNonFinite(bytes, result.range.bytes, result.element);
    if (!element)
      continue;
    NumericsFinding finding;
    finding.step = event.index;
    finding.kernel =
        step.kernel.empty()
            ? std::string()
            : std::string(stepKindName(step.kind)) + " " + step.kernel;
    finding.source = step.source;
    finding.result = result;
    finding.element = *element;
    std::tie(finding.nan, finding.negative) =
        classify(bytes, *element, result.element);
    found = std::move(finding);
    break;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++checked_;
  if (found && (!first_ || found->step < first_->step))
    first_ = std::move(found);
}

std::optional<NumericsFinding> NumericsCheck::first() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return first_;
}

uint64_t NumericsCheck::checkedSteps() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return checked_;
}

void NumericsCheck::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  first_.reset();
  checked_ = 0;
}

} // namespace kiln::rt
