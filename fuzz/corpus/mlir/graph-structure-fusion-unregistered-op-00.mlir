func.func @fusion_unregistered_op(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = kiln.fusion ins(%x : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %c = "test.unregistered"() : () -> tensor<2xf32>
    kiln.yield %c : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
