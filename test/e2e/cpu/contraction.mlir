// End-to-end numeric tests of matmul, gemm and conv2d
// (GraphContractionOps.td) on the CPU path; references in
// contraction_cases.py.
//
// RUN: /usr/bin/python3 %S/../lib/check_e2e.py --kilnc kilnc --model %s --cases %S/contraction_cases.py --workdir %t | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: SUMMARY: {{[1-9][0-9]*}} passed, 0 failed

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

func.func @matmul_2d(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = kiln.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// Degenerate shapes: a row times a column, and K = 1.
// Latency-bound tiles (a one-column tail, a one-row GEMV) accumulate into
// partial sums over a reduction whose length 4 does not divide (66).
func.func @matmul_partial_accumulators(%a: tensor<16x66xf32>, %b: tensor<66x49xf32>, %c: tensor<1x66xf32>, %d: tensor<66x40xf32>)
    -> (tensor<16x49xf32>, tensor<1x40xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<16x66xf32>, tensor<66x49xf32>) -> tensor<16x49xf32>
  %1 = kiln.matmul %c, %d : (tensor<1x66xf32>, tensor<66x40xf32>) -> tensor<1x40xf32>
  return %0, %1 : tensor<16x49xf32>, tensor<1x40xf32>
}

func.func @matmul_vector_shapes(%a: tensor<1x7xf32>, %b: tensor<7x1xf32>, %c: tensor<5x1xf32>, %d: tensor<1x3xf32>)
    -> (tensor<1x1xf32>, tensor<5x3xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<1x7xf32>, tensor<7x1xf32>) -> tensor<1x1xf32>
  %1 = kiln.matmul %c, %d : (tensor<5x1xf32>, tensor<1x3xf32>) -> tensor<5x3xf32>
  return %0, %1 : tensor<1x1xf32>, tensor<5x3xf32>
}

func.func @matmul_batched(%a: tensor<3x4x6xf32>, %b: tensor<3x6x5xf32>) -> tensor<3x4x5xf32> {
  %0 = kiln.matmul %a, %b : (tensor<3x4x6xf32>, tensor<3x6x5xf32>) -> tensor<3x4x5xf32>
  return %0 : tensor<3x4x5xf32>
}

// Batch dimensions broadcast: missing on one side, or 1 against n.
func.func @matmul_batch_broadcast(%a: tensor<2x3x4x8xf32>, %b: tensor<8x5xf32>,
                                  %c: tensor<2x1x4x8xf32>, %d: tensor<3x8x5xf32>,
                                  %e: tensor<4x8xf32>, %f: tensor<2x1x8x3xf32>)
    -> (tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x1x4x3xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<2x3x4x8xf32>, tensor<8x5xf32>) -> tensor<2x3x4x5xf32>
  %1 = kiln.matmul %c, %d : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  %2 = kiln.matmul %e, %f : (tensor<4x8xf32>, tensor<2x1x8x3xf32>) -> tensor<2x1x4x3xf32>
  return %0, %1, %2 : tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>, tensor<2x1x4x3xf32>
}

func.func @matmul_integer(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>,
                          %c: tensor<5x2x3xi32>, %d: tensor<5x3x1xi32>,
                          %e: tensor<1x6xi64>, %f: tensor<6x1xi64>)
    -> (tensor<2x4xi32>, tensor<5x2x1xi32>, tensor<1x1xi64>) {
  %0 = kiln.matmul %a, %b : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  %1 = kiln.matmul %c, %d : (tensor<5x2x3xi32>, tensor<5x3x1xi32>) -> tensor<5x2x1xi32>
  %2 = kiln.matmul %e, %f : (tensor<1x6xi64>, tensor<6x1xi64>) -> tensor<1x1xi64>
  return %0, %1, %2 : tensor<2x4xi32>, tensor<5x2x1xi32>, tensor<1x1xi64>
}

