//===- QuantizedOperands.cpp - Helpers for imported quantized ops ---------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/GraphTransforms/QuantizedOperands.h"

#include "dialects/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace kiln;

int64_t kiln::compiler::broadcastIndex(ArrayRef<int64_t> shape,
                                       ArrayRef<int64_t> from, int64_t index) {
  int64_t result = 0, stride = 1;
  for (int64_t d = int64_t(shape.size()) - 1, e = int64_t(from.size()) - 1;
       d >= 0; --d, --e) {
    int64_t position = index % shape[d];
    index /= shape[d];
    if (e < 0)
      continue;
    if (from[e] != 1)
      result += position * stride;
    stride *= from[e];
  }
  return result;
}

Value kiln::compiler::shiftToSigned(OpBuilder &b, Location loc,
                                    Value quantized) {
  auto type = cast<RankedTensorType>(quantized.getType());
  auto f32 = type.clone(b.getF32Type());
  Value wide = CastOp::create(b, loc, f32, quantized);
  auto scalarType = RankedTensorType::get({}, b.getF32Type());
  Value offset =
      ConstantOp::create(b, loc,
                         cast<ElementsAttr>(DenseElementsAttr::get(
                             scalarType, b.getF32FloatAttr(128.0f))));
  return CastOp::create(b, loc, type.clone(b.getI8Type()),
                        SubOp::create(b, loc, wide, offset));
}
