// RUN: kiln-opt %s -split-input-file -verify-diagnostics --kiln-split-batch=parts=2 | FileCheck %s
// RUN: not kiln-opt %s --kiln-split-batch=parts=0 2>&1 | FileCheck %s --check-prefix=PARTS

// PARTS: error: kiln-split-batch: parts must be at least 1, not 0

// The data axis of a 2-D mesh: the model computes one replica's half of
// the batch; the runtime cuts the inputs and stacks the outputs.
// CHECK-LABEL: func.func @cnn
// CHECK-SAME: (%[[X:.*]]: tensor<2x1x4x4xf32> {kiln.name = "input"}) -> (tensor<2x3xf32> {kiln.name = "output"})
// CHECK: kiln.conv2d %[[X]], %{{.*}} : (tensor<2x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<2x2x2x2xf32>
// CHECK: kiln.reshape %{{.*}} : tensor<2x2x1x1xf32> -> tensor<2x2xf32>
// CHECK: kiln.softmax %{{.*}} axis 1 : tensor<2x3xf32>
// CHECK-NOT: kiln.all_gather
func.func @cnn(%x: tensor<4x1x4x4xf32> {kiln.name = "input"}) -> (tensor<4x3xf32> {kiln.name = "output"}) {
  %w = kiln.constant dense<0.5> : tensor<2x1x3x3xf32>
  %c = kiln.conv2d %x, %w : (tensor<4x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<4x2x2x2xf32>
  %p = kiln.global_avg_pool %c : tensor<4x2x2x2xf32> -> tensor<4x2x1x1xf32>
  %f = kiln.reshape %p : tensor<4x2x1x1xf32> -> tensor<4x2xf32>
  %w2 = kiln.constant dense<0.25> : tensor<3x2xf32>
  %y = kiln.gemm %f, %w2 {trans_b} : (tensor<4x2xf32>, tensor<3x2xf32>) -> tensor<4x3xf32>
  %s = kiln.softmax %y axis 1 : tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}

// -----

// Batch statistics need every replica's rows.
func.func @batch_mean(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{cannot split the batch into 2 data-parallel replicas: this op needs the whole batch of an operand (it mixes rows of the batch)}}
  %m = kiln.reduce_mean %x axes [0] keep_dims : tensor<4x3xf32> -> tensor<1x3xf32>
  %d = kiln.sub %x, %m : (tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  return %d : tensor<4x3xf32>
}
