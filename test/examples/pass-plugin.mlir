// The example pass plugin (examples/pass-plugin) through kilnc, kiln-opt and
// the version check. Its pass rewrites x / c into x * (1/c) when 1/c is
// exact and records the count on the function.
// RUN: kilnc compile %s --emit=mlir --load-pass-plugin=%kiln_obj_root/examples/pass-plugin/DivToMul.so | FileCheck %s
// RUN: kiln-opt %s --load-pass-plugin=%kiln_obj_root/examples/pass-plugin/DivToMul.so --kiln-example-div-to-mul | FileCheck %s --check-prefix=OPT

// Without the plugin the divisions stay.
// RUN: kilnc compile %s --emit=mlir | FileCheck %s --check-prefix=NONE

// The compiled model still runs, through the plugin's rewrite.
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 -c "import numpy as np; np.save('%t/x.npy', np.array([24, 48, 72, 96], np.float32))"
// RUN: kilnc run %s --input x=%t/x.npy --load-pass-plugin=%kiln_obj_root/examples/pass-plugin/DivToMul.so | FileCheck %s --check-prefix=EXEC

// A plugin built for another API version is refused: exit code 1.
// RUN: not kilnc compile %s --emit=mlir --load-pass-plugin=%kiln_obj_root/examples/pass-plugin/DivToMulWrongVersion.so 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: kilnc compile %s --emit=mlir --load-pass-plugin=%kiln_obj_root/examples/pass-plugin/DivToMulWrongVersion.so; test $? -eq 1
// RUN: not kiln-opt %s --load-pass-plugin=%kiln_obj_root/examples/pass-plugin/DivToMulWrongVersion.so 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: pass plugin 'div-to-mul' ({{.*}}DivToMulWrongVersion.so) was built for Kiln plugin API version 999, but this Kiln has version 1: rebuild the plugin against this Kiln

// Not a plugin, or no file: exit code 1 with the reason.
// RUN: not kilnc compile %s --emit=mlir --load-pass-plugin=%kiln_obj_root/lib/libKiln.so 2>&1 | FileCheck %s --check-prefix=NOTPLUGIN
// NOTPLUGIN: is not a Kiln pass plugin: it does not define kilnGetPassPluginInfo
// RUN: kilnc compile %s --emit=mlir --load-pass-plugin=%t/none.so; test $? -eq 1

// CHECK-LABEL: func.func @main
// CHECK-SAME: example.divisions_rewritten = 1
// CHECK: %[[C:.*]] = kiln.constant dense<1.250000e-01> : tensor<f32>
// CHECK: kiln.mul %{{.*}}, %[[C]]
// CHECK-NOT: kiln.div %{{.*}}, %[[C]]
// CHECK: kiln.div
// CHECK: return

// OPT: example.divisions_rewritten = 1
// OPT: kiln.mul
// NONE-NOT: example.divisions_rewritten
// NONE-COUNT-2: kiln.div

// EXEC: f32[4] = [1, 2, 3, 4]

func.func @main(%x: tensor<4xf32> {kiln.name = "x"}) -> tensor<4xf32> {
  %eight = kiln.constant dense<8.0> : tensor<f32>
  %three = kiln.constant dense<3.0> : tensor<f32>
  // Exact reciprocal (1/8): rewritten.
  %a = kiln.div %x, %eight : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // 1/3 is inexact: kept as a division.
  %b = kiln.div %a, %three : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
