// Contractions the CUDA backend records as GEMM calls (gemm-calls.test):
// a matmul, a batched one, one whose batch broadcasts into M, f16, and
// both operands transposed (column-major in memory).
func.func @mm(%a: tensor<5x7xf32>, %b: tensor<7x9xf32>) -> tensor<5x9xf32> {
  %0 = kiln.matmul %a, %b : (tensor<5x7xf32>, tensor<7x9xf32>) -> tensor<5x9xf32>
  return %0 : tensor<5x9xf32>
}
func.func @bmm(%a: tensor<3x5x7xf32>, %b: tensor<3x7x9xf32>) -> tensor<3x5x9xf32> {
  %0 = kiln.matmul %a, %b : (tensor<3x5x7xf32>, tensor<3x7x9xf32>) -> tensor<3x5x9xf32>
  return %0 : tensor<3x5x9xf32>
}
func.func @bcast(%a: tensor<2x3x5x7xf32>, %b: tensor<7x9xf32>) -> tensor<2x3x5x9xf32> {
  %0 = kiln.matmul %a, %b : (tensor<2x3x5x7xf32>, tensor<7x9xf32>) -> tensor<2x3x5x9xf32>
  return %0 : tensor<2x3x5x9xf32>
}
func.func @half(%a: tensor<4x8xf16>, %b: tensor<8x6xf16>) -> tensor<4x6xf16> {
  %0 = kiln.matmul %a, %b : (tensor<4x8xf16>, tensor<8x6xf16>) -> tensor<4x6xf16>
  return %0 : tensor<4x6xf16>
}
func.func @gemm_ta(%a: tensor<7x5xf32>, %b: tensor<9x7xf32>) -> tensor<5x9xf32> {
  %0 = kiln.gemm %a, %b {trans_a, trans_b} : (tensor<7x5xf32>, tensor<9x7xf32>) -> tensor<5x9xf32>
  return %0 : tensor<5x9xf32>
}
