//===- CommunicatorCollectives.h - Collective steps on a communicator -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The CollectivesHook a multi-rank run passes in RunOptions: it checks an
// exec collective step against the size rules of exec.collective, resolves
// its bindings and calls the communicator, counting calls and bytes per
// kind (the counters a run's statistics compare with the compiler's list
// of collectives).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_COMMUNICATORCOLLECTIVES_H
#define KILN_RUNTIME_COMMUNICATORCOLLECTIVES_H

#include "kiln/runtime/Communicator.h"
#include "kiln/runtime/StepHooks.h"

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace kiln::rt {

/// Collective steps run, per kind. `bytes` counts each step's send
/// binding (its recv binding for a recv): what this rank contributes.
struct CollectiveCounters {
  struct Kind {
    uint64_t calls = 0;
    uint64_t bytes = 0;
  };
  /// Indexed by Step::CollectiveKind (1 all_reduce ... 6 recv); 0 unused.
  Kind byKind[7];

  Kind &of(Step::CollectiveKind kind) { return byKind[uint32_t(kind)]; }
  const Kind &of(Step::CollectiveKind kind) const {
    return byKind[uint32_t(kind)];
  }
  uint64_t totalCalls() const;
  uint64_t totalBytes() const;
};

/// exec's spelling of a collective kind: "all_reduce", ..., "recv".
const char *collectiveKindName(Step::CollectiveKind kind);

/// Runs collective steps on communicators. Thread-safe: steps run one at a
/// time, in the order they arrive; a program's collectives must reach it
/// in the same order on every rank (chain them with `after`), which the
/// fingerprints check.
class CommunicatorCollectives : public CollectivesHook {
public:
  /// Picks the group of a step: 0 is the world; other ids are registered
  /// with addGroup (sub-communicators made once with split).
  using GroupChooser = std::function<uint32_t(const StepEvent &)>;

  /// `world` must outlive this hook.
  explicit CommunicatorCollectives(Communicator &world);

  /// Registers `group` (not owned) under `id` != 0.
  Status addGroup(uint32_t id, Communicator &group);
  /// Replaces the default chooser (every step on the world).
  void setGroupChooser(GroupChooser chooser);

  /// Checks `event.step` (kInvalidArgument naming the step index for a
  /// malformed one, kFailedPrecondition when its rank count is not the
  /// group's) and runs it. A step over a group of one rank is a local
  /// copy. Communicator errors come back with the step index in front.
  Status run(const StepEvent &event) override;

  CollectiveCounters counters() const;
  void resetCounters();

private:
  Status runOn(Communicator &comm, const StepEvent &event);

  Communicator &world_;
  std::map<uint32_t, Communicator *> groups_;
  GroupChooser chooser_;
  mutable std::mutex mutex_;
  CollectiveCounters counters_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_COMMUNICATORCOLLECTIVES_H
