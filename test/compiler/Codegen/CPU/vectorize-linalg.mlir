// RUN: kiln-opt %s --kiln-vectorize-linalg -split-input-file | FileCheck %s

// Tiling and vectorisation on buffers (after the memory plan). Tile sizes
// divide the loop ranges, so every tile is static; nothing allocates.

// A contraction gets 8x32 register tiles, the reduction stepped by one with
// the accumulator tile carried in registers (read before the k loop,
// written after it).
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %c32
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} vector<8x32xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ITER:.*]] = %[[ACC]]) -> (vector<8x32xf32>)
// CHECK: vector.transfer_read {{.*}} vector<8x1xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x32xf32>
// CHECK: vector.contract {{.*}} %[[ITER]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK: vector.transfer_write %[[SUM]]
// CHECK-NOT: linalg.generic
func.func @matmul(%a: memref<64x128xf32>, %b: memref<128x96xf32>, %c: memref<64x96xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x128xf32>, memref<128x96xf32>) outs(%c : memref<64x96xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Sizes that 32 does not divide take a power-of-two width when the
// largest divisor (25 here) is not a multiple of 8: a 1x1000 GEMV row is
// one row of 8-wide column tiles.
// CHECK-LABEL: func.func @gemv
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
func.func @gemv(%a: memref<1x64xf32>, %b: memref<64x1000xf32>, %c: memref<1x1000xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<1x64xf32>, memref<64x1000xf32>) outs(%c : memref<1x1000xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Elementwise ops: 16 lanes along the innermost loop, math on vectors.
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.for %{{.*}} step %c16
// CHECK: %[[X:.*]] = vector.transfer_read {{.*}} vector<1x16xf32>
// CHECK: %[[E:.*]] = math.exp %[[X]] : vector<1x16xf32>
// CHECK: math.tanh %[[E]] : vector<1x16xf32>
// CHECK: vector.transfer_write
func.func @elementwise(%a: memref<32x64xf32>, %c: memref<32x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<32x64xf32>) outs(%c : memref<32x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    %t = math.tanh %e : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// A row reduction accumulates 16 partial sums in a register across its
// row, lane by lane, and reduces them once after the loop.
// CHECK-LABEL: func.func @row_sum
// CHECK: %[[INIT:.*]] = vector.transfer_read {{.*}} vector<1xf32>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1x16xf32>
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} step %c16 iter_args(%{{.*}} = %[[INIT]], %[[PARTIAL:.*]] = %[[ZERO]])
// CHECK: %[[X:.*]] = vector.transfer_read {{.*}} vector<1x16xf32>
// CHECK: arith.addf %[[PARTIAL]], %[[X]] : vector<1x16xf32>
// CHECK: }
// CHECK: vector.multi_reduction <add>, %[[LOOP]]#1, %[[INIT]] [1] : vector<1x16xf32> to vector<1xf32>
func.func @row_sum(%a: memref<32x64xf32>, %c: memref<32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<32x64xf32>) outs(%c : memref<32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left to scalar loops: i1 buffers (one byte per element), an innermost
// range under 4, and loads in the body.
// CHECK-LABEL: func.func @not_vectorised
// CHECK-NOT: vector.
// CHECK-COUNT-3: linalg.generic
func.func @not_vectorised(%a: memref<8x16xi1>, %b: memref<8x16xi1>, %c: memref<16x2xf32>, %d: memref<16x2xf32>,
                          %table: memref<10xf32>, %idx: memref<16xindex>, %e: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8x16xi1>) outs(%b : memref<8x16xi1>) {
  ^bb0(%x: i1, %o: i1):
    linalg.yield %x : i1
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x2xf32>) outs(%d : memref<16x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%idx : memref<16xindex>) outs(%e : memref<16xf32>) {
  ^bb0(%i: index, %o: f32):
    %v = memref.load %table[%i] : memref<10xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// An im2col window read (oh + kh, ow + kw) becomes a strided view with a
// projected-permutation map, vectorised along the unit-stride ow.
// CHECK-LABEL: func.func @im2col_window
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [3, 3, 16, 16], strides: [18, 1, 18, 1]
// CHECK: vector.transfer_read %{{.*}} : memref<1x1x1x16xf32, strided<[18, 1, 18, 1], offset: ?>>, vector<1x1x1x16xf32>
func.func @im2col_window(%in: memref<18x18xf32>, %out: memref<3x3x16x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(kh, kw, oh, ow) -> (oh + kh, ow + kw)>, affine_map<(kh, kw, oh, ow) -> (kh, kw, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : memref<18x18xf32>) outs(%out : memref<3x3x16x16xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}
