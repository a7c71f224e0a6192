func.func @cast(%f: tensor<2x3xf32>, %b: tensor<2x3xi1>, %i: tensor<2x3xi8>, %l: tensor<2x3xi64>) {
  %0 = kiln.cast %f : tensor<2x3xf32> -> tensor<2x3xf16>
  %1 = kiln.cast %f : tensor<2x3xf32> -> tensor<2x3xbf16>
  %2 = kiln.cast %f : tensor<2x3xf32> -> tensor<2x3xi1>
  %3 = kiln.cast %f : tensor<2x3xf32> -> tensor<2x3xi64>
  %4 = kiln.cast %b : tensor<2x3xi1> -> tensor<2x3xf32>
  %5 = kiln.cast %i : tensor<2x3xi8> -> tensor<2x3xi64>
  %6 = kiln.cast %l : tensor<2x3xi64> -> tensor<2x3xi8>
  %7 = kiln.cast %l : tensor<2x3xi64> -> tensor<2x3xbf16>
  %8 = kiln.cast %i : tensor<2x3xi8> -> tensor<2x3xi1>
  %9 = kiln.cast %f : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}
