// RUN: kiln-opt %s -split-input-file --kiln-shard='ranks=2 rank=0' | FileCheck %s
// RUN: kiln-opt %s -split-input-file --kiln-shard='ranks=2 rank=1' | FileCheck %s --check-prefix=RANK1
// RUN: kiln-opt %s -split-input-file --kiln-shard='ranks=2 rank=0 fuse-collectives-below=16' | FileCheck %s --check-prefix=SMALL
// RUN: kiln-opt %s -split-input-file --kiln-shard='ranks=2 rank=0 fuse-collectives-below=0' | FileCheck %s --check-prefix=SMALL

// Two row-parallel heads on one hidden layer: two independent partial
// sums, sent as one all-reduce over both flattened; the tanh that used the
// first head's sum in between moves after the fused one. Rank 0 also adds
// the second head's bias; rank 1 makes the same all-reduce.
// CHECK: kiln.sharding = {{{.*}}all_reduces = 1 : i64
// CHECK-LABEL: func.func @heads
// CHECK: %[[A:.*]] = kiln.matmul %{{.*}} -> tensor<2x4xf32>
// CHECK: %[[B:.*]] = kiln.matmul %{{.*}} -> tensor<2x3xf32>
// CHECK: %[[BB:.*]] = kiln.add %[[B]]
// CHECK: %[[FA:.*]] = kiln.reshape %[[A]] : tensor<2x4xf32> -> tensor<8xf32>
// CHECK: %[[FB:.*]] = kiln.reshape %[[BB]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK: %[[J:.*]] = kiln.concat %[[FA]], %[[FB]] axis 0 : (tensor<8xf32>, tensor<6xf32>) -> tensor<14xf32>
// CHECK: %[[R:.*]] = kiln.all_reduce sum %[[J]] ranks(2) : tensor<14xf32>
// CHECK: %[[SA:.*]] = kiln.slice %[[R]] starts [0] limits [8] steps [1]
// CHECK: %[[RA:.*]] = kiln.reshape %[[SA]] : tensor<8xf32> -> tensor<2x4xf32>
// CHECK: %[[SB:.*]] = kiln.slice %[[R]] starts [8] limits [14] steps [1]
// CHECK: %[[RB:.*]] = kiln.reshape %[[SB]] : tensor<6xf32> -> tensor<2x3xf32>
// CHECK: %[[T:.*]] = kiln.tanh %[[RA]]
// CHECK: kiln.sigmoid %[[RB]]
// CHECK: kiln.exp %[[T]]
// CHECK-NOT: kiln.all_reduce
// RANK1-LABEL: func.func @heads
// RANK1-NOT: kiln.add
// RANK1: kiln.all_reduce sum %{{.*}} ranks(2) : tensor<14xf32>
// RANK1-NOT: kiln.all_reduce
// RANK1-LABEL: func.func @chain
// Above the size limit (or with fusion off), each is sent on its own.
// SMALL-LABEL: func.func @heads
// SMALL: kiln.all_reduce sum %{{.*}} ranks(2) : tensor<2x4xf32>
// SMALL: kiln.all_reduce sum %{{.*}} ranks(2) : tensor<2x3xf32>
func.func @heads(%x: tensor<2x8xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x4xf32>) {
  %w1 = kiln.constant dense<0.5> : tensor<8x6xf32>
  %h = kiln.matmul %x, %w1 : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  %r = kiln.relu %h : tensor<2x6xf32>
  %wa = kiln.constant dense<0.25> : tensor<6x4xf32>
  %a = kiln.matmul %r, %wa : (tensor<2x6xf32>, tensor<6x4xf32>) -> tensor<2x4xf32>
  %ta = kiln.tanh %a : tensor<2x4xf32>
  %wb = kiln.constant dense<0.125> : tensor<6x3xf32>
  %b = kiln.matmul %r, %wb : (tensor<2x6xf32>, tensor<6x3xf32>) -> tensor<2x3xf32>
  %bias = kiln.constant dense<1.0> : tensor<3xf32>
  %bb = kiln.add %b, %bias : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %sb = kiln.sigmoid %bb : tensor<2x3xf32>
  %e = kiln.exp %ta : tensor<2x4xf32>
  return %ta, %sb, %e : tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x4xf32>
}

// -----

