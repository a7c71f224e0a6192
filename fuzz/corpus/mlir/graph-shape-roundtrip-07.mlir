func.func @slice(%x: tensor<4x8xf32>, %y: tensor<5xi8>)
    -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<0xi8>) {
  %0 = kiln.slice %x starts [0, 2] limits [4, 8] steps [1, 2]
      : tensor<4x8xf32> -> tensor<4x3xf32>
  %1 = kiln.slice %x starts [3, 7] limits [-1, 0] steps [-1, -3]
      : tensor<4x8xf32> -> tensor<4x3xf32>
  %2 = kiln.slice %y starts [2] limits [2] steps [1] : tensor<5xi8> -> tensor<0xi8>
  return %0, %1, %2 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<0xi8>
}
