// RUN: kiln-opt %s -canonicalize | FileCheck %s

// Regression test (was a bug): HardSigmoidOp::fold computes `std::max(0.0, std::min(1.0, a*x+b))`;
// std::min(1.0, NaN) returns 1.0, so hardsigmoid(NaN) folds to 1.0. The op is
// documented as `max(0, min(1, alpha * x + beta))`, and the dialect's min/max
// folders (and clip's folder) propagate NaN: the result must be NaN.

// CHECK-LABEL: func @hardsigmoid_nan
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[0x7FC00000, 5.000000e-01]> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @hardsigmoid_nan() -> tensor<2xf32> {
  %c = kiln.constant dense<[0x7FC00000, 0.0]> : tensor<2xf32>
  %0 = kiln.hardsigmoid %c alpha 0.2 beta 0.5 : tensor<2xf32>
  return %0 : tensor<2xf32>
}
