//===- NpyFuzzer.cpp - libFuzzer harness for the .npy reader ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Any bytes: parseNpy returns a tensor or an error, never crashes, and a
// tensor it returns holds exactly the bytes its dtype and shape need.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Npy.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln::rt::StatusOr<kiln::rt::HostTensor> tensor =
      kiln::rt::parseNpy(data, size, "fuzz.npy");
  if (!tensor.isOk())
    return 0;
  size_t elements = 1;
  for (int64_t dim : tensor->shape) {
    if (dim < 0)
      std::abort();
    elements *= size_t(dim);
  }
  if (tensor->data.size() != elements * kiln::rt::dtypeSize(tensor->dtype))
    std::abort();
  // What was read must write back and read again the same.
  kiln::rt::StatusOr<std::string> encoded = kiln::rt::encodeNpy(*tensor);
  if (!encoded.isOk())
    return 0;
  auto again = kiln::rt::parseNpy(
      reinterpret_cast<const uint8_t *>(encoded->data()), encoded->size(),
      "again.npy");
  if (!again.isOk() || again->data != tensor->data ||
      again->shape != tensor->shape || again->dtype != tensor->dtype)
    std::abort();
  return 0;
}
