//===- FoldWeightSlices.cpp - Each rank stores only its weights -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The partitioner takes a rank's part of a weight with kiln.slice. The
// generic slice folder gives up on constants over 64K elements (it builds
// one attribute per element), which would leave every rank holding every
// weight whole and copying its part out on every run. Slices of dense
// constants are copied here row by row from the raw data instead: linear
// in the bytes kept, whatever the size.
//
//===----------------------------------------------------------------------===//

#include "compiler/Sharding/ShardGraph.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <cstring>

using namespace mlir;
using namespace kiln;

namespace kiln::compiler::sharding {

namespace {

/// `source` sliced with unit steps from `starts` to `type`'s shape.
DenseElementsAttr sliceDense(DenseElementsAttr source, RankedTensorType type,
                             ArrayRef<int64_t> starts) {
  if (source.isSplat())
    return source.resizeSplat(type);
  Type element = source.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  size_t width = element.getIntOrFloatBitWidth() / 8;
  ArrayRef<char> raw = source.getRawData();
  ArrayRef<int64_t> in = cast<ShapedType>(source.getType()).getShape();
  ArrayRef<int64_t> out = type.getShape();
  int64_t rank = type.getRank();
  if (rank == 0 || type.getNumElements() == 0)
    return {};
  // Strides of the source, in elements.
  SmallVector<int64_t> stride(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    stride[d] = stride[d + 1] * in[d + 1];
  size_t rowBytes = size_t(out[rank - 1]) * width;
  std::vector<char> bytes(size_t(type.getNumElements()) * width);
  SmallVector<int64_t> index(rank, 0); // Over the output's outer dims.
  for (size_t row = 0, rows = bytes.size() / rowBytes; row < rows; ++row) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += (starts[d] + index[d]) * stride[d];
    std::memcpy(bytes.data() + row * rowBytes, raw.data() + offset * width,
                rowBytes);
    for (int64_t d = rank - 2; d >= 0; --d) {
      if (++index[d] < out[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(type, bytes);
}

} // namespace

void foldWeightSlices(func::FuncOp function) {
  SmallVector<SliceOp> slices;
  function.walk([&](SliceOp slice) { slices.push_back(slice); });
  // In program order: a slice of a slice finds its input folded already.
  for (SliceOp slice : slices) {
    auto constant = slice.getInput().getDefiningOp<ConstantOp>();
    if (!constant ||
        !llvm::all_of(slice.getSteps(), [](int64_t step) { return step == 1; }))
      continue;
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense)
      continue;
    DenseElementsAttr folded = sliceDense(
        dense, cast<RankedTensorType>(slice.getType()), slice.getStarts());
    if (!folded)
      continue;
    OpBuilder builder(slice);
    Value value = ConstantOp::create(builder, slice.getLoc(), folded);
    slice.replaceAllUsesWith(value);
    slice.erase();
    if (constant->use_empty())
      constant.erase();
  }
}

} // namespace kiln::compiler::sharding
