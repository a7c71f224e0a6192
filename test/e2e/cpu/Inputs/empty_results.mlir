func.func @slice_at_end(%x: tensor<4x3xf32>) -> tensor<4x0xf32> {
  %0 = kiln.slice %x starts [0, 3] limits [4, 3] steps [1, 1] : tensor<4x3xf32> -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}
func.func @split_empty(%x: tensor<0xf32>) -> (tensor<0xf32>, tensor<0xf32>) {
  %0:2 = kiln.split %x axis 0 : tensor<0xf32> -> tensor<0xf32>, tensor<0xf32>
  return %0#0, %0#1 : tensor<0xf32>, tensor<0xf32>
}
func.func @concat_with_empty(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %e = kiln.slice %x starts [0, 3] limits [4, 3] steps [1, 1] : tensor<4x3xf32> -> tensor<4x0xf32>
  %0 = kiln.concat %x, %e axis 1 : (tensor<4x3xf32>, tensor<4x0xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
