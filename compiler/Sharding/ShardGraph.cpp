//===- ShardGraph.cpp - One rank's program from a whole graph -------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Walks each function in order, decides every op's layout with the rules
// and rebuilds it with local shapes. Layout changes (reshards) are made on
// demand and shared between the ops that need the same one:
//   partial    -> replicated  all_reduce sum
//   partial    -> split(d)    reduce_scatter sum along d
//   split(d)   -> replicated  all_gather along d
//   replicated -> split(d)    this rank's slice (no communication; on a
//                             constant it folds into a smaller constant)
//
//===----------------------------------------------------------------------===//

#include "compiler/Sharding/ShardGraph.h"
#include "compiler/Sharding/FuseCollectives.h"
#include "compiler/Sharding/Passes.h"
#include "compiler/Sharding/ShardingRules.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"

#include <map>
#include <tuple>

namespace kiln::compiler {
#define GEN_PASS_DEF_SHARDGRAPHPASS
#define GEN_PASS_DEF_SPLITBATCHPASS
#include "compiler/Sharding/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using namespace kiln;
using namespace kiln::compiler::sharding;

namespace {

RankedTensorType typeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

struct Partitioner {
  RuleContext context;
  int64_t rank = 0;
  OpBuilder builder;
  /// Original value -> its value on this rank and how it is laid out.
  DenseMap<Value, std::pair<Value, Sharding>> local;
  /// (original value, layout kind, dimension) -> resharded value.
  std::map<std::tuple<void *, int, int64_t>, Value> resharded;
  /// Partial sums already reduce-scattered: this rank's slice and its
  /// dimension.
  DenseMap<Value, std::pair<Value, int64_t>> scattered;
  int64_t allReduces = 0, allGathers = 0, reduceScatters = 0;
  /// The collectives made, in program order; independent all-reduces of at
  /// most this many bytes are fused (0: none).
  SmallVector<MadeCollective> made;
  int64_t fuseBelowBytes = 0;
  /// Micro-batching (pipeline parallelism): the function is retyped to run
  /// on one of `context.ranks` slices of the batch, its inputs already
  /// sliced and its outputs left split; nothing may need the whole batch.
  bool microBatching = false;
  /// What the micro-batching slices are, for errors.
  StringRef slices = "micro-batches";

  explicit Partitioner(MLIRContext *mlirContext) : builder(mlirContext) {}

  Value slice(Value whole, int64_t dim, Location loc) {
    RankedTensorType type = typeOf(whole);
    int64_t chunk = type.getDimSize(dim) / context.ranks;
    SmallVector<int64_t> starts(type.getRank(), 0);
    SmallVector<int64_t> limits(type.getShape());
    SmallVector<int64_t> steps(type.getRank(), 1);
    starts[dim] = rank * chunk;
    limits[dim] = (rank + 1) * chunk;
    return SliceOp::create(builder, loc,
                           localType(type, Sharding::split(dim), context.ranks),
                           whole, starts, limits, steps);
  }

  /// `original`'s value on this rank laid out as `want`.
  FailureOr<Value> reshard(Value original, Sharding want, Location loc) {
    auto [value, have] = local.lookup(original);
    if (have == want)
      return value;
    auto key = std::make_tuple(original.getAsOpaquePointer(), int(want.kind),
                               want.dim);
    if (Value cached = resharded[key])
      return cached;
    RankedTensorType global = typeOf(original);
    if (want.isPartial())
      return emitError(loc, "internal error: asked for a partial sum of a ")
             << have.str() << " value";
    if (microBatching)
      return emitError(loc, "cannot split the batch into ")
             << context.ranks << " " << slices << ": this op needs "
             << (have.isSplit() ? "the whole batch of an operand (it mixes "
                                  "rows of the batch)"
                                : "a batch slice of a value that does not "
                                  "depend on the inputs");
    if (want.isSplit() && global.getDimSize(want.dim) % context.ranks != 0)
      return emitError(loc, "cannot split dimension ")
             << want.dim << " of " << global << " over " << context.ranks
             << " ranks: " << global.getDimSize(want.dim)
             << " does not divide evenly";
    if (have.isPartial() && want.isSplit()) {
      // Half an all-reduce: each rank receives only its slice of the sum.
      value = ReduceScatterOp::create(
          builder, loc, localType(global, want, context.ranks), value,
          CollectiveReduction::sum, want.dim, uint32_t(context.ranks));
      made.push_back({value.getDefiningOp(), original});
      ++reduceScatters;
      scattered[original] = {value, want.dim};
      resharded[key] = value;
      return value;
    }
    if (have.isPartial()) {
      // Reduce-scattered already: gathering that is the cheaper half.
      if (auto slice = scattered.find(original); slice != scattered.end()) {
        auto [sliceValue, dim] = slice->second;
        value = AllGatherOp::create(builder, loc, global, sliceValue, dim,
                                    uint32_t(context.ranks));
        made.push_back({value.getDefiningOp(), original});
        ++allGathers;
        resharded[key] = value;
        return value;
      }
      value = AllReduceOp::create(builder, loc, value.getType(), value,
                                  CollectiveReduction::sum,
                                  uint32_t(context.ranks));
      made.push_back({value.getDefiningOp(), original});
      ++allReduces;
    } else if (have.isSplit()) {
      value = AllGatherOp::create(builder, loc, global, value, have.dim,
                                  uint32_t(context.ranks));
      made.push_back({value.getDefiningOp(), original});
      ++allGathers;
    }
    if (want.isSplit())
      value = slice(value, want.dim, loc);
    resharded[key] = value;
    return value;
  }

