// End-to-end numeric tests of the reductions and arg-reductions
// (GraphReductionOps.td) on the CPU path; references in reduction_cases.py.
//
// RUN: /usr/bin/python3 %S/../lib/check_e2e.py --kilnc kilnc --model %s --cases %S/reduction_cases.py --workdir %t | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: SUMMARY: {{[1-9][0-9]*}} passed, 0 failed

func.func @reduce_sum_axes(%x: tensor<2x3x4xf32>)
    -> (tensor<2x3x1xf32>, tensor<3xf32>, tensor<f32>, tensor<2x3x4xf32>, tensor<1x3x1xf32>, tensor<2x4xf32>) {
  %0 = kiln.reduce_sum %x axes [-1] keep_dims : tensor<2x3x4xf32> -> tensor<2x3x1xf32>
  %1 = kiln.reduce_sum %x axes [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
  %2 = kiln.reduce_sum %x axes [2, -3, 1] : tensor<2x3x4xf32> -> tensor<f32>
  %3 = kiln.reduce_sum %x axes [] : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  %4 = kiln.reduce_sum %x axes [2, 0] keep_dims : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %5 = kiln.reduce_sum %x axes [-2] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x1xf32>, tensor<3xf32>, tensor<f32>, tensor<2x3x4xf32>, tensor<1x3x1xf32>, tensor<2x4xf32>
}

func.func @reduce_mean_axes(%x: tensor<4x6xf32>, %y: tensor<2x3x4xf32>)
    -> (tensor<4x1xf32>, tensor<1x1xf32>, tensor<6xf32>, tensor<3xf32>, tensor<f32>) {
  %0 = kiln.reduce_mean %x axes [1] keep_dims : tensor<4x6xf32> -> tensor<4x1xf32>
  %1 = kiln.reduce_mean %x axes [-2, -1] keep_dims : tensor<4x6xf32> -> tensor<1x1xf32>
  %2 = kiln.reduce_mean %x axes [0] : tensor<4x6xf32> -> tensor<6xf32>
  %3 = kiln.reduce_mean %y axes [0, -1] : tensor<2x3x4xf32> -> tensor<3xf32>
  %4 = kiln.reduce_mean %y axes [0, 1, 2] : tensor<2x3x4xf32> -> tensor<f32>
  return %0, %1, %2, %3, %4 : tensor<4x1xf32>, tensor<1x1xf32>, tensor<6xf32>, tensor<3xf32>, tensor<f32>
}

// All-negative and all-positive rows check the initial values.
func.func @reduce_max_min_f32(%x: tensor<3x5xf32>)
    -> (tensor<3xf32>, tensor<3xf32>, tensor<1x5xf32>, tensor<1x5xf32>, tensor<f32>, tensor<f32>) {
  %0 = kiln.reduce_max %x axes [1] : tensor<3x5xf32> -> tensor<3xf32>
  %1 = kiln.reduce_min %x axes [-1] : tensor<3x5xf32> -> tensor<3xf32>
  %2 = kiln.reduce_max %x axes [0] keep_dims : tensor<3x5xf32> -> tensor<1x5xf32>
  %3 = kiln.reduce_min %x axes [0] keep_dims : tensor<3x5xf32> -> tensor<1x5xf32>
  %4 = kiln.reduce_max %x axes [0, 1] : tensor<3x5xf32> -> tensor<f32>
  %5 = kiln.reduce_min %x axes [1, 0] : tensor<3x5xf32> -> tensor<f32>
  return %0, %1, %2, %3, %4, %5 : tensor<3xf32>, tensor<3xf32>, tensor<1x5xf32>, tensor<1x5xf32>, tensor<f32>, tensor<f32>
}

// Infinities are ordinary values for max/min.
func.func @reduce_max_min_inf(%x: tensor<2x4xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = kiln.reduce_max %x axes [1] : tensor<2x4xf32> -> tensor<2xf32>
  %1 = kiln.reduce_min %x axes [1] : tensor<2x4xf32> -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

func.func @reduce_max_min_int(%x: tensor<3x5xi8>, %y: tensor<3x5xi32>, %z: tensor<4x2xi64>)
    -> (tensor<5xi8>, tensor<5xi8>, tensor<3x1xi32>, tensor<3x1xi32>, tensor<2xi64>, tensor<2xi64>) {
  %0 = kiln.reduce_max %x axes [0] : tensor<3x5xi8> -> tensor<5xi8>
  %1 = kiln.reduce_min %x axes [0] : tensor<3x5xi8> -> tensor<5xi8>
  %2 = kiln.reduce_max %y axes [-1] keep_dims : tensor<3x5xi32> -> tensor<3x1xi32>
  %3 = kiln.reduce_min %y axes [-1] keep_dims : tensor<3x5xi32> -> tensor<3x1xi32>
  %4 = kiln.reduce_max %z axes [0] : tensor<4x2xi64> -> tensor<2xi64>
  %5 = kiln.reduce_min %z axes [0] : tensor<4x2xi64> -> tensor<2xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<5xi8>, tensor<5xi8>, tensor<3x1xi32>, tensor<3x1xi32>, tensor<2xi64>, tensor<2xi64>
}

func.func @reduce_sum_mean_int(%x: tensor<3x4xi32>, %y: tensor<2x5xi8>, %z: tensor<3xi64>)
    -> (tensor<4xi32>, tensor<3x1xi32>, tensor<2xi8>, tensor<i64>, tensor<4xi32>, tensor<2x1xi8>) {
  %0 = kiln.reduce_sum %x axes [0] : tensor<3x4xi32> -> tensor<4xi32>
  %1 = kiln.reduce_sum %x axes [1] keep_dims : tensor<3x4xi32> -> tensor<3x1xi32>
  %2 = kiln.reduce_sum %y axes [-1] : tensor<2x5xi8> -> tensor<2xi8>
  // Exact beyond 2^53.
  %3 = kiln.reduce_sum %z axes [0] : tensor<3xi64> -> tensor<i64>
  // Integer mean: the sum divided by the count, truncating.
  %4 = kiln.reduce_mean %x axes [0] : tensor<3x4xi32> -> tensor<4xi32>
  %5 = kiln.reduce_mean %y axes [1] keep_dims : tensor<2x5xi8> -> tensor<2x1xi8>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<3x1xi32>, tensor<2xi8>, tensor<i64>, tensor<4xi32>, tensor<2x1xi8>
}

func.func @reduce_prod(%x: tensor<3x4xf32>, %y: tensor<3xi64>, %z: tensor<2x3xi32>)
    -> (tensor<4xf32>, tensor<3x1xf32>, tensor<i64>, tensor<2xi32>) {
  %0 = kiln.reduce_prod %x axes [0] : tensor<3x4xf32> -> tensor<4xf32>
  %1 = kiln.reduce_prod %x axes [-1] keep_dims : tensor<3x4xf32> -> tensor<3x1xf32>
  %2 = kiln.reduce_prod %y axes [0] : tensor<3xi64> -> tensor<i64>
  %3 = kiln.reduce_prod %z axes [1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<3x1xf32>, tensor<i64>, tensor<2xi32>
}

// Reducing an empty dimension gives the identity element.
func.func @reduce_empty_axis(%x: tensor<0x4xf32>) -> (tensor<1x4xf32>, tensor<4xf32>) {
  %0 = kiln.reduce_prod %x axes [0] keep_dims : tensor<0x4xf32> -> tensor<1x4xf32>
  %1 = kiln.reduce_sum %x axes [0] : tensor<0x4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<1x4xf32>, tensor<4xf32>
}

func.func @reduce_rank0(%x: tensor<f64>, %y: tensor<f32>) -> (tensor<f64>, tensor<f32>) {
  %0 = kiln.reduce_max %x axes [] keep_dims : tensor<f64> -> tensor<f64>
  %1 = kiln.reduce_sum %y axes [] : tensor<f32> -> tensor<f32>
  return %0, %1 : tensor<f64>, tensor<f32>
}

func.func @reduce_f16(%x: tensor<4x6xf16>)
    -> (tensor<4x1xf16>, tensor<6xf16>, tensor<4xf16>, tensor<4xf16>, tensor<f16>) {
  %0 = kiln.reduce_mean %x axes [1] keep_dims : tensor<4x6xf16> -> tensor<4x1xf16>
  %1 = kiln.reduce_sum %x axes [0] : tensor<4x6xf16> -> tensor<6xf16>
  %2 = kiln.reduce_max %x axes [1] : tensor<4x6xf16> -> tensor<4xf16>
  %3 = kiln.reduce_min %x axes [1] : tensor<4x6xf16> -> tensor<4xf16>
  %4 = kiln.reduce_prod %x axes [0, 1] : tensor<4x6xf16> -> tensor<f16>
  return %0, %1, %2, %3, %4 : tensor<4x1xf16>, tensor<6xf16>, tensor<4xf16>, tensor<4xf16>, tensor<f16>
}

func.func @reduce_4d(%x: tensor<2x3x4x5xf32>) -> (tensor<2x5xf32>, tensor<1x3x1x5xf32>) {
  %0 = kiln.reduce_sum %x axes [1, 2] : tensor<2x3x4x5xf32> -> tensor<2x5xf32>
  %1 = kiln.reduce_max %x axes [0, -2] keep_dims : tensor<2x3x4x5xf32> -> tensor<1x3x1x5xf32>
  return %0, %1 : tensor<2x5xf32>, tensor<1x3x1x5xf32>
}

//===----------------------------------------------------------------------===//
// argmax / argmin
//===----------------------------------------------------------------------===//

func.func @argmax_f32(%x: tensor<4x10xf32>)
    -> (tensor<4xi64>, tensor<4x1xi64>, tensor<10xi64>, tensor<1x10xi64>) {
  %0 = kiln.argmax %x axis 1 : tensor<4x10xf32> -> tensor<4xi64>
  %1 = kiln.argmax %x axis -1 keep_dims : tensor<4x10xf32> -> tensor<4x1xi64>
  %2 = kiln.argmax %x axis 0 : tensor<4x10xf32> -> tensor<10xi64>
  %3 = kiln.argmin %x axis -2 keep_dims : tensor<4x10xf32> -> tensor<1x10xi64>
  return %0, %1, %2, %3 : tensor<4xi64>, tensor<4x1xi64>, tensor<10xi64>, tensor<1x10xi64>
}

// Integer inputs with many ties: first index by default, last with
// select_last_index.
func.func @argmax_ties(%y: tensor<2x3x4xi8>)
    -> (tensor<3x4xi64>, tensor<3x4xi64>, tensor<2x1x4xi64>, tensor<2x1x4xi64>, tensor<2x3xi64>, tensor<2x3xi64>) {
  %0 = kiln.argmax %y axis 0 : tensor<2x3x4xi8> -> tensor<3x4xi64>
  %1 = kiln.argmax %y axis 0 select_last_index : tensor<2x3x4xi8> -> tensor<3x4xi64>
  %2 = kiln.argmax %y axis -2 keep_dims : tensor<2x3x4xi8> -> tensor<2x1x4xi64>
  %3 = kiln.argmax %y axis -2 keep_dims select_last_index : tensor<2x3x4xi8> -> tensor<2x1x4xi64>
  %4 = kiln.argmax %y axis 2 : tensor<2x3x4xi8> -> tensor<2x3xi64>
  %5 = kiln.argmax %y axis 2 select_last_index : tensor<2x3x4xi8> -> tensor<2x3xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<3x4xi64>, tensor<3x4xi64>, tensor<2x1x4xi64>, tensor<2x1x4xi64>, tensor<2x3xi64>, tensor<2x3xi64>
}

func.func @argmin_ties(%x: tensor<7xf32>, %y: tensor<5x2xi64>, %z: tensor<3x4xi32>)
    -> (tensor<i64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<3x1xi64>, tensor<3x1xi64>) {
  %0 = kiln.argmin %x axis 0 : tensor<7xf32> -> tensor<i64>
  %1 = kiln.argmin %x axis 0 select_last_index : tensor<7xf32> -> tensor<i64>
  %2 = kiln.argmin %y axis -2 : tensor<5x2xi64> -> tensor<2xi64>
  %3 = kiln.argmin %y axis -2 select_last_index : tensor<5x2xi64> -> tensor<2xi64>
  %4 = kiln.argmin %z axis 1 keep_dims : tensor<3x4xi32> -> tensor<3x1xi64>
  %5 = kiln.argmin %z axis 1 keep_dims select_last_index : tensor<3x4xi32> -> tensor<3x1xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<i64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<3x1xi64>, tensor<3x1xi64>
}

// Extreme values: the type's minimum can be the maximum, and -inf/inf.
func.func @arg_extremes(%x: tensor<2x3xi8>, %f: tensor<2x4xf32>)
    -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) {
  %0 = kiln.argmax %x axis 1 : tensor<2x3xi8> -> tensor<2xi64>
  %1 = kiln.argmin %x axis 1 : tensor<2x3xi8> -> tensor<2xi64>
  %2 = kiln.argmax %f axis 1 : tensor<2x4xf32> -> tensor<2xi64>
  %3 = kiln.argmin %f axis 1 select_last_index : tensor<2x4xf32> -> tensor<2xi64>
  return %0, %1, %2, %3 : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>
}

func.func @argmax_f16(%h: tensor<3x5xf16>) -> (tensor<3xi64>, tensor<5xi64>) {
  %0 = kiln.argmax %h axis 1 : tensor<3x5xf16> -> tensor<3xi64>
  %1 = kiln.argmin %h axis 0 : tensor<3x5xf16> -> tensor<5xi64>
  return %0, %1 : tensor<3xi64>, tensor<5xi64>
}

// Reductions of constants are folded by the clean-up pipeline.
func.func @folded_reductions() -> (tensor<2xf32>, tensor<3xi32>, tensor<2xi64>, tensor<i64>) {
  %c = kiln.constant dense<[[1.0, -2.0, 3.5], [4.0, 0.5, -6.0]]> : tensor<2x3xf32>
  %i = kiln.constant dense<[[7, -3, 2], [1, 9, -4]]> : tensor<2x3xi32>
  %0 = kiln.reduce_sum %c axes [1] : tensor<2x3xf32> -> tensor<2xf32>
  %1 = kiln.reduce_max %i axes [0] : tensor<2x3xi32> -> tensor<3xi32>
  %2 = kiln.argmin %c axis 1 : tensor<2x3xf32> -> tensor<2xi64>
  %3 = kiln.reduce_prod %i axes [0, 1] : tensor<2x3xi32> -> tensor<i32>
  %4 = kiln.cast %3 : tensor<i32> -> tensor<i64>
  return %0, %1, %2, %4 : tensor<2xf32>, tensor<3xi32>, tensor<2xi64>, tensor<i64>
}
