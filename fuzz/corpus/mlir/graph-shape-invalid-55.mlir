func.func @pad_value_not_integral(%x: tensor<4xi32>) -> tensor<6xi32> {
  %0 = kiln.pad %x low [1] high [1] constant 2.5 : tensor<4xi32> -> tensor<6xi32>
  return %0 : tensor<6xi32>
}
