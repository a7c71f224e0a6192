func.func @pad_value_out_of_range(%x: tensor<4xi8>) -> tensor<6xi8> {
  %0 = kiln.pad %x low [1] high [1] constant 300.0 : tensor<4xi8> -> tensor<6xi8>
  return %0 : tensor<6xi8>
}
