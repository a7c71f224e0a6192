func.func @compare_predicates(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  %0 = kiln.compare eq, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = kiln.compare ne, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = kiln.compare lt, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = kiln.compare le, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = kiln.compare gt, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = kiln.compare ge, %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}
