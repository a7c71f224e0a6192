// RUN: kiln-opt %s --kiln-vectorize-linalg="register-rows=8 register-columns=32 vector-lanes=16" -split-input-file | FileCheck %s
// RUN: kiln-opt %s --kiln-vectorize-linalg="register-rows=4 register-columns=16 vector-lanes=8" -split-input-file | FileCheck %s --check-prefix=AVX2
// The host's own tile (AVX-512 or AVX2) is valid IR too.
// RUN: kiln-opt %s --kiln-vectorize-linalg -split-input-file | FileCheck %s --check-prefix=HOST

// Tiling and vectorisation on buffers (after the memory plan). A tile size
// that does not divide its loop leaves one partial tile, peeled and
// vectorised at its own static size; nothing allocates.

// A contraction gets register tiles (8x32 for AVX-512, 4x16 for AVX2),
// column panels outermost, the reduction stepped by one with the
// accumulator tile carried in registers (read before the k loop, written
// after it).
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %c32
// CHECK: scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} vector<8x32xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ITER:.*]] = %[[ACC]]) -> (vector<8x32xf32>)
// CHECK: vector.transfer_read {{.*}} vector<8x1xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x32xf32>
// CHECK: vector.contract {{.*}} %[[ITER]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK: vector.transfer_write %[[SUM]]
// CHECK-NOT: linalg.generic
// AVX2-LABEL: func.func @matmul
// AVX2: scf.for {{.*}} step %c16
// AVX2: scf.for {{.*}} step %c4
// AVX2: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// HOST-LABEL: func.func @matmul
// HOST: vector.contract
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

// A width the tile does not divide keeps the full tile and peels the rest:
// a 1x1000 GEMV row is 31 tiles of 32 columns and one of 8.
// CHECK-LABEL: func.func @gemv
// CHECK: scf.for %{{.*}} = %c0 to %c992 step %c32
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x32xf32> into vector<1x32xf32>
// CHECK: }
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
// CHECK: vector.transfer_write {{.*}} : vector<1x8xf32>, memref<1x8xf32, strided<[1000, 1], offset: 992>>
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

