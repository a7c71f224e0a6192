exec.program @copy_direction device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.copy #exec.binding<arena[0 : 16] read> to #exec.binding<arena[16 : 16] read>
}
