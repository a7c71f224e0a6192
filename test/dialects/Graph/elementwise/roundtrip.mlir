// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Round trip of every elementwise op through the custom and the generic
// printer.

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @numeric_unary_f32
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @numeric_unary_f32(%x: tensor<2x3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: %[[NEG:.*]] = kiln.neg %[[X]] : tensor<2x3xf32>
  %0 = kiln.neg %x : tensor<2x3xf32>
  // CHECK: %[[ABS:.*]] = kiln.abs %[[X]] : tensor<2x3xf32>
  %1 = kiln.abs %x : tensor<2x3xf32>
  // CHECK: %[[SIGN:.*]] = kiln.sign %[[X]] : tensor<2x3xf32>
  %2 = kiln.sign %x : tensor<2x3xf32>
  // CHECK: %[[RELU:.*]] = kiln.relu %[[X]] : tensor<2x3xf32>
  %3 = kiln.relu %x : tensor<2x3xf32>
  // CHECK: return %[[NEG]], %[[ABS]], %[[SIGN]], %[[RELU]]
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func @numeric_unary_int
// CHECK-SAME: (%[[A:.*]]: tensor<4xi8>, %[[B:.*]]: tensor<4xi32>, %[[C:.*]]: tensor<2x2xi64>)
func.func @numeric_unary_int(%a: tensor<4xi8>, %b: tensor<4xi32>, %c: tensor<2x2xi64>)
    -> (tensor<4xi8>, tensor<4xi32>, tensor<2x2xi64>, tensor<2x2xi64>) {
  // CHECK: kiln.neg %[[A]] : tensor<4xi8>
  %0 = kiln.neg %a : tensor<4xi8>
  // CHECK: kiln.abs %[[B]] : tensor<4xi32>
  %1 = kiln.abs %b : tensor<4xi32>
  // CHECK: kiln.sign %[[C]] : tensor<2x2xi64>
  %2 = kiln.sign %c : tensor<2x2xi64>
  // CHECK: kiln.relu %[[C]] : tensor<2x2xi64>
  %3 = kiln.relu %c : tensor<2x2xi64>
  return %0, %1, %2, %3 : tensor<4xi8>, tensor<4xi32>, tensor<2x2xi64>, tensor<2x2xi64>
}

// CHECK-LABEL: func @float_unary
// CHECK-SAME: (%[[F:.*]]: tensor<8xf32>, %[[H:.*]]: tensor<8xf16>, %[[B:.*]]: tensor<8xbf16>, %[[D:.*]]: tensor<f64>)
func.func @float_unary(%f: tensor<8xf32>, %h: tensor<8xf16>, %b: tensor<8xbf16>, %d: tensor<f64>) {
  // CHECK: kiln.exp %[[F]] : tensor<8xf32>
  %0 = kiln.exp %f : tensor<8xf32>
  // CHECK: kiln.log %[[H]] : tensor<8xf16>
  %1 = kiln.log %h : tensor<8xf16>
  // CHECK: kiln.sqrt %[[B]] : tensor<8xbf16>
  %2 = kiln.sqrt %b : tensor<8xbf16>
  // CHECK: kiln.rsqrt %[[D]] : tensor<f64>
  %3 = kiln.rsqrt %d : tensor<f64>
  // CHECK: kiln.reciprocal %[[F]] : tensor<8xf32>
  %4 = kiln.reciprocal %f : tensor<8xf32>
  // CHECK: kiln.tanh %[[H]] : tensor<8xf16>
  %5 = kiln.tanh %h : tensor<8xf16>
  // CHECK: kiln.sigmoid %[[B]] : tensor<8xbf16>
  %6 = kiln.sigmoid %b : tensor<8xbf16>
  // CHECK: kiln.erf %[[F]] : tensor<8xf32>
  %7 = kiln.erf %f : tensor<8xf32>
  // CHECK: kiln.floor %[[H]] : tensor<8xf16>
  %8 = kiln.floor %h : tensor<8xf16>
  // CHECK: kiln.ceil %[[B]] : tensor<8xbf16>
  %9 = kiln.ceil %b : tensor<8xbf16>
  // CHECK: kiln.sin %[[D]] : tensor<f64>
  %10 = kiln.sin %d : tensor<f64>
  // CHECK: kiln.cos %[[F]] : tensor<8xf32>
  %11 = kiln.cos %f : tensor<8xf32>
  // CHECK: kiln.hardswish %[[H]] : tensor<8xf16>
  %12 = kiln.hardswish %h : tensor<8xf16>
  return
}

// CHECK-LABEL: func @logical_not
// CHECK-SAME: (%[[X:.*]]: tensor<3x1xi1>)
func.func @logical_not(%x: tensor<3x1xi1>) -> tensor<3x1xi1> {
  // CHECK: %[[R:.*]] = kiln.not %[[X]] : tensor<3x1xi1>
  // CHECK: return %[[R]]
  %0 = kiln.not %x : tensor<3x1xi1>
  return %0 : tensor<3x1xi1>
}

// The default approximation is elided when printing.
// CHECK-LABEL: func @gelu
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>, %[[H:.*]]: tensor<4xbf16>)
func.func @gelu(%x: tensor<2x8xf32>, %h: tensor<4xbf16>)
    -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<4xbf16>) {
  // CHECK: %[[E:.*]] = kiln.gelu %[[X]] : tensor<2x8xf32>
  %0 = kiln.gelu %x : tensor<2x8xf32>
  // CHECK: %[[N:.*]] = kiln.gelu %[[X]] : tensor<2x8xf32>
  %1 = kiln.gelu %x approximate none : tensor<2x8xf32>
  // CHECK: %[[T:.*]] = kiln.gelu %[[H]] approximate tanh : tensor<4xbf16>
  %2 = kiln.gelu %h approximate tanh : tensor<4xbf16>
  // CHECK: return %[[E]], %[[N]], %[[T]]
  return %0, %1, %2 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<4xbf16>
}

