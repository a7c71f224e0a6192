func.func @fusion_two_blocks(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "kiln.fusion"(%x) ({
  ^bb0(%a: tensor<2xf32>):
    "kiln.yield"(%a) : (tensor<2xf32>) -> ()
  ^bb1:
    "kiln.yield"(%a) : (tensor<2xf32>) -> ()
  }) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
