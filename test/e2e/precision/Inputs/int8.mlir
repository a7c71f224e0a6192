// y = x·W: one contraction int8 PTQ quantizes.
func.func @main(%x: tensor<2x4xf32> {kiln.name = "x"}) -> (tensor<2x3xf32> {kiln.name = "y"}) {
  %w = kiln.constant dense<[[1.0, 2.0, 3.0], [4.0, -5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, -3.0]]> : tensor<4x3xf32>
  %y = kiln.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32> loc("mm")
  return %y : tensor<2x3xf32>
}