// int8 products summed in i32 over several output tiles, with remainders
// in M, N and K (CUDA runs them on int8 tensor cores from sm_80), and one
// broadcast over a batch.
func.func @matmul_int8_tiles(%a: tensor<70x100xi8>, %b: tensor<100x130xi8>,
                             %c: tensor<2x33x48xi8>, %d: tensor<48x65xi8>)
    -> (tensor<70x130xi32>, tensor<2x33x65xi32>) {
  %0 = kiln.matmul %a, %b : (tensor<70x100xi8>, tensor<100x130xi8>) -> tensor<70x130xi32>
  %1 = kiln.matmul %c, %d : (tensor<2x33x48xi8>, tensor<48x65xi8>) -> tensor<2x33x65xi32>
  return %0, %1 : tensor<70x130xi32>, tensor<2x33x65xi32>
}

func.func @matmul_f16(%a: tensor<2x4x16xf16>, %b: tensor<16x8xf16>) -> tensor<2x4x8xf16> {
  %0 = kiln.matmul %a, %b : (tensor<2x4x16xf16>, tensor<16x8xf16>) -> tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

func.func @matmul_f64(%a: tensor<3x5xf64>, %b: tensor<5x2xf64>) -> tensor<3x2xf64> {
  %0 = kiln.matmul %a, %b : (tensor<3x5xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

//===----------------------------------------------------------------------===//
// gemm
//===----------------------------------------------------------------------===//

func.func @gemm_plain(%a: tensor<4x6xf32>, %b: tensor<6x5xf32>) -> tensor<4x5xf32> {
  %0 = kiln.gemm %a, %b : (tensor<4x6xf32>, tensor<6x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// PyTorch Linear: trans_b with a [N] bias.
func.func @gemm_linear(%x: tensor<4x16xf32>, %w: tensor<8x16xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = kiln.gemm %x, %w, %bias {trans_b} : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Splat weights with a fused epilogue: the columns are all the same, so the
// rows are reduced once and broadcast (ReduceBeforeBroadcast.h). Wide enough
// that the old per-column recomputation was visibly slow.
func.func @gemm_splat_weights(%x: tensor<5x96xf32>) -> tensor<5x40xf32> {
  %w = kiln.constant dense<0.125> : tensor<40x96xf32>
  %b = kiln.constant dense<-0.25> : tensor<40xf32>
  %0 = kiln.gemm %x, %w, %b {trans_b} : (tensor<5x96xf32>, tensor<40x96xf32>, tensor<40xf32>) -> tensor<5x40xf32>
  %1 = kiln.relu %0 : tensor<5x40xf32>
  return %1 : tensor<5x40xf32>
}

// trans_a and trans_b with C of shape [M, N], [M, 1], [1, N] and rank 0.
func.func @gemm_transposes(%at: tensor<6x4xf32>, %b: tensor<6x5xf32>, %bt: tensor<5x6xf32>,
                           %c2: tensor<4x5xf32>, %c1: tensor<4x1xf32>, %cr: tensor<1x5xf32>, %cs: tensor<f32>)
    -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) {
  %0 = kiln.gemm %at, %b, %c2 {trans_a} : (tensor<6x4xf32>, tensor<6x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  %1 = kiln.gemm %at, %bt, %c1 {trans_a, trans_b} : (tensor<6x4xf32>, tensor<5x6xf32>, tensor<4x1xf32>) -> tensor<4x5xf32>
  %2 = kiln.gemm %at, %b, %cr {trans_a} : (tensor<6x4xf32>, tensor<6x5xf32>, tensor<1x5xf32>) -> tensor<4x5xf32>
  %3 = kiln.gemm %at, %bt, %cs {trans_a, trans_b} : (tensor<6x4xf32>, tensor<5x6xf32>, tensor<f32>) -> tensor<4x5xf32>
  return %0, %1, %2, %3 : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
}

func.func @gemm_alpha_beta(%a: tensor<3x7xf32>, %b: tensor<7x4xf32>, %c: tensor<3x4xf32>, %bias: tensor<4xf32>)
    -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %0 = kiln.gemm %a, %b, %c {alpha = 0.5 : f64, beta = 2.0 : f64} : (tensor<3x7xf32>, tensor<7x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = kiln.gemm %a, %b {alpha = -3.0 : f64} : (tensor<3x7xf32>, tensor<7x4xf32>) -> tensor<3x4xf32>
  %2 = kiln.gemm %a, %b, %bias {beta = 0.0 : f64} : (tensor<3x7xf32>, tensor<7x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %3 = kiln.gemm %a, %b, %bias {alpha = 0.0 : f64, beta = -1.5 : f64} : (tensor<3x7xf32>, tensor<7x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %0, %1, %2, %3 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

func.func @gemm_f16(%at: tensor<8x4xf16>, %bt: tensor<6x8xf16>, %c: tensor<4x1xf16>) -> tensor<4x6xf16> {
  %0 = kiln.gemm %at, %bt, %c {alpha = 0.5 : f64, beta = 2.0 : f64, trans_a, trans_b}
      : (tensor<8x4xf16>, tensor<6x8xf16>, tensor<4x1xf16>) -> tensor<4x6xf16>
  return %0 : tensor<4x6xf16>
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

func.func @conv2d_basic(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = kiln.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// (9 + 1 + 1 - 3) / 2 + 1 = 5.
func.func @conv2d_bias_stride_pad(%x: tensor<2x3x9x9xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>)
    -> tensor<2x5x5x5xf32> {
  %0 = kiln.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<2x3x9x9xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>) -> tensor<2x5x5x5xf32>
  return %0 : tensor<2x5x5x5xf32>
}

// pads [top 1, left 0, bottom 2, right 1]: H (7 + 3 - 3) + 1 = 8,
// W (6 + 1 - 2) / 2 + 1 = 3.
func.func @conv2d_asymmetric_pads(%x: tensor<1x2x7x6xf32>, %w: tensor<3x2x3x2xf32>) -> tensor<1x3x8x3xf32> {
  %0 = kiln.conv2d %x, %w {strides = array<i64: 1, 2>, pads = array<i64: 1, 0, 2, 1>}
      : (tensor<1x2x7x6xf32>, tensor<3x2x3x2xf32>) -> tensor<1x3x8x3xf32>
  return %0 : tensor<1x3x8x3xf32>
}

// Dilation [2, 1]: the 3x3 window spans 5x3.
func.func @conv2d_dilation(%x: tensor<1x2x10x12xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>)
    -> (tensor<1x4x6x10xf32>, tensor<1x4x8x8xf32>) {
  %0 = kiln.conv2d %x, %w, %b {dilations = array<i64: 2, 1>}
      : (tensor<1x2x10x12xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x10xf32>
  // Dilation 3 with padding 2: (10 + 4 - 7) + 1 = 8, (12 + 2 - 7) + 1 = 8.
  %1 = kiln.conv2d %x, %w {dilations = array<i64: 3, 3>, pads = array<i64: 2, 1, 2, 1>}
      : (tensor<1x2x10x12xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0, %1 : tensor<1x4x6x10xf32>, tensor<1x4x8x8xf32>
}

func.func @conv2d_groups(%x: tensor<2x8x6x7xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4xf32>,
                         %y: tensor<1x6x5x5xf32>, %v: tensor<9x2x3x3xf32>)
    -> (tensor<2x4x4x5xf32>, tensor<1x9x3x3xf32>) {
  %0 = kiln.conv2d %x, %w, %b {groups = 2}
      : (tensor<2x8x6x7xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x4x5xf32>
  %1 = kiln.conv2d %y, %v {groups = 3}
      : (tensor<1x6x5x5xf32>, tensor<9x2x3x3xf32>) -> tensor<1x9x3x3xf32>
  return %0, %1 : tensor<2x4x4x5xf32>, tensor<1x9x3x3xf32>
}

// Depthwise (groups = C), with a channel multiplier of 2 in the second.
func.func @conv2d_depthwise(%x: tensor<1x8x6x6xf32>, %w: tensor<8x1x3x3xf32>, %b: tensor<8xf32>,
                            %y: tensor<2x4x5x5xf32>, %v: tensor<8x1x3x3xf32>)
    -> (tensor<1x8x6x6xf32>, tensor<2x8x2x2xf32>) {
  %0 = kiln.conv2d %x, %w, %b {groups = 8, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
  %1 = kiln.conv2d %y, %v {groups = 4, strides = array<i64: 2, 2>}
      : (tensor<2x4x5x5xf32>, tensor<8x1x3x3xf32>) -> tensor<2x8x2x2xf32>
  return %0, %1 : tensor<1x8x6x6xf32>, tensor<2x8x2x2xf32>
}

// 1x1 kernel with stride and asymmetric padding (padding-only rows/cols get
// just the bias), and a stride larger than the window.
func.func @conv2d_pointwise(%x: tensor<2x8x4x5xf32>, %w: tensor<6x8x1x1xf32>, %b: tensor<6xf32>,
                            %y: tensor<1x2x8x8xf32>, %v: tensor<3x2x2x2xf32>)
    -> (tensor<2x6x7x3xf32>, tensor<1x3x3x3xf32>) {
  %0 = kiln.conv2d %x, %w, %b {strides = array<i64: 1, 2>, pads = array<i64: 1, 0, 2, 1>}
      : (tensor<2x8x4x5xf32>, tensor<6x8x1x1xf32>, tensor<6xf32>) -> tensor<2x6x7x3xf32>
  %1 = kiln.conv2d %y, %v {strides = array<i64: 3, 3>}
      : (tensor<1x2x8x8xf32>, tensor<3x2x2x2xf32>) -> tensor<1x3x3x3xf32>
  return %0, %1 : tensor<2x6x7x3xf32>, tensor<1x3x3x3xf32>
}

// Everything at once: strides [2, 3], dilations [2, 1], pads [0, 1, 0, 1],
// 2 groups: (10 - 5) / 2 + 1 = 3 and (12 + 2 - 3) / 3 + 1 = 4.
func.func @conv2d_everything(%x: tensor<1x8x10x12xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4xf32>)
    -> tensor<1x4x3x4xf32> {
  %0 = kiln.conv2d %x, %w, %b {dilations = array<i64: 2, 1>, groups = 2, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 2, 3>}
      : (tensor<1x8x10x12xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x4xf32>
  return %0 : tensor<1x4x3x4xf32>
}

// im2col in chunks of output rows (the col matrix is larger than the
// output and 32 KiB): 16 chunks of 2 rows, each with a padded strip.
func.func @conv2d_chunked(%x: tensor<1x8x32x32xf32>, %w: tensor<8x8x3x3xf32>, %b: tensor<8xf32>)
    -> tensor<1x8x32x32xf32> {
  %0 = kiln.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x32x32xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x32x32xf32>
  return %0 : tensor<1x8x32x32xf32>
}

// Five chunks of 4 rows whose strips overlap (stride 2, 5x5 window) and
// pad unevenly.
func.func @conv2d_chunked_strided(%x: tensor<1x3x40x38xf32>, %w: tensor<8x3x5x5xf32>)
    -> tensor<1x8x20x18xf32> {
  %0 = kiln.conv2d %x, %w {pads = array<i64: 2, 1, 1, 0>, strides = array<i64: 2, 2>}
      : (tensor<1x3x40x38xf32>, tensor<8x3x5x5xf32>) -> tensor<1x8x20x18xf32>
  return %0 : tensor<1x8x20x18xf32>
}

// A window larger than the input, made valid by padding.
func.func @conv2d_window_covers_padding(%x: tensor<1x1x2x2xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %0 = kiln.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x1x2x2xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

func.func @conv2d_f16(%x: tensor<1x4x6x6xf16>, %w: tensor<4x2x3x3xf16>, %b: tensor<4xf16>) -> tensor<1x4x3x3xf16> {
  %0 = kiln.conv2d %x, %w, %b {groups = 2, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>}
      : (tensor<1x4x6x6xf16>, tensor<4x2x3x3xf16>, tensor<4xf16>) -> tensor<1x4x3x3xf16>
  return %0 : tensor<1x4x3x3xf16>
}

func.func @conv2d_f64(%x: tensor<1x2x5x5xf64>, %w: tensor<3x2x3x3xf64>, %b: tensor<3xf64>) -> tensor<1x3x3x3xf64> {
  %0 = kiln.conv2d %x, %w, %b : (tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>, tensor<3xf64>) -> tensor<1x3x3x3xf64>
  return %0 : tensor<1x3x3x3xf64>
}

// Weights as constants (the usual shape of an imported model).
func.func @conv2d_constant_weights(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %w = kiln.constant dense<[[[[1.0, -1.0], [0.5, 2.0]]], [[[0.0, 1.0], [-2.0, 0.25]]]]> : tensor<2x1x2x2xf32>
  %b = kiln.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %0 = kiln.conv2d %x, %w, %b : (tensor<1x1x4x4xf32>, tensor<2x1x2x2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}
