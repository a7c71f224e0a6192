func.func @arith_other_types(%h: tensor<4xf16>, %b: tensor<2x4xbf16>, %i: tensor<4xi8>,
                             %j: tensor<3x1xi32>, %k: tensor<1x5xi32>, %l: tensor<i64>,
                             %d: tensor<2xf64>) {
  %0 = kiln.add %h, %h : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %1 = kiln.pow %b, %b : (tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x4xbf16>
  %2 = kiln.sub %i, %i : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %3 = kiln.mul %j, %k : (tensor<3x1xi32>, tensor<1x5xi32>) -> tensor<3x5xi32>
  %4 = kiln.div %l, %l : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %5 = kiln.min %i, %i : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %6 = kiln.max %d, %d : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  return
}
