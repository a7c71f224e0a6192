// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Round trips of the data-movement ops (GraphShapeOps.td) through the custom
// and the generic form.

//===----------------------------------------------------------------------===//
// kiln.reshape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape_f32
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.*]] = kiln.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<6x4xf32>
// CHECK: return %[[R]]
func.func @reshape_f32(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = kiln.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// CHECK-LABEL: func.func @reshape_rank0
// CHECK-SAME: (%[[X:.*]]: tensor<f16>)
// CHECK: %[[UP:.*]] = kiln.reshape %[[X]] : tensor<f16> -> tensor<1x1xf16>
// CHECK: %[[DOWN:.*]] = kiln.reshape %[[UP]] : tensor<1x1xf16> -> tensor<f16>
// CHECK: return %[[DOWN]]
func.func @reshape_rank0(%x: tensor<f16>) -> tensor<f16> {
  %0 = kiln.reshape %x : tensor<f16> -> tensor<1x1xf16>
  %1 = kiln.reshape %0 : tensor<1x1xf16> -> tensor<f16>
  return %1 : tensor<f16>
}

// CHECK-LABEL: func.func @reshape_i1_empty
// CHECK: kiln.reshape %{{.*}} : tensor<4xi1> -> tensor<2x2xi1>
// CHECK: kiln.reshape %{{.*}} : tensor<0x3xi64> -> tensor<3x0xi64>
func.func @reshape_i1_empty(%b: tensor<4xi1>, %e: tensor<0x3xi64>)
    -> (tensor<2x2xi1>, tensor<3x0xi64>) {
  %0 = kiln.reshape %b : tensor<4xi1> -> tensor<2x2xi1>
  %1 = kiln.reshape %e : tensor<0x3xi64> -> tensor<3x0xi64>
  return %0, %1 : tensor<2x2xi1>, tensor<3x0xi64>
}

//===----------------------------------------------------------------------===//
// kiln.transpose
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<1x128x12x64xbf16>, %[[Y:.*]]: tensor<2x3xi8>, %[[S:.*]]: tensor<i32>)
// CHECK: %[[T0:.*]] = kiln.transpose %[[X]] [0, 2, 1, 3] : tensor<1x128x12x64xbf16> -> tensor<1x12x128x64xbf16>
// CHECK: %[[T1:.*]] = kiln.transpose %[[Y]] [1, 0] : tensor<2x3xi8> -> tensor<3x2xi8>
// CHECK: %[[T2:.*]] = kiln.transpose %[[S]] [] : tensor<i32> -> tensor<i32>
// CHECK: return %[[T0]], %[[T1]], %[[T2]]
func.func @transpose(%x: tensor<1x128x12x64xbf16>, %y: tensor<2x3xi8>,
                     %s: tensor<i32>)
    -> (tensor<1x12x128x64xbf16>, tensor<3x2xi8>, tensor<i32>) {
  %0 = kiln.transpose %x [0, 2, 1, 3]
      : tensor<1x128x12x64xbf16> -> tensor<1x12x128x64xbf16>
  %1 = kiln.transpose %y [1, 0] : tensor<2x3xi8> -> tensor<3x2xi8>
  %2 = kiln.transpose %s [] : tensor<i32> -> tensor<i32>
  return %0, %1, %2 : tensor<1x12x128x64xbf16>, tensor<3x2xi8>, tensor<i32>
}

//===----------------------------------------------------------------------===//
// kiln.broadcast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[S:.*]]: tensor<f32>, %[[X:.*]]: tensor<3x1xi1>)
// CHECK: %[[B0:.*]] = kiln.broadcast %[[S]] : tensor<f32> -> tensor<2x3x4xf32>
// CHECK: %[[B1:.*]] = kiln.broadcast %[[X]] : tensor<3x1xi1> -> tensor<2x3x4xi1>
// CHECK: return %[[B0]], %[[B1]]
func.func @broadcast(%s: tensor<f32>, %x: tensor<3x1xi1>)
    -> (tensor<2x3x4xf32>, tensor<2x3x4xi1>) {
  %0 = kiln.broadcast %s : tensor<f32> -> tensor<2x3x4xf32>
  %1 = kiln.broadcast %x : tensor<3x1xi1> -> tensor<2x3x4xi1>
  return %0, %1 : tensor<2x3x4xf32>, tensor<2x3x4xi1>
}

