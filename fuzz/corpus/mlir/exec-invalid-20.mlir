exec.program @copy_size device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.copy #exec.binding<arena[0 : 16] read> to #exec.binding<arena[16 : 32] write>
}
