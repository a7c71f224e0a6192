func.func @matmul_rank_1(%a: tensor<4xf32>, %b: tensor<4x3xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<3xf32>
  return
}
