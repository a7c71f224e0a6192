// End-to-end numeric tests of the elementwise ops (GraphElementwiseOps.td)
// on the CPU path: every function is run by `kilnc run` on seeded random
// inputs and compared with an independent NumPy reference in
// elementwise_cases.py.
//
// RUN: /usr/bin/python3 %S/../lib/check_e2e.py --kilnc kilnc --model %s --cases %S/elementwise_cases.py --workdir %t | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: SUMMARY: {{[1-9][0-9]*}} passed, 0 failed

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// Inputs hold NaN, +-inf, +-0 and ordinary values.
func.func @numeric_unary_f32(%x: tensor<4x6xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %0 = kiln.neg %x : tensor<4x6xf32>
  %1 = kiln.abs %x : tensor<4x6xf32>
  %2 = kiln.sign %x : tensor<4x6xf32>
  %3 = kiln.relu %x : tensor<4x6xf32>
  return %0, %1, %2, %3 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

func.func @numeric_unary_int(%a: tensor<3x4xi8>, %b: tensor<12xi32>, %c: tensor<2x6xi64>)
    -> (tensor<3x4xi8>, tensor<3x4xi8>, tensor<12xi32>, tensor<12xi32>,
        tensor<2x6xi64>, tensor<2x6xi64>, tensor<12xi32>) {
  %0 = kiln.neg %a : tensor<3x4xi8>
  %1 = kiln.relu %a : tensor<3x4xi8>
  %2 = kiln.abs %b : tensor<12xi32>
  %3 = kiln.sign %b : tensor<12xi32>
  %4 = kiln.sign %c : tensor<2x6xi64>
  %5 = kiln.abs %c : tensor<2x6xi64>
  %6 = kiln.neg %b : tensor<12xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3x4xi8>, tensor<3x4xi8>, tensor<12xi32>,
      tensor<12xi32>, tensor<2x6xi64>, tensor<2x6xi64>, tensor<12xi32>
}

// exp of any x; log, sqrt, rsqrt of positive p; reciprocal of x away from 0.
func.func @exp_log_sqrt(%x: tensor<3x7xf32>, %p: tensor<3x7xf32>)
    -> (tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>) {
  %0 = kiln.exp %x : tensor<3x7xf32>
  %1 = kiln.log %p : tensor<3x7xf32>
  %2 = kiln.sqrt %p : tensor<3x7xf32>
  %3 = kiln.rsqrt %p : tensor<3x7xf32>
  %4 = kiln.reciprocal %x : tensor<3x7xf32>
  return %0, %1, %2, %3, %4 : tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>
}

// IEEE special values: 0, -0, -1, +-inf, NaN, overflow, denormal-ish tiny.
func.func @exp_log_sqrt_specials(%x: tensor<10xf32>)
    -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>) {
  %0 = kiln.exp %x : tensor<10xf32>
  %1 = kiln.log %x : tensor<10xf32>
  %2 = kiln.sqrt %x : tensor<10xf32>
  %3 = kiln.rsqrt %x : tensor<10xf32>
  %4 = kiln.reciprocal %x : tensor<10xf32>
  return %0, %1, %2, %3, %4 : tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>
}

func.func @tanh_sigmoid_erf(%x: tensor<5x8xf32>)
    -> (tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>) {
  %0 = kiln.tanh %x : tensor<5x8xf32>
  %1 = kiln.sigmoid %x : tensor<5x8xf32>
  %2 = kiln.erf %x : tensor<5x8xf32>
  return %0, %1, %2 : tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>
}

func.func @floor_ceil(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = kiln.floor %x : tensor<16xf32>
  %1 = kiln.ceil %x : tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}

