// RUN: kiln-opt %s --kiln-vectorize-linalg="register-rows=8 register-columns=32 vector-lanes=16" -split-input-file | FileCheck %s
// RUN: kiln-opt %s --kiln-vectorize-linalg="register-rows=8 register-columns=32 vector-lanes=16 accumulator-chains=1" -split-input-file | FileCheck %s --check-prefix=OFF

// A reduction loop whose accumulators make fewer than 8 FMA chains waits on
// the FMA latency every step; it is unrolled onto partial accumulators
// (the first from the tile's value, the others from -0.0, the identity of a
// float sum), summed pairwise after the loop. The 49-column matmul's 8x32 and 8x16 tiles (16 and 8
// chains) keep their loops; its one-column tail (one 8-lane FMA a step)
// gets four partial sums.
// CHECK-LABEL: func.func @column_tail
// CHECK: scf.for {{.*}} step %c1 iter_args({{.*}}) -> (vector<8x32xf32>)
// CHECK: scf.for {{.*}} step %c1 iter_args({{.*}}) -> (vector<8x16xf32>)
// CHECK: %[[TILE:.*]] = vector.transfer_read {{.*}} offset: 48>>, vector<8x1xf32>
// CHECK: %[[ZERO:.*]] = arith.constant dense<-0.000000e+00> : vector<8x1xf32>
// CHECK: %[[PARTS:.*]]:4 = scf.for %[[K:.*]] = %c0 to %{{.*}} step %c4 iter_args(%[[P0:.*]] = %[[TILE]], %[[P1:.*]] = %[[ZERO]], %[[P2:.*]] = %[[ZERO]], %[[P3:.*]] = %[[ZERO]])
// CHECK: %[[S0:.*]] = vector.contract {{.*}} %[[P0]] : vector<8x1xf32>, vector<1x1xf32> into vector<8x1xf32>
// CHECK: arith.addi %[[K]], %c1
// CHECK: %[[S1:.*]] = vector.contract {{.*}} %[[P1]]
// CHECK: arith.addi %[[K]], %c2
// CHECK: %[[S2:.*]] = vector.contract {{.*}} %[[P2]]
// CHECK: arith.addi %[[K]], %c3
// CHECK: %[[S3:.*]] = vector.contract {{.*}} %[[P3]]
// CHECK: scf.yield %[[S0]], %[[S1]], %[[S2]], %[[S3]]
// CHECK: %[[A:.*]] = arith.addf %[[PARTS]]#0, %[[PARTS]]#1 : vector<8x1xf32>
// CHECK: %[[B:.*]] = arith.addf %[[PARTS]]#2, %[[PARTS]]#3 : vector<8x1xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : vector<8x1xf32>
// CHECK-NOT: scf.for
// CHECK: vector.transfer_write %[[SUM]]
// OFF-LABEL: func.func @column_tail
// OFF-NOT: step %c4
// OFF: return
func.func @column_tail(%a: memref<8x64xf32>, %b: memref<64x49xf32>, %c: memref<8x49xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x64xf32>, memref<64x49xf32>) outs(%c : memref<8x49xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A GEMV row (two 16-lane chains) over 66 steps: 64 of them unrolled by 4,
// the last 2 in the original loop, starting from the partials' sum.
// CHECK-LABEL: func.func @gemv_remainder
// CHECK: %[[PARTS:.*]]:4 = scf.for %{{.*}} = %c0 to %[[END:.*]] step %c4 {{.*}} -> (vector<1x32xf32>, vector<1x32xf32>, vector<1x32xf32>, vector<1x32xf32>)
// CHECK-COUNT-3: arith.addf
// CHECK: %[[REST:.*]] = scf.for %{{.*}} = %[[END]] to %c66 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<1x32xf32>)
// CHECK: vector.transfer_write %[[REST]]
func.func @gemv_remainder(%a: memref<1x66xf32>, %b: memref<66x32xf32>, %c: memref<1x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<1x66xf32>, memref<66x32xf32>) outs(%c : memref<1x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row sum carries one 16-lane partial vector (reduceAfterLoops) and the
// original scalar, passed through unchanged: four partial vectors, steps of
// 64 elements, reduced once after the loop.
// CHECK-LABEL: func.func @row_sum
// CHECK: %[[PARTS:.*]]:5 = scf.for %{{.*}} = %c0 to %{{.*}} step %c64 iter_args(%[[INIT:[a-z0-9_]+]] = %{{.*}}, {{.*}}) -> (vector<1xf32>, vector<1x16xf32>, vector<1x16xf32>, vector<1x16xf32>, vector<1x16xf32>)
// CHECK: scf.yield %[[INIT]],
// CHECK: arith.addf %[[PARTS]]#1, %[[PARTS]]#2
// CHECK: arith.addf %[[PARTS]]#3, %[[PARTS]]#4
// CHECK: vector.multi_reduction <add>
func.func @row_sum(%a: memref<4x1024xf32>, %c: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x1024xf32>) outs(%c : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Sums in f16 keep their order: reassociating them costs mantissa bits.
// CHECK-LABEL: func.func @tail_f16
// CHECK-NOT: step %c4
// CHECK: return
func.func @tail_f16(%a: memref<8x64xf16>, %b: memref<64x49xf16>, %c: memref<8x49xf16>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x64xf16>, memref<64x49xf16>) outs(%c : memref<8x49xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// A short loop (6 steps) does not pay for the partials' sum.
// CHECK-LABEL: func.func @short_reduction
// CHECK-NOT: step %c4
// CHECK: return
func.func @short_reduction(%a: memref<8x6xf32>, %b: memref<6x1xf32>, %c: memref<8x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x6xf32>, memref<6x1xf32>) outs(%c : memref<8x1xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row maximum over 1040 = 65 x 16 elements: its partials start from
// -inf and combine with maximumf; 64 steps unrolled by 4, the last step of
// 16 in the original loop, from the partials' maximum.
// CHECK-LABEL: func.func @row_max_remainder
// CHECK: arith.constant dense<0xFF800000> : vector<1x16xf32>
// CHECK: %[[NEG_INF:.*]] = arith.constant dense<0xFF800000> : vector<1x16xf32>
// CHECK: %[[PARTS:.*]]:5 = scf.for %{{.*}} = %c0 to %[[END:.*]] step %c64 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[NEG_INF]], %{{.*}} = %[[NEG_INF]], %{{.*}} = %[[NEG_INF]])
// CHECK: arith.addi %{{.*}}, %c16
// CHECK: arith.addi %{{.*}}, %c32
// CHECK: arith.addi %{{.*}}, %c48
// CHECK: %[[A:.*]] = arith.maximumf %[[PARTS]]#1, %[[PARTS]]#2
// CHECK: %[[B:.*]] = arith.maximumf %[[PARTS]]#3, %[[PARTS]]#4
// CHECK: %[[MAX:.*]] = arith.maximumf %[[A]], %[[B]]
// CHECK: scf.for %{{.*}} = %[[END]] to %c1040 step %c16 iter_args(%{{.*}} = %[[PARTS]]#0, %{{.*}} = %[[MAX]])
// CHECK: vector.multi_reduction <maximumf>
func.func @row_max_remainder(%a: memref<4x1040xf32>, %c: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x1040xf32>) outs(%c : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Integer sums are exact in any order: split too, from 0, combined by
// plain addi.
// CHECK-LABEL: func.func @int_row_sum
// CHECK: %[[ZERO:.*]] = arith.constant dense<0> : vector<1x16xi32>
// CHECK: %[[PARTS:.*]]:5 = scf.for {{.*}} step %c64 {{.*}} -> (vector<1xi32>, vector<1x16xi32>, vector<1x16xi32>, vector<1x16xi32>, vector<1x16xi32>)
// CHECK: arith.addi %[[PARTS]]#1, %[[PARTS]]#2 : vector<1x16xi32>
func.func @int_row_sum(%a: memref<4x1024xi32>, %c: memref<4xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x1024xi32>) outs(%c : memref<4xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %s = arith.addi %acc, %x : i32
    linalg.yield %s : i32
  }
  return
}
