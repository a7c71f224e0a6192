// RUN: kiln-opt %s --kiln-lower-vector-ops -split-input-file | FileCheck %s

// A read along a stride-2 dimension is one contiguous read of the 31
// elements its 16 lanes span (masked: not in bounds of that span) and a
// shuffle keeping the even lanes, not 16 scalar loads.
// CHECK-LABEL: func.func @stride_2_read
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[ROW:.*]] = arith.muli %arg1, %{{.*}}
// CHECK: %[[START:.*]] = arith.addi %[[OFFSET]], %[[ROW]]
// CHECK: %[[SPAN:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%{{.*}}], sizes: [31], strides: [1]
// CHECK: %[[WIDE:.*]] = vector.transfer_read %[[SPAN]][%{{.*}}], %{{.*}} : memref<31xf32, strided<[1], offset: ?>>, vector<32xf32>
// CHECK: vector.shuffle %[[WIDE]], %[[WIDE]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<32xf32>, vector<32xf32>
func.func @stride_2_read(%view: memref<4x16xf32, strided<[40, 2], offset: ?>>, %row: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %view[%row, %c0], %pad {in_bounds = [true]} : memref<4x16xf32, strided<[40, 2], offset: ?>>, vector<16xf32>
  return %v : vector<16xf32>
}

// -----

// Unit strides read as they are; strides above 4 would load mostly unused
// lanes and stay element by element.
// CHECK-LABEL: func.func @other_strides
// CHECK-NOT: vector.shuffle
// CHECK-NOT: memref.reinterpret_cast
func.func @other_strides(%unit: memref<16xf32>, %wide: memref<16xf32, strided<[5]>>) -> (vector<16xf32>, vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %unit[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  %b = vector.transfer_read %wide[%c0], %pad {in_bounds = [true]} : memref<16xf32, strided<[5]>>, vector<16xf32>
  return %a, %b : vector<16xf32>, vector<16xf32>
}

// -----

// A grouped convolution's tile: one weight (a unit group, output channel
// and input channel) times a row of 16 output columns, the reduction
// stepped by one. It is one broadcast FMA on the row, not 16 one-lane
// reductions (what the outer-product lowering makes of a contraction that
// is not a plain matmul).
// CHECK-LABEL: func.func @broadcast_contraction
// CHECK-NOT: vector.reduction
// CHECK: vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NOT: vector.reduction
// CHECK: return
func.func @broadcast_contraction(%w: vector<1x1x1xf32>, %row: vector<1x1x16xf32>, %acc: vector<1x1x16xf32>) -> vector<1x1x16xf32> {
  %r = vector.contract {indexing_maps = [affine_map<(g, o, c, ow) -> (g, o, c)>, affine_map<(g, o, c, ow) -> (g, c, ow)>, affine_map<(g, o, c, ow) -> (g, o, ow)>],
                        iterator_types = ["parallel", "parallel", "reduction", "parallel"], kind = #vector.kind<add>}
       %w, %row, %acc : vector<1x1x1xf32>, vector<1x1x16xf32> into vector<1x1x16xf32>
  return %r : vector<1x1x16xf32>
}

// -----

// A matmul tile's one-column tail (49 = 32 + 16 + 1 columns): a column of
// 8 weights times one broadcast input is one 8-lane FMA, not eight scalar
// FMAs (the outer-product lowering's rows).
// CHECK-LABEL: func.func @matmul_column_tail
// CHECK-COUNT-1: vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NOT: vector.fma
// CHECK: return
func.func @matmul_column_tail(%w: vector<8x1xf32>, %x: vector<1x1xf32>, %acc: vector<8x1xf32>) -> vector<8x1xf32> {
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
       %w, %x, %acc : vector<8x1xf32>, vector<1x1xf32> into vector<8x1xf32>
  return %r : vector<8x1xf32>
}

// -----

// A pooling tile: the window's (kh, kw) are unit dimensions of the tile, so
// its reduction is one elementwise max with the accumulator row, not a
// transpose and 16 one-lane reductions (which scalarised SqueezeNet's
// 3x3 stride-2 max pooling: 1.8 ms against 0.13 ms).
// CHECK-LABEL: func.func @unit_window_reduction
// CHECK-NOT: vector.reduction
// CHECK-NOT: vector.extract {{.*}} from vector<32xf32>
// CHECK: %[[WIDE:.*]] = vector.transfer_read {{.*}} vector<32xf32>
// CHECK: %[[EVEN:.*]] = vector.shuffle %[[WIDE]], %[[WIDE]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NOT: vector.reduction
func.func @unit_window_reduction(%window: memref<1x1x1x1x1x16xf32, strided<[788544, 12321, 222, 111, 1, 2], offset: ?>>, %out: memref<1x1x1x16xf32, strided<[193600, 3025, 55, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %pad = ub.poison : f32
  %w = vector.transfer_read %window[%c0, %c0, %c0, %c0, %c0, %c0], %pad {in_bounds = [true, true, true, true, true, true]} : memref<1x1x1x1x1x16xf32, strided<[788544, 12321, 222, 111, 1, 2], offset: ?>>, vector<1x1x1x1x1x16xf32>
  %acc = vector.transfer_read %out[%c0, %c0, %c0, %c0], %pad {in_bounds = [true, true, true, true]} : memref<1x1x1x16xf32, strided<[193600, 3025, 55, 1], offset: ?>>, vector<1x1x1x16xf32>
  %m = vector.multi_reduction <maximumf>, %w, %acc [3, 4] : vector<1x1x1x1x1x16xf32> to vector<1x1x1x16xf32>
  vector.transfer_write %m, %out[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x1x1x16xf32>, memref<1x1x1x16xf32, strided<[193600, 3025, 55, 1], offset: ?>>
  return
}
