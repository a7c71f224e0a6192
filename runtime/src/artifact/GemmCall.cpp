//===- GemmCall.cpp - Launches a BLAS library can run instead -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/GemmCall.h"

#include "kiln/runtime/Artifact.h"

namespace kiln::rt {

namespace {
constexpr int64_t kMaxExtent = int64_t(1) << 31;

/// The last element `matrix` reaches (rows x cols per batch), or nothing
/// when a stride is negative or the index overflows.
std::optional<int64_t> lastElement(const GemmCall::Matrix &matrix,
                                   int64_t batch, int64_t rows, int64_t cols) {
  if (matrix.offset < 0 || matrix.rowStride < 0 || matrix.colStride < 0 ||
      matrix.batchStride < 0)
    return std::nullopt;
  __int128 last = __int128(matrix.offset) +
                  __int128(rows - 1) * matrix.rowStride +
                  __int128(cols - 1) * matrix.colStride +
                  __int128(batch - 1) * matrix.batchStride;
  if (last >= kMaxExtent * kMaxExtent)
    return std::nullopt;
  return int64_t(last);
}
} // namespace

std::string GemmCall::describe() const {
  std::string text = "step #" + std::to_string(step) + ": " +
                     std::string(dtypeName(element)) + " GEMM " +
                     std::to_string(m) + "x" + std::to_string(n) + "x" +
                     std::to_string(k);
  if (batch > 1)
    text += " x" + std::to_string(batch) + " batches";
  if (accumulate)
    text += ", accumulating";
  if (bias)
    text += ", bias";
  if (activation == Activation::kRelu)
    text += ", relu";
  if (activation == Activation::kGeluTanh)
    text += ", gelu (tanh)";
  return text;
}

std::optional<std::string> checkGemmCall(const GemmCall &call,
                                         const Program &program) {
  if (call.device >= program.devices.size() ||
      program.devices[call.device].kind != DeviceProgram::Kind::kCuda)
    return "device #" + std::to_string(call.device) + " is not a CUDA device";
  const std::vector<Step> &steps = program.devices[call.device].steps;
  if (call.step >= steps.size() ||
      steps[call.step].kind != Step::Kind::kLaunchKernel)
    return "step #" + std::to_string(call.step) + " is not a kernel launch";
  const Step &step = steps[call.step];
  if (call.element != DType::kF32 && call.element != DType::kF16 &&
      call.element != DType::kBF16)
    return std::string("element type ") + dtypeName(call.element) +
           " (expected f32, f16 or bf16)";
  for (int64_t extent : {call.batch, call.m, call.n, call.k})
    if (extent < 1 || extent >= kMaxExtent)
      return "extent " + std::to_string(extent) + " out of range";
  if (uint32_t(call.activation) > uint32_t(GemmCall::Activation::kGeluTanh))
    return "unknown activation " + std::to_string(uint32_t(call.activation));
  int64_t elementBytes = int64_t(dtypeSize(call.element));
  struct Operand {
    const char *name;
    const GemmCall::Matrix *matrix;
    int64_t batch, rows, cols;
  };
  std::vector<Operand> operands = {{"A", &call.a, call.batch, call.m, call.k},
                                   {"B", &call.b, call.batch, call.k, call.n},
                                   {"D", &call.d, call.batch, call.m, call.n}};
  if (call.bias) // One vector for every batch.
    operands.push_back({"bias", &*call.bias, 1, 1, call.n});
  for (const Operand &operand : operands) {
    const GemmCall::Matrix &matrix = *operand.matrix;
    std::string what = std::string(operand.name) + " (argument " +
                       std::to_string(matrix.arg) + ")";
    if (matrix.arg >= step.args.size())
      return what + " is not an argument of the launch";
    std::optional<int64_t> last =
        lastElement(matrix, operand.batch, operand.rows, operand.cols);
    uint64_t bytes = step.args[matrix.arg].bytes;
    if (!last || uint64_t(*last + 1) * uint64_t(elementBytes) > bytes)
      return what + " reaches past the argument's " + std::to_string(bytes) +
             " bytes";
  }
  if (!step.args[call.d.arg].writes())
    return "D (argument " + std::to_string(call.d.arg) +
           ") is an argument the launch only reads";
  return std::nullopt;
}

} // namespace kiln::rt
