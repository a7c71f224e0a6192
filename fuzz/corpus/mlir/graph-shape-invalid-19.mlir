func.func @concat_dim_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<4x1xf32>) -> tensor<2x9xf32> {
  %0 = kiln.concat %a, %b, %c axis 1 : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<4x1xf32>) -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}
