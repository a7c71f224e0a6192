// RUN: kiln-opt %s -canonicalize | FileCheck %s

// Regression test (was a bug): ReluOp::fold evaluates `x > 0 ? x : 0.0`, so relu(NaN) folds to 0.0.
// relu is documented as `max(x, 0)`, and the dialect's own kiln.max folder
// propagates NaN (llvm::maximum), as do PyTorch/ONNX runtimes: relu(NaN)
// must stay NaN. Folding changes program results (NaN silently becomes 0).

// CHECK-LABEL: func @relu_nan
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[0x7FC00000, 0.000000e+00, 2.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: return %[[C]], %[[C]]
func.func @relu_nan() -> (tensor<3xf32>, tensor<3xf32>) {
  %c = kiln.constant dense<[0x7FC00000, -1.0, 2.0]> : tensor<3xf32>
  %0 = kiln.relu %c : tensor<3xf32>
  // The same computation written as max(x, 0) folds to NaN in lane 0.
  %z = kiln.constant dense<0.0> : tensor<f32>
  %1 = kiln.max %c, %z : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}
