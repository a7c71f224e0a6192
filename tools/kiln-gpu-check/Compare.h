//===- Compare.h - Outputs against references, by value ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The GPU check compares what a GPU computed with an independent
// reference: dtype and shape first, then every element by value (f16 and
// bf16 decoded, integers exactly as numbers, booleans as 0/1), within
// |got - want| <= atol + rtol * |want|; NaN matches only NaN.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_GPU_CHECK_COMPARE_H
#define KILN_TOOLS_KILN_GPU_CHECK_COMPARE_H

#include "kiln/runtime/HostTensor.h"

#include <string>
#include <vector>

namespace kiln::gpucheck {

/// Element `i` of `tensor` as a double (any dtype).
double elementAsDouble(const rt::HostTensor &tensor, int64_t i);

struct Comparison {
  bool ok = true;
  double maxAbsError = 0;
  /// The largest error as a multiple of its tolerance (<= 1 passes).
  double errorOverTolerance = 0;
  /// The first mismatch of dtype, shape or count, if any ("output 0:
  /// dtype f16, expected f32").
  std::string mismatch;
};

/// Compares `got` with `want` output by output.
Comparison compareOutputs(const std::vector<rt::HostTensor> &got,
                          const std::vector<rt::HostTensor> &want, double rtol,
                          double atol);

/// Whether two runs produced the same bytes, dtypes and shapes.
bool sameBytes(const std::vector<rt::HostTensor> &a,
               const std::vector<rt::HostTensor> &b);

} // namespace kiln::gpucheck

#endif // KILN_TOOLS_KILN_GPU_CHECK_COMPARE_H
