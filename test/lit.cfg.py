# -*- Python -*-
# lit configuration of the Kiln regression suite (check-kiln).

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "Kiln"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kiln_obj_root, "test")
# unit/ is its own suite (gtest); Inputs/ hold data, not tests.
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "unit"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# Tests compile for real: a compile cache would answer repeated compiles
# and fill the home folder. Tests of the cache set their own folder.
config.environment["KILN_CACHE_DIR"] = "off"
llvm_config.add_tool_substitutions(
    ["kiln-opt", "kiln-translate", "kilnc", "kiln-run", "kiln-sim", "kiln-cuda-emulate", "kiln-serve"], [config.kiln_tools_dir, config.llvm_tools_dir])
config.substitutions.append(("%kiln_src_root", config.kiln_src_root))
config.substitutions.append(("%kiln_obj_root", config.kiln_obj_root))

# Features: `cuda-toolkit` when NVRTC/ptxas are available at build time;
# `cuda` only when a GPU is actually present (tests that run kernels).
if config.kiln_have_cuda_toolkit:
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%ptxas", config.kiln_ptxas))
if os.path.exists("/dev/nvidia0") or (shutil.which("nvidia-smi") and
                                      os.system("nvidia-smi -L >/dev/null 2>&1") == 0):
    config.available_features.add("cuda")

# `multicore`: this process may use two cores or more (a compile then
# optimises and generates its code in parts, on threads).
if len(os.sched_getaffinity(0)) >= 2:
    config.available_features.add("multicore")

# `kiln-serve`: built when libcpp-httplib-dev is installed; its tests talk
# to it with curl and Node. `promtool` (Debian's prometheus) checks /metrics.
if (os.path.exists(os.path.join(config.kiln_tools_dir, "kiln-serve")) and
        shutil.which("curl") and shutil.which("node")):
    config.available_features.add("kiln-serve")
if shutil.which("promtool"):
    config.available_features.add("promtool")

# `mpirun`: Open MPI's launcher and Kiln's MPI plugin, for sharded models run
# one rank per process (scripts/install-deps.sh installs openmpi-bin).
if shutil.which("mpirun") and os.path.exists(
        os.path.join(config.kiln_obj_root, "lib", "libkiln_collectives_mpi.so")):
    config.available_features.add("mpirun")
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    config.environment["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
