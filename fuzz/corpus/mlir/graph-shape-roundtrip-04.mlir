func.func @broadcast(%s: tensor<f32>, %x: tensor<3x1xi1>)
    -> (tensor<2x3x4xf32>, tensor<2x3x4xi1>) {
  %0 = kiln.broadcast %s : tensor<f32> -> tensor<2x3x4xf32>
  %1 = kiln.broadcast %x : tensor<3x1xi1> -> tensor<2x3x4xi1>
  return %0, %1 : tensor<2x3x4xf32>, tensor<2x3x4xi1>
}