  /// The layout a `kiln.shard` annotation asks for, if any (micro-batching
  /// ignores annotations: they are about ranks).
  std::optional<Sharding> annotated(ShardingAttr annotation) {
    if (!annotation || microBatching)
      return std::nullopt;
    return annotation.isSplit() ? Sharding::split(annotation.getDim())
                                : Sharding::replicated();
  }

  LogicalResult partitionArguments(func::FuncOp function) {
    builder.setInsertionPointToStart(&function.front());
    for (BlockArgument argument : function.getArguments()) {
      local[argument] = {argument, Sharding::replicated()};
      // A user's annotation wins over the strategy.
      if (std::optional<Sharding> want =
              annotated(function.getArgAttrOfType<ShardingAttr>(
                  argument.getArgNumber(), kShardAnnotation))) {
        FailureOr<Value> value = reshard(argument, *want, argument.getLoc());
        if (failed(value))
          return failure();
        local[argument] = {*value, *want};
        continue;
      }
      if (context.strategy != Strategy::kData)
        continue;
      auto type = dyn_cast<RankedTensorType>(argument.getType());
      if (!type || type.getRank() == 0 ||
          type.getDimSize(0) % context.ranks != 0)
        return function.emitError(microBatching ? "splitting the batch into "
                                                : "data parallelism over ")
               << context.ranks << " " << (microBatching ? slices : "ranks")
               << " needs every input's first (batch) dimension to divide by "
               << context.ranks << "; input " << argument.getArgNumber()
               << " is " << argument.getType();
      // Micro-batching: the slice stands in for the retyped argument until
      // the rules, which read global shapes, are done.
      local[argument] = {slice(argument, 0, argument.getLoc()),
                         Sharding::split(0)};
    }
    return success();
  }

