func.func @matmul_contracting_mismatch(%a: tensor<2x4xf32>, %b: tensor<5x3xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<2x4xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  return
}
