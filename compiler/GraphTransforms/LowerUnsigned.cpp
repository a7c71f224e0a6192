//===- LowerUnsigned.cpp - Unsigned integers into signless ones -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Two phases, so that every rewrite is built on final (signless) types:
//   1. note which sign-dependent ops read unsigned values (and, for casts,
//      which side was unsigned), then retype every value, constant and
//      function signature in place;
//   2. rewrite the noted ops with signless kiln ops (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "compiler/GraphTransforms/Passes.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_LOWERUNSIGNEDPASS
#include "compiler/GraphTransforms/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln;

namespace {

bool isUnsigned(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  Type element = shaped ? shaped.getElementType() : type;
  return element.isUnsignedInteger();
}

/// `type` with an unsigned element type made signless (other types as is).
Type signless(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.getElementType().isUnsignedInteger())
    return type;
  auto element = cast<IntegerType>(tensor.getElementType());
  return tensor.clone(IntegerType::get(type.getContext(), element.getWidth()));
}

/// What phase 1 noted about a sign-dependent op.
struct Noted {
  Operation *op;
  unsigned width;      // Of the unsigned operand (or result, for casts).
  bool unsignedSource; // Casts: the input was unsigned.
  bool unsignedResult; // Casts: the result is unsigned.
};

/// Builds the signless replacements at one op.
class Rewriter {
public:
  Rewriter(Operation *op) : b(op), loc(op->getLoc()) {}

  /// A rank-0 constant of `like`'s element type.
  Value scalar(Value like, const APInt &value) {
    Type element = cast<ShapedType>(like.getType()).getElementType();
    auto type = RankedTensorType::get({}, element);
    return ConstantOp::create(b, loc, DenseElementsAttr::get(type, value));
  }
  Value scalar(Value like, int64_t value) {
    unsigned width = elementWidth(like);
    return scalar(like, APInt(width, uint64_t(value), /*isSigned=*/true));
  }
  static unsigned elementWidth(Value v) {
    return cast<ShapedType>(v.getType())
        .getElementType()
        .getIntOrFloatBitWidth();
  }
  template <typename OpTy> Value binary(Value x, Value y) {
    return OpTy::create(b, loc, x.getType(), x, y);
  }
  Value compare(ComparePredicate predicate, Value x, Value y) {
    auto type = cast<RankedTensorType>(x.getType()).clone(b.getI1Type());
    return CompareOp::create(b, loc, type, predicate, x, y);
  }
  /// The result has the condition's shape (every use here passes the full
  /// shape there) and the branches' element type.
  Value select(Value condition, Value x, Value y) {
    auto type = cast<RankedTensorType>(condition.getType())
                    .clone(cast<ShapedType>(x.getType()).getElementType());
    return SelectOp::create(b, loc, type, condition, x, y);
  }
  Value castTo(Value x, Type element) {
    auto type = cast<RankedTensorType>(x.getType()).clone(element);
    return CastOp::create(b, loc, type, x);
  }

  /// x with its top bit flipped: unsigned order becomes signed order (and
  /// flipping twice gives x back).
  Value flip(Value x) {
    unsigned width = elementWidth(x);
    return binary<AddOp>(x, scalar(x, APInt::getSignedMinValue(width)));
  }
  /// An unsigned `width`-bit x (signless) zero-extended to i64 (width < 64).
  Value zeroExtend(Value x, unsigned width) {
    Value wide = castTo(x, b.getI64Type());
    if (width == 64)
      return wide;
    Value negative = compare(ComparePredicate::lt, wide, scalar(wide, 0));
    return select(negative,
                  binary<AddOp>(wide, scalar(wide, int64_t(1) << width)), wide);
  }
  /// The same in i32 for widths under 32 (uint8 and uint16 images read as
  /// floats): half the vector width of i64, and conversions AVX-512
  /// has for every vector length.
  Value zeroExtendToI32(Value x, unsigned width) {
    if (width >= 32)
      return zeroExtend(x, width);
    Value wide = castTo(x, b.getI32Type());
    Value negative = compare(ComparePredicate::lt, wide, scalar(wide, 0));
    return select(negative,
                  binary<AddOp>(wide, scalar(wide, int64_t(1) << width)), wide);
  }
  /// a /u b and a %u b on 64-bit signless values (Hacker's Delight 9-3:
  /// halve the dividend so that a signed division applies, then correct).
  std::pair<Value, Value> divRem64(Value a, Value bv) {
    Value zero = scalar(a, 0), one = scalar(a, 1), two = scalar(a, 2);
    // a >>u 1: a /s 2 for a >= 0; for a < 0 (a >= 2^63 unsigned), a /s 2
    // rounds up and is 2^63 too small.
    Value half = binary<DivOp>(a, two);
    Value odd = select(
        compare(ComparePredicate::ne, binary<RemOp>(a, two), zero), one, zero);
    Value negative = compare(ComparePredicate::lt, a, zero);
    Value shifted = select(
        negative,
        binary<SubOp>(
            binary<AddOp>(half, scalar(a, APInt::getSignedMinValue(64))), odd),
        half);
    // b < 2^63 (b >= 0 as signed; b == 0 is ONNX's undefined case, left to
    // the signed division): q = ((a >>u 1) / b) * 2, plus one if the
    // remainder is still >=u b.
    Value safeB = select(compare(ComparePredicate::gt, bv, zero), bv, one);
    Value q = binary<MulOp>(binary<DivOp>(shifted, safeB), two);
    Value r = binary<SubOp>(a, binary<MulOp>(q, bv));
    Value again = compare(ComparePredicate::ge, flip(r), flip(bv));
    q = select(again, binary<AddOp>(q, one), q);
    // b >= 2^63: the quotient is 1 when a >=u b, else 0.
    Value big = compare(ComparePredicate::lt, bv, zero);
    Value bigQ =
        select(compare(ComparePredicate::ge, flip(a), flip(bv)), one, zero);
    q = select(big, bigQ, q);
    return {q, binary<SubOp>(a, binary<MulOp>(q, bv))};
  }

