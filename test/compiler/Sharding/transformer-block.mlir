// RUN: kiln-opt %s --kiln-shard='ranks=2 rank=1' --canonicalize | FileCheck %s
// RUN: kiln-opt %s --kiln-shard='ranks=4 rank=3' --canonicalize | FileCheck %s --check-prefix=FOUR
// RUN: kiln-opt %s --kiln-shard='ranks=2 rank=0 strategy=sequence' --canonicalize | FileCheck %s --check-prefix=SEQ
// RUN: kiln-opt %s --kiln-shard='ranks=2 rank=1 strategy=sequence' --canonicalize | FileCheck %s --check-prefix=SEQ1
// RUN: kiln-opt %s --kiln-shard='ranks=4 rank=2 strategy=sequence' --canonicalize | FileCheck %s --check-prefix=SEQ4

// A post-LN encoder block as ONNX exports it (fused Q/K/V projection split
// in three, heads by reshape and transpose, residuals, GELU MLP). Tensor
// parallelism gives exactly two all-reduces per block, as in Megatron: one
// after the attention output projection, one after the second MLP layer;
// nothing is gathered. Each rank keeps half of the heads.

// CHECK: all_gathers = 0 : i64, all_reduces = 2 : i64
// CHECK-NOT: kiln.split
// CHECK-COUNT-3: kiln.matmul %{{.*}} : (tensor<1x8x16xf32>, tensor<16x8xf32>) -> tensor<1x8x8xf32>
// CHECK: kiln.reshape %{{.*}} : tensor<1x8x8xf32> -> tensor<1x8x2x4xf32>
// CHECK: kiln.matmul %{{.*}} : (tensor<1x2x8x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x8x8xf32>
// CHECK: kiln.softmax %{{.*}} axis 3 : tensor<1x2x8x8xf32>
// CHECK: kiln.reshape %{{.*}} : tensor<1x8x2x4xf32> -> tensor<1x8x8xf32>
// CHECK: %[[O:.*]] = kiln.matmul %{{.*}} : (tensor<1x8x8xf32>, tensor<8x16xf32>) -> tensor<1x8x16xf32>
// CHECK: %[[A:.*]] = kiln.all_reduce sum %[[O]] ranks(2) : tensor<1x8x16xf32>
// CHECK: kiln.layer_norm %[[A]]
// CHECK: kiln.matmul %{{.*}} : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
// CHECK: kiln.gelu
// CHECK: %[[F:.*]] = kiln.matmul %{{.*}} : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
// CHECK: %[[M:.*]] = kiln.all_reduce sum %[[F]] ranks(2) : tensor<1x8x16xf32>
// CHECK: kiln.layer_norm %[[M]]
// CHECK-NOT: kiln.all_

// Sequence parallelism (Megatron-SP): each all-reduce becomes a
// reduce-scatter into this rank's tokens, the layer norm runs on them, and
// the next column-parallel weight (and the output) all-gathers them: two of
// each per block, the same bytes, no all-reduce. The bias and a whole
// residual (the block's input) join the partial sum on rank 0, before the
// scatter; a residual already split along the tokens (the first layer
// norm's) is added after it, by each rank to its own tokens.
// SEQ: all_gathers = 2 : i64, all_reduces = 0 : i64
// SEQ-SAME: reduce_scatters = 2 : i64, strategy = "sequence"
// SEQ: %[[O:.*]] = kiln.matmul %{{.*}} : (tensor<1x8x8xf32>, tensor<8x16xf32>) -> tensor<1x8x16xf32>
// SEQ: %[[OB:.*]] = kiln.add %[[O]], %{{.*}} : (tensor<1x8x16xf32>, tensor<16xf32>)
// SEQ: %[[R1:.*]] = kiln.add %arg0, %[[OB]]
// SEQ: %[[S1:.*]] = kiln.reduce_scatter sum %[[R1]] axis(1) ranks(2) : tensor<1x8x16xf32> -> tensor<1x4x16xf32>
// SEQ: %[[N1:.*]] = kiln.layer_norm %[[S1]], {{.*}} -> tensor<1x4x16xf32>
// SEQ: %[[G1:.*]] = kiln.all_gather %[[N1]] axis(1) ranks(2) : tensor<1x4x16xf32> -> tensor<1x8x16xf32>
// SEQ: kiln.matmul %[[G1]], %{{.*}} : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
// SEQ: %[[F:.*]] = kiln.matmul %{{.*}} : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
// SEQ: %[[FB:.*]] = kiln.add %[[F]], %{{.*}} : (tensor<1x8x16xf32>, tensor<16xf32>)
// SEQ: %[[S2:.*]] = kiln.reduce_scatter sum %[[FB]] axis(1) ranks(2)
// SEQ: %[[R2:.*]] = kiln.add %[[N1]], %[[S2]] : (tensor<1x4x16xf32>, tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
// SEQ: %[[N2:.*]] = kiln.layer_norm %[[R2]]
// SEQ: %[[G2:.*]] = kiln.all_gather %[[N2]] axis(1) ranks(2)
// SEQ: return %[[G2]]

