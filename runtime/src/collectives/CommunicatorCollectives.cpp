//===- CommunicatorCollectives.cpp - Collective steps on a communicator ---===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Bindings, as the compiler writes them (exec.collective's getStepBindings):
// send then recv for the four group collectives, the send binding alone
// for a send and the recv binding alone for a recv.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/CommunicatorCollectives.h"

#include <cstring>

namespace kiln::rt {

uint64_t CollectiveCounters::totalCalls() const {
  uint64_t total = 0;
  for (const Kind &kind : byKind)
    total += kind.calls;
  return total;
}

uint64_t CollectiveCounters::totalBytes() const {
  uint64_t total = 0;
  for (const Kind &kind : byKind)
    total += kind.bytes;
  return total;
}

const char *collectiveKindName(Step::CollectiveKind kind) {
  switch (kind) {
  case Step::CollectiveKind::kAllReduce:
    return "all_reduce";
  case Step::CollectiveKind::kAllGather:
    return "all_gather";
  case Step::CollectiveKind::kReduceScatter:
    return "reduce_scatter";
  case Step::CollectiveKind::kBroadcast:
    return "broadcast";
  case Step::CollectiveKind::kSend:
    return "send";
  case Step::CollectiveKind::kRecv:
    return "recv";
  }
  return "unknown";
}

namespace {

using Kind = Step::CollectiveKind;

/// What a valid step asks of the communicator.
struct Plan {
  Kind kind = Kind::kAllReduce;
  const KernelArg *send = nullptr;
  const KernelArg *recv = nullptr;
  size_t count = 0; ///< Elements (per rank for gather and scatter).
};

StatusOr<Plan> planStep(const Step &step, const std::string &where) {
  uint32_t kindValue = uint32_t(step.collective);
  if (kindValue < 1 || kindValue > 6)
    return invalidArgument(where + ": unknown collective kind " +
                           std::to_string(kindValue));
  Plan plan;
  plan.kind = step.collective;
  std::string name = where + " (" + collectiveKindName(plan.kind) + ")";
  uint64_t elementBytes = dtypeSize(step.element);
  if (elementBytes == 0)
    return invalidArgument(name + ": unknown element type " +
                           std::to_string(unsigned(step.element)));
  bool reducing =
      plan.kind == Kind::kAllReduce || plan.kind == Kind::kReduceScatter;
  if (reducing != (step.reduction != 0) || step.reduction > 4)
    return invalidArgument(
        name + (reducing ? " needs a reduction (1-4)" : " takes no reduction") +
        ", not " + std::to_string(step.reduction));
  if (step.ranks < 1)
    return invalidArgument(name + ": a group of no ranks");
  bool pointToPoint = plan.kind == Kind::kSend || plan.kind == Kind::kRecv;
  size_t bindings = pointToPoint ? 1 : 2;
  if (step.args.size() != bindings)
    return invalidArgument(name + ": " + std::to_string(step.args.size()) +
                           " bindings, not " + std::to_string(bindings));
  if (plan.kind != Kind::kRecv)
    plan.send = &step.args[0];
  if (plan.kind != Kind::kSend)
    plan.recv = &step.args[pointToPoint ? 0 : 1];
  if (plan.send && plan.send->access == KernelArg::Access::kWrite)
    return invalidArgument(name + ": the send binding is write-only");
  if (plan.recv && !plan.recv->writes())
    return invalidArgument(name + ": the recv binding is read-only");
  for (const KernelArg *binding : {plan.send, plan.recv})
    if (binding && binding->bytes % elementBytes != 0)
      return invalidArgument(
          name + ": binds " + std::to_string(binding->bytes) +
          " bytes, not a whole number of " + dtypeName(step.element));
  if ((pointToPoint || plan.kind == Kind::kBroadcast) &&
      step.peer >= step.ranks)
    return invalidArgument(name + ": peer " + std::to_string(step.peer) +
                           " is not a rank of " + std::to_string(step.ranks));
  if (plan.send && plan.recv) {
    uint64_t send = plan.send->bytes, recv = plan.recv->bytes;
    bool fits = plan.kind == Kind::kAllGather
                    ? recv % step.ranks == 0 && recv / step.ranks == send
                : plan.kind == Kind::kReduceScatter
                    ? send % step.ranks == 0 && send / step.ranks == recv
                    : recv == send;
    if (!fits)
      return invalidArgument(name + " over " + std::to_string(step.ranks) +
                             " ranks sends " + std::to_string(send) +
                             " bytes but receives " + std::to_string(recv));
  }
  uint64_t countBytes = plan.kind == Kind::kReduceScatter || !plan.send
                            ? plan.recv->bytes
                            : plan.send->bytes;
  plan.count = size_t(countBytes / elementBytes);
  return plan;
}

} // namespace

CommunicatorCollectives::CommunicatorCollectives(Communicator &world)
    : world_(world) {}

Status CommunicatorCollectives::addGroup(uint32_t id, Communicator &group) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (id == 0 || groups_.count(id))
    return invalidArgument("collective group " + std::to_string(id) +
                           (id == 0 ? " is the world" : " is already taken"));
  groups_[id] = &group;
  return Status::ok();
}

