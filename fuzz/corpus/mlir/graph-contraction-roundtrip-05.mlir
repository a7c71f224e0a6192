func.func @gemm_linear(%x: tensor<4x16xf32>, %w: tensor<32x16xf32>, %bias: tensor<32xf32>) -> tensor<4x32xf32> {
  %0 = kiln.gemm %x, %w, %bias {trans_b} : (tensor<4x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
