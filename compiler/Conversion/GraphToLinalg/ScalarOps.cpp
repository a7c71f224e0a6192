//===- ScalarOps.cpp - Scalar semantics of kiln elementwise ops -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/GraphToLinalg/ScalarOps.h"

#include "compiler/Conversion/GraphToLinalg/LoweringUtils.h"
#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;

namespace kiln::compiler::lowering {

namespace {
bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

Value constantLike(OpBuilder &b, Location loc, Value like, double value) {
  return scalarConstant(b, loc, like.getType(), value);
}

/// GELU with the exact erf form or the tanh approximation.
Value emitGelu(OpBuilder &b, Location loc, Value x, GeluApproximation mode) {
  Value half = constantLike(b, loc, x, 0.5);
  Value one = constantLike(b, loc, x, 1.0);
  Value inner;
  if (mode == GeluApproximation::tanh) {
    Value cube = arith::MulFOp::create(
        b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value sum = arith::AddFOp::create(
        b, loc, x,
        arith::MulFOp::create(b, loc, constantLike(b, loc, x, 0.044715), cube));
    inner = math::TanhOp::create(
        b, loc,
        arith::MulFOp::create(
            b, loc, constantLike(b, loc, x, std::sqrt(2.0 / M_PI)), sum));
  } else {
    inner = math::ErfOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, x, constantLike(b, loc, x, M_SQRT1_2)));
  }
  Value factor = arith::MulFOp::create(
      b, loc, half, arith::AddFOp::create(b, loc, one, inner));
  return arith::MulFOp::create(b, loc, x, factor);
}

/// max(lo, min(hi, v)) with constant bounds.
Value emitClamp(OpBuilder &b, Location loc, Value x, double lo, double hi) {
  return emitMin(b, loc, emitMax(b, loc, x, constantLike(b, loc, x, lo)),
                 constantLike(b, loc, x, hi));
}
} // namespace

Value emitAdd(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return isFloat(lhs) ? Value(arith::AddFOp::create(b, loc, lhs, rhs))
                      : Value(arith::AddIOp::create(b, loc, lhs, rhs));
}
Value emitSub(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return isFloat(lhs) ? Value(arith::SubFOp::create(b, loc, lhs, rhs))
                      : Value(arith::SubIOp::create(b, loc, lhs, rhs));
}
Value emitMul(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return isFloat(lhs) ? Value(arith::MulFOp::create(b, loc, lhs, rhs))
                      : Value(arith::MulIOp::create(b, loc, lhs, rhs));
}
Value emitDiv(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return isFloat(lhs) ? Value(arith::DivFOp::create(b, loc, lhs, rhs))
                      : Value(arith::DivSIOp::create(b, loc, lhs, rhs));
}
Value emitMax(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isFloat(lhs))
    return arith::MaximumFOp::create(b, loc, lhs, rhs);
  if (lhs.getType().isInteger(1))
    return arith::OrIOp::create(b, loc, lhs, rhs);
  return arith::MaxSIOp::create(b, loc, lhs, rhs);
}
Value emitMin(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isFloat(lhs))
    return arith::MinimumFOp::create(b, loc, lhs, rhs);
  if (lhs.getType().isInteger(1))
    return arith::AndIOp::create(b, loc, lhs, rhs);
  return arith::MinSIOp::create(b, loc, lhs, rhs);
}

