//===- KernelCalls.cpp - Calls from generated code into the kernel library ===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/KernelCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace kiln::compiler {

memref::GlobalOp constantSource(Value view, SymbolTable &symbols) {
  while (Operation *producer = view.getDefiningOp()) {
    if (auto subview = dyn_cast<memref::SubViewOp>(producer)) {
      view = subview.getSource();
    } else if (auto cast = dyn_cast<memref::CastOp>(producer)) {
      view = cast.getSource();
    } else if (auto get = dyn_cast<memref::GetGlobalOp>(producer)) {
      auto global = symbols.lookup<memref::GlobalOp>(get.getName());
      if (global && global.getConstant() && global.getInitialValue() &&
          isa<DenseElementsAttr>(*global.getInitialValue()))
        return global;
      return {};
    } else {
      return {};
    }
  }
  return {};
}

memref::GlobalOp createByteGlobal(Operation *anchor, StringRef name,
                                  ArrayRef<int8_t> bytes,
                                  SymbolTable &symbols) {
  OpBuilder b(anchor);
  int64_t size = int64_t(bytes.size());
  auto type = MemRefType::get({size}, b.getI8Type());
  auto tensorType = RankedTensorType::get({size}, b.getI8Type());
  auto global = memref::GlobalOp::create(
      b, anchor->getLoc(), name, b.getStringAttr("private"), type,
      DenseElementsAttr::get(tensorType, bytes),
      /*constant=*/true, b.getI64IntegerAttr(64));
  symbols.insert(global);
  return global;
}

func::FuncOp declareKernel(ModuleOp module, StringRef name,
                           ArrayRef<Type> arguments, SymbolTable &symbols) {
  if (auto existing = symbols.lookup<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto declaration = func::FuncOp::create(b, module.getLoc(), name,
                                          b.getFunctionType(arguments, {}));
  declaration.setPrivate();
  symbols.insert(declaration);
  return declaration;
}

KernelCallBuilder::KernelCallBuilder(Operation *op)
    : b(op), loc(op->getLoc()),
      pointer(LLVM::LLVMPointerType::get(op->getContext())) {}

Value KernelCallBuilder::constant(int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
}

Value KernelCallBuilder::asI64(Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

KernelCallBuilder::View KernelCallBuilder::describe(Value view,
                                                    int64_t elementBytes) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, view);
  Value base = asI64(memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer()));
  Value offset = asI64(metadata.getOffset());
  Value bytes = arith::MulIOp::create(b, loc, offset, constant(elementBytes));
  Value address = arith::AddIOp::create(b, loc, base, bytes);
  View result{LLVM::IntToPtrOp::create(b, loc, pointer, address), {}};
  for (Value stride : metadata.getStrides())
    result.strides.push_back(asI64(stride));
  return result;
}

Value KernelCallBuilder::offsetOf(Value view) {
  return asI64(
      memref::ExtractStridedMetadataOp::create(b, loc, view).getOffset());
}

Value KernelCallBuilder::addressOf(memref::GlobalOp global) {
  Value view = memref::GetGlobalOp::create(b, loc, global.getType(),
                                           global.getSymName());
  return LLVM::IntToPtrOp::create(
      b, loc, pointer,
      asI64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view)));
}

} // namespace kiln::compiler
