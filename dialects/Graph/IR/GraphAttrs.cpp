//===- GraphAttrs.cpp - Attributes of the kiln dialect --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "dialects/Graph/IR/GraphDialect.h"

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
  printer << '>';
}

LogicalResult ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ShardingKind kind, int64_t dim,
                                   CollectiveReduction reduction) {
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

LogicalResult KilnDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  if (attribute.getName() != kShardAnnotation)
    return success();
  if (op->getNumResults() != 1)
    return op->emitError("'")
           << kShardAnnotation << "' annotates an op with one result";
  return verifyShardAnnotation([&] { return op->emitError(); },
                               attribute.getValue(),
                               op->getResult(0).getType());
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
  return verifyShardAnnotation(
      [&] { return op->emitError("argument ") << argIndex << ": "; },
      attribute.getValue(), region.getArgument(argIndex).getType());
}
