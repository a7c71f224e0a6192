//===- SplitAccumulatorChains.cpp - Independent partial accumulators ------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/CPU/SplitAccumulatorChains.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace kiln::compiler {
namespace {

/// Most copies of a loop body: four partial accumulators already hide the
/// latency of a single chain; more would cost registers for nothing.
constexpr int64_t kMaxCopies = 4;

/// One loop-carried accumulator: the op that combines the carried value
/// with this iteration's contribution, and how partial results combine.
struct Accumulator {
  unsigned index;     // of the iteration argument
  Operation *combine; // vector.contract (as acc) or an arith combine
};

/// The neutral element of `combine`'s accumulation on `type`, or null.
TypedAttr neutralElement(Operation *combine, VectorType type) {
  Type element = type.getElementType();
  auto floatType = dyn_cast<FloatType>(element);
  // Sums in f16 or bf16 lose a unit of their few mantissa bits to each
  // reassociation: they keep their order.
  if (floatType && floatType.getWidth() < 32)
    return {};
  auto splat = [&](TypedAttr value) -> TypedAttr {
    return DenseElementsAttr::get(type, value);
  };
  // -0.0, not +0.0, is the identity of a float sum: -0.0 + -0.0 is -0.0.
  APFloat negativeZero = floatType
                             ? APFloat::getZero(floatType.getFloatSemantics(),
                                                /*Negative=*/true)
                             : APFloat(0.0);
  if (auto contract = dyn_cast<vector::ContractionOp>(combine)) {
    if (contract.getKind() != vector::CombiningKind::ADD)
      return {};
    if (floatType)
      return splat(FloatAttr::get(floatType, negativeZero));
    return isa<IntegerType>(element) ? splat(IntegerAttr::get(element, 0))
                                     : TypedAttr();
  }
  if (isa<arith::AddIOp>(combine))
    return splat(IntegerAttr::get(element, 0));
  if (!floatType)
    return {};
  const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
  if (isa<arith::AddFOp>(combine))
    return splat(FloatAttr::get(floatType, negativeZero));
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combine))
    return splat(FloatAttr::get(
        floatType, APFloat::getInf(semantics, /*Negative=*/true)));
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(combine))
    return splat(FloatAttr::get(floatType, APFloat::getInf(semantics)));
  return {};
}

/// Combines two partial results of `combine`'s accumulation.
Value combinePartials(OpBuilder &builder, Location loc, Operation *combine,
                      Value lhs, Value rhs) {
  // Integer sums regrouped may overflow where the serial one did not: no
  // overflow flags carried over.
  if (isa<vector::ContractionOp, arith::AddIOp>(combine)) {
    if (isa<FloatType>(getElementTypeOrSelf(lhs.getType())))
      return arith::AddFOp::create(builder, loc, lhs, rhs);
    return arith::AddIOp::create(builder, loc, lhs, rhs);
  }
  OperationState state(loc, combine->getName(), ValueRange{lhs, rhs},
                       TypeRange{lhs.getType()}, combine->getAttrs());
  return builder.create(state)->getResult(0);
}

/// The op accumulating iteration argument `arg` of `loop`, if its only use
/// is as that op's accumulator and the op's result, used only by the
/// yield, is what the loop carries on.
Operation *accumulatingOp(scf::ForOp loop, BlockArgument arg,
                          unsigned index) {
  if (!isa<VectorType>(arg.getType()) || !arg.hasOneUse())
    return nullptr;
  Operation *user = *arg.getUsers().begin();
  if (user->getBlock() != loop.getBody() || user->getNumResults() != 1 ||
      !user->getResult(0).hasOneUse())
    return nullptr;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  if (yield.getOperand(index) != user->getResult(0))
    return nullptr;
  if (auto contract = dyn_cast<vector::ContractionOp>(user))
    return contract.getAcc() == arg ? user : nullptr;
  if (isa<arith::AddFOp, arith::AddIOp, arith::MaximumFOp, arith::MaxNumFOp,
          arith::MinimumFOp, arith::MinNumFOp>(user))
    return user;
  return nullptr;
}

/// Dependency chains one accumulator of `type` makes once its unit
/// dimensions go: a row of whole vectors each (vector<8x32xf32>: 16 with
/// 16 lanes; the 8 x 1 tail of a tile, vector<8xf32>: one).
int64_t chainsOf(VectorType type, int64_t lanes) {
  SmallVector<int64_t> shape;
  for (int64_t size : type.getShape())
    if (size != 1)
      shape.push_back(size);
  if (shape.empty())
    return 1;
  int64_t chains = llvm::divideCeil(shape.back(), lanes);
  for (int64_t size : ArrayRef(shape).drop_back())
    chains *= size;
  return chains;
}

/// Whether every op in `loop`'s body may run in any order with the copies
/// of it: nothing writes memory and there are no nested regions.
bool bodyOnlyReads(scf::ForOp loop) {
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0)
      return false;
    if (isMemoryEffectFree(&op))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(&op);
    if (!effects || !effects.onlyHasEffect<MemoryEffects::Read>())
      return false;
  }
  return true;
}

