// kiln-form-kernels numbers the loop nests of a planned function into
// kernels: a fill with the reduction it initialises, a contraction with
// the epilogue of its group. The @no_ cases must stay apart.
// RUN: kiln-opt %s --split-input-file --kiln-form-fusion-groups --kiln-convert-graph-to-linalg --kiln-fuse-group-loops --kiln-bufferize-and-plan-pipeline --kiln-form-kernels | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-form-fusion-groups --kiln-convert-graph-to-linalg --kiln-fuse-group-loops --kiln-bufferize-and-plan-pipeline --kiln-form-kernels=epilogues=false | FileCheck %s --check-prefix=OFF
// Without fusion groups, only one graph op's own lowering shares a kernel.
// RUN: kiln-opt %s --split-input-file --kiln-convert-graph-to-linalg --kiln-bufferize-and-plan-pipeline --kiln-form-kernels | FileCheck %s --check-prefix=UNGROUPED

// Bias, ReLU and exp (one fused loop nest) are the GEMM's epilogue.
// CHECK-LABEL: func.func @matmul_epilogue
// CHECK: linalg.fill {{.*}}kiln.kernel = 0 : i64
// CHECK: linalg.generic {{.*}}"reduction"{{.*}}kiln.kernel = 0 : i64
// CHECK: linalg.generic {{.*}}kiln.kernel = 0 : i64
// CHECK: math.exp
// OFF-LABEL: func.func @matmul_epilogue
// OFF: linalg.fill {{.*}}kiln.kernel = 0 : i64
// OFF: linalg.generic {{.*}}"reduction"{{.*}}kiln.kernel = 0 : i64
// OFF: linalg.generic {{.*}}kiln.kernel = 1 : i64
// UNGROUPED-LABEL: func.func @matmul_epilogue
// UNGROUPED: linalg.fill {{.*}}kiln.kernel = 0 : i64
// UNGROUPED: linalg.generic {{.*}}"reduction"{{.*}}kiln.kernel = 0 : i64
// UNGROUPED: linalg.generic {{.*}}kiln.kernel = 1 : i64
// UNGROUPED: linalg.generic {{.*}}kiln.kernel = 2 : i64
func.func @matmul_epilogue(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>, %c: tensor<16xf32>) -> tensor<16x16xf32> {
  %0 = kiln.matmul %a, %b : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %1 = kiln.add %0, %c : (tensor<16x16xf32>, tensor<16xf32>) -> tensor<16x16xf32>
  %2 = kiln.relu %1 : tensor<16x16xf32>
  %3 = kiln.exp %2 : tensor<16x16xf32>
  return %3 : tensor<16x16xf32>
}

// -----

// The product is also a result: the caller needs it as it is.
// CHECK-LABEL: func.func @no_epilogue_product_returned
// CHECK: linalg.fill {{.*}}kiln.kernel = 0 : i64
// CHECK: linalg.generic {{.*}}"reduction"{{.*}}kiln.kernel = 0 : i64
// CHECK: linalg.generic {{.*}}kiln.kernel = 1 : i64
func.func @no_epilogue_product_returned(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %1 = kiln.relu %0 : tensor<16x16xf32>
  return %0, %1 : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// The product is read again after the epilogue (by the add).
// CHECK-LABEL: func.func @no_epilogue_product_read_later
// CHECK: linalg.generic {{.*}}"reduction"{{.*}}kiln.kernel = 0 : i64
// CHECK: linalg.generic {{.*}}kiln.kernel = 1 : i64
// CHECK: math.exp
func.func @no_epilogue_product_read_later(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>) -> tensor<16x16xf32> {
  %0 = kiln.matmul %a, %b : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %1 = kiln.sigmoid %0 : tensor<16x16xf32>
  %2 = kiln.reduce_max %1 axes [1] keep_dims : tensor<16x16xf32> -> tensor<16x1xf32>
  %3 = kiln.add %0, %2 : (tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32>
  return %3 : tensor<16x16xf32>
}

// -----

// A reduction takes its fill, but no epilogue: only contractions store
// through one.
// CHECK-LABEL: func.func @no_epilogue_after_reduction
// CHECK: linalg.fill {{.*}}kiln.kernel = 0 : i64
// CHECK: linalg.generic {{.*}}"reduction"{{.*}}kiln.kernel = 0 : i64
// CHECK: linalg.generic {{.*}}kiln.kernel = 1 : i64
func.func @no_epilogue_after_reduction(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = kiln.reduce_sum %x axes [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
  %1 = kiln.exp %0 : tensor<4x1xf32>
  return %1 : tensor<4x1xf32>
}

// -----

// A convolution is one graph op, lowered to an im2col copy, a GEMM and the
// bias: grouped or not, the bias is the GEMM's epilogue.
// CHECK-LABEL: func.func @conv_bias
// CHECK: linalg.generic {{.*}}kiln.kernel = 0 : i64
// CHECK: linalg.fill {{.*}}kiln.kernel = 1 : i64
// CHECK: linalg.generic {{.*}}"reduction"{{.*}}kiln.kernel = 1 : i64
// CHECK: linalg.generic {{.*}}kiln.kernel = 1 : i64
// CHECK-NOT: kiln.kernel = 2
// UNGROUPED-LABEL: func.func @conv_bias
// UNGROUPED: linalg.generic {{.*}}kiln.kernel = 0 : i64
// UNGROUPED: linalg.fill {{.*}}kiln.kernel = 1 : i64
// UNGROUPED: linalg.generic {{.*}}"reduction"{{.*}}kiln.kernel = 1 : i64
// UNGROUPED: linalg.generic {{.*}}kiln.kernel = 1 : i64
// UNGROUPED-NOT: kiln.kernel = 2
func.func @conv_bias(%x: tensor<2x4x10x10xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<2x8x8x8xf32> {
  %0 = kiln.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x10x10xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<2x8x8x8xf32>
  return %0 : tensor<2x8x8x8xf32>
}
