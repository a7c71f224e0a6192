//===- LargeConstants.cpp - Weights kept out of LLVM ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/LargeConstants.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace kiln::compiler {

namespace {

/// Their alignment where the global names none: a cache line, as for the
/// arena.
constexpr uint64_t kLargeConstantAlignment = 64;

/// The scalar type and element count of an LLVM array (of arrays) type, or
/// a null type when `type` is not an array of one scalar type.
std::pair<Type, int64_t> arrayShape(Type type) {
  int64_t count = 1;
  while (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    count *= array.getNumElements();
    type = array.getElementType();
  }
  if (count == 1 && !isa<LLVM::LLVMArrayType>(type))
    return {Type(), 0};
  return {type, count};
}

} // namespace

std::vector<RawConstant> takeLargeConstants(ModuleOp module, uint64_t minBytes,
                                            ConstantBinding binding) {
  std::vector<RawConstant> taken;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    auto value =
        dyn_cast_if_present<DenseElementsAttr>(global.getValueOrNull());
    if (!global.getConstant() || !value || value.isSplat() ||
        global.getComdat() || global.getSection() || global.getThreadLocal_() ||
        global.getAddrSpace() != 0)
      continue;
    Type element = value.getElementType();
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
      continue;
    ArrayRef<char> bytes = value.getRawData();
    // The bytes must be the whole global: an array of the same scalars.
    auto [scalar, count] = arrayShape(global.getGlobalType());
    if (bytes.size() < minBytes || scalar != element ||
        static_cast<uint64_t>(count) * element.getIntOrFloatBitWidth() / 8 !=
            bytes.size())
      continue;
    uint64_t alignment =
        global.getAlignment().value_or(kLargeConstantAlignment);
    taken.push_back({global.getSymName().str(), alignment, bytes});
    global.setAlignment(alignment);
    global.removeValueAttr();
    global.setLinkage(LLVM::Linkage::External);
    bool sameObject = binding == ConstantBinding::kSameObject;
    global.setVisibility_(sameObject ? LLVM::Visibility::Hidden
                                     : LLVM::Visibility::Default);
    global.setDsoLocal(sameObject);
  }
  return taken;
}

} // namespace kiln::compiler
