//===- TestPasses.h - Test-only passes for kiln-opt -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Passes that print analyses (as remarks) for lit tests. Linked into
// kiln-opt only, never into the compiler.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_LIB_TESTPASSES_H
#define KILN_TEST_LIB_TESTPASSES_H

namespace kiln::test {

/// Registers `kiln-test-print-buffer-liveness`.
void registerTestBufferLivenessPass();

/// Registers every test pass.
inline void registerTestPasses() { registerTestBufferLivenessPass(); }

} // namespace kiln::test

#endif // KILN_TEST_LIB_TESTPASSES_H