func.func @sin_cos(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = kiln.sin %x : tensor<4x8xf32>
  %1 = kiln.cos %x : tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @hardswish(%x: tensor<3x9xf32>) -> tensor<3x9xf32> {
  %0 = kiln.hardswish %x : tensor<3x9xf32>
  return %0 : tensor<3x9xf32>
}

// Both GELU modes; the default is the exact (erf) one.
func.func @gelu(%x: tensor<4x10xf32>)
    -> (tensor<4x10xf32>, tensor<4x10xf32>, tensor<4x10xf32>) {
  %0 = kiln.gelu %x : tensor<4x10xf32>
  %1 = kiln.gelu %x approximate none : tensor<4x10xf32>
  %2 = kiln.gelu %x approximate tanh : tensor<4x10xf32>
  return %0, %1, %2 : tensor<4x10xf32>, tensor<4x10xf32>, tensor<4x10xf32>
}

func.func @hardsigmoid_leaky_relu(%x: tensor<2x12xf32>)
    -> (tensor<2x12xf32>, tensor<2x12xf32>, tensor<2x12xf32>, tensor<2x12xf32>) {
  %0 = kiln.hardsigmoid %x alpha 0.2 beta 0.5 : tensor<2x12xf32>
  %1 = kiln.hardsigmoid %x alpha 0.16666666666666666 beta 0.5 : tensor<2x12xf32>
  %2 = kiln.leaky_relu %x alpha 0.01 : tensor<2x12xf32>
  %3 = kiln.leaky_relu %x alpha 0.3 : tensor<2x12xf32>
  return %0, %1, %2, %3 : tensor<2x12xf32>, tensor<2x12xf32>, tensor<2x12xf32>, tensor<2x12xf32>
}

func.func @clip_f32(%x: tensor<3x8xf32>)
    -> (tensor<3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>) {
  %0 = kiln.clip %x min 0.0 max 6.0 : tensor<3x8xf32>
  %1 = kiln.clip %x min -1.0 : tensor<3x8xf32>
  %2 = kiln.clip %x max 0.5 : tensor<3x8xf32>
  %3 = kiln.clip %x : tensor<3x8xf32>
  %4 = kiln.clip %x min 0.25 max 0.25 : tensor<3x8xf32>
  return %0, %1, %2, %3, %4 : tensor<3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>
}

func.func @clip_int(%a: tensor<10xi8>, %b: tensor<10xi32>, %c: tensor<4xi64>)
    -> (tensor<10xi8>, tensor<10xi32>, tensor<4xi64>, tensor<4xi64>) {
  %0 = kiln.clip %a min -20.0 max 100.0 : tensor<10xi8>
  %1 = kiln.clip %b min -5.0 max 5.0 : tensor<10xi32>
  // Values beyond 2^53 must come through unchanged.
  %2 = kiln.clip %c min 0.0 : tensor<4xi64>
  %3 = kiln.clip %c min 3.0 max 3.0 : tensor<4xi64>
  return %0, %1, %2, %3 : tensor<10xi8>, tensor<10xi32>, tensor<4xi64>, tensor<4xi64>
}

func.func @logical_not(%x: tensor<3x5xi1>) -> tensor<3x5xi1> {
  %0 = kiln.not %x : tensor<3x5xi1>
  return %0 : tensor<3x5xi1>
}

func.func @unary_f16(%x: tensor<4x8xf16>, %p: tensor<4x8xf16>)
    -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>,
        tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>) {
  %0 = kiln.exp %x : tensor<4x8xf16>
  %1 = kiln.tanh %x : tensor<4x8xf16>
  %2 = kiln.sigmoid %x : tensor<4x8xf16>
  %3 = kiln.gelu %x : tensor<4x8xf16>
  %4 = kiln.log %p : tensor<4x8xf16>
  %5 = kiln.sqrt %p : tensor<4x8xf16>
  %6 = kiln.relu %x : tensor<4x8xf16>
  %7 = kiln.hardswish %x : tensor<4x8xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>,
      tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>
}

func.func @unary_f64(%x: tensor<12xf64>, %p: tensor<12xf64>)
    -> (tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>) {
  %0 = kiln.exp %x : tensor<12xf64>
  %1 = kiln.log %p : tensor<12xf64>
  %2 = kiln.tanh %x : tensor<12xf64>
  %3 = kiln.erf %x : tensor<12xf64>
  %4 = kiln.sin %x : tensor<12xf64>
  %5 = kiln.rsqrt %p : tensor<12xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>
}

