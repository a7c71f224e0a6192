//===- TensorImport.h - ONNX tensors and types into MLIR --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_ONNX_TENSORIMPORT_H
#define KILN_FRONTEND_ONNX_TENSORIMPORT_H

#include "onnx.pb.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

#include <string>

namespace kiln::onnx {

/// The element type of ONNX data type `dataType`, or null (with an error at
/// `loc`) when Kiln does not support it.
mlir::Type importElementType(mlir::MLIRContext *context, int32_t dataType,
                             mlir::Location loc);

/// Whether `dataType` is a real ONNX data type that Kiln does not support
/// (a valid model Kiln cannot compile, rather than a malformed one).
bool isUnsupportedOnnxType(int32_t dataType);

/// Name of an ONNX data type for messages ("FLOAT", "UINT8", ...).
const char *onnxTypeName(int32_t dataType);

/// Converts a TensorProto (raw or typed data, or external data resolved
/// inside `modelFolder`) into a constant. Every size is checked against the
/// data actually present, so a hostile file cannot trigger a huge
/// allocation. Errors are emitted at `loc`.
mlir::FailureOr<mlir::DenseElementsAttr>
importTensor(const ::onnx::TensorProto &tensor, mlir::MLIRContext *context,
             const std::string &modelFolder, mlir::Location loc);

} // namespace kiln::onnx

#endif // KILN_FRONTEND_ONNX_TENSORIMPORT_H