Value emitUnary(OpBuilder &b, Location loc, Operation *op, Value x) {
  auto zero = [&] { return constantLike(b, loc, x, 0.0); };
  auto one = [&] { return constantLike(b, loc, x, 1.0); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](NegOp) -> Value {
        if (isFloat(x))
          return arith::NegFOp::create(b, loc, x);
        return arith::SubIOp::create(b, loc, zero(), x);
      })
      .Case([&](AbsOp) -> Value {
        if (isFloat(x))
          return math::AbsFOp::create(b, loc, x);
        return math::AbsIOp::create(b, loc, x);
      })
      .Case([&](SignOp) -> Value {
        if (isFloat(x)) {
          // NaN stays NaN: copysign(1, x) for non-zero, x itself for +-0/NaN.
          Value isZeroOrNan = arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::UEQ, x, zero());
          Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                              x, x);
          Value sign = math::CopySignOp::create(b, loc, one(), x);
          Value special = arith::OrIOp::create(b, loc, isZeroOrNan, isNan);
          Value zeroOrNan = arith::SelectOp::create(b, loc, isNan, x, zero());
          return arith::SelectOp::create(b, loc, special, zeroOrNan, sign);
        }
        Value positive = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                               x, zero());
        Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                               x, zero());
        Value minusOne = constantLike(b, loc, x, -1.0);
        return arith::SelectOp::create(
            b, loc, positive, one(),
            arith::SelectOp::create(b, loc, negative, minusOne, zero()));
      })
      .Case([&](ReluOp) { return emitMax(b, loc, x, zero()); })
      .Case([&](ExpOp) { return math::ExpOp::create(b, loc, x); })
      .Case([&](LogOp) { return math::LogOp::create(b, loc, x); })
      .Case([&](SqrtOp) { return math::SqrtOp::create(b, loc, x); })
      .Case([&](RsqrtOp) {
        return arith::DivFOp::create(b, loc, one(),
                                     math::SqrtOp::create(b, loc, x));
      })
      .Case([&](ReciprocalOp) { return arith::DivFOp::create(b, loc, one(), x); })
      .Case([&](TanhOp) { return math::TanhOp::create(b, loc, x); })
      .Case([&](SigmoidOp) {
        Value negX = arith::NegFOp::create(b, loc, x);
        Value denominator = arith::AddFOp::create(
            b, loc, one(), math::ExpOp::create(b, loc, negX));
        return arith::DivFOp::create(b, loc, one(), denominator);
      })
      .Case([&](ErfOp) { return math::ErfOp::create(b, loc, x); })
      .Case([&](FloorOp) { return math::FloorOp::create(b, loc, x); })
      .Case([&](CeilOp) { return math::CeilOp::create(b, loc, x); })
      .Case([&](SinOp) { return math::SinOp::create(b, loc, x); })
      .Case([&](CosOp) { return math::CosOp::create(b, loc, x); })
      .Case([&](AcosOp) { return math::AcosOp::create(b, loc, x); })
      .Case([&](AsinOp) { return math::AsinOp::create(b, loc, x); })
      .Case([&](AtanOp) { return math::AtanOp::create(b, loc, x); })
      .Case([&](AcoshOp) { return math::AcoshOp::create(b, loc, x); })
      .Case([&](AsinhOp) { return math::AsinhOp::create(b, loc, x); })
      .Case([&](AtanhOp) { return math::AtanhOp::create(b, loc, x); })
      .Case([&](HardSwishOp) {
        Value gate = emitClamp(
            b, loc,
            arith::AddFOp::create(
                b, loc,
                arith::MulFOp::create(b, loc, x,
                                      constantLike(b, loc, x, 1.0 / 6.0)),
                constantLike(b, loc, x, 0.5)),
            0.0, 1.0);
        return arith::MulFOp::create(b, loc, x, gate);
      })
      .Case([&](NotOp) {
        return arith::XOrIOp::create(b, loc, x, constantLike(b, loc, x, 1));
      })
      .Case([&](GeluOp gelu) {
        return emitGelu(b, loc, x, gelu.getApproximate());
      })
      .Case([&](HardSigmoidOp hs) {
        Value linear = arith::AddFOp::create(
            b, loc,
            arith::MulFOp::create(
                b, loc, x,
                constantLike(b, loc, x, hs.getAlpha().convertToDouble())),
            constantLike(b, loc, x, hs.getBeta().convertToDouble()));
        return emitClamp(b, loc, linear, 0.0, 1.0);
      })
      .Case([&](LeakyReluOp lr) {
        Value nonNegative = arith::CmpFOp::create(
            b, loc, arith::CmpFPredicate::OGE, x, zero());
        Value scaled = arith::MulFOp::create(
            b, loc, x, constantLike(b, loc, x, lr.getAlpha().convertToDouble()));
        return arith::SelectOp::create(b, loc, nonNegative, x, scaled);
      })
      .Case([&](ClipOp clip) {
        // Integer bounds round inwards (ceil(min), floor(max)) and saturate,
        // exactly as the constant folder does.
        bool isInt = !isFloat(x);
        Value result = x;
        if (clip.getMin()) {
          double low = clip.getMin()->convertToDouble();
          result = emitMax(b, loc, result,
                           constantLike(b, loc, x, isInt ? std::ceil(low) : low));
        }
        if (clip.getMax()) {
          double high = clip.getMax()->convertToDouble();
          result = emitMin(
              b, loc, result,
              constantLike(b, loc, x, isInt ? std::floor(high) : high));
        }
        return result;
      })
      .Default([](Operation *) { return Value(); });
}

