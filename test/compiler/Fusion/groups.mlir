// Fusion rules of kiln-form-fusion-groups, one function per rule; the
// remarks summarise each group.
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-form-fusion-groups{remarks=true}))' --verify-diagnostics | FileCheck %s

// An elementwise chain with a broadcast bias becomes one group; the constant
// is duplicated into it.
// CHECK-LABEL: func.func @chain
// CHECK: %[[F:.*]] = kiln.fusion ins(%arg0 : tensor<4x8xf32>) attributes {kind = "elementwise"}
// CHECK: kiln.constant
// CHECK: kiln.add
// CHECK: kiln.relu
// CHECK: kiln.mul
// CHECK: kiln.yield
// CHECK: return %[[F]]
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = kiln.constant dense<1.0> : tensor<8xf32>
  // expected-remark @below {{fusion group 0 (elementwise): 3 ops, 1 inputs, 1 results}}
  %0 = kiln.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = kiln.relu %0 : tensor<4x8xf32>
  %2 = kiln.mul %1, %1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A constant read by several members is cloned into
// the group once and the outer copy erased once (it was erased, then looked
// at again: a use-after-free that ASan showed on `kilnc run`).
// CHECK-LABEL: func.func @shared_constant
// CHECK-NEXT: %[[F:.*]] = kiln.fusion ins(%arg0 : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<8xf32>):
// CHECK-NEXT: kiln.constant
// CHECK-NOT: kiln.constant
// CHECK: kiln.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @shared_constant(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = kiln.constant dense<2.0> : tensor<8xf32>
  // expected-remark @below {{fusion group 0 (elementwise): 3 ops, 1 inputs, 1 results}}
  %0 = kiln.add %x, %c : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = kiln.mul %0, %c : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = kiln.sub %1, %c : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// A value used inside and outside the group becomes a second result: the
// producer is computed once (multi-output group), never duplicated.
// CHECK-LABEL: func.func @multi_output
// CHECK: %[[F:.*]]:2 = kiln.fusion ins(%arg0 : tensor<16xf32>)
// CHECK: kiln.exp
// CHECK: kiln.neg
// CHECK: kiln.yield
// CHECK: kiln.reshape %[[F]]#0
// CHECK: return %[[F]]#1
func.func @multi_output(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<4x4xf32>) {
  // expected-remark @below {{fusion group 0 (elementwise): 2 ops, 1 inputs, 2 results}}
  %e = kiln.exp %x : tensor<16xf32>
  %n = kiln.neg %e : tensor<16xf32>
  %r = kiln.reshape %e : tensor<16xf32> -> tensor<4x4xf32>
  return %n, %r : tensor<16xf32>, tensor<4x4xf32>
}

// -----

// GEMM + bias + GELU + residual add + scaling: a contraction with its
// epilogue.
// CHECK-LABEL: func.func @gemm_epilogue
// CHECK: kiln.fusion ins(%arg0, %arg1, %arg2 : {{.*}}) attributes {kind = "contraction"}
// CHECK: kiln.matmul
// CHECK: kiln.add
// CHECK: kiln.gelu
// CHECK: kiln.add
// CHECK: kiln.mul
func.func @gemm_epilogue(%x: tensor<2x8xf32>, %w: tensor<8x8xf32>, %bias: tensor<8xf32>) -> tensor<2x8xf32> {
  %half = kiln.constant dense<0.5> : tensor<f32>
  // expected-remark @below {{fusion group 0 (contraction): 5 ops, 3 inputs, 1 results}}
  %m = kiln.matmul %x, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %b = kiln.add %m, %bias : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %g = kiln.gelu %b : tensor<2x8xf32>
  %r = kiln.add %g, %x : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = kiln.mul %r, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// -----

// A reduction takes its elementwise prologue and epilogue (scaled softmax).
// CHECK-LABEL: func.func @softmax_prologue
// CHECK: kiln.fusion {{.*}}kind = "reduction"
// CHECK: kiln.mul
// CHECK: kiln.softmax
// CHECK: kiln.log
func.func @softmax_prologue(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %scale = kiln.constant dense<0.125> : tensor<f32>
  // expected-remark @below {{fusion group 0 (reduction): 3 ops, 1 inputs, 1 results}}
  %s = kiln.mul %x, %scale : (tensor<2x16xf32>, tensor<f32>) -> tensor<2x16xf32>
  %p = kiln.softmax %s axis -1 : tensor<2x16xf32>
  %l = kiln.log %p : tensor<2x16xf32>
  return %l : tensor<2x16xf32>
}

// -----

// Must NOT fuse: a contraction takes no prologue, and a group holds one
// heavy op (the second matmul starts its own group).
// CHECK-LABEL: func.func @no_prologue_for_contraction
// CHECK: %[[A:.*]] = kiln.relu %arg0
// CHECK: kiln.fusion ins(%[[A]], %arg1 : {{.*}}) attributes {kind = "contraction"}
// CHECK: kiln.matmul
// CHECK: kiln.tanh
// CHECK: kiln.yield
// CHECK-NOT: kiln.fusion
// CHECK: kiln.matmul
func.func @no_prologue_for_contraction(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = kiln.relu %x : tensor<4x4xf32>
  // expected-remark @below {{fusion group 0 (contraction): 2 ops, 2 inputs, 1 results}}
  %m = kiln.matmul %a, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = kiln.tanh %m : tensor<4x4xf32>
  %m2 = kiln.matmul %t, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2 : tensor<4x4xf32>
}

// -----

// Must NOT fuse: joining would create a cycle (the add reads a value
// computed outside the group from the group's own result), and shape ops
// stay outside groups.
// CHECK-LABEL: func.func @no_cycle
// CHECK-NOT: kiln.fusion
func.func @no_cycle(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = kiln.exp %x : tensor<16xf32>
  %r = kiln.reshape %e : tensor<16xf32> -> tensor<4x4xf32>
  %t = kiln.transpose %r [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %b = kiln.reshape %t : tensor<4x4xf32> -> tensor<16xf32>
  %s = kiln.add %e, %b : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

// Must NOT fuse: two reductions never share a group; the second starts its
// own, which then takes the sqrt epilogue.
// CHECK-LABEL: func.func @two_reductions
// CHECK: kiln.reduce_sum
// CHECK: kiln.fusion {{.*}}kind = "reduction"
// CHECK: kiln.reduce_max
// CHECK: kiln.sqrt
func.func @two_reductions(%x: tensor<4x8xf32>) -> tensor<f32> {
  %s = kiln.reduce_sum %x axes [1] : tensor<4x8xf32> -> tensor<4xf32>
  // expected-remark @below {{fusion group 0 (reduction): 2 ops, 1 inputs, 1 results}}
  %m = kiln.reduce_max %s axes [0] : tensor<4xf32> -> tensor<f32>
  %q = kiln.sqrt %m : tensor<f32>
  return %q : tensor<f32>
}
