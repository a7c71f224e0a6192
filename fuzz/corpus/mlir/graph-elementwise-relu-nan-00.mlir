func.func @relu_nan() -> (tensor<3xf32>, tensor<3xf32>) {
  %c = kiln.constant dense<[0x7FC00000, -1.0, 2.0]> : tensor<3xf32>
  %0 = kiln.relu %c : tensor<3xf32>
  %z = kiln.constant dense<0.0> : tensor<f32>
  %1 = kiln.max %c, %z : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}
