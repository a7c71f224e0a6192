//===- InProcessGroup.h - Ranks as threads of one process --------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The communicator of tests and of `--ranks N` runs without MPI: N rank
// threads share one group state and read each other's buffers directly.
// Waiting is a short spin and then a condition variable, never a core kept
// busy.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_INPROCESSGROUP_H
#define KILN_RUNTIME_INPROCESSGROUP_H

#include "kiln/runtime/Communicator.h"

#include <memory>
#include <vector>

namespace kiln::rt {

class InProcessGroup {
public:
  /// `ranks` communicators of one group, element r for rank r: hand each
  /// to its own thread. kInvalidArgument unless 1 <= ranks <= 4096.
  static StatusOr<std::vector<std::unique_ptr<Communicator>>>
  create(int ranks, const CommunicatorOptions &options = {});
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_INPROCESSGROUP_H
