exec.program @copy_overlap device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.copy #exec.binding<arena[0 : 16] read> to #exec.binding<arena[8 : 16] write>
}
