func.func @matmul_unranked(%a: tensor<*xf32>, %b: tensor<4x3xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<*xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}
