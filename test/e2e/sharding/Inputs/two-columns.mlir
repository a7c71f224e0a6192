func.func @columns(%x: tensor<2x8xf32>) -> (tensor<2x4xf32>, tensor<2x6xf32>) {
  %wa = kiln.constant dense<0.25> : tensor<8x4xf32>
  %a = kiln.matmul %x, %wa : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %wb = kiln.constant dense<0.125> : tensor<8x6xf32>
  %b = kiln.matmul %x, %wb : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  %t = kiln.tanh %b : tensor<2x6xf32>
  return %a, %t : tensor<2x4xf32>, tensor<2x6xf32>
}
