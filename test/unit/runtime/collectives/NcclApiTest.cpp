//===- NcclApiTest.cpp - Kiln's NCCL declarations against nccl.h ----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Built only where the CUDA toolkit's nccl.h is installed: Kiln declares
// NCCL's ABI itself (it never links libnccl), and a value that drifted
// from nccl.h would corrupt calls silently. This file does not compile if
// one does.
//
//===----------------------------------------------------------------------===//

#include "nccl/NcclApi.h"
#include "nccl/NcclLibrary.h"

#include <nccl.h>

#include <gtest/gtest.h>

#include <type_traits>

namespace kiln_nccl = kiln::rt::nccl;

static_assert(sizeof(::ncclUniqueId) == sizeof(kiln_nccl::ncclUniqueId));
static_assert(NCCL_UNIQUE_ID_BYTES == kiln_nccl::kNcclUniqueIdBytes);
static_assert(NCCL_SPLIT_NOCOLOR == kiln_nccl::kNcclSplitNoColor);
static_assert(sizeof(::ncclResult_t) == sizeof(kiln_nccl::ncclResult_t));
static_assert(sizeof(::ncclDataType_t) == sizeof(kiln_nccl::ncclDataType_t));
static_assert(sizeof(::ncclRedOp_t) == sizeof(kiln_nccl::ncclRedOp_t));
static_assert(sizeof(::cudaStream_t) == sizeof(kiln_nccl::cudaStream_t));

static_assert(::ncclSuccess == kiln_nccl::ncclSuccess);
static_assert(::ncclUnhandledCudaError == kiln_nccl::ncclUnhandledCudaError);
static_assert(::ncclSystemError == kiln_nccl::ncclSystemError);
static_assert(::ncclInternalError == kiln_nccl::ncclInternalError);
static_assert(::ncclInvalidArgument == kiln_nccl::ncclInvalidArgument);
static_assert(::ncclInvalidUsage == kiln_nccl::ncclInvalidUsage);
static_assert(::ncclRemoteError == kiln_nccl::ncclRemoteError);
static_assert(::ncclInProgress == kiln_nccl::ncclInProgress);

static_assert(::ncclInt8 == kiln_nccl::ncclInt8);
static_assert(::ncclUint8 == kiln_nccl::ncclUint8);
static_assert(::ncclInt32 == kiln_nccl::ncclInt32);
static_assert(::ncclUint32 == kiln_nccl::ncclUint32);
static_assert(::ncclInt64 == kiln_nccl::ncclInt64);
static_assert(::ncclUint64 == kiln_nccl::ncclUint64);
static_assert(::ncclFloat16 == kiln_nccl::ncclFloat16);
static_assert(::ncclFloat32 == kiln_nccl::ncclFloat32);
static_assert(::ncclFloat64 == kiln_nccl::ncclFloat64);
static_assert(::ncclBfloat16 == kiln_nccl::ncclBfloat16);

static_assert(::ncclSum == kiln_nccl::ncclSum);
static_assert(::ncclProd == kiln_nccl::ncclProd);
static_assert(::ncclMax == kiln_nccl::ncclMax);
static_assert(::ncclMin == kiln_nccl::ncclMin);

// Every entry point has nccl.h's arity (the types differ only as enums
// and opaque pointers of the same size do).
template <typename R, typename... A> constexpr size_t arity(R (*)(A...)) {
  return sizeof...(A);
}
#define KILN_NCCL_ARITY(name, parameters)                                      \
  static_assert(                                                               \
      arity(&::name) ==                                                        \
          arity(static_cast<kiln_nccl::ncclResult_t(*) parameters>(nullptr)),  \
      #name " takes another number of arguments in nccl.h");
namespace kiln::rt::nccl {
KILN_NCCL_FUNCTIONS(KILN_NCCL_ARITY)
} // namespace kiln::rt::nccl
#undef KILN_NCCL_ARITY

TEST(NcclApi, MatchesTheToolkitsHeader) {
  // The checks above are the test; this records that they were compiled.
  EXPECT_EQ(NCCL_MAJOR, 2);
  EXPECT_GE(NCCL_VERSION_CODE, kiln_nccl::kOldestSupportedNccl);
}
