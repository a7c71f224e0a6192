// RUN: kiln-opt %s -kiln-weight-only="bits=3" -verify-diagnostics

// Options kilnc would have refused (--weight-only parses its scheme first),
// given to the pass directly.
// expected-error @+1 {{kiln-weight-only: bits must be 4 or 8 and group positive, got bits=3 group=128}}
module {
  func.func @f(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    return %x : tensor<1x4xf32>
  }
}
