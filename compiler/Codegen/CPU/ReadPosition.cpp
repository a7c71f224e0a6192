//===- ReadPosition.cpp - Where a vector read starts in its buffer --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/ReadPosition.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace kiln::compiler {

ReadPosition readPosition(OpBuilder &b, vector::TransferReadOp read) {
  Location loc = read.getLoc();
  auto metadata =
      memref::ExtractStridedMetadataOp::create(b, loc, read.getBase());
  Value element = metadata.getOffset();
  for (auto [index, stride] :
       llvm::zip(read.getIndices(), metadata.getStrides()))
    element = arith::AddIOp::create(
        b, loc, element, arith::MulIOp::create(b, loc, index, stride));
  return {metadata.getBaseBuffer(), element};
}

} // namespace kiln::compiler
