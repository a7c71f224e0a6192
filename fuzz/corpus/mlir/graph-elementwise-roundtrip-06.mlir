func.func @clip(%x: tensor<1x32xf32>, %i: tensor<4xi8>, %j: tensor<4xi64>) {
  %0 = kiln.clip %x min 0.0 max 6.0 : tensor<1x32xf32>
  %1 = kiln.clip %x min -1.0 : tensor<1x32xf32>
  %2 = kiln.clip %i max 100.0 : tensor<4xi8>
  %3 = kiln.clip %j : tensor<4xi64>
  %4 = kiln.clip %j min 3.0 max 3.0 : tensor<4xi64>
  return
}
