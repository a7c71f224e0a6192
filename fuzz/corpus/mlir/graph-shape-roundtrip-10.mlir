func.func @pad(%x: tensor<1x3x4x4xf32>, %y: tensor<3x5xi32>)
    -> (tensor<1x3x6x6xf32>, tensor<4x7xi32>, tensor<1x3x7x7xf32>,
        tensor<8x12xi32>) {
  %0 = kiln.pad %x low [0, 0, 1, 1] high [0, 0, 1, 1] constant 0.0
      : tensor<1x3x4x4xf32> -> tensor<1x3x6x6xf32>
  %1 = kiln.pad %y low [0, 2] high [1, 0] constant -1.0
      : tensor<3x5xi32> -> tensor<4x7xi32>
  %2 = kiln.pad %x low [0, 0, 3, 0] high [0, 0, 0, 3] reflect 0.0
      : tensor<1x3x4x4xf32> -> tensor<1x3x7x7xf32>
  %3 = kiln.pad %y low [5, 0] high [0, 7] edge 0.0
      : tensor<3x5xi32> -> tensor<8x12xi32>
  return %0, %1, %2, %3 : tensor<1x3x6x6xf32>, tensor<4x7xi32>,
      tensor<1x3x7x7xf32>, tensor<8x12xi32>
}
