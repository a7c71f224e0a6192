exec.program @needs_peer device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.collective broadcast ranks(2) element(f32) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 16] write>
}