/// A shift whose count may reach the width: arith's shifts are poison
/// there, kiln's give 0.
static Value emitShift(OpBuilder &b, Location loc, Value lhs, Value rhs,
                       bool left) {
  unsigned width = lhs.getType().getIntOrFloatBitWidth();
  Value limit = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(lhs.getType(), width));
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        rhs, limit);
  Value shifted = left ? Value(arith::ShLIOp::create(b, loc, lhs, rhs))
                       : Value(arith::ShRUIOp::create(b, loc, lhs, rhs));
  Value zero = arith::ConstantOp::create(b, loc,
                                         b.getIntegerAttr(lhs.getType(), 0));
  return arith::SelectOp::create(b, loc, inRange, shifted, zero);
}

Value emitBinary(OpBuilder &b, Location loc, Operation *op, Value lhs,
                 Value rhs) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) { return emitAdd(b, loc, lhs, rhs); })
      .Case([&](SubOp) { return emitSub(b, loc, lhs, rhs); })
      .Case([&](MulOp) { return emitMul(b, loc, lhs, rhs); })
      .Case([&](DivOp) { return emitDiv(b, loc, lhs, rhs); })
      .Case([&](RemOp) {
        return isFloat(lhs) ? Value(arith::RemFOp::create(b, loc, lhs, rhs))
                            : Value(arith::RemSIOp::create(b, loc, lhs, rhs));
      })
      .Case([&](PowOp) { return math::PowFOp::create(b, loc, lhs, rhs); })
      .Case([&](MinOp) { return emitMin(b, loc, lhs, rhs); })
      .Case([&](MaxOp) { return emitMax(b, loc, lhs, rhs); })
      .Case([&](AndOp) { return arith::AndIOp::create(b, loc, lhs, rhs); })
      .Case([&](OrOp) { return arith::OrIOp::create(b, loc, lhs, rhs); })
      .Case([&](XorOp) { return arith::XOrIOp::create(b, loc, lhs, rhs); })
      .Case([&](ShiftLeftOp) { return emitShift(b, loc, lhs, rhs, true); })
      .Case([&](ShiftRightOp) { return emitShift(b, loc, lhs, rhs, false); })
      .Default([](Operation *) { return Value(); });
}

Value emitCompare(OpBuilder &b, Location loc, ComparePredicate predicate,
                  Value lhs, Value rhs) {
  if (isFloat(lhs)) {
    static constexpr arith::CmpFPredicate table[] = {
        arith::CmpFPredicate::OEQ, arith::CmpFPredicate::UNE,
        arith::CmpFPredicate::OLT, arith::CmpFPredicate::OLE,
        arith::CmpFPredicate::OGT, arith::CmpFPredicate::OGE};
    return arith::CmpFOp::create(b, loc, table[static_cast<int>(predicate)],
                                 lhs, rhs);
  }
  // Booleans order false < true (unsigned); other integers are signed.
  bool isBool = lhs.getType().isInteger(1);
  static constexpr arith::CmpIPredicate signedTable[] = {
      arith::CmpIPredicate::eq,  arith::CmpIPredicate::ne,
      arith::CmpIPredicate::slt, arith::CmpIPredicate::sle,
      arith::CmpIPredicate::sgt, arith::CmpIPredicate::sge};
  static constexpr arith::CmpIPredicate unsignedTable[] = {
      arith::CmpIPredicate::eq,  arith::CmpIPredicate::ne,
      arith::CmpIPredicate::ult, arith::CmpIPredicate::ule,
      arith::CmpIPredicate::ugt, arith::CmpIPredicate::uge};
  auto index = static_cast<int>(predicate);
  return arith::CmpIOp::create(
      b, loc, isBool ? unsignedTable[index] : signedTable[index], lhs, rhs);
}

Value emitCast(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  bool fromBool = from.isInteger(1);
  if (to.isInteger(1)) {
    Value zero = scalarConstant(b, loc, from, 0.0);
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, x);
    if (fromFloat.getWidth() > toFloat.getWidth())
      return arith::TruncFOp::create(b, loc, to, x);
    // f16 <-> bf16: same width, go through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (fromFloat)
    return arith::FPToSIOp::create(b, loc, to, x);
  if (toFloat)
    return fromBool ? Value(arith::UIToFPOp::create(b, loc, to, x))
                    : Value(arith::SIToFPOp::create(b, loc, to, x));
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth < toWidth)
    return fromBool ? Value(arith::ExtUIOp::create(b, loc, to, x))
                    : Value(arith::ExtSIOp::create(b, loc, to, x));
  return arith::TruncIOp::create(b, loc, to, x);
}

} // namespace kiln::compiler::lowering
