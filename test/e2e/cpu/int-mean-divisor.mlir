// Regression test: kiln.reduce_mean on integer tensors built the divisor in
// the element type (128 became -128 in i8) and summed there. Integer means
// now accumulate and divide in i64, then truncate to the element type.
//
// RUN: /usr/bin/python3 %S/../lib/check_e2e.py --kilnc kilnc --model %s --cases %S/int_mean_divisor_cases.py --workdir %t | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: SUMMARY: {{[1-9][0-9]*}} passed, 0 failed

func.func @reduce_mean_i8_count_128(%x: tensor<2x128xi8>) -> tensor<2xi8> {
  %0 = kiln.reduce_mean %x axes [1] : tensor<2x128xi8> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