  OpBuilder b;
  Location loc;
};

bool isOrderPredicate(ComparePredicate predicate) {
  return predicate != ComparePredicate::eq && predicate != ComparePredicate::ne;
}

/// Rewrites the ops that order values: their integer operands flipped, and
/// their value results flipped back (not argmax's indices or compare's
/// booleans).
void rewriteOrdered(Operation *op) {
  Rewriter r(op);
  for (OpOperand &operand : op->getOpOperands())
    if (isa<IntegerType>(
            cast<ShapedType>(operand.get().getType()).getElementType()))
      operand.set(r.flip(operand.get()));
  if (isa<ArgMaxOp, ArgMinOp, CompareOp>(op))
    return;
  r.b.setInsertionPointAfter(op);
  for (Value result : op->getResults()) {
    Value back = r.flip(result);
    result.replaceAllUsesExcept(back, back.getDefiningOp());
  }
}

/// Clip with unsigned bounds: in the flipped space, with flipped bounds.
void rewriteClip(ClipOp clip, unsigned width) {
  Rewriter r(clip);
  double top =
      width == 64 ? 18446744073709551615.0 : double((uint64_t(1) << width) - 1);
  double shift = double(uint64_t(1) << (width - 1));
  auto flipped = [&](FloatAttr bound) -> FloatAttr {
    if (!bound)
      return bound;
    double value = std::min(std::max(bound.getValueAsDouble(), 0.0), top);
    return r.b.getF64FloatAttr(value - shift);
  };
  Value x = r.flip(clip.getInput());
  Value clipped =
      ClipOp::create(r.b, r.loc, x.getType(), x, flipped(clip.getMinAttr()),
                     flipped(clip.getMaxAttr()));
  clip.replaceAllUsesWith(r.flip(clipped));
  clip.erase();
}

