func.func @heads(%x: tensor<2x8xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x4xf32>) {
  %w1 = kiln.constant dense<0.5> : tensor<8x6xf32>
  %h = kiln.matmul %x, %w1 : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  %r = kiln.relu %h : tensor<2x6xf32>
  %wa = kiln.constant dense<0.25> : tensor<6x4xf32>
  %a = kiln.matmul %r, %wa : (tensor<2x6xf32>, tensor<6x4xf32>) -> tensor<2x4xf32>
  %ta = kiln.tanh %a : tensor<2x4xf32>
  %wb = kiln.constant dense<0.125> : tensor<6x3xf32>
  %b = kiln.matmul %r, %wb : (tensor<2x6xf32>, tensor<6x3xf32>) -> tensor<2x3xf32>
  %sb = kiln.sigmoid %b : tensor<2x3xf32>
  %e = kiln.exp %ta : tensor<2x4xf32>
  return %ta, %sb, %e : tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x4xf32>
}
