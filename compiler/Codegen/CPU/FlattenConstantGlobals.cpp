//===- FlattenConstantGlobals.cpp - Weights as flat LLVM arrays -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Translated to LLVM IR, a nested-array initialiser is one uniqued constant
// per innermost row (hashed by its bytes); a flat array is one constant.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_FLATTENCONSTANTGLOBALSPASS
#include "compiler/Codegen/CPU/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;

namespace {

/// The element type and element count of a nested LLVM array type, or a
/// null type when `type` is not an array of arrays of one scalar type.
std::pair<Type, int64_t> nestedArrayShape(Type type) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(type);
  if (!array || !isa<LLVM::LLVMArrayType>(array.getElementType()))
    return {Type(), 0};
  int64_t count = 1;
  while (array) {
    count *= array.getNumElements();
    type = array.getElementType();
    array = dyn_cast<LLVM::LLVMArrayType>(type);
  }
  return {type, count};
}

/// The names of the symbols that some op uses other than by taking their
/// address, or nullopt when the uses cannot be known. One walk for all
/// globals (a walk per global was quadratic in the model's size).
std::optional<llvm::DenseSet<StringAttr>> namesReadBeyondAddress(
    ModuleOp module) {
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(&module.getBodyRegion());
  if (!uses)
    return std::nullopt;
  llvm::DenseSet<StringAttr> names;
  for (const SymbolTable::SymbolUse &use : *uses)
    if (!isa<LLVM::AddressOfOp>(use.getUser()))
      names.insert(use.getSymbolRef().getRootReference());
  return names;
}

/// `value` as one flat array: its raw bytes as i8 when it is not a splat
/// (LLVM's object writer emits an i8 array as one block of bytes, a float
/// array element by element), else the splat itself reshaped.
DenseElementsAttr flatten(DenseElementsAttr value) {
  if (value.isSplat())
    return value.reshape(RankedTensorType::get({value.getNumElements()},
                                               value.getElementType()));
  ArrayRef<char> bytes = value.getRawData();
  return DenseElementsAttr::getFromRawBuffer(
      RankedTensorType::get({static_cast<int64_t>(bytes.size())},
                            IntegerType::get(value.getContext(), 8)),
      bytes);
}

struct FlattenConstantGlobalsPass
    : kiln::compiler::impl::FlattenConstantGlobalsPassBase<
          FlattenConstantGlobalsPass> {
  using FlattenConstantGlobalsPassBase::FlattenConstantGlobalsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<llvm::DenseSet<StringAttr>> readBeyondAddress =
        namesReadBeyondAddress(module);
    if (!readBeyondAddress)
      return;
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      auto value =
          dyn_cast_if_present<DenseElementsAttr>(global.getValueOrNull());
      if (!global.getConstant() || !value || value.getType().getRank() < 2)
        continue;
      auto [element, count] = nestedArrayShape(global.getGlobalType());
      Type valueElement = value.getElementType();
      if (!element || element != valueElement ||
          count != value.getNumElements() || !valueElement.isIntOrFloat() ||
          valueElement.getIntOrFloatBitWidth() % 8 != 0 ||
          readBeyondAddress->contains(global.getSymNameAttr()) ||
          (leaveFromBytes != 0 && static_cast<uint64_t>(count) *
                                          valueElement.getIntOrFloatBitWidth() /
                                          8 >=
                                      leaveFromBytes))
        continue;
      DenseElementsAttr flat = flatten(value);
      global.setValueAttr(flat);
      global.setGlobalType(LLVM::LLVMArrayType::get(flat.getElementType(),
                                                    flat.getNumElements()));
    }
  }
};

} // namespace
