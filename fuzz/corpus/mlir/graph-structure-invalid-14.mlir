func.func @fusion_dynamic_result(%x: tensor<2xf32>) -> tensor<?xf32> {
  %r = "kiln.fusion"(%x) ({
  ^bb0(%a: tensor<2xf32>):
    "kiln.yield"(%a) : (tensor<2xf32>) -> ()
  }) : (tensor<2xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
