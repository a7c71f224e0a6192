func.func @matmul_integer(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>,
                          %c: tensor<5x2x3xi32>, %d: tensor<5x3x1xi32>,
                          %e: tensor<1x6xi64>, %f: tensor<6x1xi64>) {
  %0 = kiln.matmul %a, %b : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  %1 = kiln.matmul %c, %d : (tensor<5x2x3xi32>, tensor<5x3x1xi32>) -> tensor<5x2x1xi32>
  %2 = kiln.matmul %e, %f : (tensor<1x6xi64>, tensor<6x1xi64>) -> tensor<1x1xi64>
  return
}
