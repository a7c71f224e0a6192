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

#include "compiler/Codegen/CPU/KernelCalls.h"
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
using namespace kiln::compiler;
using namespace kiln::cpu_kernels;

namespace {

constexpr StringLiteral kPackedKernel = "kiln_int8_gemm";
constexpr StringLiteral kBatchedKernel = "kiln_int8_gemm_batched";

bool isInteger(Value value, unsigned width, int64_t rank) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getRank() == rank && type.hasStaticShape() &&
         type.getElementType().isSignlessInteger(width);
}

/// `value` is a sign extension of block argument `index`.
bool extendsArgument(Value value, unsigned index) {
  auto extension = value.getDefiningOp<arith::ExtSIOp>();
  auto argument =
      extension ? dyn_cast<BlockArgument>(extension.getIn()) : BlockArgument();
  return argument && argument.getArgNumber() == index;
}

/// The body acc + extsi(a) * extsi(b).
bool multipliesAndAccumulates(linalg::GenericOp op) {
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

/// The int8 GEMMs ContractionToLinalg makes of an int8 matmul, on buffers.
enum class Form {
  kNone,
  kMatrix,    ///< (m, k) x (k, n) -> (m, n)
  kSharedLhs, ///< (m, k) x (b, k, n) -> (b, m, n): weights x patches
};

Form int8GemmForm(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !multipliesAndAccumulates(op))
    return Form::kNone;
  bool batched = op.getNumLoops() == 4;
  if (!batched && op.getNumLoops() != 3)
    return Form::kNone;
  if (!isInteger(op.getDpsInputs()[0], 8, 2) ||
      !isInteger(op.getDpsInputs()[1], 8, batched ? 3 : 2) ||
      !isInteger(op.getDpsInits()[0], 32, batched ? 3 : 2))
    return Form::kNone;
  auto iterators = op.getIteratorTypesArray();
  for (unsigned loop = 0; loop + 1 < iterators.size(); ++loop)
    if (iterators[loop] != utils::IteratorType::parallel)
      return Form::kNone;
  if (iterators.back() != utils::IteratorType::reduction)
    return Form::kNone;
  MLIRContext *context = op.getContext();
  SmallVector<AffineMap> expected;
  if (batched) {
    AffineExpr b, m, n, k;
    bindDims(context, b, m, n, k);
    expected = AffineMap::inferFromExprList(
        ArrayRef<ArrayRef<AffineExpr>>{{m, k}, {b, k, n}, {b, m, n}}, context);
  } else {
    AffineExpr m, n, k;
    bindDims(context, m, n, k);
    expected = AffineMap::inferFromExprList(
        ArrayRef<ArrayRef<AffineExpr>>{{m, k}, {k, n}, {m, n}}, context);
  }
  if (op.getIndexingMapsArray() != ArrayRef<AffineMap>(expected))
    return Form::kNone;
  // Every view has contiguous rows.
  for (Value view : op->getOperands()) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(cast<MemRefType>(view.getType())
                   .getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return Form::kNone;
  }
  return batched ? Form::kSharedLhs : Form::kMatrix;
}

/// The constant global whose rows `view` spans entirely, if any: weights
/// worth packing once at compile time.
memref::GlobalOp packableWeights(Value view, SymbolTable &symbols) {
  memref::GlobalOp weights = constantSource(view, symbols);
  if (!weights)
    return {};
  auto globalType = cast<MemRefType>(weights.getType());
  auto viewType = cast<MemRefType>(view.getType());
  if (globalType.getRank() != 2 ||
      globalType.getDimSize(0) != viewType.getDimSize(0) ||
      !globalType.getLayout().isIdentity() ||
      !globalType.getElementType().isSignlessInteger(8))
    return {};
  return weights;
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
  return createByteGlobal(global, name, packed, symbols);
}

