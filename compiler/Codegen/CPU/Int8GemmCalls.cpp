//===- Int8GemmCalls.cpp - int8 contractions onto the GEMM kernels --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Generated loops cannot pick AMX or VNNI at run time, and an int8 product
// written as extsi/muli/addi vectorises to 32-bit multiplies (slower than
// fp32). So an int8 GEMM whose weights are a constant becomes a call into
// the kernel library, with the weights packed once, here.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/Kernels/Int8GemmLayout.h"
#include "compiler/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_INT8GEMMCALLSPASS
#include "compiler/Codegen/CPU/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln::cpu_kernels;

namespace {

constexpr StringLiteral kKernel = "kiln_int8_gemm";

bool isInteger(Value value, unsigned width) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getRank() == 2 && type.hasStaticShape() &&
         type.getElementType().isSignlessInteger(width);
}

/// `value` is a sign extension of block argument `index`.
bool extendsArgument(Value value, unsigned index) {
  auto extension = value.getDefiningOp<arith::ExtSIOp>();
  auto argument =
      extension ? dyn_cast<BlockArgument>(extension.getIn()) : BlockArgument();
  return argument && argument.getArgNumber() == index;
}

/// acc + extsi(a) * extsi(b) over (m, k) x (k, n) -> (m, n), on buffers:
/// what ContractionToLinalg makes of an int8 matmul.
bool isInt8Gemm(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != 3 ||
      !isInteger(op.getDpsInputs()[0], 8) ||
      !isInteger(op.getDpsInputs()[1], 8) ||
      !isInteger(op.getDpsInits()[0], 32))
    return false;
  auto iterators = op.getIteratorTypesArray();
  if (iterators[0] != utils::IteratorType::parallel ||
      iterators[1] != utils::IteratorType::parallel ||
      iterators[2] != utils::IteratorType::reduction)
    return false;
  MLIRContext *context = op.getContext();
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  SmallVector<AffineMap> expected = AffineMap::inferFromExprList(
      ArrayRef<ArrayRef<AffineExpr>>{{m, k}, {k, n}, {m, n}}, context);
  if (op.getIndexingMapsArray() != ArrayRef<AffineMap>(expected))
    return false;
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddIOp>();
  if (!add || body.getOperations().size() != 5)
    return false;
  Value accumulator = body.getArgument(2), product = add.getRhs();
  if (add.getLhs() != accumulator)
    product = add.getLhs();
  auto multiply = product.getDefiningOp<arith::MulIOp>();
  if (!multiply || (add.getLhs() != accumulator && add.getRhs() != accumulator))
    return false;
  return (extendsArgument(multiply.getLhs(), 0) &&
          extendsArgument(multiply.getRhs(), 1)) ||
         (extendsArgument(multiply.getLhs(), 1) &&
          extendsArgument(multiply.getRhs(), 0));
}

/// The constant global `view` is a slice of, through subviews and casts.
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

/// The packed copy of `global` (a K x N int8 constant), made once.
memref::GlobalOp packedGlobal(memref::GlobalOp global, SymbolTable &symbols) {
  std::string name = (global.getSymName() + "_int8_packed").str();
  if (auto existing = symbols.lookup<memref::GlobalOp>(name))
    return existing;
  auto type = cast<MemRefType>(global.getType());
  int64_t k = type.getDimSize(0), n = type.getDimSize(1);
  auto values = cast<DenseElementsAttr>(*global.getInitialValue());
  SmallVector<int8_t> weights(values.getValues<int8_t>());
  SmallVector<int8_t> packed(int8PackedBytes(k, n));
  packInt8Weights(weights.data(), k, n, packed.data());
  OpBuilder b(global);
  auto packedType = MemRefType::get({int64_t(packed.size())}, b.getI8Type());
  auto tensorType =
      RankedTensorType::get({int64_t(packed.size())}, b.getI8Type());
  auto result = memref::GlobalOp::create(
      b, global.getLoc(), name, b.getStringAttr("private"), packedType,
      DenseElementsAttr::get(tensorType, ArrayRef<int8_t>(packed)),
      /*constant=*/true, b.getI64IntegerAttr(64));
  symbols.insert(result);
  return result;
}

