//===- NcclLibrary.h - NCCL, loaded with dlopen -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A build of Kiln works without NCCL: the library is opened on first use
// ($KILN_NCCL_LIBRARY, else libnccl.so.2 on the library search path) and
// its entry points resolved into a table, as the CUDA driver is.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_COLLECTIVES_NCCL_NCCLLIBRARY_H
#define KILN_RUNTIME_SRC_COLLECTIVES_NCCL_NCCLLIBRARY_H

#include "NcclApi.h"

#include "kiln/runtime/Status.h"

#include <string>

namespace kiln::rt::nccl {

/// The oldest NCCL Kiln uses: ncclCommSplit came in 2.18.
inline constexpr int kOldestSupportedNccl = 21800;

struct NcclLibrary {
  /// The process's NCCL, loaded once per path and never unloaded.
  /// kUnavailable when it cannot be opened, kUnimplemented naming the
  /// version when it is older than 2.18 or lacks an entry point.
  static StatusOr<const NcclLibrary *> get();

  /// "ncclRemoteError (remote process exited or there was a network
  /// error)", from ncclGetErrorString.
  std::string describe(ncclResult_t result) const;
  /// "`call` failed: ..." with a code by error class: kAborted for a
  /// remote error (a peer died), kUnavailable for a CUDA or system error,
  /// kInvalidArgument for invalid arguments or usage, kInternal otherwise.
  Status error(ncclResult_t result, const std::string &call) const;

  std::string path; ///< What was dlopen'ed.
  int version = 0;  ///< ncclGetVersion: 22805 for 2.28.5.

#define KILN_NCCL_POINTER(name, parameters)                                    \
  ncclResult_t(*name) parameters = nullptr;
  KILN_NCCL_FUNCTIONS(KILN_NCCL_POINTER)
#undef KILN_NCCL_POINTER
  const char *(*ncclGetErrorString)(ncclResult_t result) = nullptr;
};

/// "2.28.5" for ncclGetVersion's 22805.
std::string ncclVersionName(int version);

} // namespace kiln::rt::nccl

#endif // KILN_RUNTIME_SRC_COLLECTIVES_NCCL_NCCLLIBRARY_H