// Two MLP blocks in a row: the second block's sum depends on the first's,
// so they cannot travel together.
// CHECK: kiln.sharding = {{{.*}}all_reduces = 2 : i64
// CHECK-LABEL: func.func @chain
// CHECK: kiln.all_reduce sum %{{.*}} ranks(2) : tensor<2x8xf32>
// CHECK: kiln.all_reduce sum %{{.*}} ranks(2) : tensor<2x8xf32>
// CHECK-NOT: kiln.concat
func.func @chain(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %w1 = kiln.constant dense<0.5> : tensor<8x6xf32>
  %w2 = kiln.constant dense<0.25> : tensor<6x8xf32>
  %h1 = kiln.matmul %x, %w1 : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  %r1 = kiln.relu %h1 : tensor<2x6xf32>
  %y1 = kiln.matmul %r1, %w2 : (tensor<2x6xf32>, tensor<6x8xf32>) -> tensor<2x8xf32>
  %h2 = kiln.matmul %y1, %w1 : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  %r2 = kiln.relu %h2 : tensor<2x6xf32>
  %y2 = kiln.matmul %r2, %w2 : (tensor<2x6xf32>, tensor<6x8xf32>) -> tensor<2x8xf32>
  return %y2 : tensor<2x8xf32>
}

// -----

// The second sum takes the first's result as a replicated addend, which
// only rank 0 adds: rank 1's program alone would see two independent sums.
// Dependence is read on the whole graph, so both ranks keep two
// all-reduces and make the same collectives.
// CHECK: kiln.sharding = {{{.*}}all_reduces = 2 : i64
// CHECK-LABEL: func.func @residual
// RANK1: kiln.sharding = {{{.*}}all_reduces = 2 : i64
// RANK1-LABEL: func.func @residual
// RANK1-NOT: kiln.concat
// RANK1-LABEL: func.func @columns
func.func @residual(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %w1 = kiln.constant dense<0.5> : tensor<8x6xf32>
  %w2 = kiln.constant dense<0.25> : tensor<6x8xf32>
  %h = kiln.matmul %x, %w1 : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  %r = kiln.relu %h : tensor<2x6xf32>
  %a = kiln.matmul %r, %w2 : (tensor<2x6xf32>, tensor<6x8xf32>) -> tensor<2x8xf32>
  %b = kiln.matmul %r, %w2 : (tensor<2x6xf32>, tensor<6x8xf32>) -> tensor<2x8xf32>
  %ta = kiln.tanh %a : tensor<2x8xf32>
  %s = kiln.add %b, %ta : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %o = kiln.sigmoid %s : tensor<2x8xf32>
  return %o : tensor<2x8xf32>
}

// -----

// Two column-parallel outputs gathered along their columns: one all-gather
// of each rank's two blocks side by side; each output is cut from every
// rank's row and its blocks put back along the columns.
// CHECK: kiln.sharding = {all_gathers = 1 : i64
// CHECK-LABEL: func.func @columns
// CHECK: %[[A:.*]] = kiln.matmul %{{.*}} -> tensor<2x2xf32>
// CHECK: %[[B:.*]] = kiln.matmul %{{.*}} -> tensor<2x3xf32>
// CHECK: %[[T:.*]] = kiln.tanh %[[B]]
// CHECK: %[[FA:.*]] = kiln.reshape %[[A]] : tensor<2x2xf32> -> tensor<4xf32>
// CHECK: %[[FT:.*]] = kiln.reshape %[[T]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK: %[[J:.*]] = kiln.concat %[[FA]], %[[FT]] axis 0
// CHECK: %[[G:.*]] = kiln.all_gather %[[J]] axis(0) ranks(2) : tensor<10xf32> -> tensor<20xf32>
// CHECK: %[[ROWS:.*]] = kiln.reshape %[[G]] : tensor<20xf32> -> tensor<2x10xf32>
// CHECK: %[[SA:.*]] = kiln.slice %[[ROWS]] starts [0, 0] limits [2, 4]
// CHECK: %[[BA:.*]] = kiln.reshape %[[SA]] : tensor<2x4xf32> -> tensor<2x2x2xf32>
// CHECK: %[[TA:.*]] = kiln.transpose %[[BA]] [1, 0, 2]
// CHECK: %[[OA:.*]] = kiln.reshape %[[TA]] : tensor<2x2x2xf32> -> tensor<2x4xf32>
// CHECK: %[[SB:.*]] = kiln.slice %[[ROWS]] starts [0, 4] limits [2, 10]
// CHECK: return %[[OA]], %{{.*}} : tensor<2x4xf32>, tensor<2x6xf32>
// CHECK-NOT: kiln.all_gather
// SMALL-LABEL: func.func @columns
// SMALL: kiln.all_gather %{{.*}} axis(1) ranks(2) : tensor<2x2xf32> -> tensor<2x4xf32>
// SMALL: kiln.all_gather %{{.*}} axis(1) ranks(2) : tensor<2x3xf32> -> tensor<2x6xf32>
func.func @columns(%x: tensor<2x8xf32>) -> (tensor<2x4xf32>, tensor<2x6xf32>) {
  %wa = kiln.constant dense<0.25> : tensor<8x4xf32>
  %a = kiln.matmul %x, %wa : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %wb = kiln.constant dense<0.125> : tensor<8x6xf32>
  %b = kiln.matmul %x, %wb : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  %t = kiln.tanh %b : tensor<2x6xf32>
  return %a, %t : tensor<2x4xf32>, tensor<2x6xf32>
}
