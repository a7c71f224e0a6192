//===- NumericsCheck.h - NaN and Inf in each step's results -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A StepHooks that scans the floating-point results of every step (the
// typed buffers the compiler recorded, Step::results) as soon as the step
// is done, and keeps the first step, in program order, that produced a NaN
// or an infinity. What `--check-numerics` of kilnc and kiln-run attaches.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NUMERICSCHECK_H
#define KILN_RUNTIME_NUMERICSCHECK_H

#include "kiln/runtime/StepHooks.h"

#include <mutex>
#include <optional>
#include <string>

namespace kiln::rt {

/// The first non-finite value a step produced.
struct NumericsFinding {
  uint32_t step = 0;     ///< Index in its device program.
  std::string kernel;    ///< The step's kernel (dispatches, launches).
  std::string source;    ///< Step::source: the ops it runs.
  Step::Result result;   ///< The buffer that holds the value.
  uint64_t element = 0;  ///< Its position in that buffer.
  bool nan = false;      ///< NaN, else an infinity.
  bool negative = false; ///< -inf (or a negative NaN).

  /// "step #3 (dispatch main_d3) produced NaN at element 17 of
  /// arena[64 : 4096] (f32); source: fusion#1 (elementwise): Log_3+Add_4".
  std::string describe() const;
};

/// Thread-safe: independent steps may finish on several threads.
class NumericsCheck : public StepHooks {
public:
  void afterStep(const StepEvent &event) override;

  /// The offending step with the lowest index, if any step offended.
  std::optional<NumericsFinding> first() const;
  /// Steps that had results to check, over all runs.
  uint64_t checkedSteps() const;
  /// Forget findings (between runs).
  void reset();

private:
  mutable std::mutex mutex_;
  std::optional<NumericsFinding> first_;
  uint64_t checked_ = 0;
};

/// Where the first non-finite value of `bytes` (elements of `element`) is;
/// nullopt when all are finite or the type is not floating-point.
std::optional<uint64_t> firstNonFinite(const uint8_t *bytes, uint64_t size,
                                       DType element);

} // namespace kiln::rt

#endif // KILN_RUNTIME_NUMERICSCHECK_H
