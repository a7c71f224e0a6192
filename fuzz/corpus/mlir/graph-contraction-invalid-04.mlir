func.func @matmul_wrong_result(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<3x2xf32>
  return
}
