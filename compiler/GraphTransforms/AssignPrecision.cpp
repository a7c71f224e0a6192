//===- AssignPrecision.cpp - bf16/fp16 storage, fp32 compute --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One walk over each function in program order, so that every operand has
// its final type when its user is visited. Casts are cached per value: a
// value read widened (or narrowed) by several ops is cast once. See
// Passes.td for the policy.
//
//===----------------------------------------------------------------------===//

#include "compiler/GraphTransforms/Passes.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace kiln::compiler {
#define GEN_PASS_DEF_ASSIGNPRECISIONPASS
#include "compiler/GraphTransforms/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln;

namespace {

/// How an op takes part in the low-precision graph.
enum class Treatment {
  /// Exact in any float type (moves, selects, compares): runs on the
  /// low-precision values.
  kNative,
  /// Computes in fp32 on widened operands; its results are rounded.
  kRounded,
  /// Stays fp32, operands and results (statistics, kept nodes).
  kFp32,
};

Treatment treatmentOf(Operation *op) {
  if (isa<AbsOp, NegOp, ReluOp, SignOp, MaxOp, MinOp, ClipOp, CompareOp,
          SelectOp, MaxPool2dOp, GlobalMaxPoolOp, ArgMaxOp, ArgMinOp,
          ReduceMaxOp, ReduceMinOp, ReshapeOp, TransposeOp, BroadcastOp,
          ConcatOp, SplitOp, SliceOp, GatherOp, PadOp>(op))
    return Treatment::kNative;
  if (isa<SoftmaxOp, LogSoftmaxOp, LayerNormOp, BatchNormOp, ReduceSumOp,
          ReduceMeanOp, ReduceProdOp, GlobalAvgPoolOp, CastOp, ConstantOp,
          FusionOp>(op))
    return Treatment::kFp32;
  if (isa<KilnDialect>(op->getDialect()))
    return Treatment::kRounded;
  // func.return among them: the model's outputs keep their types.
  return Treatment::kFp32;
}

bool isF32Tensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isF32();
}

/// The node name an op was imported from, or "".
StringRef nodeName(Operation *op) {
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    return name.getName().getValue();
  return "";
}

/// Retypes one function.
class PrecisionAssigner {
public:
  PrecisionAssigner(FloatType low, const llvm::StringSet<> &keep,
                    llvm::StringSet<> &keptSeen)
      : low_(low), keep_(keep), keptSeen_(keptSeen) {}

  void run(func::FuncOp func) {
    SmallVector<Operation *> ops;
    for (Operation &op : func.getBody().getOps())
      ops.push_back(&op);
    SmallVector<Operation *> native;
    for (Operation *op : ops) {
      Treatment treatment = treatmentOf(op);
      StringRef name = nodeName(op);
      if (!name.empty() && keep_.contains(name)) {
        keptSeen_.insert(name);
        treatment = Treatment::kFp32;
      }
      switch (treatment) {
      case Treatment::kNative:
        if (assignNative(op))
          native.push_back(op);
        break;
      case Treatment::kRounded:
        assignRounded(op);
        break;
      case Treatment::kFp32:
        for (OpOperand &use : op->getOpOperands())
          use.set(widened(use.get()));
        break;
      }
    }
    // Last readers first, so that a chain of exact ops widens as a whole.
    for (Operation *op : llvm::reverse(native))
      widenIfOnlyReadWide(op);
    // Casts and constants no reader took in the end, and weights only read
    // converted.
    for (Operation *op : llvm::reverse(created_))
      if (op->use_empty())
        op->erase();
    for (ConstantOp constant : converted_)
      if (constant->use_empty())
        constant->erase();
  }

private:
  /// `value` stored in the low-precision type: retyped values as they are,
  /// constants converted, other fp32 tensors through a cast; anything else
  /// unchanged.
  Value narrowed(Value value) {
    if (!isF32Tensor(value.getType()))
      return value;
    Value &low = narrowed_[value];
    if (low)
      return low;
    auto constant = value.getDefiningOp<ConstantOp>();
    auto dense = constant ? dyn_cast<DenseFPElementsAttr>(constant.getValue())
                          : DenseFPElementsAttr();
    if (dense) {
      low = createConstant(constant, convert(dense, low_));
      constantOrigin_[low] = constant;
    } else {
      low = createCast(value, low_);
      narrowingOrigin_[low] = value;
    }
    retyped_.insert(low);
    return low;
  }

  /// `value` in fp32: values this pass retyped come back through a cast.
  Value widened(Value value) {
    if (!retyped_.contains(value))
      return value;
    Value &wide = widened_[value];
    if (!wide)
      wide = createCast(value, Float32Type::get(value.getContext()));
    return wide;
  }

