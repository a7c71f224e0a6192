//===- GraphDialect.cpp - The kiln graph dialect --------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/IR/GraphDialect.h"
#include "dialects/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace kiln;

#include "dialects/Graph/IR/GraphOpsDialect.cpp.inc"

void KilnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Graph/IR/GraphOps.cpp.inc"
      >();
  registerAttributes();
}

Operation *KilnDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
