func.func @reduce_max_min(%x: tensor<3x5xi8>, %y: tensor<3x5xi32>)
    -> (tensor<5xi8>, tensor<3x1xi32>) {
  %0 = kiln.reduce_max %x axes [0] : tensor<3x5xi8> -> tensor<5xi8>
  %1 = kiln.reduce_min %y axes [-1] keep_dims : tensor<3x5xi32> -> tensor<3x1xi32>
  return %0, %1 : tensor<5xi8>, tensor<3x1xi32>
}
