//===- GemmCallOf.cpp - A contraction kernel as a library GEMM ------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// When a contraction is a plain (batched) GEMM over strided operands, the
// runtime may run it through cuBLASLt instead of its kernel (GemmCall.h,
// `--gemm`). This recognises that case from what the kernel printer
// already knows: the loops' roles (M, N, K, batch), each operand's
// indexing map and its static strided layout.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CUDA/KernelWriter.h"
#include "compiler/MemoryPlanning/EntrySignature.h"

namespace kiln::compiler::cuda {

using namespace mlir;

namespace {
/// Element stride of `access` along each loop of the generic (0 where the
/// operand does not depend on it); nothing when an index is not a single
/// loop (a convolution window, say).
std::optional<SmallVector<int64_t>> loopStrides(const BufferAccess &access,
                                                AffineMap map, unsigned loops) {
  SmallVector<int64_t> strides(loops, 0);
  for (auto [i, result] : llvm::enumerate(map.getResults())) {
    if (access.shape[i] == 1)
      continue; // Always index 0, as the printer's address() has it.
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim)
      return std::nullopt;
    strides[dim.getPosition()] += access.strides[i];
  }
  return strides;
}

} // namespace

std::optional<rt::GemmCall>
KernelWriter::gemmCallOf(const ContractionLoops &loops) const {
  // An epilogue or a non-zero start has no cuBLASLt form yet.
  if (kernel_.fusedEpilogue || (request_.initValue && !request_.initIsZero))
    return std::nullopt;
  Type operandType = mulAddOperandType(loops);
  Type outType = op_.getRegion().front().getArgument(2).getType();
  if (!operandType || operandType != outType)
    return std::nullopt;
  std::optional<rt::DType> element = toDType(operandType);
  if (element != rt::DType::kF32 && element != rt::DType::kF16 &&
      element != rt::DType::kBF16)
    return std::nullopt;
  auto maps = op_.getIndexingMapsArray();
  // Several loops of one role collapse into one GEMM dimension when each
  // outer stride is the inner one times the inner extent (row-major
  // flattening, as the kernel flattens them).
  auto collapse = [&](ArrayRef<unsigned> group,
                      ArrayRef<int64_t> strides) -> std::optional<int64_t> {
    int64_t stride = 0, next = -1;
    for (unsigned loop : llvm::reverse(group)) {
      if (ranges_[loop] == 1)
        continue;
      if (next >= 0 && strides[loop] != next)
        return std::nullopt;
      if (next < 0)
        stride = strides[loop];
      next = strides[loop] * ranges_[loop];
    }
    return stride;
  };
  auto matrix =
      [&](unsigned operand, ArrayRef<unsigned> rows,
          ArrayRef<unsigned> cols) -> std::optional<rt::GemmCall::Matrix> {
    const BufferAccess &access = operands_[operand].access;
    std::optional<SmallVector<int64_t>> strides =
        loopStrides(access, maps[operand], unsigned(ranges_.size()));
    if (!strides)
      return std::nullopt;
    std::optional<int64_t> row = collapse(rows, *strides),
                           col = collapse(cols, *strides),
                           batch = collapse(loops.batch, *strides);
    auto param = llvm::find(kernel_.params, access.root);
    if (!row || !col || !batch || param == kernel_.params.end())
      return std::nullopt;
    return rt::GemmCall::Matrix{uint32_t(param - kernel_.params.begin()),
                                access.offset, *row, *col, *batch};
  };
  std::optional<rt::GemmCall::Matrix> a = matrix(loops.a, loops.m, loops.k),
                                      b = matrix(loops.b, loops.k, loops.n),
                                      d = matrix(2, loops.m, loops.n);
  if (!a || !b || !d)
    return std::nullopt;
  rt::GemmCall call;
  call.element = *element;
  call.batch = product(loops.batch);
  call.m = loops.rows;
  call.n = loops.cols;
  call.k = loops.depth;
  call.a = *a;
  call.b = *b;
  call.d = *d;
  // Without a fill the kernel adds to what an earlier step left in D.
  call.accumulate = !request_.initValue;
  return call;
}

} // namespace kiln::compiler::cuda
