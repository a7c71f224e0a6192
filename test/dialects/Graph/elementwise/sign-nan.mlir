// RUN: kiln-opt %s -canonicalize | FileCheck %s

// sign(NaN) is NaN, in the folder as in the CPU lowering (and NumPy);
// sign(-0.0) is 0.

// CHECK-LABEL: func @sign_nan
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[0x7FC00000, -1.000000e+00, 0.000000e+00, 1.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @sign_nan() -> tensor<4xf32> {
  %c = kiln.constant dense<[0x7FC00000, -3.0, -0.0, 2.0]> : tensor<4xf32>
  %0 = kiln.sign %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}