  /// `constant` with its values rounded to the low type, still fp32: a
  /// compile-time conversion, whatever the size (the cast folder stops at
  /// kMaxFoldedElements).
  Value rounded(ConstantOp constant) {
    auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue());
    if (!dense)
      return widened(narrowed(constant.getResult()));
    Value &result = roundedConstants_[constant.getResult()];
    if (!result)
      result = createConstant(
          constant, convert(cast<DenseFPElementsAttr>(convert(dense, low_)),
                            dense.getElementType()));
    return result;
  }

  static DenseElementsAttr convert(DenseFPElementsAttr values, Type element) {
    const llvm::fltSemantics &semantics =
        cast<FloatType>(element).getFloatSemantics();
    return values.mapValues(element, [&](const APFloat &value) {
      APFloat converted = value;
      bool losesInfo = false;
      converted.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
      return converted.bitcastToAPInt();
    });
  }

  Value createConstant(ConstantOp next, DenseElementsAttr values) {
    OpBuilder builder(next);
    builder.setInsertionPointAfter(next);
    auto constant =
        ConstantOp::create(builder, next.getLoc(), cast<ElementsAttr>(values));
    created_.push_back(constant);
    converted_.insert(next);
    return constant;
  }

  /// A cast of `value` right after its definition, so that every later
  /// reader can share it.
  Value createCast(Value value, Type element) {
    OpBuilder builder(value.getContext());
    builder.setInsertionPointAfterValue(value);
    auto type = cast<RankedTensorType>(value.getType()).clone(element);
    auto cast = CastOp::create(builder, value.getLoc(), type, value);
    created_.push_back(cast);
    return cast;
  }

  /// Runs `op` on low-precision values; false if it has none.
  bool assignNative(Operation *op) {
    bool any = false;
    for (OpOperand &use : op->getOpOperands())
      use.set(narrowed(use.get()));
    for (OpResult result : op->getResults())
      if (isF32Tensor(result.getType())) {
        result.setType(cast<RankedTensorType>(result.getType()).clone(low_));
        retyped_.insert(result);
        any = true;
      }
    return any;
  }

  void assignRounded(Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      Value value = use.get();
      // Weights are stored in the low type too, so they are read rounded;
      // the model's inputs are read as given (rounding them would cost a
      // kernel) and fp32 islands hand over their fp32 results.
      if (auto constant = value.getDefiningOp<ConstantOp>();
          constant && isF32Tensor(value.getType()))
        value = rounded(constant);
      use.set(widened(value));
    }
    for (OpResult result : op->getResults()) {
      if (!isF32Tensor(result.getType()))
        continue;
      Value low = narrowed(result);
      result.replaceAllUsesExcept(low, low.getDefiningOp());
      // Its readers see the rounded value even where it is widened again.
      narrowingOrigin_.erase(low);
    }
  }

  /// An exact op whose every low-precision result is only read widened runs
  /// on fp32 values instead (it commutes with the exact widening), so that
  /// the kernel reading it needs no conversion pass of its own. The values
  /// stay on the low-precision grid.
  void widenIfOnlyReadWide(Operation *op) {
    for (OpResult result : op->getResults()) {
      if (!retyped_.contains(result))
        continue;
      auto wide = widened_.find(result);
      if (wide == widened_.end() ||
          !llvm::all_of(result.getUsers(), [&](Operation *user) {
            return user == wide->second.getDefiningOp();
          }))
        return;
    }
    for (OpOperand &use : op->getOpOperands())
      use.set(wideOperand(use.get()));
    for (OpResult result : op->getResults()) {
      if (!retyped_.erase(result))
        continue;
      result.setType(cast<RankedTensorType>(result.getType())
                         .clone(Float32Type::get(result.getContext())));
      Value wide = widened_.lookup(result);
      widened_.erase(result);
      wide.replaceAllUsesWith(result);
    }
  }

  /// The fp32 value an exact op reads in place of the low `value`: what
  /// was narrowed only for it (an input, an fp32 island's result), the
  /// rounded constant, or `value` widened (a rounded result).
  Value wideOperand(Value value) {
    if (Value origin = narrowingOrigin_.lookup(value))
      return origin;
    if (ConstantOp constant = constantOrigin_.lookup(value))
      return rounded(constant);
    return widened(value);
  }

  FloatType low_;
  const llvm::StringSet<> &keep_;
  llvm::StringSet<> &keptSeen_;
  llvm::DenseSet<Value> retyped_;
  llvm::DenseMap<Value, Value> narrowed_, widened_, roundedConstants_;
  /// Low values that are a cast of an fp32 value nothing rounded.
  llvm::DenseMap<Value, Value> narrowingOrigin_;
  /// Low constants and the fp32 constants they were converted from.
  llvm::DenseMap<Value, ConstantOp> constantOrigin_;
  /// What this pass created, and the constants it converted.
  SmallVector<Operation *> created_;
  llvm::SetVector<ConstantOp> converted_;
};

struct AssignPrecisionPass
    : kiln::compiler::impl::AssignPrecisionPassBase<AssignPrecisionPass> {
  using AssignPrecisionPassBase::AssignPrecisionPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    FloatType low;
    if (precision == "bf16")
      low = BFloat16Type::get(context);
    else if (precision == "fp16")
      low = Float16Type::get(context);
    else {
      module.emitError() << "unknown precision '" << precision
                         << "' (expected bf16 or fp16)";
      return signalPassFailure();
    }
    llvm::StringSet<> keep, keptSeen;
    for (const std::string &name : keepFp32)
      keep.insert(name);
    module.walk([&](func::FuncOp func) {
      if (!func.isExternal())
        PrecisionAssigner(low, keep, keptSeen).run(func);
    });
    // A misspelt node would silently stay low precision.
    bool missing = false;
    for (const std::string &name : keepFp32)
      if (!keptSeen.contains(name)) {
        module.emitError() << "--keep-fp32: the model has no node named '"
                           << name << "'";
        missing = true;
      }
    if (missing)
      signalPassFailure();
  }
};

} // namespace
