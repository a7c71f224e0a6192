func.func @fusion_yield_count_mismatch(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    kiln.yield %a, %a : tensor<2xf32>, tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