  LogicalResult partitionOp(Operation *op) {
    builder.setInsertionPoint(op);
    Location loc = op->getLoc();
    if (op->getNumRegions() != 0)
      return op->emitError("cannot shard an op with regions (shard before "
                           "fusion)");
    SmallVector<Sharding> current;
    for (Value operand : op->getOperands()) {
      if (!local.count(operand))
        return op->emitError("cannot shard: an operand is defined outside "
                             "the function's body");
      current.push_back(local.lookup(operand).second);
    }
    if (isa<func::ReturnOp>(op) && microBatching) {
      // Micro-batch outputs are concatenated along their first dimension.
      for (OpOperand &operand : op->getOpOperands()) {
        auto [value, have] = local.lookup(operand.get());
        if (have != Sharding::split(0))
          return op->emitError("cannot split the batch into ")
                 << slices << ": "
                 << "output " << operand.getOperandNumber() << " is "
                 << have.str()
                 << " on a micro-batch, not split along its first dimension";
        operand.set(value);
      }
      return success();
    }
    if (isa<func::ReturnOp>(op)) {
      // The interface stays whole: every rank returns the full outputs.
      for (OpOperand &operand : op->getOpOperands()) {
        FailureOr<Value> whole =
            reshard(operand.get(), Sharding::replicated(), loc);
        if (failed(whole))
          return failure();
        operand.set(*whole);
      }
      return success();
    }
    // A partial sum the op is not linear in is reduced first: into this
    // rank's tokens under sequence parallelism where the op can take them,
    // whole otherwise. So is one added to a residual split along the
    // tokens: each rank adds its own.
    if (!keepsPartial(op, current) || addsTokenResidual(op, current, context))
      for (auto [index, sharding] : llvm::enumerate(current))
        if (sharding.isPartial()) {
          std::optional<int64_t> dim =
              tokenSplitDim(op, unsigned(index), context);
          sharding = dim ? Sharding::split(*dim) : Sharding::replicated();
        }
    Decision decision = decide(op, current, context);

    SmallVector<Value> operands;
    for (auto [operand, want] :
         llvm::zip(op->getOperands(), decision.operands)) {
      FailureOr<Value> value = reshard(operand, want, loc);
      if (failed(value))
        return failure();
      operands.push_back(*value);
    }
    if (rank != 0 && decision.skipOnOtherRanksFor) {
      local[op->getResult(0)] = {operands[*decision.skipOnOtherRanksFor],
                                 decision.result};
      return success();
    }
    if (rank != 0 && decision.dropOnOtherRanks)
      operands.erase(operands.begin() + *decision.dropOnOtherRanks);

    SmallVector<Type> types;
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      types.push_back(type ? localType(type, decision.result, context.ranks)
                           : result.getType());
    }
    OperationState state(loc, op->getName());
    state.addOperands(operands);
    state.addAttributes(op->getAttrs());
    state.addTypes(types);
    Operation *clone = builder.create(state);
    for (auto [result, cloned] :
         llvm::zip(op->getResults(), clone->getResults()))
      local[result] = {cloned, decision.result};
    // A user's annotation constrains the result (GSPMD's sharding
    // constraint): a split weight is sliced, a split value gathered.
    if (std::optional<Sharding> want =
            annotated(op->getAttrOfType<ShardingAttr>(kShardAnnotation))) {
      FailureOr<Value> value = reshard(op->getResult(0), *want, loc);
      if (failed(value))
        return failure();
      local[op->getResult(0)] = {*value, *want};
    }
    return success();
  }

  /// The count of `collective`'s kind.
  int64_t &collectivesOfKind(Operation *collective) {
    if (isa<AllReduceOp>(collective))
      return allReduces;
    return isa<ReduceScatterOp>(collective) ? reduceScatters : allGathers;
  }

  LogicalResult partition(func::FuncOp function) {
    // Before the arguments' slices are inserted: those are not the user's.
    SmallVector<Operation *> original;
    for (Operation &op : function.front())
      original.push_back(&op);
    if (failed(partitionArguments(function)))
      return failure();
    for (Operation *op : original)
      if (failed(partitionOp(op)))
        return failure();
    // Decided while the original graph, which every rank shares, is here.
    SmallVector<SmallVector<Operation *>> fusible;
    if (fuseBelowBytes > 0)
      fusible = fusibleCollectives(made, fuseBelowBytes);
    made.clear();
    for (Operation *op : llvm::reverse(original))
      if (!isa<func::ReturnOp>(op))
        op->erase();
    for (ArrayRef<Operation *> group : fusible) {
      collectivesOfKind(group.front()) -= int64_t(group.size()) - 1;
      fuseCollectives(group);
    }
    // Annotations are the pass's input; the layouts are in the types now.
    for (unsigned i = 0; i < function.getNumArguments(); ++i)
      function.removeArgAttr(i, kShardAnnotation);
    function.walk([](Operation *op) { op->removeAttr(kShardAnnotation); });
    return success();
  }
};

} // namespace

LogicalResult kiln::compiler::sharding::splitIntoMicroBatches(
    func::FuncOp function, int64_t microBatches, StringRef slices) {
  if (!function.getBody().hasOneBlock())
    return function.emitError("cannot split the batch of a function with "
                              "several blocks");
  Partitioner partitioner(function.getContext());
  partitioner.context.ranks = microBatches;
  partitioner.context.strategy = Strategy::kData;
  partitioner.microBatching = true;
  partitioner.slices = slices;
  if (failed(partitioner.partition(function)))
    return failure();
  for (BlockArgument argument : function.getArguments()) {
    auto slice = cast<SliceOp>(*argument.getUsers().begin());
    argument.setType(slice.getType());
    slice.replaceAllUsesWith(argument);
    slice.erase();
  }
  Operation *terminator = function.front().getTerminator();
  function.setType(FunctionType::get(function.getContext(),
                                     function.front().getArgumentTypes(),
                                     terminator->getOperandTypes()));
  return success();
}

