func.func @matmul_batch_mismatch(%a: tensor<2x3x4xf32>, %b: tensor<5x4x6xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<2x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x3x6xf32>
  return
}
