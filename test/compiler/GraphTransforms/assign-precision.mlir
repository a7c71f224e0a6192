// RUN: kiln-opt %s -kiln-assign-precision=precision=bf16 -split-input-file -verify-diagnostics | FileCheck %s
// RUN: kiln-opt %s -kiln-assign-precision=precision=fp16 -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=FP16

// A contraction reads its weights rounded to the low type (1.001 is 1.0 in
// bf16) and its input as given, accumulates in fp32 and rounds its result;
// the exact relu then runs on the rounded fp32 values, without a kernel of
// its own to widen them. exp is rounded too; softmax stays fp32 and its
// result is not rounded. The outputs keep their types.
// CHECK-LABEL: func @mlp
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: %[[W:.*]] = kiln.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]{{.*}}> : tensor<4x3xf32>
// CHECK: %[[MM:.*]] = kiln.matmul %[[X]], %[[W]] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[MMLOW:.*]] = kiln.cast %[[MM]] : tensor<2x3xf32> -> tensor<2x3xbf16>
// CHECK: %[[MMR:.*]] = kiln.cast %[[MMLOW]] : tensor<2x3xbf16> -> tensor<2x3xf32>
// CHECK: %[[RELU:.*]] = kiln.relu %[[MMR]] : tensor<2x3xf32>
// CHECK: %[[EXP:.*]] = kiln.exp %[[RELU]] : tensor<2x3xf32>
// CHECK: %[[EXPLOW:.*]] = kiln.cast %[[EXP]] : tensor<2x3xf32> -> tensor<2x3xbf16>
// CHECK: %[[EXPR:.*]] = kiln.cast %[[EXPLOW]] : tensor<2x3xbf16> -> tensor<2x3xf32>
// CHECK: %[[SM:.*]] = kiln.softmax %[[EXPR]] axis 1 : tensor<2x3xf32>
// CHECK-NOT: kiln.cast
// CHECK: return %[[SM]], %[[RELU]] : tensor<2x3xf32>, tensor<2x3xf32>

// FP16-LABEL: func @mlp
// FP16: kiln.matmul
// FP16: kiln.cast %{{.*}} : tensor<2x3xf32> -> tensor<2x3xf16>
// FP16: kiln.cast %{{.*}} : tensor<2x3xf16> -> tensor<2x3xf32>

func.func @mlp(%x: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %w = kiln.constant dense<[[1.001, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]> : tensor<4x3xf32> loc("w")
  %m = kiln.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32> loc("mm")
  %r = kiln.relu %m : tensor<2x3xf32> loc("relu")
  %e = kiln.exp %r : tensor<2x3xf32> loc("exp")
  %s = kiln.softmax %e axis 1 : tensor<2x3xf32> loc("sm")
  return %s, %r : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// An exact op reading rounded values, whose readers all take fp32 (as
// every kernel does today), runs on the rounded fp32 values; the constant
// it reads is converted at compile time, and the unused conversions are
// gone. Integer and f64 tensors are not touched.
// CHECK-LABEL: func @exact_ops
// CHECK-NOT: bf16
// CHECK: %[[C:.*]] = kiln.constant dense<1.500000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[A:.*]] = kiln.add
// CHECK-NEXT: %[[AL:.*]] = kiln.cast %[[A]] : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT: %[[AR:.*]] = kiln.cast %[[AL]] : tensor<2xbf16> -> tensor<2xf32>
// CHECK: %[[MAX:.*]] = kiln.max %[[AR]], %[[C]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[I:.*]] = kiln.add %{{.*}}, %{{.*}} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
// CHECK: %[[D:.*]] = kiln.add %{{.*}}, %{{.*}} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
// CHECK: return %[[MAX]], %[[I]], %[[D]]
func.func @exact_ops(%x: tensor<2xf32>, %i: tensor<2xi32>, %d: tensor<2xf64>) -> (tensor<2xf32>, tensor<2xi32>, tensor<2xf64>) {
  %c = kiln.constant dense<1.5> : tensor<2xf32>
  %a = kiln.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %m = kiln.max %a, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %j = kiln.add %i, %i : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %e = kiln.add %d, %d : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  return %m, %j, %e : tensor<2xf32>, tensor<2xi32>, tensor<2xf64>
}

