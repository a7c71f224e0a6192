//===- FakeNccl.h - NCCL on host memory, for tests --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// libkiln_fake_cuda.so also exports the NCCL entry points the runtime uses
// (runtime/src/collectives/nccl/NcclApi.h), on host memory: ranks are
// threads of the test, an operation completes when every rank of its
// communicator has enqueued it (the last one to arrive moves the data), and
// until then cuStreamQuery reports its stream busy, as a GPU would. Tests
// point KILN_NCCL_LIBRARY (and KILN_CUDA_DRIVER) at the library and steer
// it through kilnFakeNcclState().
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNIT_RUNTIME_FAKENCCL_H
#define KILN_TEST_UNIT_RUNTIME_FAKENCCL_H

#include <string>

struct FakeNcclState {
  int version = 22805; ///< What ncclGetVersion reports (2.28.5).

  // What the runtime did.
  int initAllCalls = 0, initRankCalls = 0, splitCalls = 0;
  int liveComms = 0, aborts = 0, destroys = 0;
  int completed = 0; ///< Collectives and point-to-point pairs done.

  /// ncclCommGetAsyncError reports this (once non-zero) on the ranks
  /// `asyncErrorRank` (-1: all) of every communicator.
  int asyncError = 0;
  int asyncErrorRank = -1;
  /// The next call of the entry point `failCall` returns `failResult`.
  std::string failCall;
  int failResult = 0;

  void reset() { *this = FakeNcclState(); }
};

extern "C" FakeNcclState *kilnFakeNcclState();

#endif // KILN_TEST_UNIT_RUNTIME_FAKENCCL_H