namespace {

struct SplitBatchPass
    : kiln::compiler::impl::SplitBatchPassBase<SplitBatchPass> {
  using SplitBatchPassBase::SplitBatchPassBase;

  void runOnOperation() override {
    if (parts < 1) {
      getOperation().emitError("kiln-split-batch: parts must be at least 1, "
                               "not ")
          << int64_t(parts);
      return signalPassFailure();
    }
    if (parts == 1)
      return;
    for (auto function : getOperation().getOps<func::FuncOp>())
      if (!function.isExternal() &&
          failed(
              splitIntoMicroBatches(function, parts, "data-parallel replicas")))
        return signalPassFailure();
  }
};

struct ShardGraphPass
    : kiln::compiler::impl::ShardGraphPassBase<ShardGraphPass> {
  using ShardGraphPassBase::ShardGraphPassBase;

  /// The pass splits over the mesh axis named by its strategy: the
  /// module's kiln.mesh, if any, must have it with `ranks` devices, and
  /// an annotation over another axis cannot be honoured here.
  LogicalResult checkMesh(ModuleOp module) {
    std::string axis = strategy;
    for (auto mesh : module.getOps<MeshOp>()) {
      std::optional<int64_t> size = mesh.axisSize(axis);
      if (!size)
        return mesh.emitError("kiln-shard splits over mesh axis '")
               << axis << "', which @" << mesh.getSymName() << " does not have";
      if (*size != int64_t(ranks))
        return mesh.emitError("axis '")
               << axis << "' of @" << mesh.getSymName() << " has " << *size
               << " devices; kiln-shard splits over " << int64_t(ranks)
               << " ranks";
    }
    auto check = [&](ShardingAttr annotation, auto emitError) -> LogicalResult {
      if (!annotation || annotation.getAxis().empty() ||
          annotation.getAxis() == axis)
        return success();
      return emitError() << "'" << kShardAnnotation
                         << "' lays the value out over mesh axis '"
                         << annotation.getAxis()
                         << "', but kiln-shard splits over '" << axis << "'";
    };
    bool ok = true;
    for (auto function : module.getOps<func::FuncOp>()) {
      for (unsigned i = 0; i < function.getNumArguments(); ++i)
        ok &= succeeded(check(
            function.getArgAttrOfType<ShardingAttr>(i, kShardAnnotation),
            [&] { return function.emitError("argument ") << i << ": "; }));
      function.walk([&](Operation *op) {
        ok &= succeeded(check(op->getAttrOfType<ShardingAttr>(kShardAnnotation),
                              [&] { return op->emitError(); }));
      });
    }
    return success(ok);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (ranks < 1 || rank < 0 || rank >= ranks) {
      module.emitError("kiln-shard: rank ")
          << int64_t(rank) << " is not one of " << int64_t(ranks) << " ranks";
      return signalPassFailure();
    }
    if (strategy != "tensor" && strategy != "data" && strategy != "sequence") {
      module.emitError("kiln-shard: unknown strategy '")
          << std::string(strategy) << "' (tensor, sequence or data)";
      return signalPassFailure();
    }
    if (failed(checkMesh(module)))
      return signalPassFailure();
    Partitioner partitioner(&getContext());
    partitioner.context.ranks = ranks;
    partitioner.context.strategy = strategy == "data" ? Strategy::kData
                                   : strategy == "sequence"
                                       ? Strategy::kSequence
                                       : Strategy::kTensor;
    partitioner.rank = rank;
    partitioner.fuseBelowBytes = fuseCollectivesBelow;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      if (!function.getBody().hasOneBlock()) {
        function.emitError("cannot shard a function with several blocks");
        return signalPassFailure();
      }
      if (partitioner.context.strategy != Strategy::kData)
        splitFusedProjections(function, ranks);
      if (failed(partitioner.partition(function)))
        return signalPassFailure();
      foldWeightSlices(function);
    }
    Builder b(&getContext());
    module->setAttr(
        kiln::compiler::kShardingAttr,
        b.getDictionaryAttr(
            {b.getNamedAttr("ranks", b.getI64IntegerAttr(ranks)),
             b.getNamedAttr("rank", b.getI64IntegerAttr(rank)),
             b.getNamedAttr("strategy", b.getStringAttr(strategy)),
             b.getNamedAttr("all_reduces",
                            b.getI64IntegerAttr(partitioner.allReduces)),
             b.getNamedAttr("all_gathers",
                            b.getI64IntegerAttr(partitioner.allGathers)),
             b.getNamedAttr("reduce_scatters",
                            b.getI64IntegerAttr(partitioner.reduceScatters))}));
  }
};

} // namespace
