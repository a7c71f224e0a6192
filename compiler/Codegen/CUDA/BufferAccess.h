//===- BufferAccess.h - Memrefs as (kernel argument, strided layout) -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// A CUDA kernel sees raw device pointers. After bufferisation and memory
// planning every memref the entry function touches is a static view of one
// of four roots: an input, an output, the planned arena (memref.view at a
// byte offset) or a constant (memref.get_global). This resolves a memref to
// its root and its static strided layout, and collects the constants into
// the blob the artifact carries.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CUDA_BUFFERACCESS_H
#define KILN_COMPILER_CODEGEN_CUDA_BUFFERACCESS_H

#include "kiln/runtime/Artifact.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/StringMap.h"

#include <vector>

namespace kiln::compiler::cuda {

/// Where a buffer lives, as the runtime names it.
struct BufferRoot {
  rt::KernelArg::Base base = rt::KernelArg::Base::kArena;
  uint32_t index = 0;
  uint64_t byteOffset = 0;
  uint64_t bytes = 0;

  bool operator==(const BufferRoot &other) const {
    return base == other.base && index == other.index &&
           byteOffset == other.byteOffset;
  }
};

/// A memref seen from a kernel: root pointer plus a static strided layout
/// in elements.
struct BufferAccess {
  BufferRoot root;
  mlir::Type elementType;
  int64_t offset = 0;
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<int64_t> strides;

  /// Row-major, no gaps (from any offset).
  bool isContiguous() const;
  /// Row-major, no gaps, from the root's first byte.
  bool isDenseFromStart() const { return offset == 0 && isContiguous(); }
  /// Number of elements it covers.
  int64_t elements() const;
  /// Index (in elements, from the root) of the last element it reaches.
  int64_t lastElement() const;
};

/// Collects the constants (memref.global initialisers) kernels read, each
/// 256-byte aligned in one blob.
class ConstantPool {
public:
  /// Offset of `global`'s data in the blob, adding it on first use.
  mlir::FailureOr<uint64_t> offsetOf(mlir::Operation *global);
  std::vector<uint8_t> take() { return std::move(bytes_); }

private:
  llvm::StringMap<uint64_t> offsets_;
  std::vector<uint8_t> bytes_;
};

/// Resolves memrefs of one lowered entry function: arguments are inputs,
/// then outputs, then the arena.
class BufferResolver {
public:
  BufferResolver(mlir::func::FuncOp entry, unsigned numInputs,
                 unsigned numOutputs, ConstantPool &constants)
      : entry_(entry), numInputs_(numInputs), numOutputs_(numOutputs),
        constants_(constants) {}

  /// Fails (with an error on the value's producer) for dynamic layouts or
  /// buffers that are not views of a root.
  mlir::FailureOr<BufferAccess> resolve(mlir::Value memref);

private:
  mlir::FailureOr<BufferRoot> resolveRoot(mlir::Value memref);

  mlir::func::FuncOp entry_;
  unsigned numInputs_;
  unsigned numOutputs_;
  ConstantPool &constants_;
  bool constantFailed_ = false;
};

/// Bytes of one element of `type` in device memory.
int64_t deviceElementBytes(mlir::Type type);

} // namespace kiln::compiler::cuda

#endif // KILN_COMPILER_CODEGEN_CUDA_BUFFERACCESS_H
