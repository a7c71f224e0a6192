//===- FoldCastRoundTrips.cpp - 8-bit round trips of whole numbers --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// kiln-fold-cast-round-trips (Passes.td has the whole story): a float that
// quantization has already rounded and clipped, stored as an integer and
// read back, is the float itself.
//
//===----------------------------------------------------------------------===//

#include "compiler/GraphTransforms/Passes.h"

#include "dialects/Graph/IR/GraphOps.h"

#include <cmath>
#include <optional>

namespace kiln::compiler {
#define GEN_PASS_DEF_FOLDCASTROUNDTRIPSPASS
#include "compiler/GraphTransforms/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln;

namespace {

/// The value of a one-element float constant.
std::optional<double> floatScalar(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  auto values = constant ? dyn_cast<DenseFPElementsAttr>(constant.getValue())
                         : DenseFPElementsAttr();
  if (!values || values.getNumElements() != 1)
    return std::nullopt;
  return (*values.getValues<llvm::APFloat>().begin()).convertToDouble();
}

bool isWhole(double value) { return value == std::trunc(value); }

/// A bound under which a float tensor's elements may be fractional: every
/// element of `value` is an integer or below it (-inf: every element is an
/// integer), or nothing when that is not known. It follows the forms
/// quantization writes: round half to even as (y + 1.5 x 2^p) - 1.5 x 2^p
/// (integral wherever y >= -2^(p-1): the sum is at least 2^p, where floats
/// are whole numbers), plus or minus an integer zero point, clipped.
std::optional<double> fractionalBelow(Value value, int depth = 0) {
  constexpr double kWhole = -INFINITY;
  if (depth > 6)
    return std::nullopt;
  Operation *op = value.getDefiningOp();
  if (auto constant = dyn_cast_or_null<ConstantOp>(op)) {
    auto values = dyn_cast<DenseFPElementsAttr>(constant.getValue());
    if (!values || values.getNumElements() > 64)
      return std::nullopt;
    for (const llvm::APFloat &v : values.getValues<APFloat>())
      if (!v.isInteger())
        return std::nullopt;
    return kWhole;
  }
  if (auto clip = dyn_cast_or_null<ClipOp>(op)) {
    if (!clip.getMin() || !clip.getMax())
      return std::nullopt;
    double lo = clip.getMin()->convertToDouble();
    double hi = clip.getMax()->convertToDouble();
    std::optional<double> inner = fractionalBelow(clip.getInput(), depth + 1);
    if (inner && isWhole(lo) && isWhole(hi) && lo >= *inner)
      return kWhole;
    return std::nullopt;
  }
  bool isAdd = isa_and_nonnull<AddOp>(op);
  if (!isAdd && !isa_and_nonnull<SubOp>(op))
    return std::nullopt;
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  std::optional<double> k = floatScalar(rhs);
  if (!k && isAdd) {
    std::swap(lhs, rhs);
    k = floatScalar(rhs);
  }
  if (!k || !isWhole(*k))
    return std::nullopt;
  Type element = cast<ShapedType>(value.getType()).getElementType();
  int precision = element.isF32() ? 23 : element.isF64() ? 52 : 0;
  double shift = precision ? std::ldexp(1.5, precision) : 0;
  // (y + shift) - shift: whole wherever y >= -2^(p-1).
  if (!isAdd && precision && *k == shift)
    if (auto sum = lhs.getDefiningOp<AddOp>())
      if (floatScalar(sum.getRhs()) == shift ||
          floatScalar(sum.getLhs()) == shift)
        return -std::ldexp(1.0, precision - 1);
  std::optional<double> inner = fractionalBelow(lhs, depth + 1);
  if (!inner)
    return std::nullopt;
  return *inner == kWhole ? kWhole : *inner + std::fabs(*k);
}

/// `cast(cast(x : F -> int) -> F)` is x when x holds whole numbers in the
/// integer type's range: a clipped, rounded value stored as 8 bits and
/// read back (QuantizeLinear then DequantizeLinear, a uint8 activation
/// shifted to int8).
Value castRoundTrip(CastOp cast) {
  auto inner = cast.getInput().getDefiningOp<CastOp>();
  if (!inner || inner.getInput().getType() != cast.getType() ||
      !isa<FloatType>(cast.getType().getElementType()))
    return {};
  auto integer = dyn_cast<IntegerType>(inner.getType().getElementType());
  auto clip = inner.getInput().getDefiningOp<ClipOp>();
  if (!integer || integer.getWidth() < 2 || integer.getWidth() > 32 || !clip ||
      fractionalBelow(clip) != -INFINITY)
    return {};
  unsigned width = integer.getWidth();
  double low = integer.isUnsigned() ? 0 : -std::ldexp(1.0, width - 1);
  double high = integer.isUnsigned() ? std::ldexp(1.0, width) - 1
                                     : std::ldexp(1.0, width - 1) - 1;
  double lo = clip.getMin()->convertToDouble();
  double hi = clip.getMax()->convertToDouble();
  return lo >= low && hi <= high ? inner.getInput() : Value();
}

struct FoldCastRoundTripsPass
    : kiln::compiler::impl::FoldCastRoundTripsPassBase<FoldCastRoundTripsPass> {
  void runOnOperation() override {
    getOperation().walk([](CastOp cast) {
      if (Value x = castRoundTrip(cast))
        cast.getResult().replaceAllUsesWith(x);
    });
  }
};

} // namespace
