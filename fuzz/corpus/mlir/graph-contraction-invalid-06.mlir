func.func @matmul_dynamic(%a: tensor<?x4xf32>, %b: tensor<4x3xf32>) {
  %0 = kiln.matmul %a, %b : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  return
}
