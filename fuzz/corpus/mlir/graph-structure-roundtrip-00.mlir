func.func @constants()
    -> (tensor<2xf32>, tensor<2x3xf16>, tensor<3xi1>, tensor<2x2xi1>,
        tensor<3xi64>, tensor<i8>, tensor<2x2xbf16>, tensor<3xi32>,
        tensor<0x4xf32>) {
  %0 = kiln.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = kiln.constant dense<0.5> : tensor<2x3xf16>
  %2 = kiln.constant dense<[true, false, true]> : tensor<3xi1>
  %3 = kiln.constant dense<true> : tensor<2x2xi1>
  %4 = kiln.constant dense<[1, 128, -1]> : tensor<3xi64>
  %5 = kiln.constant dense<-7> : tensor<i8>
  %6 = kiln.constant dense<[[1.0, -2.0], [3.0, 4.0]]> : tensor<2x2xbf16>
  %7 = kiln.constant dense<[0, 2147483647, -2147483648]> : tensor<3xi32>
  %8 = kiln.constant dense<> : tensor<0x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8
      : tensor<2xf32>, tensor<2x3xf16>, tensor<3xi1>, tensor<2x2xi1>,
        tensor<3xi64>, tensor<i8>, tensor<2x2xbf16>, tensor<3xi32>,
        tensor<0x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
