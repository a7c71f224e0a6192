// RUN: kiln-opt %s -split-input-file -verify-diagnostics

func.func @no_ranks(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{needs at least one rank, got 0}}
  %a = kiln.all_reduce sum %x ranks(0) : tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

func.func @gather_no_ranks(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{needs at least one rank, got -1}}
  %a = kiln.all_gather %x axis(0) ranks(-1) : tensor<4xf32> -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

func.func @gather_axis(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %a = kiln.all_gather %x axis(1) ranks(2) : tensor<4xf32> -> tensor<8xf32>
  return %a : tensor<8xf32>
}

// -----

func.func @gather_shape(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{result must be 'tensor<4x6xf32>' (dimension 1 times 2 ranks), got 'tensor<4x3xf32>'}}
  %a = kiln.all_gather %x axis(1) ranks(2) : tensor<4x3xf32> -> tensor<4x3xf32>
  return %a : tensor<4x3xf32>
}

// -----

func.func @gather_element(%x: tensor<4xf32>) -> tensor<8xf16> {
  // expected-error @+1 {{result must be 'tensor<8xf32>'}}
  %a = kiln.all_gather %x axis(0) ranks(2) : tensor<4xf32> -> tensor<8xf16>
  return %a : tensor<8xf16>
}

// -----

func.func @scatter_no_ranks(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{needs at least one rank, got 0}}
  %a = kiln.reduce_scatter sum %x axis(0) ranks(0) : tensor<4xf32> -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

func.func @scatter_axis(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{axis -1 is out of range for rank 1}}
  %a = kiln.reduce_scatter sum %x axis(-1) ranks(2) : tensor<4xf32> -> tensor<2xf32>
  return %a : tensor<2xf32>
}

// -----

func.func @scatter_uneven(%x: tensor<4x5xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{dimension 1 (5) does not divide by 2 ranks}}
  %a = kiln.reduce_scatter sum %x axis(1) ranks(2) : tensor<4x5xf32> -> tensor<4x2xf32>
  return %a : tensor<4x2xf32>
}

// -----

func.func @scatter_shape(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{result must be 'tensor<4x3xf32>' (dimension 1 divided by 2 ranks), got 'tensor<4x6xf32>'}}
  %a = kiln.reduce_scatter sum %x axis(1) ranks(2) : tensor<4x6xf32> -> tensor<4x6xf32>
  return %a : tensor<4x6xf32>
}

// -----

func.func @scatter_element(%x: tensor<4xf32>) -> tensor<2xf16> {
  // expected-error @+1 {{result must be 'tensor<2xf32>'}}
  %a = kiln.reduce_scatter sum %x axis(0) ranks(2) : tensor<4xf32> -> tensor<2xf16>
  return %a : tensor<2xf16>
}
