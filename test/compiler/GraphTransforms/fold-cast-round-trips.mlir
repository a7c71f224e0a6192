// RUN: kiln-opt %s -kiln-fold-cast-round-trips -canonicalize -split-input-file | FileCheck %s

// QuantizeLinear to uint8 then DequantizeLinear's read: round half to even
// ((y + 1.5 x 2^23) - 1.5 x 2^23), plus the zero point, clipped to
// [0, 255]. Stored as ui8 and read back, it is the clipped value itself.
// CHECK-LABEL: func @uint8
// CHECK: %[[C:.*]] = kiln.clip %{{.*}} min 0.000000e+00 max 2.550000e+02
// CHECK-NOT: kiln.cast
// CHECK: return %[[C]]
func.func @uint8(%x: tensor<4xf32>) -> tensor<4xf32> {
  %shift = kiln.constant dense<12582912.0> : tensor<f32>
  %zp = kiln.constant dense<128.0> : tensor<f32>
  %a = kiln.add %x, %shift : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %r = kiln.sub %a, %shift : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %z = kiln.add %r, %zp : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %c = kiln.clip %z min 0.0 max 255.0 : tensor<4xf32>
  %q = kiln.cast %c : tensor<4xf32> -> tensor<4xui8>
  %d = kiln.cast %q : tensor<4xui8> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// int8, zero point subtracted, f64: the same.
// CHECK-LABEL: func @int8_f64
// CHECK: %[[C:.*]] = kiln.clip
// CHECK-NOT: kiln.cast
// CHECK: return %[[C]]
func.func @int8_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %shift = kiln.constant dense<6755399441055744.0> : tensor<f64>
  %zp = kiln.constant dense<3.0> : tensor<f64>
  %a = kiln.add %shift, %x : (tensor<f64>, tensor<4xf64>) -> tensor<4xf64>
  %r = kiln.sub %a, %shift : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
  %z = kiln.sub %r, %zp : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
  %c = kiln.clip %z min -128.0 max 127.0 : tensor<4xf64>
  %q = kiln.cast %c : tensor<4xf64> -> tensor<4xi8>
  %d = kiln.cast %q : tensor<4xi8> -> tensor<4xf64>
  return %d : tensor<4xf64>
}

// -----

// Not rounded: the cast truncates a fraction, so the round trip stays.
// CHECK-LABEL: func @not_rounded
// CHECK: kiln.cast
// CHECK: kiln.cast
func.func @not_rounded(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = kiln.clip %x min 0.0 max 255.0 : tensor<4xf32>
  %q = kiln.cast %c : tensor<4xf32> -> tensor<4xui8>
  %d = kiln.cast %q : tensor<4xui8> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// Bounds outside the integer type: the cast would not hold the value.
// CHECK-LABEL: func @out_of_range
// CHECK: kiln.cast
// CHECK: kiln.cast
func.func @out_of_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  %shift = kiln.constant dense<12582912.0> : tensor<f32>
  %a = kiln.add %x, %shift : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %r = kiln.sub %a, %shift : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %c = kiln.clip %r min 0.0 max 300.0 : tensor<4xf32>
  %q = kiln.cast %c : tensor<4xf32> -> tensor<4xui8>
  %d = kiln.cast %q : tensor<4xui8> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// The rounding is whole only above -2^22: a lower bound below it keeps the
// round trip (here through i32, whose range holds the bounds).
// CHECK-LABEL: func @below_rounding_range
// CHECK: kiln.cast
// CHECK: kiln.cast
func.func @below_rounding_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  %shift = kiln.constant dense<12582912.0> : tensor<f32>
  %a = kiln.add %x, %shift : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %r = kiln.sub %a, %shift : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %c = kiln.clip %r min -8388608.0 max 127.0 : tensor<4xf32>
  %q = kiln.cast %c : tensor<4xf32> -> tensor<4xi32>
  %d = kiln.cast %q : tensor<4xi32> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// Read back as another float type: a conversion remains.
// CHECK-LABEL: func @other_float
// CHECK: kiln.cast %{{.*}} : tensor<4xui8> -> tensor<4xf16>
func.func @other_float(%x: tensor<4xf32>) -> tensor<4xf16> {
  %shift = kiln.constant dense<12582912.0> : tensor<f32>
  %a = kiln.add %x, %shift : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %r = kiln.sub %a, %shift : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %c = kiln.clip %r min 0.0 max 255.0 : tensor<4xf32>
  %q = kiln.cast %c : tensor<4xf32> -> tensor<4xui8>
  %d = kiln.cast %q : tensor<4xui8> -> tensor<4xf16>
  return %d : tensor<4xf16>
}