// CHECK-LABEL: func @hardsigmoid_leaky_relu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[H:.*]]: tensor<4xf16>)
func.func @hardsigmoid_leaky_relu(%x: tensor<4xf32>, %h: tensor<4xf16>)
    -> (tensor<4xf32>, tensor<4xf16>, tensor<4xf32>) {
  // CHECK: %[[HS:.*]] = kiln.hardsigmoid %[[X]] alpha 2.000000e-01 beta 5.000000e-01 : tensor<4xf32>
  %0 = kiln.hardsigmoid %x alpha 0.2 beta 0.5 : tensor<4xf32>
  // CHECK: %[[HS2:.*]] = kiln.hardsigmoid %[[H]] alpha 0.16666666666666666 beta 5.000000e-01 : tensor<4xf16>
  %1 = kiln.hardsigmoid %h alpha 0.16666666666666666 beta 0.5 : tensor<4xf16>
  // CHECK: %[[LR:.*]] = kiln.leaky_relu %[[X]] alpha 1.000000e-02 : tensor<4xf32>
  %2 = kiln.leaky_relu %x alpha 0.01 : tensor<4xf32>
  // CHECK: return %[[HS]], %[[HS2]], %[[LR]]
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf16>, tensor<4xf32>
}

// CHECK-LABEL: func @clip
// CHECK-SAME: (%[[X:.*]]: tensor<1x32xf32>, %[[I:.*]]: tensor<4xi8>, %[[J:.*]]: tensor<4xi64>)
func.func @clip(%x: tensor<1x32xf32>, %i: tensor<4xi8>, %j: tensor<4xi64>) {
  // CHECK: kiln.clip %[[X]] min 0.000000e+00 max 6.000000e+00 : tensor<1x32xf32>
  %0 = kiln.clip %x min 0.0 max 6.0 : tensor<1x32xf32>
  // CHECK: kiln.clip %[[X]] min -1.000000e+00 : tensor<1x32xf32>
  %1 = kiln.clip %x min -1.0 : tensor<1x32xf32>
  // CHECK: kiln.clip %[[I]] max 1.000000e+02 : tensor<4xi8>
  %2 = kiln.clip %i max 100.0 : tensor<4xi8>
  // CHECK: kiln.clip %[[J]] : tensor<4xi64>
  %3 = kiln.clip %j : tensor<4xi64>
  // min == max is allowed.
  // CHECK: kiln.clip %[[J]] min 3.000000e+00 max 3.000000e+00 : tensor<4xi64>
  %4 = kiln.clip %j min 3.0 max 3.0 : tensor<4xi64>
  return
}

