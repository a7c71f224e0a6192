// Regression test: kiln.clip on integer tensors converted its f64 bounds to
// the element type by truncation, so out-of-range bounds wrapped around and
// fractional ones were not rounded inwards at run time (the constant folder
// already saturated and rounded). Bounds now saturate and round inwards in
// the lowering too.
//
// RUN: /usr/bin/python3 %S/../lib/check_e2e.py --kilnc kilnc --model %s --cases %S/int_clip_bounds_cases.py --workdir %t | FileCheck %s
//
// CHECK-NOT: FAIL
// CHECK: SUMMARY: {{[1-9][0-9]*}} passed, 0 failed

// Bounds wider than the type: every value is already inside, nothing changes.
func.func @clip_int_wide_bounds(%a: tensor<6xi8>, %b: tensor<4xi32>, %c: tensor<4xi64>)
    -> (tensor<6xi8>, tensor<6xi8>, tensor<4xi32>, tensor<4xi64>) {
  %0 = kiln.clip %a min -1000.0 max 1000.0 : tensor<6xi8>
  %1 = kiln.clip %a min -300.0 : tensor<6xi8>
  %2 = kiln.clip %b max 3.0e9 : tensor<4xi32>
  %3 = kiln.clip %c max 1.0e19 : tensor<4xi64>
  return %0, %1, %2, %3 : tensor<6xi8>, tensor<6xi8>, tensor<4xi32>, tensor<4xi64>
}

// Fractional bounds: results must lie in [min, max].
func.func @clip_int_fractional_bounds(%a: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %0 = kiln.clip %a min 2.5 : tensor<5xi32>
  %1 = kiln.clip %a min -2.5 max -0.5 : tensor<5xi32>
  return %0, %1 : tensor<5xi32>, tensor<5xi32>
}
