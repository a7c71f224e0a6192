// RUN: kiln-opt %s --split-input-file --kiln-shard='ranks=2 rank=0 strategy=sequence' --canonicalize | FileCheck %s

// Sequence parallelism picks the outermost dimension longer than 1 that
// divides by the ranks and is not normalised over: at batch 2 the batch.
// CHECK-LABEL: func.func @batch_two
// CHECK: %[[P:.*]] = kiln.matmul %{{.*}} : (tensor<2x8x8xf32>, tensor<8x16xf32>) -> tensor<2x8x16xf32>
// CHECK: %[[S:.*]] = kiln.reduce_scatter sum %[[P]] axis(0) ranks(2) : tensor<2x8x16xf32> -> tensor<1x8x16xf32>
// CHECK: %[[N:.*]] = kiln.layer_norm %[[S]]
// CHECK: kiln.all_gather %[[N]] axis(0) ranks(2) : tensor<1x8x16xf32> -> tensor<2x8x16xf32>
func.func @batch_two(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %w1 = kiln.constant dense<0.05> : tensor<16x16xf32>
  %w2 = kiln.constant dense<0.07> : tensor<16x16xf32>
  %g = kiln.constant dense<1.0> : tensor<16xf32>
  %b = kiln.constant dense<0.0> : tensor<16xf32>
  %h = kiln.matmul %x, %w1 : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
  %a = kiln.relu %h : tensor<2x8x16xf32>
  %o = kiln.matmul %a, %w2 : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
  %n = kiln.layer_norm %o, %g, %b axis -1 epsilon 1.0e-05 : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x8x16xf32>
  return %n : tensor<2x8x16xf32>
}

// -----

// No dimension to split (7 tokens over 2 ranks), or an op that needs the
// whole row it reduces over (softmax over tokens): the partial sum is
// all-reduced as under plain tensor parallelism (the two small,
// independent sums as one all-reduce of both).
// CHECK: all_reduces = 1 : i64
// CHECK-SAME: reduce_scatters = 0 : i64
// CHECK: func.func @odd_tokens
// CHECK-NOT: kiln.reduce_scatter
// CHECK: kiln.concat %{{.*}}, %{{.*}} axis 0 : (tensor<112xf32>, tensor<128xf32>) -> tensor<240xf32>
// CHECK: kiln.all_reduce sum %{{.*}} ranks(2) : tensor<240xf32>
// CHECK: kiln.layer_norm
// CHECK: kiln.softmax
// CHECK-NOT: kiln.reduce_scatter
func.func @odd_tokens(%x: tensor<1x7x16xf32>, %y: tensor<8x16xf32>) -> (tensor<1x7x16xf32>, tensor<8x16xf32>) {
  %w1 = kiln.constant dense<0.05> : tensor<16x16xf32>
  %w2 = kiln.constant dense<0.07> : tensor<16x16xf32>
  %g = kiln.constant dense<1.0> : tensor<16xf32>
  %b = kiln.constant dense<0.0> : tensor<16xf32>
  %h = kiln.matmul %x, %w1 : (tensor<1x7x16xf32>, tensor<16x16xf32>) -> tensor<1x7x16xf32>
  %o = kiln.matmul %h, %w2 : (tensor<1x7x16xf32>, tensor<16x16xf32>) -> tensor<1x7x16xf32>
  %n = kiln.layer_norm %o, %g, %b axis -1 epsilon 1.0e-05 : (tensor<1x7x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x7x16xf32>
  %k = kiln.matmul %y, %w1 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %l = kiln.matmul %k, %w2 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %s = kiln.softmax %l axis 0 : tensor<8x16xf32>
  return %n, %s : tensor<1x7x16xf32>, tensor<8x16xf32>
}

// -----

// Two independent partial sums split at different axes (the tokens of
// three sequences, the batch of two): one reduce-scatter of
// both, each rank's block of each side by side in its row, and the two
// gathers after the norms as one.
// CHECK: all_gathers = 1 : i64
// CHECK-SAME: reduce_scatters = 1 : i64
// CHECK-LABEL: func.func @two_scatters
// CHECK: %[[A:.*]] = kiln.matmul %{{.*}} -> tensor<3x8x16xf32>
// CHECK: %[[B:.*]] = kiln.matmul %{{.*}} -> tensor<2x4x16xf32>
// CHECK: %[[AB:.*]] = kiln.reshape %[[A]] : tensor<3x8x16xf32> -> tensor<3x2x4x16xf32>
// CHECK: %[[AT:.*]] = kiln.transpose %[[AB]] {{.*}}[1, 0, 2, 3]{{.*}} -> tensor<2x3x4x16xf32>
// CHECK: %[[AR:.*]] = kiln.reshape %[[AT]] : tensor<2x3x4x16xf32> -> tensor<2x192xf32>
// CHECK: %[[BR:.*]] = kiln.reshape %[[B]] : tensor<2x4x16xf32> -> tensor<2x64xf32>
// CHECK: %[[J:.*]] = kiln.concat %[[AR]], %[[BR]] axis 1 : (tensor<2x192xf32>, tensor<2x64xf32>) -> tensor<2x256xf32>
// CHECK: %[[F:.*]] = kiln.reshape %[[J]] : tensor<2x256xf32> -> tensor<512xf32>
// CHECK: %[[S:.*]] = kiln.reduce_scatter sum %[[F]] axis(0) ranks(2) : tensor<512xf32> -> tensor<256xf32>
// CHECK: kiln.slice %[[S]] starts [0] limits [192]
// CHECK: kiln.slice %[[S]] starts [192] limits [256]
// CHECK-COUNT-2: kiln.layer_norm
// CHECK: kiln.all_gather %{{.*}} axis(0) ranks(2) : tensor<256xf32> -> tensor<512xf32>
// CHECK-NOT: kiln.reduce_scatter
// CHECK-NOT: kiln.all_gather
func.func @two_scatters(%x: tensor<3x8x16xf32>, %y: tensor<2x4x16xf32>) -> (tensor<3x8x16xf32>, tensor<2x4x16xf32>) {
  %w = kiln.constant dense<0.05> : tensor<16x16xf32>
  %g = kiln.constant dense<1.0> : tensor<16xf32>
  %b = kiln.constant dense<0.0> : tensor<16xf32>
  %h = kiln.matmul %x, %w : (tensor<3x8x16xf32>, tensor<16x16xf32>) -> tensor<3x8x16xf32>
  %o = kiln.matmul %h, %w : (tensor<3x8x16xf32>, tensor<16x16xf32>) -> tensor<3x8x16xf32>
  %n = kiln.layer_norm %o, %g, %b axis -1 epsilon 1.0e-05 : (tensor<3x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<3x8x16xf32>
  %k = kiln.matmul %y, %w : (tensor<2x4x16xf32>, tensor<16x16xf32>) -> tensor<2x4x16xf32>
  %l = kiln.matmul %k, %w : (tensor<2x4x16xf32>, tensor<16x16xf32>) -> tensor<2x4x16xf32>
  %m = kiln.layer_norm %l, %g, %b axis -1 epsilon 1.0e-05 : (tensor<2x4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x4x16xf32>
  return %n, %m : tensor<3x8x16xf32>, tensor<2x4x16xf32>
}