void rewriteDivRem(Operation *op, unsigned width) {
  Rewriter r(op);
  Value a = op->getOperand(0), bv = op->getOperand(1);
  Type type = op->getResult(0).getType();
  Value result;
  if (width == 64) {
    // The operands may broadcast: bring both to the result's shape first.
    auto broadcast = [&](Value v) -> Value {
      return v.getType() == type
                 ? v
                 : Value(BroadcastOp::create(r.b, r.loc, type, v));
    };
    auto [q, rem] = r.divRem64(broadcast(a), broadcast(bv));
    result = isa<DivOp>(op) ? q : rem;
  } else {
    Value wideA = r.zeroExtend(a, width), wideB = r.zeroExtend(bv, width);
    Value wide = isa<DivOp>(op)
                     ? Value(DivOp::create(
                           r.b, r.loc,
                           cast<RankedTensorType>(type).clone(r.b.getI64Type()),
                           wideA, wideB))
                     : Value(RemOp::create(
                           r.b, r.loc,
                           cast<RankedTensorType>(type).clone(r.b.getI64Type()),
                           wideA, wideB));
    result = r.castTo(wide, cast<ShapedType>(type).getElementType());
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

void rewriteCast(CastOp castOp, const Noted &noted) {
  Rewriter r(castOp);
  Value input = castOp.getInput();
  Type from = cast<ShapedType>(input.getType()).getElementType();
  Type to = castOp.getType().getElementType();
  Value result;
  if (noted.unsignedSource && isa<IntegerType>(from) &&
      from.getIntOrFloatBitWidth() > 1) {
    unsigned width = from.getIntOrFloatBitWidth();
    if (isa<FloatType>(to)) {
      if (width < 64) {
        result = r.castTo(r.zeroExtendToI32(input, width), to);
      } else {
        // x >= 2^63 reads as negative: convert, then add 2^64.
        Value asFloat = r.castTo(input, r.b.getF64Type());
        Value negative =
            r.compare(ComparePredicate::lt, input, r.scalar(input, 0));
        auto f64 = RankedTensorType::get({}, r.b.getF64Type());
        Value twoTo64 = ConstantOp::create(
            r.b, r.loc, DenseElementsAttr::get(f64, 18446744073709551616.0));
        Value fixed =
            r.select(negative, r.binary<AddOp>(asFloat, twoTo64), asFloat);
        result = to.isF64() ? fixed : r.castTo(fixed, to);
      }
    } else if (to.getIntOrFloatBitWidth() > width) {
      result = r.castTo(r.zeroExtend(input, width), to);
    }
  } else if (noted.unsignedResult && isa<FloatType>(from)) {
    unsigned width = to.getIntOrFloatBitWidth();
    if (width < 64) {
      result = r.castTo(r.castTo(input, r.b.getI64Type()), to);
    } else {
      // From 2^63 on, the signed conversion overflows: shift down first.
      Value wide = from.isF64() ? input : r.castTo(input, r.b.getF64Type());
      auto f64 = RankedTensorType::get({}, r.b.getF64Type());
      Value twoTo63 = ConstantOp::create(
          r.b, r.loc, DenseElementsAttr::get(f64, 9223372036854775808.0));
      Value large = r.compare(ComparePredicate::ge, wide, twoTo63);
      Value low = r.castTo(r.binary<SubOp>(wide, twoTo63), to);
      Value shifted =
          r.binary<AddOp>(low, r.scalar(low, APInt::getSignedMinValue(64)));
      result = r.select(large, shifted, r.castTo(wide, to));
    }
  }
  if (!result)
    return; // The signless cast already gives the unsigned bits.
  castOp.replaceAllUsesWith(result);
  castOp.erase();
}

struct LowerUnsignedPass
    : kiln::compiler::impl::LowerUnsignedPassBase<LowerUnsignedPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Noted> noted;
    bool failedOp = false;
    module.walk([&](Operation *op) {
      bool readsUnsigned = llvm::any_of(op->getOperandTypes(), isUnsigned);
      bool writesUnsigned = llvm::any_of(op->getResultTypes(), isUnsigned);
      if (!readsUnsigned && !writesUnsigned)
        return;
      auto width = [&]() {
        for (Type type : op->getOperandTypes())
          if (isUnsigned(type))
            return cast<ShapedType>(type).getElementTypeBitWidth();
        return cast<ShapedType>(op->getResultTypes()[0])
            .getElementTypeBitWidth();
      };
      if (auto compare = dyn_cast<CompareOp>(op)) {
        if (isOrderPredicate(compare.getPredicate()))
          noted.push_back({op, width(), true, false});
      } else if (isa<MinOp, MaxOp, ReduceMaxOp, ReduceMinOp, ArgMaxOp, ArgMinOp,
                     MaxPool2dOp, GlobalMaxPoolOp, ClipOp, DivOp, RemOp, AbsOp,
                     ReluOp, SignOp>(op)) {
        noted.push_back({op, width(), true, false});
      } else if (isa<CastOp>(op)) {
        noted.push_back({op, width(), readsUnsigned, writesUnsigned});
      } else if (isa<ReduceMeanOp, AvgPool2dOp, GlobalAvgPoolOp, PowOp>(op)) {
        // Averages divide, and pow's integer exponent is read as signed.
        op->emitError() << "'" << op->getName()
                        << "' on unsigned integers is not supported";
        failedOp = true;
      }
    });
    if (failedOp)
      return signalPassFailure();

    // Phase 1: retype (the same bits, signless).
    module.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            argument.setType(signless(argument.getType()));
      for (Value result : op->getResults())
        result.setType(signless(result.getType()));
      if (auto constant = dyn_cast<ConstantOp>(op)) {
        auto value = cast<DenseElementsAttr>(constant.getValue());
        if (value.getElementType().isUnsignedInteger())
          constant.setValueAttr(value.bitcast(
              cast<ShapedType>(signless(value.getType())).getElementType()));
      }
      if (auto function = dyn_cast<func::FuncOp>(op)) {
        FunctionType type = function.getFunctionType();
        SmallVector<Type> inputs, results;
        for (Type t : type.getInputs())
          inputs.push_back(signless(t));
        for (Type t : type.getResults())
          results.push_back(signless(t));
        function.setType(FunctionType::get(op->getContext(), inputs, results));
      }
    });

    // Phase 2: the sign-dependent ops.
    for (const Noted &n : noted) {
      Operation *op = n.op;
      if (auto clip = dyn_cast<ClipOp>(op))
        rewriteClip(clip, n.width);
      else if (isa<DivOp, RemOp>(op))
        rewriteDivRem(op, n.width);
      else if (auto castOp = dyn_cast<CastOp>(op))
        rewriteCast(castOp, n);
      else if (isa<AbsOp, ReluOp>(op)) {
        op->getResult(0).replaceAllUsesWith(op->getOperand(0));
        op->erase();
      } else if (isa<SignOp>(op)) {
        // 1 for every non-zero value (none is negative).
        Rewriter r(op);
        Value x = op->getOperand(0);
        Value nonZero = r.compare(ComparePredicate::ne, x, r.scalar(x, 0));
        op->getResult(0).replaceAllUsesWith(
            r.castTo(nonZero, cast<ShapedType>(x.getType()).getElementType()));
        op->erase();
      } else {
        rewriteOrdered(op);
      }
    }
  }
};

} // namespace