//===----------------------------------------------------------------------===//
// kiln.concat
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>, %[[C:.*]]: tensor<2x1xf32>, %[[D:.*]]: tensor<1xi64>)
// CHECK: %[[C0:.*]] = kiln.concat %[[A]], %[[B]], %[[C]] axis 1 : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x9xf32>
// CHECK: %[[C1:.*]] = kiln.concat %[[A]], %[[A]] axis -2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[C2:.*]] = kiln.concat %[[D]] axis 0 : (tensor<1xi64>) -> tensor<1xi64>
// CHECK: return %[[C0]], %[[C1]], %[[C2]]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<2x1xf32>,
                  %d: tensor<1xi64>)
    -> (tensor<2x9xf32>, tensor<4x3xf32>, tensor<1xi64>) {
  %0 = kiln.concat %a, %b, %c axis 1
      : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x9xf32>
  %1 = kiln.concat %a, %a axis -2
      : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %2 = kiln.concat %d axis 0 : (tensor<1xi64>) -> tensor<1xi64>
  return %0, %1, %2 : tensor<2x9xf32>, tensor<4x3xf32>, tensor<1xi64>
}

//===----------------------------------------------------------------------===//
// kiln.split
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[X:.*]]: tensor<1x128x2304xf16>, %[[Y:.*]]: tensor<6x2xi32>)
// CHECK: %[[S:.*]]:3 = kiln.split %[[X]] axis 2 : tensor<1x128x2304xf16> -> tensor<1x128x768xf16>, tensor<1x128x768xf16>, tensor<1x128x768xf16>
// CHECK: %[[T:.*]]:3 = kiln.split %[[Y]] axis -2 : tensor<6x2xi32> -> tensor<1x2xi32>, tensor<0x2xi32>, tensor<5x2xi32>
// CHECK: %[[U:.*]] = kiln.split %[[Y]] axis 1 : tensor<6x2xi32> -> tensor<6x2xi32>
// CHECK: return %[[S]]#0, %[[S]]#1, %[[S]]#2, %[[T]]#2, %[[U]]
func.func @split(%x: tensor<1x128x2304xf16>, %y: tensor<6x2xi32>)
    -> (tensor<1x128x768xf16>, tensor<1x128x768xf16>, tensor<1x128x768xf16>,
        tensor<5x2xi32>, tensor<6x2xi32>) {
  %q, %k, %v = kiln.split %x axis 2
      : tensor<1x128x2304xf16> -> tensor<1x128x768xf16>,
        tensor<1x128x768xf16>, tensor<1x128x768xf16>
  %a, %b, %c = kiln.split %y axis -2
      : tensor<6x2xi32> -> tensor<1x2xi32>, tensor<0x2xi32>, tensor<5x2xi32>
  %u = kiln.split %y axis 1 : tensor<6x2xi32> -> tensor<6x2xi32>
  return %q, %k, %v, %c, %u : tensor<1x128x768xf16>, tensor<1x128x768xf16>,
      tensor<1x128x768xf16>, tensor<5x2xi32>, tensor<6x2xi32>
}

//===----------------------------------------------------------------------===//
// kiln.slice
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<5xi8>)
// CHECK: %[[S0:.*]] = kiln.slice %[[X]] starts [0, 2] limits [4, 8] steps [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
// CHECK: %[[S1:.*]] = kiln.slice %[[X]] starts [3, 7] limits [-1, 0] steps [-1, -3] : tensor<4x8xf32> -> tensor<4x3xf32>
// CHECK: %[[S2:.*]] = kiln.slice %[[Y]] starts [2] limits [2] steps [1] : tensor<5xi8> -> tensor<0xi8>
// CHECK: return %[[S0]], %[[S1]], %[[S2]]
func.func @slice(%x: tensor<4x8xf32>, %y: tensor<5xi8>)
    -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<0xi8>) {
  %0 = kiln.slice %x starts [0, 2] limits [4, 8] steps [1, 2]
      : tensor<4x8xf32> -> tensor<4x3xf32>
  // Reversal of dimension 0, every third element of dimension 1 backwards.
  %1 = kiln.slice %x starts [3, 7] limits [-1, 0] steps [-1, -3]
      : tensor<4x8xf32> -> tensor<4x3xf32>
  %2 = kiln.slice %y starts [2] limits [2] steps [1] : tensor<5xi8> -> tensor<0xi8>
  return %0, %1, %2 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<0xi8>
}

