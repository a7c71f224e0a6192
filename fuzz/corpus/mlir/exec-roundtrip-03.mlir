exec.program @gpu device(cuda) inputs(1) outputs(1) arena(64) constants(512) {
  %0 = exec.dispatch @kiln_k0 grid [2, 2, 1] block [256, 1, 1] shared(1024)
         bindings [#exec.binding<constants[0 : 512] read>,
                   #exec.binding<output 0[0 : 64] write>]
}
