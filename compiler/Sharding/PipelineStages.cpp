//===- PipelineStages.cpp - One pipeline stage's program ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Cuts the function's ops (in program order) into contiguous stages that
// balance the estimated time of the slowest one, then keeps one stage: the
// values crossing its cuts become arguments and results. Constants are not
// ops of any stage; each stage keeps those it reads.
//
//===----------------------------------------------------------------------===//

#include "compiler/Sharding/OpCost.h"
#include "compiler/Sharding/Passes.h"
#include "compiler/Sharding/ShardGraph.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"

#include <limits>

namespace kiln::compiler {
#define GEN_PASS_DEF_PIPELINESTAGESPASS
#include "compiler/Sharding/Passes.h.inc"

std::string pipelineValueName(int64_t cut, int64_t index) {
  return "pipeline.c" + std::to_string(cut) + "." + std::to_string(index);
}
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler::sharding;

namespace {

/// The argument and result attribute naming an entry's tensors (what
/// compiler/MemoryPlanning/EntrySignature.h reads into the artifact).
constexpr llvm::StringLiteral kNameAttr = "kiln.name";

/// Ops with no operands (constants) belong to no stage.
bool isFree(Operation *op) { return op->getNumOperands() == 0; }

/// Where the cuts fall and what each stage is estimated to cost.
struct StagePlan {
  /// Index (into the staged ops) of each stage's first op; one per stage.
  SmallVector<size_t> first;
  SmallVector<double> seconds;
  SmallVector<int64_t> flops, weightBytes;
  /// Bytes crossing the cut after each stage but the last.
  SmallVector<int64_t> boundaryBytes;
};

struct Stager {
  func::FuncOp function;
  CostRates rates;
  /// Ops that belong to stages, in program order (no constants, no return).
  SmallVector<Operation *> ops;
  DenseMap<Operation *, size_t> index;
  /// Index of the last op reading each op's results (ops.size(): the return).
  SmallVector<size_t> lastUse;
  /// Bytes live across the cut after op j (defined at or before j and read
  /// after it).
  SmallVector<int64_t> liveBytes;

  LogicalResult collect() {
    for (Operation &op : function.front().without_terminator()) {
      if (op.getNumRegions() != 0)
        return op.emitError("cannot cut into pipeline stages: an op with "
                            "regions (stage before fusion)");
      if (isFree(&op))
        continue;
      index[&op] = ops.size();
      ops.push_back(&op);
    }
    size_t n = ops.size();
    lastUse.assign(n, 0);
    SmallVector<int64_t> delta(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      size_t last = i;
      for (Operation *user : ops[i]->getUsers())
        last = std::max(last, index.lookup_or(user, n));
      lastUse[i] = last;
      int64_t bytes = 0;
      for (Value result : ops[i]->getResults())
        bytes += tensorBytes(result);
      delta[i] += bytes;
      delta[last] -= bytes;
    }
    liveBytes.assign(n, 0);
    int64_t live = 0;
    for (size_t j = 0; j < n; ++j)
      liveBytes[j] = live += delta[j];
    return success();
  }

  /// Cuts into `stages` stages minimising the slowest one's time: its ops
  /// plus what it receives and sends (dynamic programming over cut points).
  StagePlan plan(int64_t stages) {
    size_t n = ops.size(), p = size_t(stages);
    SmallVector<double> prefix(n + 1, 0.0);
    for (size_t i = 0; i < n; ++i)
      prefix[i + 1] = prefix[i] + graphOpSeconds(ops[i], rates);
    auto link = [&](size_t cutAfter) {
      return double(liveBytes[cutAfter]) / rates.linkBytesPerSecond;
    };
    // Ops [i, j) as one stage.
    auto cost = [&](size_t i, size_t j) {
      return prefix[j] - prefix[i] + (i > 0 ? link(i - 1) : 0.0) +
             (j < n ? link(j - 1) : 0.0);
    };
    constexpr double kInf = std::numeric_limits<double>::infinity();
    // best[s][j]: slowest of s + 1 stages over ops [0, j); from[s][j]: where
    // the last of them starts.
    SmallVector<SmallVector<double>> best(p, SmallVector<double>(n + 1, kInf));
    SmallVector<SmallVector<size_t>> from(p, SmallVector<size_t>(n + 1, 0));
    for (size_t j = 1; j <= n; ++j)
      best[0][j] = cost(0, j);
    for (size_t s = 1; s < p; ++s)
      for (size_t j = s + 1; j <= n; ++j)
        for (size_t i = s; i < j; ++i) {
          double slowest = std::max(best[s - 1][i], cost(i, j));
          if (slowest < best[s][j]) {
            best[s][j] = slowest;
            from[s][j] = i;
          }
        }
    StagePlan plan;
    plan.first.assign(p, 0);
    size_t end = n;
    for (size_t s = p - 1; s > 0; --s)
      end = plan.first[s] = from[s][end];
    for (size_t s = 0; s < p; ++s) {
      size_t lo = plan.first[s], hi = s + 1 < p ? plan.first[s + 1] : n;
      plan.seconds.push_back(cost(lo, hi));
      int64_t flops = 0, weights = 0;
      llvm::SmallPtrSet<Operation *, 16> constants;
      for (size_t i = lo; i < hi; ++i) {
        flops += graphOpFlops(ops[i]);
        for (Value operand : ops[i]->getOperands())
          if (Operation *def = operand.getDefiningOp();
              def && isFree(def) && constants.insert(def).second)
            weights += tensorBytes(operand);
      }
      plan.flops.push_back(flops);
      plan.weightBytes.push_back(weights);
      if (s + 1 < p)
        plan.boundaryBytes.push_back(liveBytes[hi - 1]);
    }
    return plan;
  }

