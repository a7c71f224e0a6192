// RUN: kiln-opt %s --kiln-vectorize-linalg="register-rows=8 register-columns=32 vector-lanes=16" -split-input-file | FileCheck %s
// RUN: kiln-opt %s --kiln-vectorize-linalg="register-rows=8 register-columns=32 vector-lanes=16 prefetch-distance=0" -split-input-file | FileCheck %s --check-prefix=OFF

// A pixel-column convolution's packed weights [O / 8, R, 8] (2 MiB, beyond
// L2) step 32 bytes a reduction step: the tile's loop prefetches the line
// 8 KiB (2048 floats) ahead, clamped to the last element. col [R, P]
// steps a 196-float row and is not prefetched.
// CHECK-LABEL: func.func @packed_weight_rows
// CHECK: scf.for {{.*}} -> (vector<1x1x8x32xf32>)
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %{{.*}}:3, %[[STRIDES:.*]]:3 = memref.extract_strided_metadata
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [524288], strides: [1] : memref<f32> to memref<524288xf32>
// CHECK: %[[AHEAD:.*]] = arith.constant 2048 : index
// CHECK: %[[LAST:.*]] = arith.constant 524287 : index
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %[[AHEAD]] : index
// CHECK: %[[TARGET:.*]] = arith.minsi %[[END]], %[[LAST]] : index
// CHECK: memref.prefetch %[[FLAT]][%[[TARGET]]], read, locality<3>, data : memref<524288xf32>
// CHECK: vector.contract {{.*}} into vector<1x1x8x32xf32>
// The 4-column remainder's loop prefetches the same stream.
// CHECK: scf.for {{.*}} -> (vector<1x1x8x4xf32>)
// CHECK: memref.prefetch %{{.*}} : memref<524288xf32>
// CHECK: vector.contract {{.*}} into vector<1x1x8x4xf32>
// CHECK-NOT: memref.prefetch
// OFF-LABEL: func.func @packed_weight_rows
// OFF-NOT: memref.prefetch
func.func @packed_weight_rows(%w: memref<64x1024x8xf32>, %col: memref<1x1024x196xf32>, %out: memref<1x64x8x196xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, b, i, p, r) -> (b, r, i)>, affine_map<(n, b, i, p, r) -> (n, r, p)>, affine_map<(n, b, i, p, r) -> (n, b, i, p)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : memref<64x1024x8xf32>, memref<1x1024x196xf32>) outs(%out : memref<1x64x8x196xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// What is not prefetched: packed weights that stay in L2 (256 KiB), and a
// channel-column panel read 128 bytes a step, front to back (the hardware
// prefetchers follow it).
// CHECK-LABEL: func.func @not_prefetched
// CHECK-NOT: memref.prefetch
func.func @not_prefetched(%w: memref<8x1024x8xf32>, %col: memref<1x1024x196xf32>, %out: memref<1x8x8x196xf32>,
                          %x: memref<1x1024x49xf32>, %v: memref<64x1024x32xf32>, %y: memref<1x49x64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, b, i, p, r) -> (b, r, i)>, affine_map<(n, b, i, p, r) -> (n, r, p)>, affine_map<(n, b, i, p, r) -> (n, b, i, p)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : memref<8x1024x8xf32>, memref<1x1024x196xf32>) outs(%out : memref<1x8x8x196xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(n, b, p, i, r) -> (n, r, p)>, affine_map<(n, b, p, i, r) -> (b, r, i)>, affine_map<(n, b, p, i, r) -> (n, p, b, i)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %v : memref<1x1024x49xf32>, memref<64x1024x32xf32>) outs(%y : memref<1x49x64x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
