// RUN: kiln-opt %s -kiln-lower-unsigned -split-input-file -verify-diagnostics | FileCheck %s

// Types, constants and the signature become signless; add keeps its bits.
// CHECK-LABEL: func @retype
// CHECK-SAME: (%[[X:.*]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK: %[[C:.*]] = kiln.constant dense<[1, 2, -1, -128]> : tensor<4xi8>
// CHECK: kiln.add %[[X]], %[[C]] : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
func.func @retype(%x: tensor<4xui8>) -> tensor<4xui8> {
  %c = kiln.constant dense<[1, 2, 255, 128]> : tensor<4xui8>
  %0 = kiln.add %x, %c : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Order: compared with the top bit flipped; max flipped back.
// CHECK-LABEL: func @order
// CHECK: %[[MIN:.*]] = kiln.constant dense<-32768> : tensor<i16>
// CHECK: %[[A:.*]] = kiln.add %arg0, %[[MIN]]
// CHECK: %[[B:.*]] = kiln.add %arg1, %{{.*}}
// CHECK: %[[M:.*]] = kiln.max %[[A]], %[[B]]
// CHECK: kiln.add %[[M]], %{{.*}}
// CHECK: kiln.compare lt, %{{.*}}, %{{.*}}
// CHECK-NOT: ui16
func.func @order(%a: tensor<3xui16>, %b: tensor<3xui16>) -> (tensor<3xui16>, tensor<3xi1>) {
  %0 = kiln.max %a, %b : (tensor<3xui16>, tensor<3xui16>) -> tensor<3xui16>
  %1 = kiln.compare lt, %a, %b : (tensor<3xui16>, tensor<3xui16>) -> tensor<3xi1>
  return %0, %1 : tensor<3xui16>, tensor<3xi1>
}

// -----

// Equality does not depend on the sign: left as it is.
// CHECK-LABEL: func @equal
// CHECK-NEXT: kiln.compare eq, %arg0, %arg1 : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
func.func @equal(%a: tensor<3xui32>, %b: tensor<3xui32>) -> tensor<3xi1> {
  %0 = kiln.compare eq, %a, %b : (tensor<3xui32>, tensor<3xui32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

// Below 64 bits, division runs on the values zero-extended to i64.
// CHECK-LABEL: func @divide
// CHECK: kiln.cast %arg0 : tensor<3xi8> -> tensor<3xi64>
// CHECK: kiln.select
// CHECK: kiln.div %{{.*}}, %{{.*}} : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
// CHECK: kiln.cast %{{.*}} : tensor<3xi64> -> tensor<3xi8>
func.func @divide(%a: tensor<3xui8>, %b: tensor<3xui8>) -> tensor<3xui8> {
  %0 = kiln.div %a, %b : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return %0 : tensor<3xui8>
}

// -----

// abs and relu are the identity; sign is x != 0.
// CHECK-LABEL: func @sign_abs_relu
// CHECK-NOT: kiln.abs
// CHECK-NOT: kiln.relu
// CHECK: %[[NZ:.*]] = kiln.compare ne, %arg0
// CHECK: kiln.cast %[[NZ]] : tensor<3xi1> -> tensor<3xi8>
func.func @sign_abs_relu(%x: tensor<3xui8>) -> (tensor<3xui8>, tensor<3xui8>, tensor<3xui8>) {
  %0 = kiln.abs %x : tensor<3xui8>
  %1 = kiln.relu %x : tensor<3xui8>
  %2 = kiln.sign %x : tensor<3xui8>
  return %0, %1, %2 : tensor<3xui8>, tensor<3xui8>, tensor<3xui8>
}

// -----

// Widening from unsigned zero-extends (sign extension, then + 2^8 where it
// went negative); narrowing and same-width casts keep the bits. To a float,
// 8 and 16 bits widen to i32 only (half the vector width of i64).
// CHECK-LABEL: func @casts
// CHECK: %[[W:.*]] = kiln.cast %arg0 : tensor<3xi8> -> tensor<3xi32>
// CHECK: kiln.constant dense<256> : tensor<i32>
// CHECK: kiln.cast %{{.*}} : tensor<3xi32> -> tensor<3xf32>
func.func @casts(%x: tensor<3xui8>) -> tensor<3xf32> {
  %0 = kiln.cast %x : tensor<3xui8> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @average(%x: tensor<1x1x4x4xui8>) -> tensor<1x1xui8> {
  // expected-error @+1 {{'kiln.reduce_mean' on unsigned integers is not supported}}
  %0 = kiln.reduce_mean %x axes [2, 3] : tensor<1x1x4x4xui8> -> tensor<1x1xui8>
  return %0 : tensor<1x1xui8>
}
