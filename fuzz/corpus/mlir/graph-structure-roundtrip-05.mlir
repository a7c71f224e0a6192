func.func @fusion_passthrough(%x: tensor<bf16>, %y: tensor<i8>)
    -> (tensor<i8>, tensor<bf16>, tensor<i8>) {
  %r:3 = kiln.fusion ins(%x, %y : tensor<bf16>, tensor<i8>)
      -> tensor<i8>, tensor<bf16>, tensor<i8> {
  ^bb0(%a: tensor<bf16>, %b: tensor<i8>):
    kiln.yield %b, %a, %b : tensor<i8>, tensor<bf16>, tensor<i8>
  }
  return %r#0, %r#1, %r#2 : tensor<i8>, tensor<bf16>, tensor<i8>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
