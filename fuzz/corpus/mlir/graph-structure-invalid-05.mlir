func.func @fusion_arg_count_mismatch(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
    %c = kiln.constant dense<1.0> : tensor<2xf32>
    kiln.yield %c : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
