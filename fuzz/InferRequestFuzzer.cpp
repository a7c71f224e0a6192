//===- InferRequestFuzzer.cpp - libFuzzer harness for kiln-serve's infer ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Any body, with or without a binary-extension header length (the first
// byte says which, the next two give it): parseInferRequest returns the
// model's inputs or an error, never crashes; inputs it returns have exactly
// the bytes their dtype and shape need, and encoding them as outputs works.
//
//===----------------------------------------------------------------------===//

#include "InferenceProtocol.h"

#include <cstdlib>

using namespace kiln;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3)
    return 0;
  static const rt::Program program = [] {
    rt::Program p;
    p.inputs = {{"x", rt::DType::kF32, {2, 3}},
                {"ids", rt::DType::kI64, {4}},
                {"h", rt::DType::kF16, {2}},
                {"mask", rt::DType::kI1, {3}}};
    p.outputs = p.inputs;
    return p;
  }();
  std::optional<size_t> jsonLength;
  if (data[0] & 1)
    jsonLength = size_t(data[1]) | size_t(data[2]) << 8;
  std::string body(reinterpret_cast<const char *>(data + 3), size - 3);
  rt::StatusOr<serve::InferRequest> request =
      serve::parseInferRequest(body, jsonLength, program);
  if (!request.isOk())
    return 0;
  if (request->inputs.size() != program.inputs.size())
    std::abort();
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    const rt::HostTensor &tensor = request->inputs[i];
    if (tensor.shape != program.inputs[i].shape ||
        tensor.data.size() != size_t(tensor.numElements()) *
                                  rt::dtypeSize(program.inputs[i].dtype))
      std::abort();
  }
  // The parsed inputs are valid outputs of the same shapes; unknown output
  // names are an error, never a crash.
  (void)serve::encodeInferResponse("m", *request, program, request->inputs);
  return 0;
}