  /// Values defined by ops before `end` and read at or after it (by an op
  /// or the return), in definition order.
  SmallVector<Value> crossing(size_t end) {
    SmallVector<Value> values;
    for (size_t i = 0; i < end; ++i)
      if (lastUse[i] >= end)
        for (Value result : ops[i]->getResults())
          if (llvm::any_of(result.getUsers(), [&](Operation *user) {
                return index.lookup_or(user, ops.size()) >= end;
              }))
            values.push_back(result);
    return values;
  }

  /// Rewrites the function into stage `stage` of `plan`.
  void keepStage(const StagePlan &plan, size_t stage) {
    size_t p = plan.first.size(), n = ops.size();
    size_t lo = plan.first[stage],
           hi = stage + 1 < p ? plan.first[stage + 1] : n;
    bool last = stage + 1 == p;
    Block &body = function.front();
    Operation *terminator = body.getTerminator();
    MLIRContext *context = function.getContext();
    auto inStage = [&](Operation *user) {
      size_t at = index.lookup_or(user, n);
      return (at >= lo && at < hi) || (last && user == terminator);
    };
    // What the previous stage sends becomes arguments.
    DenseMap<Value, Value> received;
    if (stage > 0)
      for (auto [i, value] : llvm::enumerate(crossing(lo))) {
        unsigned position = function.getNumArguments();
        auto name = NamedAttribute(
            StringAttr::get(context, kNameAttr),
            StringAttr::get(context,
                            kiln::compiler::pipelineValueName(stage - 1, i)));
        (void)function.insertArgument(position, value.getType(),
                                      DictionaryAttr::get(context, {name}),
                                      value.getLoc());
        Value argument = function.getArgument(position);
        value.replaceUsesWithIf(
            argument, [&](OpOperand &use) { return inStage(use.getOwner()); });
        received[value] = argument;
      }
    // What this stage sends becomes results.
    if (!last) {
      SmallVector<Value> sent;
      SmallVector<DictionaryAttr> names;
      for (auto [i, value] : llvm::enumerate(crossing(hi))) {
        sent.push_back(received.lookup_or(value, value));
        names.push_back(DictionaryAttr::get(
            context,
            {NamedAttribute(
                StringAttr::get(context, kNameAttr),
                StringAttr::get(
                    context, kiln::compiler::pipelineValueName(stage, i)))}));
      }
      OpBuilder builder(terminator);
      func::ReturnOp::create(builder, terminator->getLoc(), sent);
      terminator->erase();
      function.setType(FunctionType::get(context, body.getArgumentTypes(),
                                         ValueRange(sent).getTypes()));
      function.setAllResultAttrs(names);
    } else {
      function.setType(FunctionType::get(context, body.getArgumentTypes(),
                                         function.getResultTypes()));
    }
    for (size_t i = n; i-- > 0;)
      if (i < lo || i >= hi) {
        ops[i]->dropAllUses();
        ops[i]->erase();
      }
    for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
      if (isFree(&op) && op.use_empty())
        op.erase();
  }
};

struct PipelineStagesPass
    : kiln::compiler::impl::PipelineStagesPassBase<PipelineStagesPass> {
  using PipelineStagesPassBase::PipelineStagesPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (stages < 1 || stage < 0 || stage >= stages) {
      module.emitError("kiln-pipeline: stage ")
          << int64_t(stage) << " is not one of " << int64_t(stages)
          << " stages";
      return signalPassFailure();
    }
    if (microBatches < 1) {
      module.emitError("kiln-pipeline: micro-batches must be at least 1, not ")
          << int64_t(microBatches);
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> functions;
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isExternal())
        functions.push_back(function);
    if (functions.size() != 1) {
      module.emitError("pipeline parallelism needs a module with exactly one "
                       "function with a body; this one has ")
          << functions.size();
      return signalPassFailure();
    }
    func::FuncOp function = functions.front();
    if (!function.getBody().hasOneBlock()) {
      function.emitError("cannot cut a function with several blocks into "
                         "pipeline stages");
      return signalPassFailure();
    }
    if (microBatches > 1 &&
        failed(splitIntoMicroBatches(function, microBatches)))
      return signalPassFailure();
    Stager stager;
    stager.function = function;
    if (failed(stager.collect()))
      return signalPassFailure();
    if (int64_t(stager.ops.size()) < stages) {
      function.emitError("cannot cut ")
          << stager.ops.size() << " ops into " << int64_t(stages)
          << " pipeline stages";
      return signalPassFailure();
    }
    StagePlan plan = stager.plan(stages);
    stager.keepStage(plan, size_t(stage));

    Builder b(&getContext());
    module->setAttr(
        kiln::compiler::kPipelineAttr,
        b.getDictionaryAttr(
            {b.getNamedAttr("stages", b.getI64IntegerAttr(stages)),
             b.getNamedAttr("stage", b.getI64IntegerAttr(stage)),
             b.getNamedAttr("micro_batches", b.getI64IntegerAttr(microBatches)),
             b.getNamedAttr("stage_seconds", b.getF64ArrayAttr(plan.seconds)),
             b.getNamedAttr("stage_flops", b.getDenseI64ArrayAttr(plan.flops)),
             b.getNamedAttr("stage_weight_bytes",
                            b.getDenseI64ArrayAttr(plan.weightBytes)),
             b.getNamedAttr("boundary_bytes",
                            b.getDenseI64ArrayAttr(plan.boundaryBytes))}));
  }
};

} // namespace
