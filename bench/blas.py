"""Which BLAS PyTorch eager runs its matrix products on.

Debian's python3-torch calls libblas.so.3 for Linear/MatMul: the reference
(netlib) BLAS unless OpenBLAS is installed, 10-50x slower than a tuned
library, which would make PyTorch a straw man. bench/setup.sh unpacks
Debian's libopenblas0-pthread into the cache folder (nothing installed
system-wide); the harness then re-executes itself with that OpenBLAS first on
the library path, one thread, and a core type forced from the CPU flags
(OpenBLAS 0.3.21 does not recognise recent CPUs and falls back to its SSE3
kernels; an OPENBLAS_CORETYPE inherited from the environment is replaced,
KILN_BENCH_OPENBLAS_CORETYPE overrides). Conv layers use oneDNN inside
PyTorch either way.
"""
import os
import sys

MARK = "KILN_BENCH_BLAS"
SUBDIR = os.path.join("usr", "lib", "x86_64-linux-gnu", "openblas-pthread")


def cache_dir():
    return os.environ.get("KILN_BENCH_CACHE",
                          os.path.expanduser("~/.cache/kiln-bench"))


def find_openblas():
    for folder in (os.path.join("/", SUBDIR),
                   os.path.join(cache_dir(), "openblas", SUBDIR)):
        if os.path.exists(os.path.join(folder, "libblas.so.3")):
            return folder
    return None


def core_type():
    """An OpenBLAS kernel family this CPU runs (None: let it detect)."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line for line in f if line.startswith("flags")), "")
    except OSError:
        return None
    flags = flags.split()
    if "avx512f" in flags and "avx512bw" in flags and "avx512vl" in flags:
        return "SkylakeX"
    if "avx2" in flags and "fma" in flags:
        return "Haswell"
    return None


def reexec_with_openblas():
    """Restarts this program with OpenBLAS for PyTorch, once, if found."""
    if os.environ.get(MARK):
        return
    env = dict(os.environ)
    env[MARK] = "system"
    folder = find_openblas()
    if folder:
        env[MARK] = "openblas"
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            p for p in (folder, env.get("LD_LIBRARY_PATH")) if p)
        env["OPENBLAS_NUM_THREADS"] = "1"
        # From the CPU flags, not an inherited OPENBLAS_CORETYPE, so that
        # runs on one kind of machine compare; KILN_BENCH_OPENBLAS_CORETYPE
        # overrides.
        core = env.get("KILN_BENCH_OPENBLAS_CORETYPE") or core_type()
        if core:
            env["OPENBLAS_CORETYPE"] = core
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


def describe_loaded():
    """The BLAS this process has loaded, as a short phrase."""
    try:
        with open("/proc/self/maps") as f:
            libs = {line.split()[-1] for line in f if "blas" in line}
    except OSError:
        return "unknown BLAS"
    if any("openblas" in lib for lib in libs):
        core = os.environ.get("OPENBLAS_CORETYPE", "auto-detected")
        return f"OpenBLAS, core {core}"
    if libs:
        return "reference BLAS (netlib): degraded"
    return "no BLAS loaded"