void CommunicatorCollectives::setGroupChooser(GroupChooser chooser) {
  std::lock_guard<std::mutex> lock(mutex_);
  chooser_ = std::move(chooser);
}

CollectiveCounters CommunicatorCollectives::counters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counters_;
}

void CommunicatorCollectives::resetCounters() {
  std::lock_guard<std::mutex> lock(mutex_);
  counters_ = CollectiveCounters();
}

Status CommunicatorCollectives::run(const StepEvent &event) {
  std::string where = "collective step #" + std::to_string(event.index);
  if (!event.step || event.step->kind != Step::Kind::kCollective ||
      !event.buffers)
    return invalidArgument(where + " is not a collective step with buffers");
  std::lock_guard<std::mutex> lock(mutex_);
  Communicator *comm = &world_;
  if (chooser_) {
    uint32_t id = chooser_(event);
    if (id != 0) {
      auto found = groups_.find(id);
      if (found == groups_.end())
        return invalidArgument(where + " runs on group " + std::to_string(id) +
                               ", which was never added");
      comm = found->second;
    }
  }
  return runOn(*comm, event);
}

Status CommunicatorCollectives::runOn(Communicator &comm,
                                      const StepEvent &event) {
  const Step &step = *event.step;
  std::string where = "collective step #" + std::to_string(event.index);
  StatusOr<Plan> planned = planStep(step, where);
  if (!planned.isOk())
    return planned.status();
  const Plan &plan = *planned;
  std::string name = where + " (" + collectiveKindName(plan.kind) + ")";
  bool pointToPoint = plan.kind == Kind::kSend || plan.kind == Kind::kRecv;
  if (step.ranks != 1 && int64_t(step.ranks) != comm.size())
    return Status(StatusCode::kFailedPrecondition,
                  name + " is for " + std::to_string(step.ranks) +
                      " ranks, its communicator has " +
                      std::to_string(comm.size()));
  if (pointToPoint && (step.ranks == 1 || int(step.peer) == comm.rank()))
    return invalidArgument(name + ": rank " + std::to_string(comm.rank()) +
                           " cannot " + collectiveKindName(plan.kind) +
                           " to itself");
  const uint8_t *send =
      plan.send ? event.buffers->address(*plan.send) : nullptr;
  uint8_t *recv = plan.recv ? event.buffers->address(*plan.recv) : nullptr;
  if ((plan.send && plan.send->bytes && !send) ||
      (plan.recv && plan.recv->bytes && !recv))
    return invalidArgument(name + ": a binding resolves to no buffer");

  DType dtype = step.element;
  ReduceOp op = ReduceOp(step.reduction);
  int peer = int(step.peer);
  Status status;
  if (step.ranks == 1) {
    // A group of one: every collective is a copy, or nothing in place.
    if (send != recv && plan.recv->bytes)
      std::memmove(recv, send, plan.recv->bytes);
  } else {
    switch (plan.kind) {
    case Kind::kAllReduce:
      status = comm.allReduce(send, recv, plan.count, dtype, op);
      break;
    case Kind::kAllGather:
      status = comm.allGather(send, recv, plan.count, dtype);
      break;
    case Kind::kReduceScatter:
      status = comm.reduceScatter(send, recv, plan.count, dtype, op);
      break;
    case Kind::kBroadcast:
      status = comm.broadcast(send, recv, plan.count, dtype, peer);
      break;
    case Kind::kSend:
      status = comm.send(send, plan.count, dtype, peer);
      break;
    case Kind::kRecv:
      status = comm.recv(recv, plan.count, dtype, peer);
      break;
    }
  }
  if (!status.isOk())
    return status.withContext(name);
  CollectiveCounters::Kind &counter = counters_.of(plan.kind);
  ++counter.calls;
  counter.bytes += plan.send ? plan.send->bytes : plan.recv->bytes;
  return Status::ok();
}

} // namespace kiln::rt
