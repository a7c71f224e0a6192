// RUN: kiln-opt %s -kiln-assign-precision="precision=bf16 keep-fp32=mm" | FileCheck %s
// RUN: not kiln-opt %s -kiln-assign-precision="precision=bf16 keep-fp32=mm,nosuch" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not kiln-opt %s -kiln-assign-precision=precision=fp8 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// A kept node reads the weights as they are and is not rounded.
// CHECK-LABEL: func @mlp
// CHECK: %[[W:.*]] = kiln.constant dense<{{\[}}[1.001000e+00,
// CHECK: %[[MM:.*]] = kiln.matmul %{{.*}}, %[[W]]
// CHECK-NEXT: %[[RELU:.*]] = kiln.relu %[[MM]] : tensor<2x3xf32>
// CHECK-NEXT: %[[EXP:.*]] = kiln.exp %[[RELU]]
// CHECK-NEXT: kiln.cast %[[EXP]] : tensor<2x3xf32> -> tensor<2x3xbf16>
// A misspelt node would silently stay in low precision.
// MISSING: error: --keep-fp32: the model has no node named 'nosuch'
// UNKNOWN: error: unknown precision 'fp8' (expected bf16 or fp16)
func.func @mlp(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = kiln.constant dense<[[1.001, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]> : tensor<4x3xf32> loc("w")
  %m = kiln.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32> loc("mm")
  %r = kiln.relu %m : tensor<2x3xf32> loc("relu")
  %e = kiln.exp %r : tensor<2x3xf32> loc("exp")
  return %e : tensor<2x3xf32>
}
