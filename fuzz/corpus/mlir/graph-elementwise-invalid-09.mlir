func.func @cast_unsupported_element(%a: tensor<4xf32>) {
  %0 = kiln.cast %a : tensor<4xf32> -> tensor<4xui8>
  return
}
