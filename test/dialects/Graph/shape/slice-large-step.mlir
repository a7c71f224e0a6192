// RUN: kiln-opt %s -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=FOLD

// Regression test (was a bug): sliceLength() in TypeInference.cpp computes
// (limit - start + step - 1) / step (and the mirrored form for negative
// steps) in int64 without overflow checks. For a step close to INT64_MAX (or
// INT64_MIN) the sum wraps, and inferSlice infers 0 elements where Python
// semantics (len(range(0, 4, 2**63 - 1)) == 1) give 1; the correctly typed op
// is then rejected with "inferred type(s) 'tensor<0xf32>' are incompatible
// with return type(s) of operation 'tensor<1xf32>'" (and the signed overflow
// is undefined behaviour in C++).

// x[0:4:INT64_MAX] has one element, x[0].
// CHECK-LABEL: func.func @huge_positive_step
// CHECK: kiln.slice %{{.*}} starts [0] limits [4] steps [9223372036854775807] : tensor<4xf32> -> tensor<1xf32>
// FOLD-LABEL: func.func @huge_positive_step
// FOLD: kiln.constant dense<1.000000e+00> : tensor<1xf32>
func.func @huge_positive_step() -> tensor<1xf32> {
  %c = kiln.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = kiln.slice %c starts [0] limits [4] steps [9223372036854775807]
      : tensor<4xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

// x[3:-1:-INT64_MAX] has one element, x[3].
// CHECK-LABEL: func.func @huge_negative_step
// CHECK: kiln.slice %{{.*}} starts [3] limits [-1] steps [-9223372036854775807] : tensor<4xf32> -> tensor<1xf32>
// FOLD-LABEL: func.func @huge_negative_step
// FOLD: kiln.constant dense<4.000000e+00> : tensor<1xf32>
func.func @huge_negative_step() -> tensor<1xf32> {
  %c = kiln.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = kiln.slice %c starts [3] limits [-1] steps [-9223372036854775807]
      : tensor<4xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

// x[3:-1:INT64_MIN] has one element, x[3] (-step itself overflows here).
// CHECK-LABEL: func.func @int64_min_step
// CHECK: kiln.slice %{{.*}} starts [3] limits [-1] steps [-9223372036854775808] : tensor<4xf32> -> tensor<1xf32>
// FOLD-LABEL: func.func @int64_min_step
// FOLD: kiln.constant dense<4.000000e+00> : tensor<1xf32>
func.func @int64_min_step() -> tensor<1xf32> {
  %c = kiln.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = kiln.slice %c starts [3] limits [-1] steps [-9223372036854775808]
      : tensor<4xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
