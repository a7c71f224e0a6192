// Regression test: concat along an inner axis, and inner-axis splits or
// strided slices returned without a consumer, made bufferization emit a
// strided `memref.copy`, which lowers to a call of `memrefCopy` from MLIR's
// runner library; neither the JIT nor artifacts link it (exit code 4 on
// valid IR). kiln-lower-memref-copy now turns such copies into loops.
//
// RUN: /usr/bin/python3 %S/../lib/check_e2e.py --kilnc kilnc --model %s --cases %S/strided_copy_cases.py --workdir %t | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: SUMMARY: {{[1-9][0-9]*}} passed, 0 failed

func.func @concat_inner_axis(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = kiln.concat %a, %b axis 1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

func.func @concat_inner_axis_variants(%a: tensor<2x3xf32>, %c: tensor<2x1xf32>,
                                      %g: tensor<2x3x4xi32>, %h: tensor<2x1x4xi32>,
                                      %p: tensor<2x2xf16>, %q: tensor<2x3xf16>)
    -> (tensor<2x6xf32>, tensor<2x4x4xi32>, tensor<2x5xf16>) {
  %0 = kiln.concat %c, %a, %c, %c axis -1 : (tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %1 = kiln.concat %h, %g axis 1 : (tensor<2x1x4xi32>, tensor<2x3x4xi32>) -> tensor<2x4x4xi32>
  %2 = kiln.concat %p, %q axis 1 : (tensor<2x2xf16>, tensor<2x3xf16>) -> tensor<2x5xf16>
  return %0, %1, %2 : tensor<2x6xf32>, tensor<2x4x4xi32>, tensor<2x5xf16>
}

// Even with a consumer, an inner-axis concat fails.
func.func @concat_inner_axis_consumed(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = kiln.concat %a, %b axis 1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %1 = kiln.relu %0 : tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// q/k/v split of a fused projection, results returned directly.
func.func @split_inner_axis(%x: tensor<1x4x12xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
  %q, %k, %v = kiln.split %x axis 2 : tensor<1x4x12xf32> -> tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>
  return %q, %k, %v : tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>
}

func.func @slice_inner_columns(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %0 = kiln.slice %x starts [0, 2] limits [4, 5] steps [1, 1] : tensor<4x8xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

func.func @slice_positive_step(%x: tensor<4x8xf32>, %v: tensor<8xf32>, %y: tensor<3x4x5xf32>)
    -> (tensor<4x3xf32>, tensor<4xf32>, tensor<3x4x2xf32>) {
  %0 = kiln.slice %x starts [0, 2] limits [4, 8] steps [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  %1 = kiln.slice %v starts [0] limits [8] steps [2] : tensor<8xf32> -> tensor<4xf32>
  %2 = kiln.slice %y starts [0, 0, 1] limits [3, 4, 5] steps [1, 1, 2] : tensor<3x4x5xf32> -> tensor<3x4x2xf32>
  return %0, %1, %2 : tensor<4x3xf32>, tensor<4xf32>, tensor<3x4x2xf32>
}
