// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Round trips of the reductions and arg-reductions (GraphReductionOps.td)
// through the custom and the generic form.

// CHECK-LABEL: func.func @reduce_sum
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x64xf32>)
// CHECK: %[[R0:.*]] = kiln.reduce_sum %[[X]] axes [-1] keep_dims : tensor<2x8x64xf32> -> tensor<2x8x1xf32>
// CHECK: %[[R1:.*]] = kiln.reduce_sum %[[X]] axes [0, 2] : tensor<2x8x64xf32> -> tensor<8xf32>
// CHECK: %[[R2:.*]] = kiln.reduce_sum %[[X]] axes [2, -3, 1] : tensor<2x8x64xf32> -> tensor<f32>
// CHECK: %[[R3:.*]] = kiln.reduce_sum %[[X]] axes [] : tensor<2x8x64xf32> -> tensor<2x8x64xf32>
// CHECK: return %[[R0]], %[[R1]], %[[R2]], %[[R3]]
func.func @reduce_sum(%x: tensor<2x8x64xf32>)
    -> (tensor<2x8x1xf32>, tensor<8xf32>, tensor<f32>, tensor<2x8x64xf32>) {
  %0 = kiln.reduce_sum %x axes [-1] keep_dims : tensor<2x8x64xf32> -> tensor<2x8x1xf32>
  %1 = kiln.reduce_sum %x axes [0, 2] : tensor<2x8x64xf32> -> tensor<8xf32>
  %2 = kiln.reduce_sum %x axes [2, -3, 1] : tensor<2x8x64xf32> -> tensor<f32>
  %3 = kiln.reduce_sum %x axes [] : tensor<2x8x64xf32> -> tensor<2x8x64xf32>
  return %0, %1, %2, %3 : tensor<2x8x1xf32>, tensor<8xf32>, tensor<f32>,
      tensor<2x8x64xf32>
}

// CHECK-LABEL: func.func @reduce_mean
// CHECK-SAME: (%[[X:.*]]: tensor<4x6xf16>, %[[Y:.*]]: tensor<4x6xbf16>)
// CHECK: %[[R0:.*]] = kiln.reduce_mean %[[X]] axes [1] keep_dims : tensor<4x6xf16> -> tensor<4x1xf16>
// CHECK: %[[R1:.*]] = kiln.reduce_mean %[[Y]] axes [-2, -1] keep_dims : tensor<4x6xbf16> -> tensor<1x1xbf16>
// CHECK: return %[[R0]], %[[R1]]
func.func @reduce_mean(%x: tensor<4x6xf16>, %y: tensor<4x6xbf16>)
    -> (tensor<4x1xf16>, tensor<1x1xbf16>) {
  %0 = kiln.reduce_mean %x axes [1] keep_dims : tensor<4x6xf16> -> tensor<4x1xf16>
  %1 = kiln.reduce_mean %y axes [-2, -1] keep_dims : tensor<4x6xbf16> -> tensor<1x1xbf16>
  return %0, %1 : tensor<4x1xf16>, tensor<1x1xbf16>
}

// CHECK-LABEL: func.func @reduce_max_min
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xi8>, %[[Y:.*]]: tensor<3x5xi32>)
// CHECK: %[[MAX:.*]] = kiln.reduce_max %[[X]] axes [0] : tensor<3x5xi8> -> tensor<5xi8>
// CHECK: %[[MIN:.*]] = kiln.reduce_min %[[Y]] axes [-1] keep_dims : tensor<3x5xi32> -> tensor<3x1xi32>
// CHECK: return %[[MAX]], %[[MIN]]
func.func @reduce_max_min(%x: tensor<3x5xi8>, %y: tensor<3x5xi32>)
    -> (tensor<5xi8>, tensor<3x1xi32>) {
  %0 = kiln.reduce_max %x axes [0] : tensor<3x5xi8> -> tensor<5xi8>
  %1 = kiln.reduce_min %y axes [-1] keep_dims : tensor<3x5xi32> -> tensor<3x1xi32>
  return %0, %1 : tensor<5xi8>, tensor<3x1xi32>
}

