//===- NcclApi.h - The part of NCCL's C API Kiln calls ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Kiln never links libnccl (it is loaded with dlopen, like the CUDA
// driver), so it declares the ABI it uses here: the values and signatures
// of nccl.h from NCCL 2.18 on (NcclApiTest checks them against the
// toolkit's nccl.h where one is installed). The fake NCCL of the tests
// implements these same declarations.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SRC_COLLECTIVES_NCCL_NCCLAPI_H
#define KILN_RUNTIME_SRC_COLLECTIVES_NCCL_NCCLAPI_H

#include <cstddef>

namespace kiln::rt::nccl {

struct ncclComm;
using ncclComm_t = ncclComm *;
/// A cudaStream_t (the driver's CUstream: the same handle).
using cudaStream_t = void *;

using ncclResult_t = int;
inline constexpr ncclResult_t ncclSuccess = 0, ncclUnhandledCudaError = 1,
                              ncclSystemError = 2, ncclInternalError = 3,
                              ncclInvalidArgument = 4, ncclInvalidUsage = 5,
                              ncclRemoteError = 6, ncclInProgress = 7;

using ncclDataType_t = int;
inline constexpr ncclDataType_t ncclInt8 = 0, ncclUint8 = 1, ncclInt32 = 2,
                                ncclUint32 = 3, ncclInt64 = 4, ncclUint64 = 5,
                                ncclFloat16 = 6, ncclFloat32 = 7,
                                ncclFloat64 = 8, ncclBfloat16 = 9;

using ncclRedOp_t = int;
inline constexpr ncclRedOp_t ncclSum = 0, ncclProd = 1, ncclMax = 2,
                             ncclMin = 3;

inline constexpr int kNcclUniqueIdBytes = 128;
struct ncclUniqueId {
  char internal[kNcclUniqueIdBytes];
};

inline constexpr int kNcclSplitNoColor = -1;

/// ncclConfig_t is never passed: a null config means NCCL's defaults.
struct ncclConfig;

// The entry points that return ncclResult_t: X(name, parameters).
#define KILN_NCCL_FUNCTIONS(X)                                                 \
  X(ncclGetVersion, (int *version))                                            \
  X(ncclGetUniqueId, (ncclUniqueId * id))                                      \
  X(ncclCommInitRank,                                                          \
    (ncclComm_t * comm, int ranks, ncclUniqueId id, int rank))                 \
  X(ncclCommInitAll, (ncclComm_t * comms, int devices, const int *deviceList)) \
  X(ncclCommDestroy, (ncclComm_t comm))                                        \
  X(ncclCommAbort, (ncclComm_t comm))                                          \
  X(ncclCommSplit, (ncclComm_t comm, int color, int key, ncclComm_t *result,   \
                    ncclConfig *config))                                       \
  X(ncclCommGetAsyncError, (ncclComm_t comm, ncclResult_t * error))            \
  X(ncclAllReduce,                                                             \
    (const void *send, void *recv, size_t count, ncclDataType_t type,          \
     ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream))                    \
  X(ncclBroadcast,                                                             \
    (const void *send, void *recv, size_t count, ncclDataType_t type,          \
     int root, ncclComm_t comm, cudaStream_t stream))                          \
  X(ncclReduceScatter,                                                         \
    (const void *send, void *recv, size_t countPerRank, ncclDataType_t type,   \
     ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream))                    \
  X(ncclAllGather,                                                             \
    (const void *send, void *recv, size_t countPerRank, ncclDataType_t type,   \
     ncclComm_t comm, cudaStream_t stream))                                    \
  X(ncclSend, (const void *send, size_t count, ncclDataType_t type, int peer,  \
               ncclComm_t comm, cudaStream_t stream))                          \
  X(ncclRecv, (void *recv, size_t count, ncclDataType_t type, int peer,        \
               ncclComm_t comm, cudaStream_t stream))                          \
  X(ncclGroupStart, ())                                                        \
  X(ncclGroupEnd, ())

} // namespace kiln::rt::nccl

#endif // KILN_RUNTIME_SRC_COLLECTIVES_NCCL_NCCLAPI_H
