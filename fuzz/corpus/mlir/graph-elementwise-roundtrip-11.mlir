func.func @compare_types(%i: tensor<2x3xi64>, %s: tensor<i64>, %b: tensor<5xi1>,
                         %h: tensor<1x5xf16>, %c: tensor<5xbf16>, %j: tensor<5xi8>) {
  %0 = kiln.compare lt, %i, %s : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi1>
  %1 = kiln.compare eq, %b, %b : (tensor<5xi1>, tensor<5xi1>) -> tensor<5xi1>
  %2 = kiln.compare ge, %h, %h : (tensor<1x5xf16>, tensor<1x5xf16>) -> tensor<1x5xi1>
  %3 = kiln.compare ne, %c, %c : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<5xi1>
  %4 = kiln.compare gt, %j, %j : (tensor<5xi8>, tensor<5xi8>) -> tensor<5xi1>
  return
}
