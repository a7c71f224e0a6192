func.func @pad_edge_empty(%x: tensor<0x3xf32>) -> tensor<2x3xf32> {
  %0 = kiln.pad %x low [1, 0] high [1, 0] edge 0.0 : tensor<0x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
