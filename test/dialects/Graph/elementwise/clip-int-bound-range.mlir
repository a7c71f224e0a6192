// RUN: kiln-opt %s -canonicalize | FileCheck %s

// Regression test (was a bug): ClipOp::fold builds the integer result with
// `APInt(bitWidth, static_cast<int64_t>(clipped), /*isSigned=*/true)`; when a
// bound lies outside the element type's range the value silently wraps (and
// would trip APInt's assertion in an assertions-enabled build).
// clip(i8 [-5, 0, 100], min 1000, max 2000) folds to dense<-24>: every element
// ends up *below* min. The fold must either saturate to the type's range
// (127) or not fold at all.

// CHECK-LABEL: func @clip_i8_bound_out_of_range
// CHECK-NOT: dense<-24>
// CHECK: {{kiln.clip|kiln.constant dense<127> : tensor<3xi8>}}
func.func @clip_i8_bound_out_of_range() -> tensor<3xi8> {
  %c = kiln.constant dense<[-5, 0, 100]> : tensor<3xi8>
  %0 = kiln.clip %c min 1000.0 max 2000.0 : tensor<3xi8>
  return %0 : tensor<3xi8>
}
