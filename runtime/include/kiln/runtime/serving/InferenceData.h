//===- InferenceData.h - The tensors a served request carries ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A request in the simulator is only a model name and times; a request a
// real device serves also carries its input tensors and gets its outputs
// back. The pool passes this through untouched (Request -> Device ->
// Response), so the scheduler stays the same code in both worlds.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SERVING_INFERENCEDATA_H
#define KILN_RUNTIME_SERVING_INFERENCEDATA_H

#include "kiln/runtime/HostTensor.h"
#include "kiln/runtime/Status.h"
#include "kiln/runtime/serving/Clock.h"

#include <vector>

namespace kiln::rt::serving {

/// Written by the device that runs the request, read by whoever waits for
/// its Response; the pool's completion ordering makes that hand-over safe.
struct InferenceData {
  std::vector<HostTensor> inputs;
  std::vector<HostTensor> outputs;
  /// What the execution returned: a completed request may still have
  /// failed to run (a bad input that passed admission, a kernel fault).
  Status status;
  /// When the device started and finished executing it (its clock): the
  /// service time, apart from queueing.
  Micros executionStart = 0;
  Micros executionEnd = 0;
};

} // namespace kiln::rt::serving

#endif // KILN_RUNTIME_SERVING_INFERENCEDATA_H
