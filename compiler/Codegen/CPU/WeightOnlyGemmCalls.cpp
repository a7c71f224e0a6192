//===- WeightOnlyGemmCalls.cpp - Weight-only GEMMs onto their kernel ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The generic kiln.weight_only_matmul lowers to dequantises each weight in
// the loop body; vectorised as it stands, it reads the scales through a
// floordiv map (scalar gathers) and the int8 rows 4 KiB apart. The kernel
// (Kernels/WeightOnlyGemm.h) streams weights packed tile by tile and
// widens them in registers, so a GEMV reads 4x (int8) or 8x (int4) fewer
// bytes than an fp32 one. The packing happens here, once.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/KernelCalls.h"
#include "compiler/Codegen/CPU/Kernels/WeightOnlyGemmLayout.h"
#include "compiler/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineExpr.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_WEIGHTONLYGEMMCALLSPASS
#include "compiler/Codegen/CPU/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln::compiler;
using namespace kiln::cpu_kernels;

namespace {

constexpr StringLiteral kKernel = "kiln_weight_only_gemm";

MemRefType staticMemRef(Value value, int64_t rank, Type element) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || type.getRank() != rank || !type.hasStaticShape() ||
      type.getElementType() != element)
    return {};
  return type;
}

bool isArgument(Value value, unsigned index) {
  auto argument = dyn_cast<BlockArgument>(value);
  return argument && argument.getArgNumber() == index;
}

/// The other operand of a commutative binary op, if one of them is `value`.
template <typename BinaryOp> Value otherOperand(BinaryOp op, Value value) {
  if (op.getLhs() == value)
    return op.getRhs();
  if (op.getRhs() == value)
    return op.getLhs();
  return {};
}

/// The body acc + a * (sitofp(q) * s).
bool dequantisesAndAccumulates(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 5)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  Value product = add ? otherOperand(add, body.getArgument(3)) : Value();
  auto multiply = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  Value weight =
      multiply ? otherOperand(multiply, body.getArgument(0)) : Value();
  auto scaled = weight ? weight.getDefiningOp<arith::MulFOp>() : nullptr;
  Value widened = scaled ? otherOperand(scaled, body.getArgument(2)) : Value();
  auto convert = widened ? widened.getDefiningOp<arith::SIToFPOp>() : nullptr;
  return convert && isArgument(convert.getIn(), 1);
}

/// A generic that dequantises weights in its body: its group size, or 0.
int64_t weightOnlyGroup(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 3 ||
      op.getNumDpsInits() != 1 || !dequantisesAndAccumulates(op))
    return 0;
  unsigned loops = op.getNumLoops();
  if (loops < 3)
    return 0;
  MLIRContext *context = op.getContext();
  Type f32 = Float32Type::get(context), i8 = IntegerType::get(context, 8);
  if (!staticMemRef(op.getDpsInputs()[0], loops - 1, f32) ||
      !staticMemRef(op.getDpsInputs()[1], 2, i8) ||
      !staticMemRef(op.getDpsInputs()[2], 2, f32) ||
      !staticMemRef(op.getDpsInits()[0], loops - 1, f32))
    return 0;
  auto iterators = op.getIteratorTypesArray();
  for (unsigned loop = 0; loop + 1 < loops; ++loop)
    if (iterators[loop] != utils::IteratorType::parallel)
      return 0;
  if (iterators.back() != utils::IteratorType::reduction)
    return 0;
  // The group size is the divisor in the scales' map.
  AffineMap scaleMap = op.getIndexingMapsArray()[2];
  if (scaleMap.getNumResults() != 2 ||
      scaleMap.getResult(0).getKind() != AffineExprKind::FloorDiv)
    return 0;
  auto divisor = dyn_cast<AffineConstantExpr>(
      cast<AffineBinaryOpExpr>(scaleMap.getResult(0)).getRHS());
  if (!divisor || divisor.getValue() <= 0)
    return 0;
  int64_t group = divisor.getValue();
  // Loops batch..., m, n, k, as ContractionToLinalg builds them.
  AffineExpr m = getAffineDimExpr(loops - 3, context),
             n = getAffineDimExpr(loops - 2, context),
             k = getAffineDimExpr(loops - 1, context);
  SmallVector<AffineExpr> lhs, out;
  for (unsigned d = 0; d + 3 < loops; ++d) {
    lhs.push_back(getAffineDimExpr(d, context));
    out.push_back(getAffineDimExpr(d, context));
  }
  lhs.append({m, k});
  out.append({m, n});
  SmallVector<AffineMap> expected = {
      AffineMap::get(loops, 0, lhs, context),
      AffineMap::get(loops, 0, {k, n}, context),
      AffineMap::get(loops, 0, {k.floorDiv(group), n}, context),
      AffineMap::get(loops, 0, out, context)};
  if (op.getIndexingMapsArray() != ArrayRef<AffineMap>(expected))
    return 0;
  return group;
}

/// The row stride of a view whose leading dimensions fold into its rows
/// (each a whole number of rows apart), or 0.
int64_t foldedRowStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic) || strides.back() != 1)
    return 0;
  int64_t rank = type.getRank();
  for (int64_t d = rank - 3; d >= 0; --d)
    if (strides[d] != strides[d + 1] * type.getDimSize(d + 1))
      return 0;
  return strides[rank - 2];
}

/// A constant global of which `view` spans all rows.
memref::GlobalOp wholeRowsOf(Value view, SymbolTable &symbols) {
  memref::GlobalOp global = constantSource(view, symbols);
  if (!global)
    return {};
  auto globalType = cast<MemRefType>(global.getType());
  auto viewType = cast<MemRefType>(view.getType());
  if (globalType.getRank() != 2 || !globalType.getLayout().isIdentity() ||
      globalType.getDimSize(0) != viewType.getDimSize(0) ||
      globalType.getElementType() != viewType.getElementType())
    return {};
  return global;
}