// CHECK-LABEL: func.func @reduce_prod
// CHECK-SAME: (%[[X:.*]]: tensor<3xi64>, %[[Y:.*]]: tensor<0x4xf32>)
// CHECK: %[[P0:.*]] = kiln.reduce_prod %[[X]] axes [0] : tensor<3xi64> -> tensor<i64>
// CHECK: %[[P1:.*]] = kiln.reduce_prod %[[Y]] axes [0] keep_dims : tensor<0x4xf32> -> tensor<1x4xf32>
// CHECK: return %[[P0]], %[[P1]]
func.func @reduce_prod(%x: tensor<3xi64>, %y: tensor<0x4xf32>)
    -> (tensor<i64>, tensor<1x4xf32>) {
  %0 = kiln.reduce_prod %x axes [0] : tensor<3xi64> -> tensor<i64>
  // Reducing an empty axis is fine (the identity element); only the
  // arg-reductions need a non-empty one.
  %1 = kiln.reduce_prod %y axes [0] keep_dims : tensor<0x4xf32> -> tensor<1x4xf32>
  return %0, %1 : tensor<i64>, tensor<1x4xf32>
}

// CHECK-LABEL: func.func @reduce_rank0
// CHECK: kiln.reduce_max %{{.*}} axes [] keep_dims : tensor<f64> -> tensor<f64>
func.func @reduce_rank0(%x: tensor<f64>) -> tensor<f64> {
  %0 = kiln.reduce_max %x axes [] keep_dims : tensor<f64> -> tensor<f64>
  return %0 : tensor<f64>
}

// CHECK-LABEL: func.func @argmax
// CHECK-SAME: (%[[X:.*]]: tensor<4x10xf32>, %[[Y:.*]]: tensor<2x3x4xi8>)
// CHECK: %[[A0:.*]] = kiln.argmax %[[X]] axis 1 : tensor<4x10xf32> -> tensor<4xi64>
// CHECK: %[[A1:.*]] = kiln.argmax %[[X]] axis -1 keep_dims : tensor<4x10xf32> -> tensor<4x1xi64>
// CHECK: %[[A2:.*]] = kiln.argmax %[[Y]] axis 0 select_last_index : tensor<2x3x4xi8> -> tensor<3x4xi64>
// CHECK: %[[A3:.*]] = kiln.argmax %[[Y]] axis -2 keep_dims select_last_index : tensor<2x3x4xi8> -> tensor<2x1x4xi64>
// CHECK: return %[[A0]], %[[A1]], %[[A2]], %[[A3]]
func.func @argmax(%x: tensor<4x10xf32>, %y: tensor<2x3x4xi8>)
    -> (tensor<4xi64>, tensor<4x1xi64>, tensor<3x4xi64>, tensor<2x1x4xi64>) {
  %0 = kiln.argmax %x axis 1 : tensor<4x10xf32> -> tensor<4xi64>
  %1 = kiln.argmax %x axis -1 keep_dims : tensor<4x10xf32> -> tensor<4x1xi64>
  %2 = kiln.argmax %y axis 0 select_last_index : tensor<2x3x4xi8> -> tensor<3x4xi64>
  %3 = kiln.argmax %y axis -2 keep_dims select_last_index
      : tensor<2x3x4xi8> -> tensor<2x1x4xi64>
  return %0, %1, %2, %3 : tensor<4xi64>, tensor<4x1xi64>, tensor<3x4xi64>,
      tensor<2x1x4xi64>
}

// CHECK-LABEL: func.func @argmin
// CHECK-SAME: (%[[X:.*]]: tensor<7xf16>, %[[Y:.*]]: tensor<5x2xi64>, %[[Z:.*]]: tensor<3x3xbf16>)
// CHECK: %[[A0:.*]] = kiln.argmin %[[X]] axis 0 : tensor<7xf16> -> tensor<i64>
// CHECK: %[[A1:.*]] = kiln.argmin %[[Y]] axis -2 select_last_index : tensor<5x2xi64> -> tensor<2xi64>
// CHECK: %[[A2:.*]] = kiln.argmin %[[Z]] axis 1 keep_dims : tensor<3x3xbf16> -> tensor<3x1xi64>
// CHECK: return %[[A0]], %[[A1]], %[[A2]]
func.func @argmin(%x: tensor<7xf16>, %y: tensor<5x2xi64>, %z: tensor<3x3xbf16>)
    -> (tensor<i64>, tensor<2xi64>, tensor<3x1xi64>) {
  %0 = kiln.argmin %x axis 0 : tensor<7xf16> -> tensor<i64>
  %1 = kiln.argmin %y axis -2 select_last_index : tensor<5x2xi64> -> tensor<2xi64>
  %2 = kiln.argmin %z axis 1 keep_dims : tensor<3x3xbf16> -> tensor<3x1xi64>
  return %0, %1, %2 : tensor<i64>, tensor<2xi64>, tensor<3x1xi64>
}
