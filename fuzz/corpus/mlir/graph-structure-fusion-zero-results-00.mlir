func.func @fusion_no_results(%x: tensor<2xf32>) {
  "kiln.fusion"(%x) ({
  ^bb0(%a: tensor<2xf32>):
    "kiln.yield"() : () -> ()
  }) : (tensor<2xf32>) -> ()
  return
}
