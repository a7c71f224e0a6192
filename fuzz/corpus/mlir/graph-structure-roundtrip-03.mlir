func.func @fusion_many(%x: tensor<2x6xf16>, %i: tensor<3xi32>,
                       %m: tensor<2x6xi1>)
    -> (tensor<2x3xf16>, tensor<3xf16>, tensor<2x6xi1>) {
  %r:3 = kiln.fusion ins(%x, %i, %m : tensor<2x6xf16>, tensor<3xi32>,
                                       tensor<2x6xi1>)
      attributes {kind = "shape+reduce"}
      -> tensor<2x3xf16>, tensor<3xf16>, tensor<2x6xi1> {
  ^bb0(%a: tensor<2x6xf16>, %j: tensor<3xi32>, %n: tensor<2x6xi1>):
    %p:2 = kiln.split %a axis 1 : tensor<2x6xf16> -> tensor<2x3xf16>, tensor<2x3xf16>
    %g = kiln.gather %p#1[%j] axis -1
        : (tensor<2x3xf16>, tensor<3xi32>) -> tensor<2x3xf16>
    %s = kiln.reduce_sum %g axes [0] : tensor<2x3xf16> -> tensor<3xf16>
    kiln.yield %g, %s, %n : tensor<2x3xf16>, tensor<3xf16>, tensor<2x6xi1>
  }
  return %r#0, %r#1, %r#2 : tensor<2x3xf16>, tensor<3xf16>, tensor<2x6xi1>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
