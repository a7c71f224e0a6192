//===- QuantizedOperands.h - Helpers for imported quantized ops -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What kiln-fold-qdq and kiln-fold-integer-contractions share: reading
// constants that broadcast, and uint8 activations moved to int8 (the int8
// kernels take signed operands).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_GRAPHTRANSFORMS_QUANTIZEDOPERANDS_H
#define KILN_COMPILER_GRAPHTRANSFORMS_QUANTIZEDOPERANDS_H

#include "mlir/IR/Builders.h"

namespace kiln::compiler {

/// Element `index` of `shape` read from a tensor of `from`'s shape that
/// broadcasts to it (NumPy's rules: aligned on the right, size-1 axes
/// repeat).
int64_t broadcastIndex(llvm::ArrayRef<int64_t> shape,
                       llvm::ArrayRef<int64_t> from, int64_t index);

/// q - 128 as i8 for a ui8 tensor (exact in f32).
mlir::Value shiftToSigned(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value quantized);

} // namespace kiln::compiler

#endif // KILN_COMPILER_GRAPHTRANSFORMS_QUANTIZEDOPERANDS_H