func::FuncOp kernelDeclaration(ModuleOp module, StringRef name,
                               SymbolTable &symbols) {
  Type i64 = IntegerType::get(module.getContext(), 64),
       pointer = LLVM::LLVMPointerType::get(module.getContext());
  SmallVector<Type> arguments =
      name == kPackedKernel
          ? SmallVector<Type>{i64, i64, i64, pointer, i64, pointer, i64, i64,
                              pointer, i64}
          : SmallVector<Type>{i64, i64, i64, i64, pointer, i64, pointer,
                              i64, i64, pointer, i64, i64};
  return declareKernel(module, name, arguments, symbols);
}

/// C += A x B with B packed at compile time: kiln_int8_gemm.
void callPacked(linalg::GenericOp op, memref::GlobalOp weights,
                func::FuncOp kernel, SymbolTable &symbols) {
  KernelCallBuilder call(op);
  Value a = op.getDpsInputs()[0], c = op.getDpsInits()[0];
  auto aType = cast<MemRefType>(a.getType());
  auto cType = cast<MemRefType>(c.getType());
  KernelCallBuilder::View aView = call.describe(a, 1),
                          cView = call.describe(c, 4);
  // B's slice spans all rows of the global, so its offset is its first
  // column.
  Value firstColumn = call.offsetOf(op.getDpsInputs()[1]);
  Value packed = call.addressOf(packedGlobal(weights, symbols));
  int64_t weightColumns = cast<MemRefType>(weights.getType()).getDimSize(1);
  func::CallOp::create(
      call.b, call.loc, kernel,
      ValueRange{call.constant(cType.getDimSize(0)),
                 call.constant(cType.getDimSize(1)),
                 call.constant(aType.getDimSize(1)), aView.address,
                 aView.strides[0], packed, call.constant(weightColumns),
                 firstColumn, cView.address, cView.strides[0]});
  op.erase();
}

/// C[t] += A x B[t], B packed as the kernel goes: kiln_int8_gemm_batched.
void callBatched(linalg::GenericOp op, Form form, func::FuncOp kernel) {
  KernelCallBuilder call(op);
  Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1],
        c = op.getDpsInits()[0];
  auto aType = cast<MemRefType>(a.getType());
  auto cType = cast<MemRefType>(c.getType());
  KernelCallBuilder::View aView = call.describe(a, 1),
                          bView = call.describe(b, 1),
                          cView = call.describe(c, 4);
  bool batched = form == Form::kSharedLhs;
  int64_t rows = cType.getDimSize(batched ? 1 : 0);
  Value zero = call.constant(0);
  func::CallOp::create(
      call.b, call.loc, kernel,
      ValueRange{call.constant(batched ? cType.getDimSize(0) : 1),
                 call.constant(rows), call.constant(cType.getShape().back()),
                 call.constant(aType.getDimSize(1)), aView.address,
                 aView.strides[0], bView.address,
                 bView.strides[batched ? 1 : 0],
                 batched ? bView.strides[0] : zero, cView.address,
                 cView.strides[batched ? 1 : 0],
                 batched ? cView.strides[0] : zero});
  op.erase();
}

struct Int8GemmCallsPass
    : kiln::compiler::impl::Int8GemmCallsPassBase<Int8GemmCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::tuple<linalg::GenericOp, Form, memref::GlobalOp>> gemms;
    module.walk([&](linalg::GenericOp op) {
      Form form = int8GemmForm(op);
      if (form == Form::kNone)
        return;
      memref::GlobalOp weights;
      if (form == Form::kMatrix)
        weights = packableWeights(op.getDpsInputs()[1], symbols);
      gemms.emplace_back(op, form, weights);
    });
    for (auto [op, form, weights] : gemms) {
      if (weights)
        callPacked(op, weights, kernelDeclaration(module, kPackedKernel, symbols),
                   symbols);
      else
        callBatched(op, form,
                    kernelDeclaration(module, kBatchedKernel, symbols));
    }
  }
};

} // namespace
