//===- GraphAttrs.cpp - Attributes of the kiln dialect --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/IR/GraphDialect.h"
#include "dialects/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;

#define GET_ATTRDEF_CLASSES
#include "dialects/Graph/IR/GraphAttrs.cpp.inc"

void KilnDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Graph/IR/GraphAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #kiln.sharding<replicated | split D | partial REDUCTION>
//===----------------------------------------------------------------------===//

Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  MLIRContext *context = parser.getContext();
  StringRef keyword;
  if (parser.parseLess() || parser.parseKeyword(&keyword))
    return {};
  Attribute result;
  if (keyword == "replicated") {
    result = ShardingAttr::get(context);
  } else if (keyword == "split") {
    int64_t dim;
    if (parser.parseInteger(dim))
      return {};
    if (dim < 0) {
      parser.emitError(parser.getCurrentLocation(),
                       "a split dimension is not negative, got ")
          << dim;
      return {};
    }
    result = ShardingAttr::get(context, dim);
  } else if (keyword == "partial") {
    StringRef name;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseKeyword(&name))
      return {};
    std::optional<CollectiveReduction> reduction =
        symbolizeCollectiveReduction(name);
    if (!reduction) {
      parser.emitError(at, "unknown reduction '")
          << name << "' (sum, max, min or prod)";
      return {};
    }
    result = ShardingAttr::get(context, *reduction);
  } else {
    parser.emitError(parser.getNameLoc(), "unknown sharding '")
        << keyword << "' (replicated, split D or partial REDUCTION)";
    return {};
  }
  if (succeeded(parser.parseOptionalKeyword("over"))) {
    std::string axis;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseString(&axis))
      return {};
    if (axis.empty()) {
      parser.emitError(at, "a mesh axis has a name");
      return {};
    }
    result = cast<ShardingAttr>(result).overAxis(axis);
  }
  if (parser.parseGreater())
    return {};
  return result;
}

void ShardingAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyShardingKind(getKind());
  if (isSplit())
    printer << ' ' << getDim();
  if (isPartial())
    printer << ' ' << stringifyCollectiveReduction(getReduction());
  if (!getAxis().empty()) {
    printer << " over ";
    printer.printString(getAxis());
  }
  printer << '>';
}

LogicalResult ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ShardingKind kind, int64_t dim,
                                   CollectiveReduction reduction,
                                   StringRef axis) {
  if (kind == ShardingKind::split && dim < 0)
    return emitError() << "a split dimension is not negative, got " << dim;
  if (kind != ShardingKind::split && dim != -1)
    return emitError() << "only a split has a dimension";
  return success();
}

//===----------------------------------------------------------------------===//
// kiln.shard annotations
//===----------------------------------------------------------------------===//

LogicalResult
kiln::verifyShardAnnotation(function_ref<InFlightDiagnostic()> emitError,
                            Attribute value, Type type) {
  auto sharding = dyn_cast<ShardingAttr>(value);
  if (!sharding)
    return emitError() << "'" << kShardAnnotation
                       << "' must be a #kiln.sharding, got " << value;
  if (sharding.isPartial())
    return emitError() << "'" << kShardAnnotation << "' cannot make a value "
                       << "a partial sum: annotate how it is laid out "
                          "(replicated or split D)";
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << "'" << kShardAnnotation
                       << "' annotates a ranked tensor, not " << type;
  if (sharding.isSplit() && sharding.getDim() >= tensor.getRank())
    return emitError() << "'" << kShardAnnotation << "' splits dimension "
                       << sharding.getDim() << " of " << type;
  return success();
}

namespace {
/// An annotation `over` an axis needs the module's kiln.mesh to have it.
LogicalResult verifyShardAxis(function_ref<InFlightDiagnostic()> emitError,
                              Attribute value, Operation *anchor) {
  auto sharding = dyn_cast<ShardingAttr>(value);
  if (!sharding || sharding.getAxis().empty())
    return success();
  auto module = anchor->getParentOfType<ModuleOp>();
  MeshOp mesh;
  if (module)
    for (auto candidate : module.getOps<MeshOp>())
      mesh = candidate;
  if (!mesh)
    return emitError() << "'" << kShardAnnotation << "' is over mesh axis '"
                       << sharding.getAxis()
                       << "', but the module has no kiln.mesh";
  if (!mesh.axisSize(sharding.getAxis()))
    return emitError() << "'" << kShardAnnotation << "' is over mesh axis '"
                       << sharding.getAxis() << "', which @"
                       << mesh.getSymName() << " does not have";
  return success();
}
} // namespace

LogicalResult KilnDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  if (attribute.getName() != kShardAnnotation)
    return success();
  if (op->getNumResults() != 1)
    return op->emitError("'")
           << kShardAnnotation << "' annotates an op with one result";
  auto emitError = [&] { return op->emitError(); };
  if (failed(verifyShardAnnotation(emitError, attribute.getValue(),
                                   op->getResult(0).getType())))
    return failure();
  return verifyShardAxis(emitError, attribute.getValue(), op);
}

LogicalResult KilnDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attribute) {
  if (attribute.getName() != kShardAnnotation)
    return success();
  Region &region = op->getRegion(regionIndex);
  if (region.empty() || argIndex >= region.getNumArguments())
    return op->emitError("'") << kShardAnnotation << "' on a missing argument";
  auto emitError = [&] {
    return op->emitError("argument ") << argIndex << ": ";
  };
  if (failed(verifyShardAnnotation(emitError, attribute.getValue(),
                                   region.getArgument(argIndex).getType())))
    return failure();
  return verifyShardAxis(emitError, attribute.getValue(), op);
}