func::FuncOp kernelDeclaration(ModuleOp module, SymbolTable &symbols) {
  if (auto existing = symbols.lookup<func::FuncOp>(kKernel))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  Type i64 = b.getI64Type(),
       pointer = LLVM::LLVMPointerType::get(module.getContext());
  auto type = b.getFunctionType(
      {i64, i64, i64, pointer, i64, pointer, i64, i64, pointer, i64}, {});
  auto declaration = func::FuncOp::create(b, module.getLoc(), kKernel, type);
  declaration.setPrivate();
  symbols.insert(declaration);
  return declaration;
}

/// Replaces `op` by the kernel call.
void replaceWithCall(linalg::GenericOp op, memref::GlobalOp weights,
                     func::FuncOp kernel, SymbolTable &symbols) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type i64 = b.getI64Type();
  auto pointer = LLVM::LLVMPointerType::get(op.getContext());
  auto asI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, index);
  };
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, value);
  };
  // The first element of a view and its row stride.
  struct View {
    Value address, rowStride;
  };
  auto describe = [&](Value view, int64_t elementBytes) {
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, view);
    Value base = asI64(memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, metadata.getBaseBuffer()));
    Value bytes = arith::MulIOp::create(b, loc, asI64(metadata.getOffset()),
                                        constant(elementBytes));
    Value address = arith::AddIOp::create(b, loc, base, bytes);
    return View{LLVM::IntToPtrOp::create(b, loc, pointer, address),
                asI64(metadata.getStrides()[0])};
  };
  Value a = op.getDpsInputs()[0], c = op.getDpsInits()[0];
  auto aType = cast<MemRefType>(a.getType());
  auto cType = cast<MemRefType>(c.getType());
  View aView = describe(a, 1), cView = describe(c, 4);
  // B's slice spans all rows of the global, so its offset is its first
  // column.
  Value firstColumn = asI64(
      memref::ExtractStridedMetadataOp::create(b, loc, op.getDpsInputs()[1])
          .getOffset());
  auto packed = packedGlobal(weights, symbols);
  Value packedView = memref::GetGlobalOp::create(b, loc, packed.getType(),
                                                 packed.getSymName());
  Value packedAddress = LLVM::IntToPtrOp::create(
      b, loc, pointer,
      asI64(
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, packedView)));
  int64_t weightColumns = cast<MemRefType>(weights.getType()).getDimSize(1);
  func::CallOp::create(
      b, loc, kernel,
      ValueRange{constant(cType.getDimSize(0)), constant(cType.getDimSize(1)),
                 constant(aType.getDimSize(1)), aView.address, aView.rowStride,
                 packedAddress, constant(weightColumns), firstColumn,
                 cView.address, cView.rowStride});
  op.erase();
}

struct Int8GemmCallsPass
    : kiln::compiler::impl::Int8GemmCallsPassBase<Int8GemmCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::pair<linalg::GenericOp, memref::GlobalOp>> gemms;
    module.walk([&](linalg::GenericOp op) {
      if (!isInt8Gemm(op))
        return;
      memref::GlobalOp weights = constantSource(op.getDpsInputs()[1], symbols);
      auto bType = cast<MemRefType>(op.getDpsInputs()[1].getType());
      // All of the weights' rows, with unit column stride.
      if (!weights)
        return;
      auto globalType = cast<MemRefType>(weights.getType());
      if (globalType.getRank() != 2 ||
          globalType.getDimSize(0) != bType.getDimSize(0) ||
          !globalType.getLayout().isIdentity() ||
          !globalType.getElementType().isSignlessInteger(8))
        return;
      for (Value view :
           {op.getDpsInputs()[0], op.getDpsInputs()[1], op.getDpsInits()[0]}) {
        SmallVector<int64_t> strides;
        int64_t offset;
        if (failed(cast<MemRefType>(view.getType())
                       .getStridesAndOffset(strides, offset)) ||
            strides.back() != 1)
          return;
      }
      gemms.emplace_back(op, weights);
    });
    if (gemms.empty())
      return;
    func::FuncOp kernel = kernelDeclaration(module, symbols);
    for (auto [op, weights] : gemms)
      replaceWithCall(op, weights, kernel, symbols);
  }
};

} // namespace