void splitLoop(RewriterBase &rewriter, scf::ForOp loop,
               ArrayRef<Accumulator> accumulators, int64_t copies,
               int64_t tripCount, int64_t step) {
  int64_t unrolledTrips = tripCount - tripCount % copies;
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  // Iteration arguments: the original ones, then copies - 1 more partial
  // accumulators for each accumulator.
  SmallVector<Value> inits(loop.getInitArgs());
  for (const Accumulator &acc : accumulators) {
    auto type = cast<VectorType>(loop.getRegionIterArgs()[acc.index].getType());
    Value neutral = arith::ConstantOp::create(
        rewriter, loc, neutralElement(acc.combine, type));
    for (int64_t copy = 1; copy < copies; ++copy)
      inits.push_back(neutral);
  }
  Value lowerBound = loop.getLowerBound();
  Value unrolledEnd = rewriter.createOrFold<arith::AddIOp>(
      loc, lowerBound,
      arith::ConstantIndexOp::create(rewriter, loc, unrolledTrips * step));
  Value unrolledStep =
      arith::ConstantIndexOp::create(rewriter, loc, copies * step);
  auto unrolled =
      scf::ForOp::create(rewriter, loc, lowerBound, unrolledEnd, unrolledStep,
                         inits, [](OpBuilder &, Location, Value, ValueRange) {});
  Block *body = unrolled.getBody();
  rewriter.setInsertionPointToStart(body);
  unsigned originalArgs = loop.getNumRegionIterArgs();
  // Where copy > 0 of accumulator `position` keeps its partial value among
  // the unrolled loop's iteration arguments (copy 0 keeps the original's).
  auto partialIndex = [&](size_t position, int64_t copy) {
    return originalArgs + position * (copies - 1) + copy - 1;
  };
  auto oldYield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  // Every iteration argument is an accumulator or passed through unchanged
  // (splitAccumulatorChains leaves other loops alone): each copy carries
  // its own partial value.
  SmallVector<Value> carried(body->getArguments().drop_front());
  for (int64_t copy = 0; copy < copies; ++copy) {
    IRMapping mapping;
    Value iv = unrolled.getInductionVar();
    if (copy > 0)
      iv = arith::AddIOp::create(
          rewriter, loc, iv,
          arith::ConstantIndexOp::create(rewriter, loc, copy * step));
    mapping.map(loop.getInductionVar(), iv);
    for (unsigned arg = 0; arg < originalArgs; ++arg)
      mapping.map(loop.getRegionIterArgs()[arg], carried[arg]);
    for (auto [position, acc] : llvm::enumerate(accumulators))
      if (copy > 0)
        mapping.map(loop.getRegionIterArgs()[acc.index],
                    carried[partialIndex(position, copy)]);
    for (Operation &op : loop.getBody()->without_terminator())
      rewriter.clone(op, mapping);
    for (auto [position, acc] : llvm::enumerate(accumulators)) {
      Value next = mapping.lookup(oldYield.getOperand(acc.index));
      if (copy == 0)
        carried[acc.index] = next;
      else
        carried[partialIndex(position, copy)] = next;
    }
  }
  scf::YieldOp::create(rewriter, loc, carried);

  // Partial results combined pairwise, then the remainder of the trip
  // count in the original loop, starting where the unrolled one stopped.
  rewriter.setInsertionPointAfter(unrolled);
  SmallVector<Value> results(unrolled.getResults().take_front(originalArgs));
  for (auto [position, acc] : llvm::enumerate(accumulators)) {
    SmallVector<Value> partials = {results[acc.index]};
    for (int64_t copy = 1; copy < copies; ++copy)
      partials.push_back(unrolled.getResult(partialIndex(position, copy)));
    while (partials.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i + 1 < partials.size(); i += 2)
        next.push_back(combinePartials(rewriter, loc, acc.combine, partials[i],
                                       partials[i + 1]));
      if (partials.size() % 2)
        next.push_back(partials.back());
      partials = std::move(next);
    }
    results[acc.index] = partials.front();
  }
  if (unrolledTrips == tripCount) {
    rewriter.replaceOp(loop, results);
    return;
  }
  rewriter.modifyOpInPlace(loop, [&] {
    loop.getLowerBoundMutable().assign(unrolledEnd);
    loop.getInitArgsMutable().assign(results);
  });
}

} // namespace

void splitAccumulatorChains(RewriterBase &rewriter, func::FuncOp func,
                            const CpuRegisterTile &tile) {
  if (tile.chains <= 1)
    return;
  SmallVector<scf::ForOp> loops;
  func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    std::optional<APInt> trips = loop.getStaticTripCount();
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    // Loops the tiling made: an index induction variable, signed bounds.
    if (!trips || !step || loop.getNumRegionIterArgs() == 0 ||
        !loop.getInductionVar().getType().isIndex() || loop.getUnsignedCmp() ||
        !bodyOnlyReads(loop))
      continue;
    SmallVector<Accumulator> accumulators;
    int64_t chains = 0;
    bool serial = false;
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      // Carried through unchanged (reduceAfterLoops leaves one): every
      // copy sees the same value.
      if (yield.getOperand(index) == arg)
        continue;
      Operation *combine = accumulatingOp(loop, arg, index);
      auto type = dyn_cast<VectorType>(arg.getType());
      if (!combine || !neutralElement(combine, type)) {
        serial = true;
        continue;
      }
      accumulators.push_back({unsigned(index), combine});
      chains += chainsOf(type, tile.lanes);
    }
    // A loop carrying anything else is left alone: its chain would stay.
    if (serial || accumulators.empty() || chains >= tile.chains)
      continue;
    int64_t copies = std::min<int64_t>(
        kMaxCopies, llvm::PowerOf2Ceil(llvm::divideCeil(tile.chains, chains)));
    int64_t tripCount = trips->getSExtValue();
    // Too short a loop to pay for the partials' sum.
    if (tripCount < 2 * copies)
      continue;
    splitLoop(rewriter, loop, accumulators, copies, tripCount, *step);
  }
}

} // namespace kiln::compiler
