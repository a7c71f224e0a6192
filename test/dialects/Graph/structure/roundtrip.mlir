// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Round trips of kiln.constant, kiln.fusion and kiln.yield
// (GraphStructureOps.td) through the custom and the generic form.

//===----------------------------------------------------------------------===//
// kiln.constant
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @constants
// CHECK: %[[DENSE:.*]] = kiln.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[SPLAT:.*]] = kiln.constant dense<5.000000e-01> : tensor<2x3xf16>
// CHECK: %[[BOOL:.*]] = kiln.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK: %[[BSPLAT:.*]] = kiln.constant dense<true> : tensor<2x2xi1>
// CHECK: %[[SHAPE:.*]] = kiln.constant dense<[1, 128, -1]> : tensor<3xi64>
// CHECK: %[[SCALAR:.*]] = kiln.constant dense<-7> : tensor<i8>
// CHECK: %[[BF:.*]] = kiln.constant dense<{{\[}}[1.000000e+00, -2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xbf16>
// CHECK: %[[I32:.*]] = kiln.constant dense<[0, 2147483647, -2147483648]> : tensor<3xi32>
// CHECK: %[[EMPTY:.*]] = kiln.constant dense<> : tensor<0x4xf32>
// CHECK: return %[[DENSE]], %[[SPLAT]], %[[BOOL]], %[[BSPLAT]], %[[SHAPE]], %[[SCALAR]], %[[BF]], %[[I32]], %[[EMPTY]]
func.func @constants()
    -> (tensor<2xf32>, tensor<2x3xf16>, tensor<3xi1>, tensor<2x2xi1>,
        tensor<3xi64>, tensor<i8>, tensor<2x2xbf16>, tensor<3xi32>,
        tensor<0x4xf32>) {
  %0 = kiln.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = kiln.constant dense<0.5> : tensor<2x3xf16>
  %2 = kiln.constant dense<[true, false, true]> : tensor<3xi1>
  %3 = kiln.constant dense<true> : tensor<2x2xi1>
  %4 = kiln.constant dense<[1, 128, -1]> : tensor<3xi64>
  %5 = kiln.constant dense<-7> : tensor<i8>
  %6 = kiln.constant dense<[[1.0, -2.0], [3.0, 4.0]]> : tensor<2x2xbf16>
  %7 = kiln.constant dense<[0, 2147483647, -2147483648]> : tensor<3xi32>
  %8 = kiln.constant dense<> : tensor<0x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8
      : tensor<2xf32>, tensor<2x3xf16>, tensor<3xi1>, tensor<2x2xi1>,
        tensor<3xi64>, tensor<i8>, tensor<2x2xbf16>, tensor<3xi32>,
        tensor<0x4xf32>
}

