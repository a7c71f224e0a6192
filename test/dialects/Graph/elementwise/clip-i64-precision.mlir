// RUN: kiln-opt %s -canonicalize | FileCheck %s

// Regression test (was a bug): ClipOp::fold evaluates integer clips in double precision
// (`static_cast<double>(v.getSExtValue())` and back), so i64 values beyond
// 2^53 lose their low bits: clip(9007199254740993, min 0) folds to
// 9007199254740992, and clip(INT64_MAX, min 0) rounds to 2^63, whose
// conversion back to int64_t is undefined (on x86 it folds to INT64_MIN,
// flipping the sign). Integer elements inside [min, max] must be returned
// unchanged.

// CHECK-LABEL: func @clip_i64_large_values
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[9007199254740993, 0, 9223372036854775807]> : tensor<3xi64>
// CHECK-NEXT: return %[[C]]
func.func @clip_i64_large_values() -> tensor<3xi64> {
  %c = kiln.constant dense<[9007199254740993, -9007199254740993, 9223372036854775807]> : tensor<3xi64>
  %0 = kiln.clip %c min 0.0 : tensor<3xi64>
  return %0 : tensor<3xi64>
}