//===----------------------------------------------------------------------===//
// Broadcasting binary ops
//===----------------------------------------------------------------------===//

func.func @arith_f32_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %s: tensor<f32>, %c: tensor<2x1xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
        tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2x3xf32>) {
  %0 = kiln.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = kiln.sub %s, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = kiln.mul %c, %b : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = kiln.div %a, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %4 = kiln.min %a, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %5 = kiln.max %b, %a : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = kiln.mul %s, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %7 = kiln.div %s, %b : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %8 = kiln.sub %a, %7 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %8 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>,
      tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2x3xf32>
}

// Both operands broadcast: [4,1,5] with [3,1] gives [4,3,5].
func.func @arith_broadcast_both(%a: tensor<4x1x5xf32>, %b: tensor<3x1xf32>)
    -> (tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>) {
  %0 = kiln.add %a, %b : (tensor<4x1x5xf32>, tensor<3x1xf32>) -> tensor<4x3x5xf32>
  %1 = kiln.sub %b, %a : (tensor<3x1xf32>, tensor<4x1x5xf32>) -> tensor<4x3x5xf32>
  %2 = kiln.mul %a, %b : (tensor<4x1x5xf32>, tensor<3x1xf32>) -> tensor<4x3x5xf32>
  %3 = kiln.max %a, %b : (tensor<4x1x5xf32>, tensor<3x1xf32>) -> tensor<4x3x5xf32>
  return %0, %1, %2, %3 : tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>, tensor<4x3x5xf32>
}

func.func @pow_f32(%x: tensor<3x6xf32>, %y: tensor<6xf32>, %s: tensor<f32>)
    -> (tensor<3x6xf32>, tensor<3x6xf32>) {
  %0 = kiln.pow %x, %y : (tensor<3x6xf32>, tensor<6xf32>) -> tensor<3x6xf32>
  %1 = kiln.pow %x, %s : (tensor<3x6xf32>, tensor<f32>) -> tensor<3x6xf32>
  return %0, %1 : tensor<3x6xf32>, tensor<3x6xf32>
}

// Negative bases with integral exponents, zeros and NaN (C/NumPy pow).
func.func @pow_special(%x: tensor<12xf32>, %y: tensor<12xf32>) -> tensor<12xf32> {
  %0 = kiln.pow %x, %y : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
  return %0 : tensor<12xf32>
}