// Weights are best held as resource blobs.
// CHECK-LABEL: func.func @constant_resource
// CHECK: %[[W:.*]] = kiln.constant dense_resource<weights> : tensor<2xf32>
// CHECK: return %[[W]]
func.func @constant_resource() -> tensor<2xf32> {
  %0 = kiln.constant dense_resource<weights> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// kiln.fusion and kiln.yield
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @fusion_one_result
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK: %[[R:.*]] = kiln.fusion ins(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
// CHECK: ^bb0(%[[A:.*]]: tensor<4x8xf32>, %[[C:.*]]: tensor<8xf32>):
// CHECK:   %[[S:.*]] = kiln.add %[[A]], %[[C]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK:   %[[T:.*]] = kiln.relu %[[S]] : tensor<4x8xf32>
// CHECK:   kiln.yield %[[T]] : tensor<4x8xf32>
// CHECK: }
// CHECK: return %[[R]]
func.func @fusion_one_result(%x: tensor<4x8xf32>, %b: tensor<8xf32>)
    -> tensor<4x8xf32> {
  %r = kiln.fusion ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>)
      -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %s = kiln.add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %t = kiln.relu %s : tensor<4x8xf32>
    kiln.yield %t : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// Three inputs of different element types, three results, a `kind`.
// CHECK-LABEL: func.func @fusion_many
// CHECK-SAME: (%[[X:.*]]: tensor<2x6xf16>, %[[I:.*]]: tensor<3xi32>, %[[M:.*]]: tensor<2x6xi1>)
// CHECK: %[[R:.*]]:3 = kiln.fusion ins(%[[X]], %[[I]], %[[M]] : tensor<2x6xf16>, tensor<3xi32>, tensor<2x6xi1>) attributes {kind = "shape+reduce"} -> tensor<2x3xf16>, tensor<3xf16>, tensor<2x6xi1> {
// CHECK: ^bb0(%[[A:.*]]: tensor<2x6xf16>, %[[J:.*]]: tensor<3xi32>, %[[N:.*]]: tensor<2x6xi1>):
// CHECK:   %[[P:.*]]:2 = kiln.split %[[A]] axis 1 : tensor<2x6xf16> -> tensor<2x3xf16>, tensor<2x3xf16>
// CHECK:   %[[G:.*]] = kiln.gather %[[P]]#1[%[[J]]] axis -1 : (tensor<2x3xf16>, tensor<3xi32>) -> tensor<2x3xf16>
// CHECK:   %[[S:.*]] = kiln.reduce_sum %[[G]] axes [0] : tensor<2x3xf16> -> tensor<3xf16>
// CHECK:   kiln.yield %[[G]], %[[S]], %[[N]] : tensor<2x3xf16>, tensor<3xf16>, tensor<2x6xi1>
// CHECK: }
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
func.func @fusion_many(%x: tensor<2x6xf16>, %i: tensor<3xi32>,
                       %m: tensor<2x6xi1>)
    -> (tensor<2x3xf16>, tensor<3xf16>, tensor<2x6xi1>) {
  %r:3 = kiln.fusion ins(%x, %i, %m : tensor<2x6xf16>, tensor<3xi32>,
                                       tensor<2x6xi1>)
      attributes {kind = "shape+reduce"}
      -> tensor<2x3xf16>, tensor<3xf16>, tensor<2x6xi1> {
  ^bb0(%a: tensor<2x6xf16>, %j: tensor<3xi32>, %n: tensor<2x6xi1>):
    %p:2 = kiln.split %a axis 1 : tensor<2x6xf16> -> tensor<2x3xf16>, tensor<2x3xf16>
    %g = kiln.gather %p#1[%j] axis -1
        : (tensor<2x3xf16>, tensor<3xi32>) -> tensor<2x3xf16>
    %s = kiln.reduce_sum %g axes [0] : tensor<2x3xf16> -> tensor<3xf16>
    kiln.yield %g, %s, %n : tensor<2x3xf16>, tensor<3xf16>, tensor<2x6xi1>
  }
  return %r#0, %r#1, %r#2 : tensor<2x3xf16>, tensor<3xf16>, tensor<2x6xi1>
}

// A fusion that only materialises constants has no inputs.
// CHECK-LABEL: func.func @fusion_no_inputs
// CHECK: %[[R:.*]] = kiln.fusion -> tensor<2xi64> {
// CHECK-NEXT:   %[[C:.*]] = kiln.constant dense<[3, 4]> : tensor<2xi64>
// CHECK-NEXT:   kiln.yield %[[C]] : tensor<2xi64>
// CHECK-NEXT: }
// CHECK: return %[[R]]
func.func @fusion_no_inputs() -> tensor<2xi64> {
  %r = kiln.fusion -> tensor<2xi64> {
    %c = kiln.constant dense<[3, 4]> : tensor<2xi64>
    kiln.yield %c : tensor<2xi64>
  }
  return %r : tensor<2xi64>
}

// Operands of the fusion body may be used out of order and more than once.
// CHECK-LABEL: func.func @fusion_passthrough
// CHECK-SAME: (%[[X:.*]]: tensor<bf16>, %[[Y:.*]]: tensor<i8>)
// CHECK: %[[R:.*]]:3 = kiln.fusion ins(%[[X]], %[[Y]] : tensor<bf16>, tensor<i8>) -> tensor<i8>, tensor<bf16>, tensor<i8> {
// CHECK: ^bb0(%[[A:.*]]: tensor<bf16>, %[[B:.*]]: tensor<i8>):
// CHECK:   kiln.yield %[[B]], %[[A]], %[[B]] : tensor<i8>, tensor<bf16>, tensor<i8>
func.func @fusion_passthrough(%x: tensor<bf16>, %y: tensor<i8>)
    -> (tensor<i8>, tensor<bf16>, tensor<i8>) {
  %r:3 = kiln.fusion ins(%x, %y : tensor<bf16>, tensor<i8>)
      -> tensor<i8>, tensor<bf16>, tensor<i8> {
  ^bb0(%a: tensor<bf16>, %b: tensor<i8>):
    kiln.yield %b, %a, %b : tensor<i8>, tensor<bf16>, tensor<i8>
  }
  return %r#0, %r#1, %r#2 : tensor<i8>, tensor<bf16>, tensor<i8>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
