func.func @cast_shape_mismatch(%a: tensor<4xf32>) {
  %0 = kiln.cast %a : tensor<4xf32> -> tensor<2x2xf16>
  return
}
