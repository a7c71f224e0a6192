//===- FaultInjection.cpp - Test-only faults in collectives ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FaultInjection.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unistd.h>

namespace kiln::rt {

namespace {

enum class Action { kFail, kHang, kExit };

class FaultInjectingCollectives : public CollectivesHook {
public:
  FaultInjectingCollectives(CollectivesHook &inner, uint64_t target,
                            Action action, unsigned hangMs)
      : inner_(inner), target_(target), action_(action), hangMs_(hangMs) {}

  Status run(const StepEvent &event) override {
    if (seen_++ == target_) {
      switch (action_) {
      case Action::kFail:
        return internalError("injected fault at collective #" +
                             std::to_string(target_) + " (step #" +
                             std::to_string(event.index) + ")");
      case Action::kExit:
        std::fflush(nullptr);
        _exit(3);
      case Action::kHang:
        std::this_thread::sleep_for(std::chrono::milliseconds(hangMs_));
        break;
      }
    }
    return inner_.run(event);
  }

private:
  CollectivesHook &inner_;
  uint64_t target_;
  Action action_;
  unsigned hangMs_;
  std::atomic<uint64_t> seen_{0};
};

} // namespace

StatusOr<CollectivesWrapper> faultInjectionFromEnvironment(unsigned timeoutMs) {
  const char *spec = std::getenv("KILN_TEST_COLLECTIVE_FAULT");
  if (!spec || !*spec)
    return CollectivesWrapper();
  unsigned long rank = 0, index = 0;
  char action[8] = {};
  if (std::sscanf(spec, "%lu:%lu:%7s", &rank, &index, action) != 3)
    return invalidArgument(std::string("KILN_TEST_COLLECTIVE_FAULT='") + spec +
                           "': expected RANK:INDEX:fail|hang|exit");
  std::string name = action;
  Action chosen;
  if (name == "fail")
    chosen = Action::kFail;
  else if (name == "hang")
    chosen = Action::kHang;
  else if (name == "exit")
    chosen = Action::kExit;
  else
    return invalidArgument("KILN_TEST_COLLECTIVE_FAULT: unknown action '" +
                           name + "' (fail, hang or exit)");
  unsigned hangMs = timeoutMs * 4;
  return CollectivesWrapper(
      [=](size_t atRank,
          CollectivesHook &inner) -> std::unique_ptr<CollectivesHook> {
        if (atRank != rank)
          return nullptr;
        return std::make_unique<FaultInjectingCollectives>(inner, index, chosen,
                                                           hangMs);
      });
}

} // namespace kiln::rt
