//===- RankThreads.h - Run a function on every rank thread -------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNIT_RUNTIME_COLLECTIVES_RANKTHREADS_H
#define KILN_TEST_UNIT_RUNTIME_COLLECTIVES_RANKTHREADS_H

#include "kiln/runtime/InProcessGroup.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

namespace kiln::rt::test {

/// Options of the tests: fingerprints on, a timeout that a loaded machine
/// never reaches in a passing test.
inline CommunicatorOptions testOptions() {
  CommunicatorOptions options;
  options.checkFingerprints = true;
  options.timeout = std::chrono::milliseconds(20000);
  return options;
}

/// Runs `body(communicator)` on `ranks` threads of one in-process group.
inline void onEveryRank(int ranks, const CommunicatorOptions &options,
                        const std::function<void(Communicator &)> &body) {
  auto group = InProcessGroup::create(ranks, options);
  ASSERT_TRUE(group.isOk()) << group.status().toString();
  std::vector<std::thread> threads;
  for (auto &communicator : *group)
    threads.emplace_back([&body, &communicator] { body(*communicator); });
  for (std::thread &thread : threads)
    thread.join();
}

inline void onEveryRank(int ranks,
                        const std::function<void(Communicator &)> &body) {
  onEveryRank(ranks, testOptions(), body);
}

} // namespace kiln::rt::test

#endif // KILN_TEST_UNIT_RUNTIME_COLLECTIVES_RANKTHREADS_H