// Other ranks skip the whole residual and the bias: they count once. The
// split residual is every rank's own.
// SEQ1: %[[O:.*]] = kiln.matmul %{{.*}} : (tensor<1x8x8xf32>, tensor<8x16xf32>) -> tensor<1x8x16xf32>
// SEQ1-NEXT: kiln.reduce_scatter sum %[[O]] axis(1) ranks(2)
// SEQ1: %[[N1:.*]] = kiln.layer_norm
// SEQ1: kiln.gelu
// SEQ1-NEXT: %[[F:.*]] = kiln.matmul %{{.*}} : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
// SEQ1-NEXT: %[[S2:.*]] = kiln.reduce_scatter sum %[[F]] axis(1) ranks(2)
// SEQ1-NEXT: kiln.add %[[N1]], %[[S2]] : (tensor<1x4x16xf32>, tensor<1x4x16xf32>)

// SEQ4: all_gathers = 2 : i64, all_reduces = 0 : i64
// SEQ4-SAME: reduce_scatters = 2 : i64
// SEQ4: kiln.reduce_scatter sum %{{.*}} axis(1) ranks(4) : tensor<1x8x16xf32> -> tensor<1x2x16xf32>
// SEQ4: kiln.layer_norm %{{.*}} -> tensor<1x2x16xf32>

// FOUR: all_gathers = 0 : i64, all_reduces = 2 : i64
// FOUR: kiln.softmax %{{.*}} axis 3 : tensor<1x1x8x8xf32>
func.func @block(%x: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %wqkv = kiln.constant dense<0.01> : tensor<16x48xf32>
  %bqkv = kiln.constant dense<0.02> : tensor<48xf32>
  %wo = kiln.constant dense<0.03> : tensor<16x16xf32>
  %bo = kiln.constant dense<0.04> : tensor<16xf32>
  %w1 = kiln.constant dense<0.05> : tensor<16x32xf32>
  %b1 = kiln.constant dense<0.06> : tensor<32xf32>
  %w2 = kiln.constant dense<0.07> : tensor<32x16xf32>
  %b2 = kiln.constant dense<0.08> : tensor<16xf32>
  %g = kiln.constant dense<1.0> : tensor<16xf32>
  %be = kiln.constant dense<0.0> : tensor<16xf32>
  %scale = kiln.constant dense<2.0> : tensor<f32>

  %qkv0 = kiln.matmul %x, %wqkv : (tensor<1x8x16xf32>, tensor<16x48xf32>) -> tensor<1x8x48xf32>
  %qkv = kiln.add %qkv0, %bqkv : (tensor<1x8x48xf32>, tensor<48xf32>) -> tensor<1x8x48xf32>
  %q, %k, %v = kiln.split %qkv axis 2 : tensor<1x8x48xf32> -> tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>
  %qh = kiln.reshape %q : tensor<1x8x16xf32> -> tensor<1x8x4x4xf32>
  %kh = kiln.reshape %k : tensor<1x8x16xf32> -> tensor<1x8x4x4xf32>
  %vh = kiln.reshape %v : tensor<1x8x16xf32> -> tensor<1x8x4x4xf32>
  %qt = kiln.transpose %qh [0, 2, 1, 3] : tensor<1x8x4x4xf32> -> tensor<1x4x8x4xf32>
  %kt = kiln.transpose %kh [0, 2, 3, 1] : tensor<1x8x4x4xf32> -> tensor<1x4x4x8xf32>
  %vt = kiln.transpose %vh [0, 2, 1, 3] : tensor<1x8x4x4xf32> -> tensor<1x4x8x4xf32>
  %s0 = kiln.matmul %qt, %kt : (tensor<1x4x8x4xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x8x8xf32>
  %s1 = kiln.div %s0, %scale : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %p = kiln.softmax %s1 axis 3 : tensor<1x4x8x8xf32>
  %c = kiln.matmul %p, %vt : (tensor<1x4x8x8xf32>, tensor<1x4x8x4xf32>) -> tensor<1x4x8x4xf32>
  %ct = kiln.transpose %c [0, 2, 1, 3] : tensor<1x4x8x4xf32> -> tensor<1x8x4x4xf32>
  %cm = kiln.reshape %ct : tensor<1x8x4x4xf32> -> tensor<1x8x16xf32>
  %o0 = kiln.matmul %cm, %wo : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
  %o1 = kiln.add %o0, %bo : (tensor<1x8x16xf32>, tensor<16xf32>) -> tensor<1x8x16xf32>
  %r1 = kiln.add %x, %o1 : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %n1 = kiln.layer_norm %r1, %g, %be axis -1 epsilon 1.0e-05 : (tensor<1x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x8x16xf32>
  %f0 = kiln.matmul %n1, %w1 : (tensor<1x8x16xf32>, tensor<16x32xf32>) -> tensor<1x8x32xf32>
  %f1 = kiln.add %f0, %b1 : (tensor<1x8x32xf32>, tensor<32xf32>) -> tensor<1x8x32xf32>
  %f2 = kiln.gelu %f1 : tensor<1x8x32xf32>
  %f3 = kiln.matmul %f2, %w2 : (tensor<1x8x32xf32>, tensor<32x16xf32>) -> tensor<1x8x16xf32>
  %f4 = kiln.add %f3, %b2 : (tensor<1x8x16xf32>, tensor<16xf32>) -> tensor<1x8x16xf32>
  %r2 = kiln.add %n1, %f4 : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %n2 = kiln.layer_norm %r2, %g, %be axis -1 epsilon 1.0e-05 : (tensor<1x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x8x16xf32>
  return %n2 : tensor<1x8x16xf32>
}
