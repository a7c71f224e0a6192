//===- MpiLoaderTest.cpp - Opening the MPI plugin fails cleanly -----------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/Communicator.h"

#include <gtest/gtest.h>

using namespace kiln::rt;

namespace {

TEST(MpiLoader, MissingPluginIsUnavailable) {
  auto world = openMpiCommunicator(CommunicatorOptions(),
                                   "/nonexistent/libmpi-plugin.so");
  ASSERT_FALSE(world.isOk());
  EXPECT_EQ(world.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(world.status().message().find("KILN_MPI_PLUGIN"), std::string::npos)
      << world.status().message();
}

TEST(MpiLoader, NotAPluginIsRefused) {
  // A shared library without the entry points: the C library.
  auto world = openMpiCommunicator(CommunicatorOptions(), "libc.so.6");
  ASSERT_FALSE(world.isOk());
  EXPECT_EQ(world.status().code(), StatusCode::kFailedPrecondition)
      << world.status().toString();
}

TEST(MpiLoader, RefusesANonPositiveTimeout) {
  CommunicatorOptions options;
  options.timeout = std::chrono::milliseconds(-1);
  EXPECT_EQ(openMpiCommunicator(options).status().code(),
            StatusCode::kInvalidArgument);
}

} // namespace
