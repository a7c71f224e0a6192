//===- CommunicateBufferization.h - exec.communicate on buffers -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_MEMORYPLANNING_COMMUNICATEBUFFERIZATION_H
#define KILN_COMPILER_MEMORYPLANNING_COMMUNICATEBUFFERIZATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kiln::compiler {

/// Lets one-shot bufferisation turn exec.communicate on tensors into the
/// same op on buffers, its init a buffer the memory plan places like any
/// loop nest's output.
void registerCommunicateBufferization(mlir::DialectRegistry &registry);

} // namespace kiln::compiler

#endif // KILN_COMPILER_MEMORYPLANNING_COMMUNICATEBUFFERIZATION_H
