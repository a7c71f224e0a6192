// im2col convolutions: a col matrix larger than the output, than the
// function's largest tensor and than 32 KiB is built and multiplied in chunks of output rows, each from a
// zero-padded strip of just the input rows it reads, into a slice of one
// output tensor; a small one stays whole.
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg | FileCheck %s
// The CUDA pipeline turns chunking off: one col matrix, one GEMM.
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg=im2col-chunks=false | FileCheck %s --check-prefix=WHOLE

// 36 x 256 floats of col (36,864 bytes) for a 4,096-byte output: two
// chunks of 8 rows (128 pixels). The first strip has a padded top row, the
// second a padded bottom row; both have the padded columns.
// CHECK-LABEL: func.func @chunked
// WHOLE-LABEL: func.func @chunked
// WHOLE-NOT: into tensor<1x4x256xf32>
// WHOLE: tensor.expand_shape {{.*}} output_shape [1, 36, 256]
// WHOLE-NOT: into tensor<1x4x256xf32>
// WHOLE: return
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<1x4x256xf32>
// CHECK: %[[ROWS0:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 4, 9, 16] [1, 1, 1, 1]
// CHECK: %[[ZEROS0:.*]] = linalg.fill {{.*}} -> tensor<1x4x10x18xf32>
// CHECK: %[[STRIP0:.*]] = tensor.insert_slice %[[ROWS0]] into %[[ZEROS0]][0, 0, 1, 1] [1, 4, 9, 16] [1, 1, 1, 1]
// CHECK: %[[PATCH0:.*]] = linalg.generic {{.*}} ins(%[[STRIP0]] : tensor<1x4x10x18xf32>) outs(%{{.*}} : tensor<1x4x3x3x8x16xf32>)
// CHECK: %[[COL0:.*]] = tensor.expand_shape {{.*}} output_shape [1, 36, 128]
// CHECK: %[[SLICE0:.*]] = tensor.extract_slice %[[OUT]][0, 0, 0] [1, 4, 128] [1, 1, 1]
// CHECK: %[[ACC0:.*]] = linalg.fill {{.*}} outs(%[[SLICE0]] : tensor<1x4x128xf32>)
// CHECK: %[[MM0:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}}, %[[COL0]] : tensor<4x36xf32>, tensor<1x36x128xf32>) outs(%[[ACC0]] : tensor<1x4x128xf32>)
// CHECK: %[[INS0:.*]] = tensor.insert_slice %[[MM0]] into %[[OUT]][0, 0, 0] [1, 4, 128] [1, 1, 1]
// CHECK: %[[ROWS1:.*]] = tensor.extract_slice %arg0[0, 0, 7, 0] [1, 4, 9, 16] [1, 1, 1, 1]
// CHECK: tensor.insert_slice %[[ROWS1]] into %{{.*}}[0, 0, 0, 1] [1, 4, 9, 16] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x3x3x8x16xf32>)
// CHECK: %[[SLICE1:.*]] = tensor.extract_slice %[[INS0]][0, 0, 128] [1, 4, 128] [1, 1, 1]
// CHECK: linalg.fill {{.*}} outs(%[[SLICE1]] : tensor<1x4x128xf32>)
// CHECK: %[[MM1:.*]] = linalg.generic
// CHECK: %[[INS1:.*]] = tensor.insert_slice %[[MM1]] into %[[INS0]][0, 0, 128] [1, 4, 128] [1, 1, 1]
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 4, 16, 16]
// CHECK-NOT: tensor.insert_slice
// CHECK: return
func.func @chunked(%x: tensor<1x4x16x16xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x16x16xf32> {
  %0 = kiln.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x16x16xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x16x16xf32>
  return %0 : tensor<1x4x16x16xf32>
}

// -----

// Unpadded, a chunk's strip is a view of its input rows: no copy.
// CHECK-LABEL: func.func @chunked_unpadded
// CHECK: tensor.extract_slice %arg0[0, 0, 0, 0] [1, 4, 10, 18] [1, 1, 1, 1]
// CHECK-NEXT: tensor.empty() : tensor<1x4x3x3x8x16xf32>
// CHECK: tensor.extract_slice %arg0[0, 0, 8, 0] [1, 4, 10, 18] [1, 1, 1, 1]
// CHECK-NEXT: tensor.empty() : tensor<1x4x3x3x8x16xf32>
func.func @chunked_unpadded(%x: tensor<1x4x18x18xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x16x16xf32> {
  %0 = kiln.conv2d %x, %w : (tensor<1x4x18x18xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x16x16xf32>
  return %0 : tensor<1x4x16x16xf32>
}

// -----

// 18 x 64 floats of col (4,608 bytes): one col, one product, no slices;
// the padded input is copied whole as before.
// CHECK-LABEL: func.func @small
// CHECK-NOT: tensor.extract_slice
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1] [1, 2, 8, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> into tensor<1x2x10x10xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x3x3x8x8xf32>)
// CHECK: linalg.fill {{.*}} outs(%{{.*}} : tensor<1x4x64xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x64xf32>)
// CHECK-NOT: tensor.insert_slice
// CHECK: return
func.func @small(%x: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = kiln.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// A 1x1 stride-1 convolution reads its input as the col matrix.
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: tensor.extract_slice
// CHECK: tensor.expand_shape {{.*}} output_shape [1, 64, 1024]
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @pointwise(%x: tensor<1x64x32x32xf32>, %w: tensor<64x64x1x1xf32>) -> tensor<1x64x32x32xf32> {
  %0 = kiln.conv2d %x, %w : (tensor<1x64x32x32xf32>, tensor<64x64x1x1xf32>) -> tensor<1x64x32x32xf32>
  return %0 : tensor<1x64x32x32xf32>
}

// -----

// The same convolution stays whole when the function computes a larger
// tensor (65,536 bytes) than its col: every plan holds that one anyway.
// CHECK-LABEL: func.func @budget_from_largest_tensor
// CHECK-NOT: into tensor<1x4x256xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x3x3x16x16xf32>)
// CHECK-NOT: into tensor<1x4x256xf32>
// CHECK: return
func.func @budget_from_largest_tensor(%x: tensor<1x4x16x16xf32>, %w: tensor<4x4x3x3xf32>, %big: tensor<1x16x32x32xf32>) -> (tensor<1x4x16x16xf32>, tensor<1x16x32x32xf32>) {
  %0 = kiln.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x16x16xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x16x16xf32>
  %1 = kiln.relu %big : tensor<1x16x32x32xf32>
  return %0, %1 : tensor<1x4x16x16xf32>, tensor<1x16x32x32xf32>
}
