func.func @main(%x: tensor<2x4xf32> {kiln.name = "x"}) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %w = kiln.constant dense<[[1.001, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]> : tensor<4x3xf32> loc("w")
  %m = kiln.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32> loc("mm")
  %r = kiln.relu %m : tensor<2x3xf32> loc("relu")
  %e = kiln.exp %r : tensor<2x3xf32> loc("exp")
  %s = kiln.softmax %e axis 1 : tensor<2x3xf32> loc("sm")
  return %s, %r : tensor<2x3xf32>, tensor<2x3xf32>
}