/// A packed copy of weights and scales, and its width.
struct Packed {
  memref::GlobalOp global;
  int64_t bits;
};

/// The packed copy of weights `q` and scales `s`, made once per pair
/// (every workgroup slice of a GEMM reads the same pair), at 4 bits when
/// every weight fits (exactly the same values, half the bytes).
class Packer {
public:
  explicit Packer(SymbolTable &symbols) : symbols(symbols) {}

  Packed get(memref::GlobalOp q, memref::GlobalOp s, int64_t group) {
    auto [it, inserted] = packed.try_emplace({q, s});
    if (inserted)
      it->second = pack(q, s, group);
    return it->second;
  }

private:
  Packed pack(memref::GlobalOp q, memref::GlobalOp s, int64_t group) {
    auto qType = cast<MemRefType>(q.getType());
    int64_t k = qType.getDimSize(0), n = qType.getDimSize(1);
    SmallVector<int8_t> weights(
        cast<DenseElementsAttr>(*q.getInitialValue()).getValues<int8_t>());
    SmallVector<float> scales(
        cast<DenseElementsAttr>(*s.getInitialValue()).getValues<float>());
    int64_t bits =
        llvm::all_of(weights, [](int8_t w) { return w >= -8 && w <= 7; }) ? 4
                                                                          : 8;
    SmallVector<int8_t> bytes(weightOnlyPackedBytes(k, n, group, bits));
    packWeightOnly(weights.data(), scales.data(), k, n, group, bits,
                   reinterpret_cast<uint8_t *>(bytes.data()));
    std::string name =
        (q.getSymName() + "_" + s.getSymName() + "_wo_packed").str();
    return {createByteGlobal(q, name, bytes, symbols), bits};
  }

  SymbolTable &symbols;
  DenseMap<std::pair<Operation *, Operation *>, Packed> packed;
};

/// Erases the chain of views (subviews, casts, get_global) that produced
/// `view` as far as nothing else reads it, so the unpacked global can go.
void eraseIfUnused(Value view) {
  while (Operation *producer = view.getDefiningOp()) {
    if (!producer->use_empty() ||
        !isa<memref::SubViewOp, memref::CastOp, memref::GetGlobalOp>(producer))
      return;
    Value source =
        producer->getNumOperands() ? producer->getOperand(0) : Value();
    producer->erase();
    if (!source)
      return;
    view = source;
  }
}

struct Match {
  linalg::GenericOp op;
  int64_t group;
  memref::GlobalOp q, s;
};

void callKernel(Match match, ModuleOp module, SymbolTable &symbols,
                Packer &packer) {
  linalg::GenericOp op = match.op;
  auto [packed, bits] = packer.get(match.q, match.s, match.group);
  Type i64 = IntegerType::get(module.getContext(), 64),
       pointer = LLVM::LLVMPointerType::get(module.getContext());
  func::FuncOp kernel = declareKernel(
      module, kKernel,
      {i64, i64, i64, pointer, i64, pointer, i64, i64, i64, i64, pointer, i64},
      symbols);
  KernelCallBuilder call(op);
  Value a = op.getDpsInputs()[0], c = op.getDpsInits()[0];
  auto aType = cast<MemRefType>(a.getType());
  auto cType = cast<MemRefType>(c.getType());
  int64_t rows = cType.getNumElements() / cType.getShape().back();
  KernelCallBuilder::View aView = call.describe(a, 4),
                          cView = call.describe(c, 4);
  int64_t lda = foldedRowStride(aType), ldc = foldedRowStride(cType);
  // The weights' slice spans all their rows: its offset is its first
  // column.
  Value firstColumn = call.offsetOf(op.getDpsInputs()[1]);
  func::CallOp::create(
      call.b, call.loc, kernel,
      ValueRange{
          call.constant(rows), call.constant(cType.getShape().back()),
          call.constant(aType.getShape().back()), aView.address,
          call.constant(lda), call.addressOf(packed),
          call.constant(cast<MemRefType>(match.q.getType()).getDimSize(1)),
          firstColumn, call.constant(match.group), call.constant(bits),
          cView.address, call.constant(ldc)});
  SmallVector<Value> weights = {op.getDpsInputs()[1], op.getDpsInputs()[2]};
  op.erase();
  for (Value view : weights)
    eraseIfUnused(view);
}

struct WeightOnlyGemmCallsPass
    : kiln::compiler::impl::WeightOnlyGemmCallsPassBase<
          WeightOnlyGemmCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<Match> matches;
    module.walk([&](linalg::GenericOp op) {
      int64_t group = weightOnlyGroup(op);
      if (!group)
        return;
      Match match{op, group, wholeRowsOf(op.getDpsInputs()[1], symbols),
                  wholeRowsOf(op.getDpsInputs()[2], symbols)};
      auto aType = cast<MemRefType>(op.getDpsInputs()[0].getType());
      auto cType = cast<MemRefType>(op.getDpsInits()[0].getType());
      if (match.q && match.s && foldedRowStride(aType) &&
          foldedRowStride(cType))
        matches.push_back(match);
    });
    SetVector<Operation *> replaced;
    Packer packer(symbols);
    for (Match match : matches) {
      callKernel(match, module, symbols, packer);
      replaced.insert(match.q);
      replaced.insert(match.s);
    }
    // The unpacked weights are dead once every reader calls the kernel.
    for (Operation *global : replaced)
      if (SymbolTable::symbolKnownUseEmpty(global, module))
        symbols.erase(global);
  }
};

} // namespace
