// RUN: kiln-opt %s -canonicalize="test-convergence" -split-input-file | FileCheck %s

// Folders of the elementwise ops: constant evaluation and identities.

//===----------------------------------------------------------------------===//
// Unary constant folding
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @fold_exp_splat
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<1.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_exp_splat() -> tensor<2x2xf32> {
  %c = kiln.constant dense<0.0> : tensor<2x2xf32>
  %0 = kiln.exp %c : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func @fold_exp_bf16
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[2.718750e+00, 1.000000e+00]> : tensor<2xbf16>
// CHECK-NEXT: return %[[C]]
func.func @fold_exp_bf16() -> tensor<2xbf16> {
  %c = kiln.constant dense<[1.0, 0.0]> : tensor<2xbf16>
  %0 = kiln.exp %c : tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// -----

// CHECK-LABEL: func @fold_log_sqrt_rsqrt_reciprocal
// CHECK-DAG: %[[LOG:.*]] = kiln.constant dense<[0.000000e+00, 0xFF800000]> : tensor<2xf32>
// CHECK-DAG: %[[SQRT:.*]] = kiln.constant dense<[2.000000e+00, 3.000000e+00, 5.000000e-01]> : tensor<3xf32>
// CHECK-DAG: %[[RSQRT:.*]] = kiln.constant dense<5.000000e-01> : tensor<4xf16>
// CHECK-DAG: %[[RECIP:.*]] = kiln.constant dense<[2.500000e-01, -2.000000e+00, 0x7F800000]> : tensor<3xf32>
// CHECK: return %[[LOG]], %[[SQRT]], %[[RSQRT]], %[[RECIP]]
func.func @fold_log_sqrt_rsqrt_reciprocal()
    -> (tensor<2xf32>, tensor<3xf32>, tensor<4xf16>, tensor<3xf32>) {
  %a = kiln.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %0 = kiln.log %a : tensor<2xf32>
  %b = kiln.constant dense<[4.0, 9.0, 0.25]> : tensor<3xf32>
  %1 = kiln.sqrt %b : tensor<3xf32>
  %c = kiln.constant dense<4.0> : tensor<4xf16>
  %2 = kiln.rsqrt %c : tensor<4xf16>
  %d = kiln.constant dense<[4.0, -0.5, 0.0]> : tensor<3xf32>
  %3 = kiln.reciprocal %d : tensor<3xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<3xf32>, tensor<4xf16>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func @fold_transcendental_at_zero
// CHECK-DAG: %[[ZERO:.*]] = kiln.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-DAG: %[[HALF:.*]] = kiln.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK-DAG: %[[ONE:.*]] = kiln.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK: return %[[ZERO]], %[[HALF]], %[[ZERO]], %[[ZERO]], %[[ONE]]
func.func @fold_transcendental_at_zero()
    -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %c = kiln.constant dense<0.0> : tensor<3xf32>
  %0 = kiln.tanh %c : tensor<3xf32>
  %1 = kiln.sigmoid %c : tensor<3xf32>
  %2 = kiln.erf %c : tensor<3xf32>
  %3 = kiln.sin %c : tensor<3xf32>
  %4 = kiln.cos %c : tensor<3xf32>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func @fold_floor_ceil
// CHECK-DAG: %[[FLOOR:.*]] = kiln.constant dense<[-2.000000e+00, 1.000000e+00, 3.000000e+00]> : tensor<3xf16>
// CHECK-DAG: %[[CEIL:.*]] = kiln.constant dense<[-1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf16>
// CHECK: return %[[FLOOR]], %[[CEIL]]
func.func @fold_floor_ceil() -> (tensor<3xf16>, tensor<3xf16>) {
  %c = kiln.constant dense<[-1.5, 1.5, 3.0]> : tensor<3xf16>
  %0 = kiln.floor %c : tensor<3xf16>
  %1 = kiln.ceil %c : tensor<3xf16>
  return %0, %1 : tensor<3xf16>, tensor<3xf16>
}

// -----

// CHECK-LABEL: func @fold_neg_abs_sign_relu_float
// CHECK-DAG: %[[NEG:.*]] = kiln.constant dense<[-1.000000e+00, 2.000000e+00, -0.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[ABS:.*]] = kiln.constant dense<[1.000000e+00, 2.000000e+00, 0.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[SIGN:.*]] = kiln.constant dense<[1.000000e+00, -1.000000e+00, 0.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[RELU:.*]] = kiln.constant dense<[1.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<3xf32>
// CHECK: return %[[NEG]], %[[ABS]], %[[SIGN]], %[[RELU]]
func.func @fold_neg_abs_sign_relu_float()
    -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %c = kiln.constant dense<[1.0, -2.0, 0.0]> : tensor<3xf32>
  %0 = kiln.neg %c : tensor<3xf32>
  %1 = kiln.abs %c : tensor<3xf32>
  %2 = kiln.sign %c : tensor<3xf32>
  %3 = kiln.relu %c : tensor<3xf32>
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Integer negation and absolute value wrap on the minimum value.
// CHECK-LABEL: func @fold_neg_abs_sign_relu_int
// CHECK-DAG: %[[NEG:.*]] = kiln.constant dense<[-5, 3, 0, -128]> : tensor<4xi8>
// CHECK-DAG: %[[ABS:.*]] = kiln.constant dense<[5, 3, 0, -128]> : tensor<4xi8>
// CHECK-DAG: %[[SIGN:.*]] = kiln.constant dense<[1, -1, 0, -1]> : tensor<4xi8>
// CHECK-DAG: %[[RELU:.*]] = kiln.constant dense<[5, 0, 0, 0]> : tensor<4xi8>
// CHECK: return %[[NEG]], %[[ABS]], %[[SIGN]], %[[RELU]]
func.func @fold_neg_abs_sign_relu_int()
    -> (tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>) {
  %c = kiln.constant dense<[5, -3, 0, -128]> : tensor<4xi8>
  %0 = kiln.neg %c : tensor<4xi8>
  %1 = kiln.abs %c : tensor<4xi8>
  %2 = kiln.sign %c : tensor<4xi8>
  %3 = kiln.relu %c : tensor<4xi8>
  return %0, %1, %2, %3 : tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func @fold_sign_relu_i64_splat
// CHECK-DAG: %[[SIGN:.*]] = kiln.constant dense<-1> : tensor<2x2xi64>
// CHECK-DAG: %[[RELU:.*]] = kiln.constant dense<0> : tensor<2x2xi64>
// CHECK: return %[[SIGN]], %[[RELU]]
func.func @fold_sign_relu_i64_splat() -> (tensor<2x2xi64>, tensor<2x2xi64>) {
  %c = kiln.constant dense<-7> : tensor<2x2xi64>
  %0 = kiln.sign %c : tensor<2x2xi64>
  %1 = kiln.relu %c : tensor<2x2xi64>
  return %0, %1 : tensor<2x2xi64>, tensor<2x2xi64>
}

// -----

// CHECK-LABEL: func @fold_gelu
// CHECK-DAG: %[[EXACT:.*]] = kiln.constant dense<[0.000000e+00, 0.841344773]> : tensor<2xf32>
// CHECK-DAG: %[[TANH:.*]] = kiln.constant dense<[0.000000e+00, 8.411920e-01]> : tensor<2xf32>
// CHECK: return %[[EXACT]], %[[TANH]]
func.func @fold_gelu() -> (tensor<2xf32>, tensor<2xf32>) {
  %c = kiln.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = kiln.gelu %c : tensor<2xf32>
  %1 = kiln.gelu %c approximate tanh : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @fold_hardsigmoid_hardswish_leaky_relu
// CHECK-DAG: %[[HSIG:.*]] = kiln.constant dense<[0.000000e+00, 5.000000e-01, 1.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[HSWISH:.*]] = kiln.constant dense<[-0.000000e+00, 0.000000e+00, 4.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[LEAKY:.*]] = kiln.constant dense<[-4.000000e-01, 0.000000e+00, 4.000000e+00]> : tensor<3xf32>
// CHECK: return %[[HSIG]], %[[HSWISH]], %[[LEAKY]]
func.func @fold_hardsigmoid_hardswish_leaky_relu()
    -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %c = kiln.constant dense<[-4.0, 0.0, 4.0]> : tensor<3xf32>
  %0 = kiln.hardsigmoid %c alpha 0.2 beta 0.5 : tensor<3xf32>
  %1 = kiln.hardswish %c : tensor<3xf32>
  %2 = kiln.leaky_relu %c alpha 0.1 : tensor<3xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Clip keeps NaN and clamps everything else.
// CHECK-LABEL: func @fold_clip
// CHECK-DAG: %[[F:.*]] = kiln.constant dense<[0.000000e+00, 3.000000e+00, 6.000000e+00, 0x7FC00000]> : tensor<4xf32>
// CHECK-DAG: %[[I:.*]] = kiln.constant dense<[-5, 3, 6]> : tensor<3xi8>
// CHECK: return %[[F]], %[[I]]
func.func @fold_clip() -> (tensor<4xf32>, tensor<3xi8>) {
  %f = kiln.constant dense<[-1.0, 3.0, 8.0, 0x7FC00000]> : tensor<4xf32>
  %0 = kiln.clip %f min 0.0 max 6.0 : tensor<4xf32>
  %i = kiln.constant dense<[-5, 3, 100]> : tensor<3xi8>
  %1 = kiln.clip %i max 6.0 : tensor<3xi8>
  return %0, %1 : tensor<4xf32>, tensor<3xi8>
}

// -----

// CHECK-LABEL: func @fold_not
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[false, true]> : tensor<2xi1>
// CHECK-NEXT: return %[[C]]
func.func @fold_not() -> tensor<2xi1> {
  %c = kiln.constant dense<[true, false]> : tensor<2xi1>
  %0 = kiln.not %c : tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

// Non-constant operands are left alone.
// CHECK-LABEL: func @no_fold_unary_of_argument
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[E:.*]] = kiln.exp %[[X]]
// CHECK-NEXT: %[[N:.*]] = kiln.neg %[[E]]
// CHECK-NEXT: return %[[N]]
func.func @no_fold_unary_of_argument(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.exp %x : tensor<4xf32>
  %1 = kiln.neg %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Ops are pure: unused ones disappear.
// CHECK-LABEL: func @erase_unused
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @erase_unused(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.exp %x : tensor<4xf32>
  %1 = kiln.add %x, %0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Binary constant folding
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func @fold_add_broadcast
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<{{\[}}[1.100000e+01, 2.200000e+01, 3.300000e+01], [1.400000e+01, 2.500000e+01, 3.600000e+01]]> : tensor<2x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_add_broadcast() -> tensor<2x3xf32> {
  %a = kiln.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = kiln.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %0 = kiln.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Both operands broadcast: [2, 1] against [3].
// CHECK-LABEL: func @fold_mul_outer_broadcast_int
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<{{\[}}[2, 3, 4], [-6, -9, -12]]> : tensor<2x3xi32>
// CHECK-NEXT: return %[[C]]
func.func @fold_mul_outer_broadcast_int() -> tensor<2x3xi32> {
  %a = kiln.constant dense<[[1], [-3]]> : tensor<2x1xi32>
  %b = kiln.constant dense<[2, 3, 4]> : tensor<3xi32>
  %0 = kiln.mul %a, %b : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// A splat scalar broadcast against a non-splat tensor.
// CHECK-LABEL: func @fold_sub_scalar_broadcast
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<{{\[}}[1.000000e+00, 0.000000e+00], [-1.000000e+00, -2.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_sub_scalar_broadcast() -> tensor<2x2xf32> {
  %s = kiln.constant dense<2.0> : tensor<f32>
  %a = kiln.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = kiln.sub %s, %a : (tensor<f32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Two splats of different shapes fold to a splat of the broadcast shape.
// CHECK-LABEL: func @fold_add_splats_broadcast
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<5> : tensor<2x3xi64>
// CHECK-NEXT: return %[[C]]
func.func @fold_add_splats_broadcast() -> tensor<2x3xi64> {
  %a = kiln.constant dense<2> : tensor<2x1xi64>
  %b = kiln.constant dense<3> : tensor<3xi64>
  %0 = kiln.add %a, %b : (tensor<2x1xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// Float arithmetic is done in the element type: 2048 + 1 rounds to 2048 in
// f16.
// CHECK-LABEL: func @fold_add_f16_rounding
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<2.048000e+03> : tensor<2xf16>
// CHECK-NEXT: return %[[C]]
func.func @fold_add_f16_rounding() -> tensor<2xf16> {
  %a = kiln.constant dense<2048.0> : tensor<2xf16>
  %b = kiln.constant dense<1.0> : tensor<2xf16>
  %0 = kiln.add %a, %b : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

// Integer arithmetic wraps.
// CHECK-LABEL: func @fold_int_add_sub_wrap
// CHECK-DAG: %[[ADD:.*]] = kiln.constant dense<[-128, 2]> : tensor<2xi8>
// CHECK-DAG: %[[SUB:.*]] = kiln.constant dense<[126, 0]> : tensor<2xi8>
// CHECK: return %[[ADD]], %[[SUB]]
func.func @fold_int_add_sub_wrap() -> (tensor<2xi8>, tensor<2xi8>) {
  %a = kiln.constant dense<[127, 1]> : tensor<2xi8>
  %b = kiln.constant dense<1> : tensor<2xi8>
  %0 = kiln.add %a, %b : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  %1 = kiln.sub %a, %b : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  return %0, %1 : tensor<2xi8>, tensor<2xi8>
}

// -----

// Integer division truncates toward zero.
// CHECK-LABEL: func @fold_div_int
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[3, -3, -1]> : tensor<3xi32>
// CHECK-NEXT: return %[[C]]
func.func @fold_div_int() -> tensor<3xi32> {
  %a = kiln.constant dense<[7, -7, 6]> : tensor<3xi32>
  %b = kiln.constant dense<[2, 2, -4]> : tensor<3xi32>
  %0 = kiln.div %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Integer division by zero is left for run time, even if only one element
// divides by zero.
// CHECK-LABEL: func @no_fold_div_int_by_zero
// CHECK-DAG: %[[A:.*]] = kiln.constant dense<[7, 8]> : tensor<2xi32>
// CHECK-DAG: %[[B:.*]] = kiln.constant dense<[1, 0]> : tensor<2xi32>
// CHECK: %[[D:.*]] = kiln.div %[[A]], %[[B]]
// CHECK-NEXT: return %[[D]]
func.func @no_fold_div_int_by_zero() -> tensor<2xi32> {
  %a = kiln.constant dense<[7, 8]> : tensor<2xi32>
  %b = kiln.constant dense<[1, 0]> : tensor<2xi32>
  %0 = kiln.div %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// CHECK-LABEL: func @no_fold_div_int_splat_zero
// CHECK: kiln.div
func.func @no_fold_div_int_splat_zero() -> tensor<4xi64> {
  %a = kiln.constant dense<5> : tensor<4xi64>
  %b = kiln.constant dense<0> : tensor<4xi64>
  %0 = kiln.div %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// INT_MIN / -1 overflows: not folded either.
// CHECK-LABEL: func @no_fold_div_int_min_by_minus_one
// CHECK: kiln.div
func.func @no_fold_div_int_min_by_minus_one() -> tensor<i8> {
  %a = kiln.constant dense<-128> : tensor<i8>
  %b = kiln.constant dense<-1> : tensor<i8>
  %0 = kiln.div %a, %b : (tensor<i8>, tensor<i8>) -> tensor<i8>
  return %0 : tensor<i8>
}

// -----

// Integer rem truncates: the remainder takes the dividend's sign.
// CHECK-LABEL: func @fold_rem_int
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[1, -1, 2, 0]> : tensor<4xi32>
// CHECK-NEXT: return %[[C]]
func.func @fold_rem_int() -> tensor<4xi32> {
  %a = kiln.constant dense<[7, -7, 6, 8]> : tensor<4xi32>
  %b = kiln.constant dense<[2, 2, -4, 4]> : tensor<4xi32>
  %0 = kiln.rem %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Float rem is C fmod (exact, the dividend's sign; x rem 0 is NaN).
// CHECK-LABEL: func @fold_rem_float
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[1.500000e+00, -1.500000e+00, 0x7FC00000]> : tensor<3xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_rem_float() -> tensor<3xf32> {
  %a = kiln.constant dense<[5.5, -5.5, 1.0]> : tensor<3xf32>
  %b = kiln.constant dense<[-2.0, 2.0, 0.0]> : tensor<3xf32>
  %0 = kiln.rem %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Integer rem by zero and INT_MIN rem -1 are left for run time.
// CHECK-LABEL: func @no_fold_rem_int_by_zero
// CHECK: kiln.rem
// CHECK: kiln.rem
func.func @no_fold_rem_int_by_zero() -> (tensor<2xi32>, tensor<i8>) {
  %a = kiln.constant dense<[7, 8]> : tensor<2xi32>
  %b = kiln.constant dense<[1, 0]> : tensor<2xi32>
  %0 = kiln.rem %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %c = kiln.constant dense<-128> : tensor<i8>
  %d = kiln.constant dense<-1> : tensor<i8>
  %1 = kiln.rem %c, %d : (tensor<i8>, tensor<i8>) -> tensor<i8>
  return %0, %1 : tensor<2xi32>, tensor<i8>
}

// -----

// Float division by zero follows IEEE 754.
// CHECK-LABEL: func @fold_div_float_by_zero
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 2.500000e-01]> : tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_div_float_by_zero() -> tensor<4xf32> {
  %a = kiln.constant dense<[1.0, -1.0, 0.0, 1.0]> : tensor<4xf32>
  %b = kiln.constant dense<[0.0, 0.0, 0.0, 4.0]> : tensor<4xf32>
  %0 = kiln.div %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @fold_pow
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[8.000000e+00, 9.000000e+00, 5.000000e-01]> : tensor<3xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_pow() -> tensor<3xf32> {
  %a = kiln.constant dense<[2.0, 3.0, 0.25]> : tensor<3xf32>
  %b = kiln.constant dense<[3.0, 2.0, 0.5]> : tensor<3xf32>
  %0 = kiln.pow %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Float min/max propagate NaN and order -0.0 below +0.0.
// CHECK-LABEL: func @fold_min_max_float
// CHECK-DAG: %[[MIN:.*]] = kiln.constant dense<[0x7FC00000, -0.000000e+00, 1.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[MAX:.*]] = kiln.constant dense<[0x7FC00000, 0.000000e+00, 2.000000e+00]> : tensor<3xf32>
// CHECK: return %[[MIN]], %[[MAX]]
func.func @fold_min_max_float() -> (tensor<3xf32>, tensor<3xf32>) {
  %a = kiln.constant dense<[0x7FC00000, -0.0, 2.0]> : tensor<3xf32>
  %b = kiln.constant dense<[1.0, 0.0, 1.0]> : tensor<3xf32>
  %0 = kiln.min %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = kiln.max %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// Integer min/max are signed.
// CHECK-LABEL: func @fold_min_max_int
// CHECK-DAG: %[[MIN:.*]] = kiln.constant dense<[-128, 1]> : tensor<2xi8>
// CHECK-DAG: %[[MAX:.*]] = kiln.constant dense<[1, 127]> : tensor<2xi8>
// CHECK: return %[[MIN]], %[[MAX]]
func.func @fold_min_max_int() -> (tensor<2xi8>, tensor<2xi8>) {
  %a = kiln.constant dense<[-128, 127]> : tensor<2xi8>
  %b = kiln.constant dense<1> : tensor<i8>
  %0 = kiln.min %a, %b : (tensor<2xi8>, tensor<i8>) -> tensor<2xi8>
  %1 = kiln.max %a, %b : (tensor<2xi8>, tensor<i8>) -> tensor<2xi8>
  return %0, %1 : tensor<2xi8>, tensor<2xi8>
}

// -----

// CHECK-LABEL: func @fold_logical
// CHECK-DAG: %[[AND:.*]] = kiln.constant dense<[true, false, false, false]> : tensor<4xi1>
// CHECK-DAG: %[[OR:.*]] = kiln.constant dense<[true, true, true, false]> : tensor<4xi1>
// CHECK-DAG: %[[XOR:.*]] = kiln.constant dense<[false, true, true, false]> : tensor<4xi1>
// CHECK: return %[[AND]], %[[OR]], %[[XOR]]
func.func @fold_logical() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %a = kiln.constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = kiln.constant dense<[true, false, true, false]> : tensor<4xi1>
  %0 = kiln.and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = kiln.or %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = kiln.xor %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// One constant operand is not enough.
// CHECK-LABEL: func @no_fold_binary_one_constant
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK: %[[C:.*]] = kiln.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>
// CHECK-NEXT: %[[R:.*]] = kiln.add %[[X]], %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @no_fold_binary_one_constant(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = kiln.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = kiln.add %x, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

//===----------------------------------------------------------------------===//
// Compare
//===----------------------------------------------------------------------===//

// -----

// Columns: 1 vs 2, 2 vs 2, NaN vs 1, -0.0 vs 0.0, NaN vs NaN, -inf vs -1.
// Comparisons with NaN are false, except ne which is true.
// CHECK-LABEL: func @fold_compare_float
// CHECK-DAG: %[[EQ:.*]] = kiln.constant dense<[false, true, false, true, false, false]> : tensor<6xi1>
// CHECK-DAG: %[[NE:.*]] = kiln.constant dense<[true, false, true, false, true, true]> : tensor<6xi1>
// CHECK-DAG: %[[LT:.*]] = kiln.constant dense<[true, false, false, false, false, true]> : tensor<6xi1>
// CHECK-DAG: %[[LE:.*]] = kiln.constant dense<[true, true, false, true, false, true]> : tensor<6xi1>
// CHECK-DAG: %[[GT:.*]] = kiln.constant dense<false> : tensor<6xi1>
// CHECK: return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[EQ]]
func.func @fold_compare_float()
    -> (tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>) {
  %a = kiln.constant dense<[1.0, 2.0, 0x7FC00000, -0.0, 0x7FC00000, 0xFF800000]> : tensor<6xf32>
  %b = kiln.constant dense<[2.0, 2.0, 1.0, 0.0, 0x7FC00000, -1.0]> : tensor<6xf32>
  %0 = kiln.compare eq, %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %1 = kiln.compare ne, %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %2 = kiln.compare lt, %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %3 = kiln.compare le, %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %4 = kiln.compare gt, %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %5 = kiln.compare ge, %a, %b : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<6xi1>
}

// -----

// Integers compare as signed, with broadcasting.
// CHECK-LABEL: func @fold_compare_int_broadcast
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<{{\[}}[false, true, true], [false, false, true]]> : tensor<2x3xi1>
// CHECK-NEXT: return %[[C]]
func.func @fold_compare_int_broadcast() -> tensor<2x3xi1> {
  %a = kiln.constant dense<[[-1], [5]]> : tensor<2x1xi8>
  %b = kiln.constant dense<[-2, 5, 127]> : tensor<3xi8>
  %0 = kiln.compare lt, %a, %b : (tensor<2x1xi8>, tensor<3xi8>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

// Booleans compare as unsigned: true > false.
// CHECK-LABEL: func @fold_compare_bool
// CHECK-DAG: %[[GT:.*]] = kiln.constant dense<[true, false]> : tensor<2xi1>
// CHECK-DAG: %[[GE:.*]] = kiln.constant dense<true> : tensor<2xi1>
// CHECK: return %[[GT]], %[[GE]]
func.func @fold_compare_bool() -> (tensor<2xi1>, tensor<2xi1>) {
  %t = kiln.constant dense<[true, false]> : tensor<2xi1>
  %f = kiln.constant dense<false> : tensor<i1>
  %0 = kiln.compare gt, %t, %f : (tensor<2xi1>, tensor<i1>) -> tensor<2xi1>
  %1 = kiln.compare ge, %t, %f : (tensor<2xi1>, tensor<i1>) -> tensor<2xi1>
  return %0, %1 : tensor<2xi1>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func @no_fold_compare_of_argument
// CHECK: kiln.compare eq
func.func @no_fold_compare_of_argument(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = kiln.compare eq, %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

//===----------------------------------------------------------------------===//
// Select
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func @fold_select_splat_true
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[A]]
func.func @fold_select_splat_true(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = kiln.constant dense<true> : tensor<4xi1>
  %0 = kiln.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @fold_select_splat_false_scalar
// CHECK-SAME: (%[[A:.*]]: tensor<4xi32>, %[[B:.*]]: tensor<4xi32>)
// CHECK-NEXT: return %[[B]]
func.func @fold_select_splat_false_scalar(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %c = kiln.constant dense<false> : tensor<i1>
  %0 = kiln.select %c, %a, %b : (tensor<i1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func @fold_select_same_branches
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf16>)
// CHECK-NEXT: return %[[A]]
func.func @fold_select_same_branches(%c: tensor<4xi1>, %a: tensor<4xf16>) -> tensor<4xf16> {
  %0 = kiln.select %c, %a, %a : (tensor<4xi1>, tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// All three constant: chosen element by element, each operand broadcast
// (ONNX shape computations: Where on Equal).
// CHECK-LABEL: func @fold_select_constants
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<{{\[}}[3, 1], [7, 1]]> : tensor<2x2xi64>
// CHECK-NEXT: return %[[C]]
func.func @fold_select_constants() -> tensor<2x2xi64> {
  %c = kiln.constant dense<[false, true]> : tensor<2xi1>
  %t = kiln.constant dense<1> : tensor<i64>
  %f = kiln.constant dense<[[3, -1], [7, -1]]> : tensor<2x2xi64>
  %0 = kiln.select %c, %t, %f : (tensor<2xi1>, tensor<i64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// A non-splat condition with a run-time branch does not fold.
// CHECK-LABEL: func @no_fold_select_non_splat
// CHECK: kiln.select
func.func @no_fold_select_non_splat(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = kiln.constant dense<[true, false, true, false]> : tensor<4xi1>
  %0 = kiln.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The chosen branch would need broadcasting to the result shape.
// CHECK-LABEL: func @no_fold_select_needs_broadcast
// CHECK: kiln.select
func.func @no_fold_select_needs_broadcast(%a: tensor<4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c = kiln.constant dense<true> : tensor<i1>
  %0 = kiln.select %c, %a, %b : (tensor<i1>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// The shared branch would need broadcasting to the condition's shape.
// CHECK-LABEL: func @no_fold_select_same_branches_broadcast
// CHECK: kiln.select
func.func @no_fold_select_same_branches_broadcast(%c: tensor<2x4xi1>, %a: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = kiln.select %c, %a, %a : (tensor<2x4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func @fold_cast_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xbf16>)
// CHECK-NEXT: return %[[X]]
func.func @fold_cast_same_type(%x: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  %0 = kiln.cast %x : tensor<2x3xbf16> -> tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}

// -----

// f32 -> f16 rounds to nearest; out-of-range values become infinite.
// CHECK-LABEL: func @fold_cast_f32_to_f16
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[1.500000e+00, -2.699220e+00, 0x7C00, 0.000000e+00]> : tensor<4xf16>
// CHECK-NEXT: return %[[C]]
func.func @fold_cast_f32_to_f16() -> tensor<4xf16> {
  %c = kiln.constant dense<[1.5, -2.7, 70000.0, 1.0e-8]> : tensor<4xf32>
  %0 = kiln.cast %c : tensor<4xf32> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// CHECK-LABEL: func @fold_cast_f32_to_bf16
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[1.000000e+00, 3.140630e+00]> : tensor<2xbf16>
// CHECK-NEXT: return %[[C]]
func.func @fold_cast_f32_to_bf16() -> tensor<2xbf16> {
  %c = kiln.constant dense<[1.0, 3.14159]> : tensor<2xf32>
  %0 = kiln.cast %c : tensor<2xf32> -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// -----

// Float to integer truncates toward zero.
// CHECK-LABEL: func @fold_cast_f32_to_int
// CHECK-DAG: %[[I32:.*]] = kiln.constant dense<[1, -2, 3, 0]> : tensor<4xi32>
// CHECK-DAG: %[[I64:.*]] = kiln.constant dense<[-2, 2, 10000000000]> : tensor<3xi64>
// CHECK: return %[[I32]], %[[I64]]
func.func @fold_cast_f32_to_int() -> (tensor<4xi32>, tensor<3xi64>) {
  %a = kiln.constant dense<[1.5, -2.7, 3.99, -0.5]> : tensor<4xf32>
  %0 = kiln.cast %a : tensor<4xf32> -> tensor<4xi32>
  %b = kiln.constant dense<[-2.5, 2.5, 1.0e10]> : tensor<3xf32>
  %1 = kiln.cast %b : tensor<3xf32> -> tensor<3xi64>
  return %0, %1 : tensor<4xi32>, tensor<3xi64>
}

// -----

// Out-of-range and NaN float-to-integer conversions stay for run time.
// CHECK-LABEL: func @no_fold_cast_f32_to_int_out_of_range
// CHECK-COUNT-3: kiln.cast
func.func @no_fold_cast_f32_to_int_out_of_range() -> (tensor<2xi32>, tensor<2xi8>, tensor<2xi32>) {
  %a = kiln.constant dense<[3.0e9, 1.0]> : tensor<2xf32>
  %0 = kiln.cast %a : tensor<2xf32> -> tensor<2xi32>
  %b = kiln.constant dense<[200.0, 1.0]> : tensor<2xf32>
  %1 = kiln.cast %b : tensor<2xf32> -> tensor<2xi8>
  %c = kiln.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  %2 = kiln.cast %c : tensor<2xf32> -> tensor<2xi32>
  return %0, %1, %2 : tensor<2xi32>, tensor<2xi8>, tensor<2xi32>
}

// -----

// i1 converts to 0 or 1 (not -1).
// CHECK-LABEL: func @fold_cast_from_i1
// CHECK-DAG: %[[F:.*]] = kiln.constant dense<[1.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[I:.*]] = kiln.constant dense<[1, 0]> : tensor<2xi32>
// CHECK: return %[[F]], %[[I]]
func.func @fold_cast_from_i1() -> (tensor<2xf32>, tensor<2xi32>) {
  %c = kiln.constant dense<[true, false]> : tensor<2xi1>
  %0 = kiln.cast %c : tensor<2xi1> -> tensor<2xf32>
  %1 = kiln.cast %c : tensor<2xi1> -> tensor<2xi32>
  return %0, %1 : tensor<2xf32>, tensor<2xi32>
}

// -----

// Casting to i1 gives x != 0 (NaN is non-zero, -0.0 is zero).
// CHECK-LABEL: func @fold_cast_to_i1
// CHECK-DAG: %[[FROMINT:.*]] = kiln.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG: %[[FROMFLOAT:.*]] = kiln.constant dense<[false, false, true, true]> : tensor<4xi1>
// CHECK: return %[[FROMINT]], %[[FROMFLOAT]]
func.func @fold_cast_to_i1() -> (tensor<3xi1>, tensor<4xi1>) {
  %a = kiln.constant dense<[0, -3, 256]> : tensor<3xi32>
  %0 = kiln.cast %a : tensor<3xi32> -> tensor<3xi1>
  %b = kiln.constant dense<[0.0, -0.0, 0x7FC00000, 0.5]> : tensor<4xf32>
  %1 = kiln.cast %b : tensor<4xf32> -> tensor<4xi1>
  return %0, %1 : tensor<3xi1>, tensor<4xi1>
}

// -----

// Integer widening sign-extends; narrowing wraps.
// CHECK-LABEL: func @fold_cast_int_to_int
// CHECK-DAG: %[[WIDE:.*]] = kiln.constant dense<[127, -128]> : tensor<2xi64>
// CHECK-DAG: %[[NARROW:.*]] = kiln.constant dense<[44, 127]> : tensor<2xi8>
// CHECK: return %[[WIDE]], %[[NARROW]]
func.func @fold_cast_int_to_int() -> (tensor<2xi64>, tensor<2xi8>) {
  %a = kiln.constant dense<[127, -128]> : tensor<2xi8>
  %0 = kiln.cast %a : tensor<2xi8> -> tensor<2xi64>
  %b = kiln.constant dense<[300, -129]> : tensor<2xi32>
  %1 = kiln.cast %b : tensor<2xi32> -> tensor<2xi8>
  return %0, %1 : tensor<2xi64>, tensor<2xi8>
}

// -----

// CHECK-LABEL: func @fold_cast_int_to_float
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<[-3.000000e+00, 6.553600e+04]> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_cast_int_to_float() -> tensor<2xf32> {
  %c = kiln.constant dense<[-3, 65536]> : tensor<2xi64>
  %0 = kiln.cast %c : tensor<2xi64> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func @no_fold_cast_of_argument
// CHECK: kiln.cast
func.func @no_fold_cast_of_argument(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = kiln.cast %x : tensor<4xf32> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

//===----------------------------------------------------------------------===//
// Identities
//===----------------------------------------------------------------------===//

// -----

// x + -0.0 == x for every float x, on either side (add is commutative).
// CHECK-LABEL: func @fold_add_negative_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @fold_add_negative_zero(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %z = kiln.constant dense<-0.0> : tensor<4xf32>
  %0 = kiln.add %x, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = kiln.add %z, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// x + 0.0 is not x when x is -0.0.
// CHECK-LABEL: func @no_fold_add_positive_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[Z:.*]] = kiln.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[R:.*]] = kiln.add %[[X]], %[[Z]]
// CHECK-NEXT: return %[[R]]
func.func @no_fold_add_positive_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = kiln.constant dense<0.0> : tensor<4xf32>
  %0 = kiln.add %x, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @fold_add_int_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK-NEXT: return %[[X]]
func.func @fold_add_int_zero(%x: tensor<4xi32>) -> tensor<4xi32> {
  %z = kiln.constant dense<0> : tensor<4xi32>
  %0 = kiln.add %z, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The identity constant may broadcast to x's shape.
// CHECK-LABEL: func @fold_mul_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<2x2xi8>)
// CHECK-NEXT: return %[[X]], %[[I]]
func.func @fold_mul_one(%x: tensor<4xf32>, %i: tensor<2x2xi8>) -> (tensor<4xf32>, tensor<2x2xi8>) {
  %one = kiln.constant dense<1.0> : tensor<f32>
  %0 = kiln.mul %x, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %ione = kiln.constant dense<1> : tensor<2xi8>
  %1 = kiln.mul %ione, %i : (tensor<2xi8>, tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0, %1 : tensor<4xf32>, tensor<2x2xi8>
}

// -----

// The result would be larger than x: not an identity.
// CHECK-LABEL: func @no_fold_mul_one_broadcasting_x
// CHECK: kiln.mul
func.func @no_fold_mul_one_broadcasting_x(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  %one = kiln.constant dense<1.0> : tensor<2x4xf32>
  %0 = kiln.mul %x, %one : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func @no_fold_mul_non_identity
// CHECK: kiln.mul
func.func @no_fold_mul_non_identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = kiln.constant dense<[1.0, 1.0, 1.0, 2.0]> : tensor<4xf32>
  %0 = kiln.mul %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x - 0.0 == x (it is x + -0.0); x - 0 for integers.
// CHECK-LABEL: func @fold_sub_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi64>)
// CHECK-NEXT: return %[[X]], %[[I]]
func.func @fold_sub_zero(%x: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %z = kiln.constant dense<0.0> : tensor<4xf32>
  %0 = kiln.sub %x, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %iz = kiln.constant dense<0> : tensor<4xi64>
  %1 = kiln.sub %i, %iz : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0, %1 : tensor<4xf32>, tensor<4xi64>
}

// -----

// x - -0.0 is x + 0.0, and 0 - x is -x: neither is x.
// CHECK-LABEL: func @no_fold_sub
// CHECK-COUNT-2: kiln.sub
func.func @no_fold_sub(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %z = kiln.constant dense<-0.0> : tensor<4xf32>
  %0 = kiln.sub %x, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %iz = kiln.constant dense<0> : tensor<4xi32>
  %1 = kiln.sub %iz, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func @fold_div_pow_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf16>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NEXT: return %[[X]], %[[I]], %[[X]]
func.func @fold_div_pow_one(%x: tensor<4xf16>, %i: tensor<4xi32>) -> (tensor<4xf16>, tensor<4xi32>, tensor<4xf16>) {
  %one = kiln.constant dense<1.0> : tensor<4xf16>
  %0 = kiln.div %x, %one : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %ione = kiln.constant dense<1> : tensor<4xi32>
  %1 = kiln.div %i, %ione : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = kiln.pow %x, %one : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xi32>, tensor<4xf16>
}

// -----

// 1 / x is not x.
// CHECK-LABEL: func @no_fold_one_div_x
// CHECK: kiln.div
func.func @no_fold_one_div_x(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = kiln.constant dense<1.0> : tensor<4xf32>
  %0 = kiln.div %one, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @fold_min_max_same_operand
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi8>)
// CHECK-NEXT: return %[[X]], %[[I]]
func.func @fold_min_max_same_operand(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  %0 = kiln.min %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = kiln.max %i, %i : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0, %1 : tensor<4xf32>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func @no_fold_min_different_operands
// CHECK: kiln.min
func.func @no_fold_min_different_operands(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.min %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @fold_involutions
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>, %[[B:.*]]: tensor<4xi1>)
// CHECK-NEXT: return %[[X]], %[[I]], %[[B]]
func.func @fold_involutions(%x: tensor<4xf32>, %i: tensor<4xi32>, %b: tensor<4xi1>)
    -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi1>) {
  %0 = kiln.neg %x : tensor<4xf32>
  %1 = kiln.neg %0 : tensor<4xf32>
  %2 = kiln.neg %i : tensor<4xi32>
  %3 = kiln.neg %2 : tensor<4xi32>
  %4 = kiln.not %b : tensor<4xi1>
  %5 = kiln.not %4 : tensor<4xi1>
  return %1, %3, %5 : tensor<4xf32>, tensor<4xi32>, tensor<4xi1>
}

// -----

// A triple negation keeps one.
// CHECK-LABEL: func @fold_triple_neg
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[N:.*]] = kiln.neg %[[X]]
// CHECK-NEXT: return %[[N]]
func.func @fold_triple_neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.neg %x : tensor<4xf32>
  %1 = kiln.neg %0 : tensor<4xf32>
  %2 = kiln.neg %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// relu and abs are idempotent.
// CHECK-LABEL: func @fold_idempotent
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi8>)
// CHECK-NEXT: %[[R:.*]] = kiln.relu %[[X]]
// CHECK-NEXT: %[[A:.*]] = kiln.abs %[[I]]
// CHECK-NEXT: return %[[R]], %[[A]]
func.func @fold_idempotent(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>) {
  %0 = kiln.relu %x : tensor<4xf32>
  %1 = kiln.relu %0 : tensor<4xf32>
  %2 = kiln.abs %i : tensor<4xi8>
  %3 = kiln.abs %2 : tensor<4xi8>
  return %1, %3 : tensor<4xf32>, tensor<4xi8>
}

// -----

// relu(neg(x)) is not an identity.
// CHECK-LABEL: func @no_fold_relu_of_neg
// CHECK: kiln.neg
// CHECK-NEXT: kiln.relu
func.func @no_fold_relu_of_neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.neg %x : tensor<4xf32>
  %1 = kiln.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @fold_clip_without_bounds
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi64>)
// CHECK-NEXT: return %[[X]], %[[I]]
func.func @fold_clip_without_bounds(%x: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %0 = kiln.clip %x : tensor<4xf32>
  %1 = kiln.clip %i : tensor<4xi64>
  return %0, %1 : tensor<4xf32>, tensor<4xi64>
}

// -----

// CHECK-LABEL: func @no_fold_clip_with_bound
// CHECK: kiln.clip %{{.*}} max 6.000000e+00
func.func @no_fold_clip_with_bound(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = kiln.clip %x max 6.0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
