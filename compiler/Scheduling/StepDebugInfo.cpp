//===- StepDebugInfo.cpp - What a step computes and where it comes from ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Scheduling/StepDebugInfo.h"

#include "compiler/Fusion/KernelFormation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace kiln::compiler {

Location stepSourceLoc(MLIRContext *context, ArrayRef<Operation *> ops) {
  SmallVector<Location> locations;
  StringAttr group;
  bool oneGroup = true;
  for (Operation *op : ops) {
    locations.push_back(op->getLoc());
    if (!isa<linalg::LinalgOp>(op))
      continue;
    auto name = op->getAttrOfType<StringAttr>(kGroupAttr);
    if (!name || (group && name != group))
      oneGroup = false;
    group = name;
  }
  return FusedLoc::get(context, locations, oneGroup ? group : Attribute());
}

int64_t loopIterations(linalg::LinalgOp op) {
  int64_t product = 1;
  for (int64_t range : op.getStaticLoopRanges())
    product *= std::max<int64_t>(range, 1);
  return product;
}

int64_t loopNestFlops(ArrayRef<Operation *> ops) {
  int64_t flops = 0;
  for (Operation *op : ops) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp)
      continue;
    int64_t perIteration = 0;
    linalgOp.getBlock()->walk([&](Operation *inner) {
      StringRef dialect = inner->getDialect()
                              ? inner->getDialect()->getNamespace()
                              : StringRef();
      if ((dialect == "arith" || dialect == "math") &&
          !isa<arith::ConstantOp, arith::IndexCastOp>(inner))
        ++perIteration;
    });
    flops += loopIterations(linalgOp) * perIteration;
  }
  return flops;
}

} // namespace kiln::compiler