//===----------------------------------------------------------------------===//
// kiln.gather
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[T:.*]]: tensor<30522x768xf32>, %[[IDS:.*]]: tensor<1x128xi64>, %[[X:.*]]: tensor<2x3x4xbf16>, %[[J:.*]]: tensor<5xi32>, %[[K:.*]]: tensor<i64>)
// CHECK: %[[G0:.*]] = kiln.gather %[[T]][%[[IDS]]] axis 0 : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
// CHECK: %[[G1:.*]] = kiln.gather %[[X]][%[[J]]] axis -1 : (tensor<2x3x4xbf16>, tensor<5xi32>) -> tensor<2x3x5xbf16>
// CHECK: %[[G2:.*]] = kiln.gather %[[X]][%[[K]]] axis 1 : (tensor<2x3x4xbf16>, tensor<i64>) -> tensor<2x4xbf16>
// CHECK: return %[[G0]], %[[G1]], %[[G2]]
func.func @gather(%table: tensor<30522x768xf32>, %ids: tensor<1x128xi64>,
                  %x: tensor<2x3x4xbf16>, %j: tensor<5xi32>, %k: tensor<i64>)
    -> (tensor<1x128x768xf32>, tensor<2x3x5xbf16>, tensor<2x4xbf16>) {
  %0 = kiln.gather %table[%ids] axis 0
      : (tensor<30522x768xf32>, tensor<1x128xi64>) -> tensor<1x128x768xf32>
  %1 = kiln.gather %x[%j] axis -1
      : (tensor<2x3x4xbf16>, tensor<5xi32>) -> tensor<2x3x5xbf16>
  %2 = kiln.gather %x[%k] axis 1
      : (tensor<2x3x4xbf16>, tensor<i64>) -> tensor<2x4xbf16>
  return %0, %1, %2 : tensor<1x128x768xf32>, tensor<2x3x5xbf16>, tensor<2x4xbf16>
}

// CHECK-LABEL: func.func @gather_i1
// CHECK: kiln.gather %{{.*}}[%{{.*}}] axis 0 : (tensor<4xi1>, tensor<2x2xi32>) -> tensor<2x2xi1>
func.func @gather_i1(%x: tensor<4xi1>, %i: tensor<2x2xi32>) -> tensor<2x2xi1> {
  %0 = kiln.gather %x[%i] axis 0 : (tensor<4xi1>, tensor<2x2xi32>) -> tensor<2x2xi1>
  return %0 : tensor<2x2xi1>
}

//===----------------------------------------------------------------------===//
// kiln.pad
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x4x4xf32>, %[[Y:.*]]: tensor<3x5xi32>)
// CHECK: %[[P0:.*]] = kiln.pad %[[X]] low [0, 0, 1, 1] high [0, 0, 1, 1] constant 0.000000e+00 : tensor<1x3x4x4xf32> -> tensor<1x3x6x6xf32>
// CHECK: %[[P1:.*]] = kiln.pad %[[Y]] low [0, 2] high [1, 0] constant -1.000000e+00 : tensor<3x5xi32> -> tensor<4x7xi32>
// CHECK: %[[P2:.*]] = kiln.pad %[[X]] low [0, 0, 3, 0] high [0, 0, 0, 3] reflect 0.000000e+00 : tensor<1x3x4x4xf32> -> tensor<1x3x7x7xf32>
// CHECK: %[[P3:.*]] = kiln.pad %[[Y]] low [5, 0] high [0, 7] edge 0.000000e+00 : tensor<3x5xi32> -> tensor<8x12xi32>
// CHECK: return %[[P0]], %[[P1]], %[[P2]], %[[P3]]
func.func @pad(%x: tensor<1x3x4x4xf32>, %y: tensor<3x5xi32>)
    -> (tensor<1x3x6x6xf32>, tensor<4x7xi32>, tensor<1x3x7x7xf32>,
        tensor<8x12xi32>) {
  %0 = kiln.pad %x low [0, 0, 1, 1] high [0, 0, 1, 1] constant 0.0
      : tensor<1x3x4x4xf32> -> tensor<1x3x6x6xf32>
  %1 = kiln.pad %y low [0, 2] high [1, 0] constant -1.0
      : tensor<3x5xi32> -> tensor<4x7xi32>
  // Reflect pads up to size - 1; edge pads may exceed the dimension.
  %2 = kiln.pad %x low [0, 0, 3, 0] high [0, 0, 0, 3] reflect 0.0
      : tensor<1x3x4x4xf32> -> tensor<1x3x7x7xf32>
  %3 = kiln.pad %y low [5, 0] high [0, 7] edge 0.0
      : tensor<3x5xi32> -> tensor<8x12xi32>
  return %0, %1, %2, %3 : tensor<1x3x6x6xf32>, tensor<4x7xi32>,
      tensor<1x3x7x7xf32>, tensor<8x12xi32>
}

// CHECK-LABEL: func.func @pad_bf16_i1
// CHECK: kiln.pad %{{.*}} low [1] high [2] constant 2.500000e+00 : tensor<2xbf16> -> tensor<5xbf16>
// CHECK: kiln.pad %{{.*}} low [1, 0] high [0, 0] edge 0.000000e+00 : tensor<1x2xi1> -> tensor<2x2xi1>
func.func @pad_bf16_i1(%x: tensor<2xbf16>, %b: tensor<1x2xi1>)
    -> (tensor<5xbf16>, tensor<2x2xi1>) {
  %0 = kiln.pad %x low [1] high [2] constant 2.5 : tensor<2xbf16> -> tensor<5xbf16>
  %1 = kiln.pad %b low [1, 0] high [0, 0] edge 0.0 : tensor<1x2xi1> -> tensor<2x2xi1>
  return %0, %1 : tensor<5xbf16>, tensor<2x2xi1>
}
