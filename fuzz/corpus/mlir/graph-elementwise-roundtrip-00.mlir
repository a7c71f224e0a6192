func.func @numeric_unary_f32(%x: tensor<2x3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = kiln.neg %x : tensor<2x3xf32>
  %1 = kiln.abs %x : tensor<2x3xf32>
  %2 = kiln.sign %x : tensor<2x3xf32>
  %3 = kiln.relu %x : tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
