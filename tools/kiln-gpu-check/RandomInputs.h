//===- RandomInputs.h - Seeded inputs for timed workloads ---------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Timing a GEMM or a bandwidth kernel on all-zero inputs flatters it (zeros
// take less power and some units skip them). These are seeded values the
// same on every machine: floats in [-1, 1] on a grid of 1/64 (exact in f16
// and bf16), integers in [0, 8), booleans 0 or 1.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_GPU_CHECK_RANDOMINPUTS_H
#define KILN_TOOLS_KILN_GPU_CHECK_RANDOMINPUTS_H

#include "kiln/runtime/Artifact.h"
#include "kiln/runtime/HostTensor.h"

#include <cstdint>
#include <vector>

namespace kiln::gpucheck {

/// One tensor per spec, filled from `seed`.
std::vector<rt::HostTensor>
randomTensors(const std::vector<rt::TensorSpec> &specs, uint64_t seed);

/// `tensor` (f32) as floats.
std::vector<float> asFloats(const rt::HostTensor &tensor);

} // namespace kiln::gpucheck

#endif // KILN_TOOLS_KILN_GPU_CHECK_RANDOMINPUTS_H
