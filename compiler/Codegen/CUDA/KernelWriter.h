//===- KernelWriter.h - State of one CUDA kernel being printed --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Private to compiler/Codegen/CUDA: the printer behind emitKernel(), shared
// by the kernel shapes' files (KernelEmitter.cpp for elementwise and
// reduction kernels, ContractionKernel.cpp for GEMM-like ones).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CODEGEN_CUDA_KERNELWRITER_H
#define KILN_COMPILER_CODEGEN_CUDA_KERNELWRITER_H

#include "compiler/Codegen/CUDA/KernelEmitter.h"
#include "compiler/Codegen/CUDA/ScalarCode.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace kiln::compiler::cuda {

using mlir::ArrayRef;
using mlir::FailureOr;
using mlir::LogicalResult;
using mlir::Operation;
using mlir::SmallVector;
using mlir::SmallVectorImpl;
using mlir::Type;
using mlir::Value;

constexpr int64_t kThreads = 256;
constexpr int64_t kMaxBlocks = 65535;
constexpr int64_t kTile = 64;        // contraction output tile (kTile x kTile)
constexpr int64_t kTileK = 16;       // SIMT contraction K step
constexpr int64_t kTensorTileK = 32; // tensor-core contraction K step

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline uint32_t blocksFor(int64_t work, int64_t perBlock) {
  return uint32_t(std::clamp<int64_t>(ceilDiv(work, perBlock), 1, kMaxBlocks));
}

/// The loops of a contraction kernel. M, N and K may each span several
/// loops, taken flattened (an im2col convolution's N is batch x pixels);
/// batch loops index all three operands and become grid.z.
struct ContractionLoops {
  SmallVector<unsigned> m, n, k, batch;
  int64_t rows = 1, cols = 1, depth = 1; ///< Flattened M, N, K.
  unsigned a = 0, b = 1; ///< The inputs running along M and along N.
};

/// The tensor-core instruction family a contraction can use.
enum class MmaKind { kNone, kTf32x3, kF16, kBf16, kInt8 };

/// A buffer operand (or a buffer a body loads from) of the kernel.
struct Operand {
  BufferAccess access;
  std::string pointer; ///< Typed pointer variable in the kernel.
  std::string scalar;  ///< For scalar operands: their literal.
};

/// Shared state of one kernel being printed.
class KernelWriter {
public:
  KernelWriter(mlir::linalg::GenericOp op, const KernelRequest &request,
               BufferResolver &buffers)
      : op_(op), request_(request), buffers_(buffers) {}

  LogicalResult prepare();
  FailureOr<EmittedKernel> emit();

private:
  // Kernel kinds.
  LogicalResult emitElementwise(bool vectorised);
  LogicalResult emitContraction(const ContractionLoops &loops);
  LogicalResult emitTensorCoreContraction(const ContractionLoops &loops,
                                          MmaKind mma);
  /// The loops of a contraction this kernel can tile, if it is one.
  std::optional<ContractionLoops> contractionLoops() const;
  /// Sets the launch shape of a contraction kernel; the request's epilogue
  /// (kiln-form-kernels checked that it may) runs in its store.
  void beginContraction(const ContractionLoops &loops, KernelKind kind);
  /// Stores the contraction's result `value` (compute type) at the output
  /// point `names` gives, through the epilogue when one was fused.
  LogicalResult storeResult(llvm::raw_ostream &os, const std::string &indent,
                            const std::string &value,
                            ArrayRef<std::string> names);
  /// The type of a and b when the body is `out + a * b` on floats (a and
  /// b alike), else null.
  mlir::Type mulAddOperandType(const ContractionLoops &loops) const;
  /// Tensor cores apply when the body is `out + a * b` on like floats, or
  /// int8 products summed in i32.
  MmaKind mmaKindOf(const ContractionLoops &loops) const;
  /// The contraction as a (batched) GEMM a BLAS library can run instead
  /// (GemmCallOf.cpp): every operand's loops collapse to one stride per
  /// GEMM dimension, a, b and out share an f32/f16/bf16 type, and no
  /// epilogue was fused. Argument indices are the kernel's parameters.
  std::optional<rt::GemmCall> gemmCallOf(const ContractionLoops &loops) const;
  /// Declarations of `loops`' indices (named as in `names`) from `flat`,
  /// their row-major linearisation; sets `names` for them.
  std::string unflatten(const std::string &indent, const std::string &flat,
                        ArrayRef<unsigned> loops,
                        SmallVectorImpl<std::string> &names) const;
  /// Loads of one shared-memory tile: `count` elements, `count / 256` per
  /// thread, zero outside the operand. `split` declares the tile
  /// coordinates from `e`, `position` the flat M/N/K indices (each of
  /// `flats` names one and its loops), `inside` tests them. `keepStorage`
  /// stores the element type (f16 stays f16), else the compute type.
  std::string
  tileLoad(const std::string &indent, const std::string &slot,
           const std::string &split, const std::string &position,
           const std::string &inside, unsigned operand, int64_t count,
           bool keepStorage,
           ArrayRef<std::pair<std::string, ArrayRef<unsigned>>> flats,
           SmallVectorImpl<std::string> &names);
  LogicalResult emitLaneReduction(bool wholeBlock);
  LogicalResult emitSerialReduction();

  // Pieces.
  FailureOr<Operand> operandFor(Value memref);
  std::string address(const BufferAccess &access, mlir::AffineMap map,
                      ArrayRef<std::string> dims) const;
  std::string loadCall(Value memref, ArrayRef<std::string> indices);
  /// A printer for the body at one point: loop indices bound to `dims`,
  /// memref.load through loadCall.
  ScalarCode bodyCode(llvm::raw_ostream &os, const std::string &indent,
                      const std::string &prefix, ArrayRef<std::string> dims);
  /// Binds the body's argument for operand `i` at `dims`: its literal for
  /// a scalar, else a load into `in<i><suffix>` (nothing if unused).
  void bindOperand(llvm::raw_ostream &os, const std::string &indent,
                   ScalarCode &code, unsigned i, ArrayRef<std::string> dims,
                   const std::string &suffix = "");
  void decompose(llvm::raw_ostream &os, const std::string &indent,
                 const std::string &flat, ArrayRef<unsigned> loops,
                 SmallVectorImpl<std::string> &dims,
                 const std::string &suffix = "");
  bool isVectorisable(unsigned operand) const;
  int64_t product(ArrayRef<unsigned> loops) const;
  /// The single combiner of a reduction body, if it has one.
  Operation *findCombiner() const;
  std::string initOf(unsigned output, ArrayRef<std::string> dims);

  mutable mlir::linalg::GenericOp op_;
  const KernelRequest &request_;
  BufferResolver &buffers_;
  SmallVector<int64_t> ranges_;
  SmallVector<unsigned> parallel_, reduction_;
  SmallVector<Operand> operands_;
  std::string idx_ = "long long";
  std::string declarations_;
  std::string body_;
  EmittedKernel kernel_;
  /// The request's epilogue runs in this kernel's store.
  bool epilogue_ = false;
  llvm::DenseMap<std::pair<unsigned, Type>, std::string> pointers_;
};

} // namespace kiln::compiler::cuda

#endif // KILN_COMPILER_CODEGEN_CUDA_KERNELWRITER_H
