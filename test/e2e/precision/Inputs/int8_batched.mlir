// int8.mlir with a batch dimension: y[b] = x[b]·W. The batch folds into
// the rows of one int8 GEMM.
func.func @main(%x: tensor<1x2x4xf32> {kiln.name = "x"}) -> (tensor<1x2x3xf32> {kiln.name = "y"}) {
  %w = kiln.constant dense<[[1.0, 2.0, 3.0], [4.0, -5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, -3.0]]> : tensor<4x3xf32>
  %y = kiln.matmul %x, %w : (tensor<1x2x4xf32>, tensor<4x3xf32>) -> tensor<1x2x3xf32> loc("mm")
  return %y : tensor<1x2x3xf32>
}