// min/max propagate NaN from either side.
func.func @min_max_nan(%a: tensor<8xf32>, %b: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = kiln.min %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = kiln.max %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

func.func @arith_int(%i: tensor<8xi8>, %j: tensor<3x1xi32>, %k: tensor<1x5xi32>, %l: tensor<i64>, %m: tensor<2x3xi64>)
    -> (tensor<8xi8>, tensor<8xi8>, tensor<3x5xi32>, tensor<3x5xi32>, tensor<3x5xi32>,
        tensor<3x5xi32>, tensor<3x5xi32>, tensor<3x5xi32>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<i64>) {
  %0 = kiln.add %i, %i : (tensor<8xi8>, tensor<8xi8>) -> tensor<8xi8>
  %1 = kiln.sub %i, %i : (tensor<8xi8>, tensor<8xi8>) -> tensor<8xi8>
  %2 = kiln.add %j, %k : (tensor<3x1xi32>, tensor<1x5xi32>) -> tensor<3x5xi32>
  %3 = kiln.sub %j, %k : (tensor<3x1xi32>, tensor<1x5xi32>) -> tensor<3x5xi32>
  %4 = kiln.mul %j, %k : (tensor<3x1xi32>, tensor<1x5xi32>) -> tensor<3x5xi32>
  // Integer division truncates toward zero (operands of both signs).
  %5 = kiln.div %j, %k : (tensor<3x1xi32>, tensor<1x5xi32>) -> tensor<3x5xi32>
  %6 = kiln.min %j, %k : (tensor<3x1xi32>, tensor<1x5xi32>) -> tensor<3x5xi32>
  %7 = kiln.max %j, %k : (tensor<3x1xi32>, tensor<1x5xi32>) -> tensor<3x5xi32>
  %8 = kiln.div %m, %l : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi64>
  %9 = kiln.mul %l, %m : (tensor<i64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %10 = kiln.sub %l, %l : (tensor<i64>, tensor<i64>) -> tensor<i64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<8xi8>, tensor<8xi8>, tensor<3x5xi32>,
      tensor<3x5xi32>, tensor<3x5xi32>, tensor<3x5xi32>, tensor<3x5xi32>, tensor<3x5xi32>,
      tensor<2x3xi64>, tensor<2x3xi64>, tensor<i64>
}

func.func @arith_i8_minmax_div(%a: tensor<2x4xi8>, %b: tensor<4xi8>)
    -> (tensor<2x4xi8>, tensor<2x4xi8>, tensor<2x4xi8>, tensor<2x4xi8>) {
  %0 = kiln.div %a, %b : (tensor<2x4xi8>, tensor<4xi8>) -> tensor<2x4xi8>
  %1 = kiln.min %a, %b : (tensor<2x4xi8>, tensor<4xi8>) -> tensor<2x4xi8>
  %2 = kiln.max %a, %b : (tensor<2x4xi8>, tensor<4xi8>) -> tensor<2x4xi8>
  %3 = kiln.mul %a, %b : (tensor<2x4xi8>, tensor<4xi8>) -> tensor<2x4xi8>
  return %0, %1, %2, %3 : tensor<2x4xi8>, tensor<2x4xi8>, tensor<2x4xi8>, tensor<2x4xi8>
}

// rem truncates (C fmod): the remainder has the dividend's sign.
func.func @rem_mixed_signs(%a: tensor<2x4xi32>, %b: tensor<4xi32>, %x: tensor<3x4xf32>, %y: tensor<4xf32>, %p: tensor<5xf64>, %q: tensor<5xf64>)
    -> (tensor<2x4xi32>, tensor<3x4xf32>, tensor<5xf64>) {
  %0 = kiln.rem %a, %b : (tensor<2x4xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  %1 = kiln.rem %x, %y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %2 = kiln.rem %p, %q : (tensor<5xf64>, tensor<5xf64>) -> tensor<5xf64>
  return %0, %1, %2 : tensor<2x4xi32>, tensor<3x4xf32>, tensor<5xf64>
}

func.func @arith_f16(%a: tensor<3x4xf16>, %b: tensor<4xf16>, %s: tensor<f16>)
    -> (tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>,
        tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>) {
  %0 = kiln.add %a, %b : (tensor<3x4xf16>, tensor<4xf16>) -> tensor<3x4xf16>
  %1 = kiln.sub %s, %a : (tensor<f16>, tensor<3x4xf16>) -> tensor<3x4xf16>
  %2 = kiln.mul %a, %b : (tensor<3x4xf16>, tensor<4xf16>) -> tensor<3x4xf16>
  %3 = kiln.div %a, %b : (tensor<3x4xf16>, tensor<4xf16>) -> tensor<3x4xf16>
  %4 = kiln.min %a, %s : (tensor<3x4xf16>, tensor<f16>) -> tensor<3x4xf16>
  %5 = kiln.max %a, %b : (tensor<3x4xf16>, tensor<4xf16>) -> tensor<3x4xf16>
  %abs = kiln.abs %a : tensor<3x4xf16>
  %6 = kiln.pow %abs, %b : (tensor<3x4xf16>, tensor<4xf16>) -> tensor<3x4xf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>,
      tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>
}

func.func @arith_f64(%a: tensor<2x3xf64>, %b: tensor<3xf64>)
    -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %0 = kiln.add %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  %1 = kiln.mul %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  %2 = kiln.div %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  %3 = kiln.sub %b, %a : (tensor<3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0, %1, %2, %3 : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}

func.func @logical_binary(%a: tensor<2x4xi1>, %b: tensor<4xi1>, %s: tensor<i1>)
    -> (tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<i1>, tensor<2x4xi1>) {
  %0 = kiln.and %a, %b : (tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  %1 = kiln.or %s, %a : (tensor<i1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %2 = kiln.xor %b, %a : (tensor<4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %3 = kiln.xor %s, %s : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %4 = kiln.and %a, %s : (tensor<2x4xi1>, tensor<i1>) -> tensor<2x4xi1>
  return %0, %1, %2, %3, %4 : tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<i1>, tensor<2x4xi1>
}

// bf16 cannot cross the model boundary (.npy has no bf16): compute in bf16
// between casts.
func.func @arith_bf16(%x: tensor<8xf32>, %y: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %a = kiln.cast %x : tensor<8xf32> -> tensor<8xbf16>
  %b = kiln.cast %y : tensor<8xf32> -> tensor<8xbf16>
  %s = kiln.add %a, %b : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xbf16>
  %m = kiln.mul %a, %b : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xbf16>
  %e = kiln.exp %a : tensor<8xbf16>
  %t = kiln.tanh %b : tensor<8xbf16>
  %0 = kiln.cast %s : tensor<8xbf16> -> tensor<8xf32>
  %1 = kiln.cast %m : tensor<8xbf16> -> tensor<8xf32>
  %2 = kiln.cast %e : tensor<8xbf16> -> tensor<8xf32>
  %3 = kiln.cast %t : tensor<8xbf16> -> tensor<8xf32>
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

func.func @arith_i16(%x: tensor<6xi16>, %y: tensor<6xi16>)
    -> (tensor<6xi16>, tensor<6xi16>, tensor<6xi16>, tensor<6xf32>, tensor<6xi64>, tensor<6xi1>) {
  %0 = kiln.mul %x, %y : (tensor<6xi16>, tensor<6xi16>) -> tensor<6xi16>
  %1 = kiln.div %x, %y : (tensor<6xi16>, tensor<6xi16>) -> tensor<6xi16>
  %2 = kiln.max %x, %y : (tensor<6xi16>, tensor<6xi16>) -> tensor<6xi16>
  %3 = kiln.cast %x : tensor<6xi16> -> tensor<6xf32>
  %4 = kiln.cast %x : tensor<6xi16> -> tensor<6xi64>
  %5 = kiln.compare lt, %x, %y : (tensor<6xi16>, tensor<6xi16>) -> tensor<6xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<6xi16>, tensor<6xi16>, tensor<6xi16>, tensor<6xf32>, tensor<6xi64>, tensor<6xi1>
}

//===----------------------------------------------------------------------===//
// Comparison, select, cast
//===----------------------------------------------------------------------===//

// NaN in either operand: every predicate but `ne` is false.
func.func @compare_f32(%x: tensor<2x6xf32>, %y: tensor<2x6xf32>)
    -> (tensor<2x6xi1>, tensor<2x6xi1>, tensor<2x6xi1>, tensor<2x6xi1>, tensor<2x6xi1>, tensor<2x6xi1>) {
  %0 = kiln.compare eq, %x, %y : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
  %1 = kiln.compare ne, %x, %y : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
  %2 = kiln.compare lt, %x, %y : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
  %3 = kiln.compare le, %x, %y : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
  %4 = kiln.compare gt, %x, %y : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
  %5 = kiln.compare ge, %x, %y : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<2x6xi1>, tensor<2x6xi1>, tensor<2x6xi1>, tensor<2x6xi1>, tensor<2x6xi1>, tensor<2x6xi1>
}

func.func @compare_int_broadcast(%x: tensor<2x5xi64>, %s: tensor<i64>, %a: tensor<3x1xi8>, %b: tensor<4xi8>)
    -> (tensor<2x5xi1>, tensor<2x5xi1>, tensor<2x5xi1>, tensor<2x5xi1>, tensor<2x5xi1>, tensor<2x5xi1>,
        tensor<3x4xi1>, tensor<3x4xi1>) {
  %0 = kiln.compare eq, %x, %s : (tensor<2x5xi64>, tensor<i64>) -> tensor<2x5xi1>
  %1 = kiln.compare ne, %s, %x : (tensor<i64>, tensor<2x5xi64>) -> tensor<2x5xi1>
  %2 = kiln.compare lt, %x, %s : (tensor<2x5xi64>, tensor<i64>) -> tensor<2x5xi1>
  %3 = kiln.compare le, %x, %s : (tensor<2x5xi64>, tensor<i64>) -> tensor<2x5xi1>
  %4 = kiln.compare gt, %x, %s : (tensor<2x5xi64>, tensor<i64>) -> tensor<2x5xi1>
  %5 = kiln.compare ge, %x, %s : (tensor<2x5xi64>, tensor<i64>) -> tensor<2x5xi1>
  %6 = kiln.compare lt, %a, %b : (tensor<3x1xi8>, tensor<4xi8>) -> tensor<3x4xi1>
  %7 = kiln.compare ge, %a, %b : (tensor<3x1xi8>, tensor<4xi8>) -> tensor<3x4xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x5xi1>, tensor<2x5xi1>, tensor<2x5xi1>,
      tensor<2x5xi1>, tensor<2x5xi1>, tensor<2x5xi1>, tensor<3x4xi1>, tensor<3x4xi1>
}

func.func @compare_i32_bool_f16(%x: tensor<6xi32>, %y: tensor<6xi32>, %b: tensor<2x4xi1>, %c: tensor<4xi1>,
                                %h: tensor<1x5xf16>, %g: tensor<3x1xf16>)
    -> (tensor<6xi1>, tensor<6xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<3x5xi1>, tensor<3x5xi1>) {
  %0 = kiln.compare le, %x, %y : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
  %1 = kiln.compare gt, %x, %y : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
  %2 = kiln.compare eq, %b, %c : (tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  %3 = kiln.compare ne, %b, %c : (tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  %4 = kiln.compare lt, %h, %g : (tensor<1x5xf16>, tensor<3x1xf16>) -> tensor<3x5xi1>
  %5 = kiln.compare ne, %h, %g : (tensor<1x5xf16>, tensor<3x1xf16>) -> tensor<3x5xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<6xi1>, tensor<6xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<3x5xi1>, tensor<3x5xi1>
}

// All three operands broadcast: [2,1,4] ? [3,1] : [4] gives [2,3,4].
func.func @select_broadcast(%c: tensor<2x1x4xi1>, %a: tensor<3x1xf32>, %b: tensor<4xf32>,
                            %d: tensor<i1>, %s: tensor<f32>)
    -> (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<4xf32>) {
  %0 = kiln.select %c, %a, %b : (tensor<2x1x4xi1>, tensor<3x1xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %1 = kiln.select %d, %a, %b : (tensor<i1>, tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %2 = kiln.select %d, %s, %b : (tensor<i1>, tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<4xf32>
}

func.func @select_int_bool(%c: tensor<4xi1>, %i: tensor<2x1xi32>, %j: tensor<4xi32>,
                           %p: tensor<2x4xi1>, %q: tensor<4xi1>, %l: tensor<4xi64>, %m: tensor<i64>)
    -> (tensor<2x4xi32>, tensor<2x4xi1>, tensor<4xi64>) {
  %0 = kiln.select %c, %i, %j : (tensor<4xi1>, tensor<2x1xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  %1 = kiln.select %c, %p, %q : (tensor<4xi1>, tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  %2 = kiln.select %c, %m, %l : (tensor<4xi1>, tensor<i64>, tensor<4xi64>) -> tensor<4xi64>
  return %0, %1, %2 : tensor<2x4xi32>, tensor<2x4xi1>, tensor<4xi64>
}

// Float to integer truncates toward zero; to i1 is x != 0.
func.func @cast_from_f32(%x: tensor<3x5xf32>)
    -> (tensor<3x5xf16>, tensor<3x5xf64>, tensor<3x5xi32>, tensor<3x5xi64>, tensor<3x5xi8>, tensor<3x5xi1>) {
  %0 = kiln.cast %x : tensor<3x5xf32> -> tensor<3x5xf16>
  %1 = kiln.cast %x : tensor<3x5xf32> -> tensor<3x5xf64>
  %2 = kiln.cast %x : tensor<3x5xf32> -> tensor<3x5xi32>
  %3 = kiln.cast %x : tensor<3x5xf32> -> tensor<3x5xi64>
  %4 = kiln.cast %x : tensor<3x5xf32> -> tensor<3x5xi8>
  %5 = kiln.cast %x : tensor<3x5xf32> -> tensor<3x5xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<3x5xf16>, tensor<3x5xf64>, tensor<3x5xi32>, tensor<3x5xi64>, tensor<3x5xi8>, tensor<3x5xi1>
}

// NaN and infinities are not zero: they cast to true.
func.func @cast_f32_to_bool_specials(%x: tensor<6xf32>) -> tensor<6xi1> {
  %0 = kiln.cast %x : tensor<6xf32> -> tensor<6xi1>
  return %0 : tensor<6xi1>
}

func.func @cast_to_f32(%h: tensor<6xf16>, %i: tensor<6xi32>, %l: tensor<6xi64>, %b: tensor<6xi8>, %z: tensor<6xi1>, %d: tensor<6xf64>)
    -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %0 = kiln.cast %h : tensor<6xf16> -> tensor<6xf32>
  %1 = kiln.cast %i : tensor<6xi32> -> tensor<6xf32>
  %2 = kiln.cast %l : tensor<6xi64> -> tensor<6xf32>
  %3 = kiln.cast %b : tensor<6xi8> -> tensor<6xf32>
  %4 = kiln.cast %z : tensor<6xi1> -> tensor<6xf32>
  %5 = kiln.cast %d : tensor<6xf64> -> tensor<6xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

func.func @cast_int_int(%b: tensor<8xi8>, %i: tensor<8xi32>, %l: tensor<8xi64>, %z: tensor<8xi1>)
    -> (tensor<8xi64>, tensor<8xi32>, tensor<8xi8>, tensor<8xi32>, tensor<8xi1>, tensor<8xi1>,
        tensor<8xi32>, tensor<8xi64>, tensor<8xi8>, tensor<8xi1>) {
  %0 = kiln.cast %b : tensor<8xi8> -> tensor<8xi64>
  %1 = kiln.cast %b : tensor<8xi8> -> tensor<8xi32>
  %2 = kiln.cast %l : tensor<8xi64> -> tensor<8xi8>
  %3 = kiln.cast %l : tensor<8xi64> -> tensor<8xi32>
  %4 = kiln.cast %i : tensor<8xi32> -> tensor<8xi1>
  %5 = kiln.cast %b : tensor<8xi8> -> tensor<8xi1>
  %6 = kiln.cast %z : tensor<8xi1> -> tensor<8xi32>
  %7 = kiln.cast %z : tensor<8xi1> -> tensor<8xi64>
  %8 = kiln.cast %z : tensor<8xi1> -> tensor<8xi8>
  %9 = kiln.cast %l : tensor<8xi64> -> tensor<8xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<8xi64>, tensor<8xi32>, tensor<8xi8>,
      tensor<8xi32>, tensor<8xi1>, tensor<8xi1>, tensor<8xi32>, tensor<8xi64>, tensor<8xi8>, tensor<8xi1>
}

func.func @cast_f16_int(%h: tensor<8xf16>, %i: tensor<8xi32>, %z: tensor<8xi1>, %b: tensor<8xi8>)
    -> (tensor<8xi32>, tensor<8xi64>, tensor<8xi1>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf64>) {
  %0 = kiln.cast %h : tensor<8xf16> -> tensor<8xi32>
  %1 = kiln.cast %h : tensor<8xf16> -> tensor<8xi64>
  %2 = kiln.cast %h : tensor<8xf16> -> tensor<8xi1>
  %3 = kiln.cast %i : tensor<8xi32> -> tensor<8xf16>
  %4 = kiln.cast %z : tensor<8xi1> -> tensor<8xf16>
  %5 = kiln.cast %b : tensor<8xi8> -> tensor<8xf16>
  %6 = kiln.cast %h : tensor<8xf16> -> tensor<8xf64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<8xi32>, tensor<8xi64>, tensor<8xi1>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf64>
}

// f32 -> f16 rounds to nearest even and overflows to inf; f32 -> bf16 -> f32.
func.func @cast_rounding(%x: tensor<10xf32>) -> (tensor<10xf16>, tensor<10xf32>) {
  %0 = kiln.cast %x : tensor<10xf32> -> tensor<10xf16>
  %b = kiln.cast %x : tensor<10xf32> -> tensor<10xbf16>
  %1 = kiln.cast %b : tensor<10xbf16> -> tensor<10xf32>
  return %0, %1 : tensor<10xf16>, tensor<10xf32>
}

//===----------------------------------------------------------------------===//
// Fusion regions, folded constants, model boundary
//===----------------------------------------------------------------------===//

// A kiln.fusion's body is inlined by the CPU path.
func.func @fusion_add_relu(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = kiln.fusion ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %s = kiln.add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %t = kiln.relu %s : tensor<4x8xf32>
    kiln.yield %t : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// Elementwise ops on constants only are folded by the clean-up pipeline: the
// folders must agree with the runtime (NaN propagation included).
func.func @folded_unary()
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi32>) {
  %c = kiln.constant dense<[0x7FC00000, -1.5, 0.0, 2.5]> : tensor<4xf32>
  %z = kiln.constant dense<0.0> : tensor<f32>
  %0 = kiln.relu %c : tensor<4xf32>
  %1 = kiln.max %c, %z : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = kiln.hardsigmoid %c alpha 0.2 beta 0.5 : tensor<4xf32>
  %3 = kiln.sign %c : tensor<4xf32>
  %4 = kiln.clip %c min -1.0 max 1.0 : tensor<4xf32>
  %5 = kiln.compare ge, %c, %z : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %i = kiln.constant dense<[-7, 7, -8, 9]> : tensor<4xi32>
  %d = kiln.constant dense<[2, -2, 3, 9]> : tensor<4xi32>
  %6 = kiln.div %i, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi32>
}

// Integer clips of constants: the folder saturates out-of-range bounds and
// rounds fractional ones inwards (the same clips at run time are in
// pending-int-clip-bounds.mlir).
func.func @clip_int_folded() -> (tensor<3xi8>, tensor<5xi32>, tensor<2xi64>) {
  %c = kiln.constant dense<[-5, 0, 100]> : tensor<3xi8>
  %0 = kiln.clip %c min -1000.0 max 1000.0 : tensor<3xi8>
  %i = kiln.constant dense<[-3, -2, 1, 2, 3]> : tensor<5xi32>
  %1 = kiln.clip %i min 2.5 : tensor<5xi32>
  %l = kiln.constant dense<[9223372036854775807, -9223372036854775807]> : tensor<2xi64>
  %2 = kiln.clip %l max 1.0e19 : tensor<2xi64>
  return %0, %1, %2 : tensor<3xi8>, tensor<5xi32>, tensor<2xi64>
}

// Inputs and outputs named with kiln.name ("logits/0" is written as
// logits_0.npy).
func.func @named_io(%x: tensor<3xf32> {kiln.name = "x"}, %y: tensor<3xf32> {kiln.name = "bias"})
    -> (tensor<3xf32> {kiln.name = "sum"}, tensor<3xf32> {kiln.name = "logits/0"}) {
  %0 = kiln.add %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = kiln.mul %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}
