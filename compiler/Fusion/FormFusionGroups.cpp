//===- FormFusionGroups.cpp - Group graph ops into kiln.fusion ops --------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See Passes.td for the rules. Groups grow greedily in program order; a
// group is materialised where its first op was, which is legal because an op
// only joins a group when everything else it reads is defined before that
// first op.
//
//===----------------------------------------------------------------------===//

#include "compiler/Fusion/FusionRules.h"
#include "compiler/Fusion/Passes.h"

#include "dialects/Graph/IR/GraphOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "kiln-form-fusion-groups"

namespace kiln::compiler {
#define GEN_PASS_DEF_FORMFUSIONGROUPSPASS
#include "compiler/Fusion/Passes.h.inc"
} // namespace kiln::compiler

using namespace mlir;
using kiln::compiler::FusionRole;

namespace {

struct Group {
  SmallVector<Operation *> ops; // In program order.
  llvm::SmallPtrSet<Operation *, 8> members;
  /// The heaviest role in the group (elementwise < reduction/contraction).
  FusionRole anchor = FusionRole::kElementwise;

  Operation *first() const { return ops.front(); }
  void add(Operation *op, FusionRole role) {
    ops.push_back(op);
    members.insert(op);
    if (role != FusionRole::kElementwise)
      anchor = role;
  }
};

struct FormFusionGroupsPass
    : kiln::compiler::impl::FormFusionGroupsPassBase<FormFusionGroupsPass> {
  using FormFusionGroupsPassBase::FormFusionGroupsPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal() || !function.getBody().hasOneBlock())
      return;
    Block &body = function.getBody().front();
    DenseMap<Operation *, unsigned> position;
    for (auto [index, op] : llvm::enumerate(body))
      position[&op] = index;

    std::vector<std::unique_ptr<Group>> groups;
    DenseMap<Operation *, Group *> groupOf;
    for (Operation &op : body.without_terminator()) {
      FusionRole role = kiln::compiler::fusionRoleOf(&op);
      if (role == FusionRole::kNone || role == FusionRole::kConstant)
        continue;
      Group *chosen = nullptr;
      // A contraction takes no prologue: it always starts a group.
      if (role != FusionRole::kContraction)
        for (Value operand : op.getOperands()) {
          Group *group = groupOf.lookup(operand.getDefiningOp());
          if (group && canJoin(*group, op, role, position)) {
            chosen = group;
            break;
          }
        }
      if (!chosen)
        chosen = groups.emplace_back(std::make_unique<Group>()).get();
      chosen->add(&op, role);
      groupOf[&op] = chosen;
    }

    unsigned count = 0;
    for (const std::unique_ptr<Group> &group : groups)
      if (group->ops.size() > 1)
        materialize(*group, count++);
  }

  /// Whether `op` (of `role`) may join `group` without a second heavy op, a
  /// prologue before a contraction, or a cycle.
  static bool canJoin(const Group &group, Operation &op, FusionRole role,
                      const DenseMap<Operation *, unsigned> &position) {
    if (role == FusionRole::kReduction &&
        group.anchor != FusionRole::kElementwise)
      return false;
    unsigned start = position.lookup(group.first());
    for (Value operand : op.getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || group.members.contains(producer) ||
          kiln::compiler::fusionRoleOf(producer) == FusionRole::kConstant)
        continue;
      // Read from outside: it must not depend on the group.
      if (position.lookup(producer) > start)
        return false;
    }
    return true;
  }

  void materialize(Group &group, unsigned index) {
    llvm::SetVector<Value> inputs;
    llvm::SetVector<Value> results;
    SmallVector<Location> locations;
    for (Operation *op : group.ops) {
      locations.push_back(op->getLoc());
      for (Value operand : op->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (producer && (group.members.contains(producer) ||
                         isa<kiln::ConstantOp>(producer)))
          continue;
        inputs.insert(operand);
      }
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !group.members.contains(user);
            }))
          results.insert(result);
    }

    OpBuilder builder(group.first());
    Location loc = builder.getFusedLoc(locations);
    SmallVector<Type> resultTypes;
    for (Value result : results)
      resultTypes.push_back(result.getType());
    auto fusion =
        kiln::FusionOp::create(builder, loc, resultTypes, inputs.getArrayRef());
    fusion.setKindAttr(
        builder.getStringAttr(kiln::compiler::fusionKindName(group.anchor)));

    Block &block = fusion.getBodyBlock();
    IRMapping mapping;
    for (auto [input, argument] : llvm::zip(inputs, block.getArguments()))
      mapping.map(input, argument);
    OpBuilder inside = OpBuilder::atBlockEnd(&block);
    for (Operation *op : group.ops) {
      // Constants are duplicated into the group: the body is isolated.
      for (Value operand : op->getOperands())
        if (auto constant = operand.getDefiningOp<kiln::ConstantOp>())
          if (!mapping.contains(operand))
            inside.clone(*constant, mapping);
      inside.clone(*op, mapping);
    }
    SmallVector<Value> yielded;
    for (Value result : results)
      yielded.push_back(mapping.lookup(result));
    kiln::YieldOp::create(inside, loc, yielded);

    for (auto [index, result] : llvm::enumerate(results))
      Value(result).replaceUsesWithIf(
          fusion.getResult(index), [&](OpOperand &use) {
            return !group.members.contains(use.getOwner());
          });
    // A set: a constant several members read must be erased (and looked
    // at) once, or the second look reads a freed op.
    llvm::SetVector<Operation *> constants;
    for (Operation *op : llvm::reverse(group.ops)) {
      for (Value operand : op->getOperands())
        if (auto constant = operand.getDefiningOp<kiln::ConstantOp>())
          constants.insert(constant);
      op->erase();
    }
    for (Operation *constant : constants)
      if (constant->use_empty())
        constant->erase();

    if (remarks)
      fusion.emitRemark() << "fusion group " << index << " ("
                          << fusion.getKind().value_or("")
                          << "): " << group.ops.size() << " ops, "
                          << inputs.size() << " inputs, " << results.size()
                          << " results";
  }
};

} // namespace
