//===- EntrySignature.cpp - Inputs and outputs of a model -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/MemoryPlanning/EntrySignature.h"
#include "compiler/MemoryPlanning/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::compiler {

std::optional<rt::DType> toDType(Type type) {
  if (type.isF32())
    return rt::DType::kF32;
  if (type.isF16())
    return rt::DType::kF16;
  if (type.isBF16())
    return rt::DType::kBF16;
  if (type.isF64())
    return rt::DType::kF64;
  if (type.isSignlessInteger(1))
    return rt::DType::kI1;
  if (type.isSignlessInteger(8))
    return rt::DType::kI8;
  if (type.isSignlessInteger(16))
    return rt::DType::kI16;
  if (type.isSignlessInteger(32))
    return rt::DType::kI32;
  if (type.isSignlessInteger(64))
    return rt::DType::kI64;
  if (type.isUnsignedInteger(8))
    return rt::DType::kU8;
  if (type.isUnsignedInteger(16))
    return rt::DType::kU16;
  if (type.isUnsignedInteger(32))
    return rt::DType::kU32;
  if (type.isUnsignedInteger(64))
    return rt::DType::kU64;
  return std::nullopt;
}

namespace {
FailureOr<rt::TensorSpec> describe(Location loc, Type type, StringAttr name,
                                    std::string fallbackName) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  std::optional<rt::DType> dtype =
      tensor ? toDType(tensor.getElementType()) : std::nullopt;
  if (!tensor || !tensor.hasStaticShape() || !dtype)
    return emitError(loc) << "entry point '" << fallbackName << "' has type "
                          << type
                          << ": only statically shaped tensors of supported "
                             "element types can cross the model boundary";
  return rt::TensorSpec{name ? name.str() : fallbackName, *dtype,
                         std::vector<int64_t>(tensor.getShape().begin(),
                                              tensor.getShape().end())};
}

/// Reads result `i`'s run-time length attributes into `outputs[i]`.
LogicalResult describeRuntimeLength(func::FuncOp function, unsigned i,
                                    std::vector<rt::TensorSpec> &outputs) {
  auto axis = function.getResultAttrOfType<IntegerAttr>(i, kLengthAxisAttr);
  auto result = function.getResultAttrOfType<IntegerAttr>(i, kLengthResultAttr);
  if (!axis && !result)
    return success();
  rt::TensorSpec &output = outputs[i];
  const rt::TensorSpec *length =
      result && result.getInt() >= 0 &&
              result.getInt() < int64_t(outputs.size())
          ? &outputs[result.getInt()]
          : nullptr;
  if (!axis || axis.getInt() < 0 ||
      axis.getInt() >= int64_t(output.shape.size()) || !length ||
      length == &output || length->dtype != rt::DType::kI64 ||
      !length->shape.empty())
    return function.emitError("result #")
           << i << " ('" << output.name
           << "'): a run-time length needs an axis of the result and another "
              "result, an i64 scalar, to hold it";
  output.lengthAxis = int32_t(axis.getInt());
  output.lengthOutput = uint32_t(result.getInt());
  return success();
}
} // namespace

FailureOr<EntrySignature> getEntrySignature(ModuleOp module, StringRef entry) {
  func::FuncOp function;
  if (!entry.empty()) {
    function = module.lookupSymbol<func::FuncOp>(entry);
    if (!function || function.isExternal())
      return module.emitError("no function named '") << entry << "' to run";
  } else {
    for (auto candidate : module.getOps<func::FuncOp>()) {
      if (candidate.isPrivate() || candidate.isExternal())
        continue;
      if (function)
        return module.emitError(
            "the model has several public functions; choose one with "
            "--entry");
      function = candidate;
    }
    if (!function)
      return module.emitError("the model has no public function to run");
  }

  EntrySignature signature;
  signature.function = function.getSymName().str();
  FunctionType type = function.getFunctionType();
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    auto name = function.getArgAttrOfType<StringAttr>(i, kNameAttr);
    auto input = describe(function.getArgument(i).getLoc(), type.getInput(i),
                          name, "arg" + std::to_string(i));
    if (failed(input))
      return failure();
    signature.inputs.push_back(*input);
  }
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    auto name = function.getResultAttrOfType<StringAttr>(i, kNameAttr);
    auto output = describe(function.getLoc(), type.getResult(i), name,
                           "result" + std::to_string(i));
    if (failed(output))
      return failure();
    signature.outputs.push_back(*output);
  }
  for (unsigned i = 0; i < type.getNumResults(); ++i)
    if (failed(describeRuntimeLength(function, i, signature.outputs)))
      return failure();
  return signature;
}

std::optional<std::string> outputWithRuntimeLength(ModuleOp module) {
  for (auto function : module.getOps<func::FuncOp>())
    for (unsigned i = 0; i < function.getNumResults(); ++i)
      if (function.getResultAttr(i, kLengthAxisAttr)) {
        auto name = function.getResultAttrOfType<StringAttr>(i, kNameAttr);
        return name ? name.str() : "result" + std::to_string(i);
      }
  return std::nullopt;
}

FailureOr<uint64_t> readArenaBytes(ModuleOp loweredModule) {
  auto attr = loweredModule->getAttrOfType<IntegerAttr>(kArenaBytesAttr);
  if (!attr || attr.getInt() < 0)
    return loweredModule.emitError("the lowered module records no arena size");
  return uint64_t(attr.getInt());
}

} // namespace kiln::compiler