// Remainders in both tile dimensions and a blocked reduction: 13 rows are
// a tile of 8 and one of 5, 40 columns a panel of 32 and one of 8, and the
// reduction of 600 three blocks of 200 (at most 256), the row tiles'
// accumulators carried across the blocks.
// CHECK-LABEL: func.func @matmul_remainders
// CHECK: scf.for {{.*}} = %c0 to %c600 step %c200 iter_args({{.*}}) -> (vector<8x32xf32>, vector<5x32xf32>)
// CHECK: vector.contract {{.*}} into vector<8x32xf32>
// CHECK: vector.contract {{.*}} into vector<5x32xf32>
// CHECK: scf.for {{.*}} = %c0 to %c600 step %c200 iter_args({{.*}}) -> (vector<8x8xf32>, vector<5x8xf32>)
// CHECK: vector.contract {{.*}} into vector<8x8xf32>
// CHECK: vector.contract {{.*}} into vector<5x8xf32>
// CHECK-NOT: linalg.generic
// AVX2-LABEL: func.func @matmul_remainders
// AVX2: vector.contract {{.*}} into vector<4x16xf32>
// AVX2: vector.contract {{.*}} into vector<1x16xf32>
// AVX2: vector.contract {{.*}} into vector<4x8xf32>
// AVX2: vector.contract {{.*}} into vector<1x8xf32>
func.func @matmul_remainders(%a: memref<13x600xf32>, %b: memref<600x40xf32>, %c: memref<13x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<13x600xf32>, memref<600x40xf32>) outs(%c : memref<13x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A 27-wide row is a 16-lane tile and an 11-lane one, not 27 scalars.
// CHECK-LABEL: func.func @elementwise_remainder
// CHECK: math.exp {{.*}} : vector<1x16xf32>
// CHECK: math.exp {{.*}} : vector<1x11xf32>
func.func @elementwise_remainder(%a: memref<5x27xf32>, %c: memref<5x27xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<5x27xf32>) outs(%c : memref<5x27xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
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

// -----

// A column remainder wider than one vector is cut to whole vectors and a
// peeled rest: 49 columns are a panel of 32, then 16 and 1, never a row of
// 17-lane accumulators (which LLVM scalarises and spills).
// CHECK-LABEL: func.func @matmul_columns_49
// CHECK: vector.contract {{.*}} into vector<8x32xf32>
// CHECK: vector.contract {{.*}} into vector<8x16xf32>
// CHECK: vector.contract {{.*}} into vector<8x1xf32>
// CHECK-NOT: x17xf32>
// AVX2-LABEL: func.func @matmul_columns_49
// AVX2: vector.contract {{.*}} into vector<4x16xf32>
// AVX2-NOT: x17xf32>
func.func @matmul_columns_49(%a: memref<64x32xf32>, %b: memref<32x49xf32>, %c: memref<64x49xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf32>, memref<32x49xf32>) outs(%c : memref<64x49xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rows the tile's eight do not divide take a few fewer rows that do: 49
// rows (a 7 x 7 map's pixels) are seven tiles of 7, with no one-row tail;
// 50 rows (no divisor from 6 to 8) keep tiles of 8 and a tail of 2.
// CHECK-LABEL: func.func @rows_dividing_range
// CHECK: scf.for {{.*}} = %c0 to %c49 step %c7
// CHECK: vector.contract {{.*}} into vector<7x32xf32>
// CHECK-NOT: vector<1x32xf32>
// CHECK: scf.for {{.*}} = %c0 to %c48 step %c8
// CHECK: vector.contract {{.*}} into vector<8x32xf32>
// CHECK: vector.contract {{.*}} into vector<2x32xf32>
// AVX2-LABEL: func.func @rows_dividing_range
// AVX2: vector.contract {{.*}} into vector<4x16xf32>
func.func @rows_dividing_range(%a: memref<49x32xf32>, %b: memref<32x32xf32>, %c: memref<49x32xf32>,
                               %d: memref<50x32xf32>, %e: memref<50x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<49x32xf32>, memref<32x32xf32>) outs(%c : memref<49x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%d, %b : memref<50x32xf32>, memref<32x32xf32>) outs(%e : memref<50x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A stride-2 pooling window over a workgroup's slice (dynamic offset): the
// window view starts at the slice's offset in its base buffer, the output
// column is the vector dimension, and its input stride is 2.
// CHECK-LABEL: func.func @strided_window_of_slice
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %{{.*}}:4, %{{.*}}:4 = memref.extract_strided_metadata
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[OFFSET]]], sizes: [1, 4, 16, 3, 3, 16], strides: [8712, 1089, 66, 33, 1, 2]
// CHECK: vector.transfer_read {{.*}} : memref<1x1x1x1x1x16xf32, strided<[8712, 1089, 66, 33, 1, 2], offset: ?>>, vector<1x1x1x1x1x16xf32>
// CHECK: arith.maximumf {{.*}} : vector<1x1x1x1x1x16xf32>
func.func @strided_window_of_slice(%all: memref<1x8x33x33xf32>, %w: memref<3x3xf32>, %out: memref<1x4x16x16xf32>, %first: index) {
  %in = memref.subview %all[0, %first, 0, 0] [1, 4, 33, 33] [1, 1, 1, 1] : memref<1x8x33x33xf32> to memref<1x4x33x33xf32, strided<[8712, 1089, 33, 1], offset: ?>>
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh * 2 + kh, ow * 2 + kw)>, affine_map<(n, c, oh, kh, kw, ow) -> (kh, kw)>, affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<1x4x33x33xf32, strided<[8712, 1089, 33, 1], offset: ?>>, memref<3x3xf32>) outs(%out : memref<1x4x16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.maximumf %acc, %x : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A group-wise scale read (k floordiv 4) is not a strided view: flattening
// it needs a local variable, and treating it as one would read scale k
// instead of scale k / 4. The operand keeps its buffer and map.
// CHECK-LABEL: func.func @grouped_scale_not_a_window
// CHECK-NOT: memref.reinterpret_cast
// CHECK: return
func.func @grouped_scale_not_a_window(%a: memref<1x16xf32>, %q: memref<16x32xi8>, %s: memref<4x32xf32>, %c: memref<1x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (k floordiv 4, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %q, %s : memref<1x16xf32>, memref<16x32xi8>, memref<4x32xf32>) outs(%c : memref<1x32xf32>) {
  ^bb0(%x: f32, %w: i8, %scale: f32, %acc: f32):
    %wf = arith.sitofp %w : i8 to f32
    %ws = arith.mulf %wf, %scale : f32
    %p = arith.mulf %x, %ws : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// Cache loop order. Column panels outermost stream the left-hand side once
// per panel: 2.4 MB of weights (more than half of L2) over 7 panels would
// be 16 MB. Reduction blocks go outermost instead, passing over the 200 KB
// output (resident in L2) once per block.
// CHECK-LABEL: func.func @weights_beyond_l2
// CHECK: scf.for %{{.*}} = %c0 to %c2304 step %c256
// CHECK: scf.for %{{.*}} = %c0 to %c192 step %c32
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c8
func.func @weights_beyond_l2(%a: memref<256x2304xf32>, %b: memref<2304x196xf32>, %c: memref<256x196xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x2304xf32>, memref<2304x196xf32>) outs(%c : memref<256x196xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Weights that stay in L2 (147 KB) keep the column panels outermost: the
// 800 KB output is not passed over once per reduction block.
// CHECK-LABEL: func.func @weights_in_l2
// CHECK: scf.for %{{.*}} = %c0 to %c3136 step %c32
// CHECK: scf.for %{{.*}} = %c0 to %c576 step %c192
func.func @weights_in_l2(%a: memref<64x576xf32>, %b: memref<576x3136xf32>, %c: memref<64x3136xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x576xf32>, memref<576x3136xf32>) outs(%c : memref<64x3136xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An input read transposed (a product [N, P, O] copied to [N, O, P]) is read
// 16 x 16 at a time along its own contiguous dimension and transposed in
// registers, not gathered one element per lane; the 49th pixel column is a
// peeled 16 x 1 tile.
// CHECK-LABEL: func.func @transposed_copy
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: scf.for %{{.*}} = %c0 to %c48 step %c16
// CHECK: %[[ROWS:.*]] = vector.transfer_read {{.*}} : memref<1x16x16xf32, strided<[1568, 32, 1], offset: ?>>, vector<1x16x16xf32>
// CHECK: %[[T:.*]] = vector.transpose %[[ROWS]], [0, 2, 1]
// CHECK: vector.transfer_write %[[T]], {{.*}} : vector<1x16x16xf32>, memref<1x16x16xf32, strided<[1568, 49, 1], offset: ?>>
// CHECK: vector.transfer_read {{.*}} vector<1x1x16xf32>
func.func @transposed_copy(%in: memref<1x49x32xf32>, %out: memref<1x32x49xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, o, p) -> (n, p, o)>, affine_map<(n, o, p) -> (n, o, p)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%in : memref<1x49x32xf32>) outs(%out : memref<1x32x49xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}
