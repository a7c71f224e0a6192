func.func @fusion_empty_block(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "kiln.fusion"(%x) ({
  ^bb0(%a: tensor<2xf32>):
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