//===----------------------------------------------------------------------===//
// Broadcasting binary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @arith_f32_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3xf32>, %[[S:.*]]: tensor<f32>, %[[C:.*]]: tensor<2x1xf32>)
func.func @arith_f32_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %s: tensor<f32>, %c: tensor<2x1xf32>) {
  // CHECK: kiln.add %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = kiln.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: kiln.sub %[[S]], %[[A]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = kiln.sub %s, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: kiln.mul %[[C]], %[[B]] : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = kiln.mul %c, %b : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: kiln.div %[[A]], %[[A]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = kiln.div %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: kiln.rem %[[A]], %[[C]] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %r = kiln.rem %a, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK: kiln.pow %[[A]], %[[S]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %4 = kiln.pow %a, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: kiln.min %[[A]], %[[C]] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %5 = kiln.min %a, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK: kiln.max %[[S]], %[[S]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %6 = kiln.max %s, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func @arith_other_types
// CHECK-SAME: (%[[H:.*]]: tensor<4xf16>, %[[B:.*]]: tensor<2x4xbf16>, %[[I:.*]]: tensor<4xi8>, %[[J:.*]]: tensor<3x1xi32>, %[[K:.*]]: tensor<1x5xi32>, %[[L:.*]]: tensor<i64>, %[[D:.*]]: tensor<2xf64>)
func.func @arith_other_types(%h: tensor<4xf16>, %b: tensor<2x4xbf16>, %i: tensor<4xi8>,
                             %j: tensor<3x1xi32>, %k: tensor<1x5xi32>, %l: tensor<i64>,
                             %d: tensor<2xf64>) {
  // CHECK: kiln.add %[[H]], %[[H]] : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %0 = kiln.add %h, %h : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  // CHECK: kiln.pow %[[B]], %[[B]] : (tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x4xbf16>
  %1 = kiln.pow %b, %b : (tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x4xbf16>
  // CHECK: kiln.sub %[[I]], %[[I]] : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %2 = kiln.sub %i, %i : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  // CHECK: kiln.mul %[[J]], %[[K]] : (tensor<3x1xi32>, tensor<1x5xi32>) -> tensor<3x5xi32>
  %3 = kiln.mul %j, %k : (tensor<3x1xi32>, tensor<1x5xi32>) -> tensor<3x5xi32>
  // CHECK: kiln.div %[[L]], %[[L]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %4 = kiln.div %l, %l : (tensor<i64>, tensor<i64>) -> tensor<i64>
  // CHECK: kiln.min %[[I]], %[[I]] : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %5 = kiln.min %i, %i : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  // CHECK: kiln.max %[[D]], %[[D]] : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  %6 = kiln.max %d, %d : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  return
}

// CHECK-LABEL: func @logical_binary
// CHECK-SAME: (%[[A:.*]]: tensor<2x4xi1>, %[[B:.*]]: tensor<4xi1>, %[[S:.*]]: tensor<i1>)
func.func @logical_binary(%a: tensor<2x4xi1>, %b: tensor<4xi1>, %s: tensor<i1>)
    -> (tensor<2x4xi1>, tensor<2x4xi1>, tensor<i1>) {
  // CHECK: %[[AND:.*]] = kiln.and %[[A]], %[[B]] : (tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  %0 = kiln.and %a, %b : (tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  // CHECK: %[[OR:.*]] = kiln.or %[[S]], %[[A]] : (tensor<i1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %1 = kiln.or %s, %a : (tensor<i1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  // CHECK: %[[XOR:.*]] = kiln.xor %[[S]], %[[S]] : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %2 = kiln.xor %s, %s : (tensor<i1>, tensor<i1>) -> tensor<i1>
  // CHECK: return %[[AND]], %[[OR]], %[[XOR]]
  return %0, %1, %2 : tensor<2x4xi1>, tensor<2x4xi1>, tensor<i1>
}

//===----------------------------------------------------------------------===//
// Comparison, select, cast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @compare_predicates
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
func.func @compare_predicates(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // CHECK: kiln.compare eq, %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = kiln.compare eq, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: kiln.compare ne, %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = kiln.compare ne, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: kiln.compare lt, %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = kiln.compare lt, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: kiln.compare le, %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = kiln.compare le, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: kiln.compare gt, %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = kiln.compare gt, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: kiln.compare ge, %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = kiln.compare ge, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// CHECK-LABEL: func @compare_types
// CHECK-SAME: (%[[I:.*]]: tensor<2x3xi64>, %[[S:.*]]: tensor<i64>, %[[B:.*]]: tensor<5xi1>, %[[H:.*]]: tensor<1x5xf16>, %[[C:.*]]: tensor<5xbf16>, %[[J:.*]]: tensor<5xi8>)
func.func @compare_types(%i: tensor<2x3xi64>, %s: tensor<i64>, %b: tensor<5xi1>,
                         %h: tensor<1x5xf16>, %c: tensor<5xbf16>, %j: tensor<5xi8>) {
  // CHECK: kiln.compare lt, %[[I]], %[[S]] : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi1>
  %0 = kiln.compare lt, %i, %s : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi1>
  // CHECK: kiln.compare eq, %[[B]], %[[B]] : (tensor<5xi1>, tensor<5xi1>) -> tensor<5xi1>
  %1 = kiln.compare eq, %b, %b : (tensor<5xi1>, tensor<5xi1>) -> tensor<5xi1>
  // CHECK: kiln.compare ge, %[[H]], %[[H]] : (tensor<1x5xf16>, tensor<1x5xf16>) -> tensor<1x5xi1>
  %2 = kiln.compare ge, %h, %h : (tensor<1x5xf16>, tensor<1x5xf16>) -> tensor<1x5xi1>
  // CHECK: kiln.compare ne, %[[C]], %[[C]] : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<5xi1>
  %3 = kiln.compare ne, %c, %c : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<5xi1>
  // CHECK: kiln.compare gt, %[[J]], %[[J]] : (tensor<5xi8>, tensor<5xi8>) -> tensor<5xi1>
  %4 = kiln.compare gt, %j, %j : (tensor<5xi8>, tensor<5xi8>) -> tensor<5xi1>
  return
}

// CHECK-LABEL: func @select
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<f32>, %[[S:.*]]: tensor<i1>, %[[I:.*]]: tensor<2x1xi32>, %[[P:.*]]: tensor<2x4xi1>)
func.func @select(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<f32>, %s: tensor<i1>,
                  %i: tensor<2x1xi32>, %p: tensor<2x4xi1>)
    -> (tensor<4xf32>, tensor<2x4xi32>, tensor<2x4xi1>) {
  // CHECK: %[[R0:.*]] = kiln.select %[[C]], %[[A]], %[[B]] : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %0 = kiln.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // All three operands broadcast together.
  // CHECK: %[[R1:.*]] = kiln.select %[[C]], %[[I]], %[[I]] : (tensor<4xi1>, tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  %1 = kiln.select %c, %i, %i : (tensor<4xi1>, tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
  // CHECK: %[[R2:.*]] = kiln.select %[[S]], %[[P]], %[[C]] : (tensor<i1>, tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  %2 = kiln.select %s, %p, %c : (tensor<i1>, tensor<2x4xi1>, tensor<4xi1>) -> tensor<2x4xi1>
  // CHECK: return %[[R0]], %[[R1]], %[[R2]]
  return %0, %1, %2 : tensor<4xf32>, tensor<2x4xi32>, tensor<2x4xi1>
}

// CHECK-LABEL: func @cast
// CHECK-SAME: (%[[F:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x3xi1>, %[[I:.*]]: tensor<2x3xi8>, %[[L:.*]]: tensor<2x3xi64>)
func.func @cast(%f: tensor<2x3xf32>, %b: tensor<2x3xi1>, %i: tensor<2x3xi8>, %l: tensor<2x3xi64>) {
  // CHECK: kiln.cast %[[F]] : tensor<2x3xf32> -> tensor<2x3xf16>
  %0 = kiln.cast %f : tensor<2x3xf32> -> tensor<2x3xf16>
  // CHECK: kiln.cast %[[F]] : tensor<2x3xf32> -> tensor<2x3xbf16>
  %1 = kiln.cast %f : tensor<2x3xf32> -> tensor<2x3xbf16>
  // CHECK: kiln.cast %[[F]] : tensor<2x3xf32> -> tensor<2x3xi1>
  %2 = kiln.cast %f : tensor<2x3xf32> -> tensor<2x3xi1>
  // CHECK: kiln.cast %[[F]] : tensor<2x3xf32> -> tensor<2x3xi64>
  %3 = kiln.cast %f : tensor<2x3xf32> -> tensor<2x3xi64>
  // CHECK: kiln.cast %[[B]] : tensor<2x3xi1> -> tensor<2x3xf32>
  %4 = kiln.cast %b : tensor<2x3xi1> -> tensor<2x3xf32>
  // CHECK: kiln.cast %[[I]] : tensor<2x3xi8> -> tensor<2x3xi64>
  %5 = kiln.cast %i : tensor<2x3xi8> -> tensor<2x3xi64>
  // CHECK: kiln.cast %[[L]] : tensor<2x3xi64> -> tensor<2x3xi8>
  %6 = kiln.cast %l : tensor<2x3xi64> -> tensor<2x3xi8>
  // CHECK: kiln.cast %[[L]] : tensor<2x3xi64> -> tensor<2x3xbf16>
  %7 = kiln.cast %l : tensor<2x3xi64> -> tensor<2x3xbf16>
  // CHECK: kiln.cast %[[I]] : tensor<2x3xi8> -> tensor<2x3xi1>
  %8 = kiln.cast %i : tensor<2x3xi8> -> tensor<2x3xi1>
  // Casting to the same type parses (and is folded away by canonicalize).
  // CHECK: kiln.cast %[[F]] : tensor<2x3xf32> -> tensor<2x3xf32>
  %9 = kiln.cast %f : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// The inverse trigonometric and hyperbolic functions.
// CHECK-LABEL: func @inverse_trig
func.func @inverse_trig(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: kiln.acos %{{.*}} : tensor<4xf32>
  // CHECK: kiln.asin
  // CHECK: kiln.atan
  // CHECK: kiln.acosh
  // CHECK: kiln.asinh
  // CHECK: kiln.atanh
  %0 = kiln.acos %x : tensor<4xf32>
  %1 = kiln.asin %0 : tensor<4xf32>
  %2 = kiln.atan %1 : tensor<4xf32>
  %3 = kiln.acosh %2 : tensor<4xf32>
  %4 = kiln.asinh %3 : tensor<4xf32>
  %5 = kiln.atanh %4 : tensor<4xf32>
  return %5 : tensor<4xf32>
}
