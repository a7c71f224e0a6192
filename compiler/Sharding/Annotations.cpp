//===- Annotations.cpp - Users' sharding annotations by name --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Sharding/Annotations.h"

#include "dialects/Graph/IR/GraphDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cctype>

using namespace mlir;

namespace kiln::compiler::sharding {

namespace {

/// Whether `loc` names `name` (a NameLoc, possibly inside a fused one:
/// canonicalisation fuses the locations of merged constants).
bool names(Location loc, StringRef name) {
  bool found = false;
  loc->walk([&](Location inner) {
    if (auto named = dyn_cast<NameLoc>(inner))
      found |= named.getName() == name;
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

} // namespace

std::optional<ShardAnnotation> parseShardAnnotation(const std::string &text,
                                                    std::string &error) {
  size_t equals = text.rfind('=');
  if (equals == std::string::npos || equals == 0) {
    error = "--shard '" + text + "': expected NAME=split(D) or NAME=replicated";
    return std::nullopt;
  }
  ShardAnnotation annotation;
  annotation.name = text.substr(0, equals);
  std::string layout = text.substr(equals + 1);
  if (layout == "replicated")
    return annotation;
  std::string digits;
  if (layout.rfind("split(", 0) == 0 && layout.back() == ')')
    digits = layout.substr(6, layout.size() - 7);
  else if (layout.rfind("split:", 0) == 0)
    digits = layout.substr(6);
  if (digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(),
                   [](char c) { return std::isdigit((unsigned char)c); })) {
    error = "--shard '" + text + "': unknown layout '" + layout +
            "' (split(D), split:D or replicated)";
    return std::nullopt;
  }
  annotation.splitDim = std::stoll(digits);
  return annotation;
}

LogicalResult
annotateShardings(ModuleOp module,
                  const std::vector<ShardAnnotation> &annotations) {
  MLIRContext *context = module.getContext();
  for (const ShardAnnotation &annotation : annotations) {
    auto layout = annotation.splitDim
                      ? ShardingAttr::get(context, *annotation.splitDim)
                      : ShardingAttr::get(context);
    bool matched = false, valid = true;
    // Errors at the model's location, without printing the model.
    auto check = [&](Location loc, Type type) {
      valid &= succeeded(verifyShardAnnotation(
          [&] {
            return emitError(loc) << "--shard " << annotation.name << ": ";
          },
          layout, type));
      matched = true;
    };
    module.walk([&](Operation *op) {
      if (auto function = dyn_cast<func::FuncOp>(op)) {
        for (unsigned i = 0; i < function.getNumArguments(); ++i)
          // Inputs without a name are argN, as the artifact calls them.
          if (auto name = function.getArgAttrOfType<StringAttr>(i, "kiln.name");
              name ? name.getValue() == annotation.name
                   : annotation.name == "arg" + std::to_string(i)) {
            check(function.getArgument(i).getLoc(),
                  function.getArgument(i).getType());
            function.setArgAttr(i, kShardAnnotation, layout);
          }
        return;
      }
      if (op->getNumResults() == 1 && names(op->getLoc(), annotation.name)) {
        check(op->getLoc(), op->getResult(0).getType());
        op->setAttr(kShardAnnotation, layout);
      }
    });
    if (!matched)
      return emitError(module.getLoc(),
                       "--shard: no input, weight or node is named '")
             << annotation.name << "'";
    if (!valid)
      return failure();
  }
  return success();
}

} // namespace kiln::compiler::sharding
