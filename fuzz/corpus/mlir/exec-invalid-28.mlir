exec.program @bad_element device(cpu) inputs(0) outputs(0) arena(64) {
  %0 = exec.collective all_gather ranks(2) element(i1) send #exec.binding<arena[0 : 16] read> recv #exec.binding<arena[16 : 32] write>
}
