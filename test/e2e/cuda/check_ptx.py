#!/usr/bin/python3
"""Compiles every public function of MLIR models, or ONNX models, for CUDA.

Usage:
  check_ptx.py --kilnc PATH --ptxas PATH --arch 90 [-j N] --workdir DIR
               MODEL...

For each public function of each .mlir model (split out as check_e2e.py
does, so each kilnc run compiles one function) and for each .onnx model,
this runs

  kilnc compile MODEL --entry FN --target cuda:sm_ARCH --emit=ptx -o F.ptx
  kilnc compile MODEL --entry FN --target cuda:sm_ARCH --emit=cuda  (launches)
  ptxas -v -arch=sm_ARCH F.ptx

and prints ``PASS name``/``FAIL name: why`` and a ``SUMMARY:`` line with the
number of functions and of kernels (.entry directives) that assembled.

Each kernel's resources, as ptxas reports them, are checked against its
launch (docs/cuda-backend.md, "Kernel resources"): registers times threads
per block within the 64K-register file of an SM (and at most 255 a thread),
spills at most SPILL_LIMIT bytes, static shared memory within the 48 KiB
static limit and static plus dynamic within what a block may opt in to
(227 KiB on sm_80+, 64 KiB on sm_75). A ``RESOURCES:`` line sums them up.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))

from check_e2e import FUNC_RE, ModelText  # noqa: E402

REGISTER_FILE = 65536        # 32-bit registers per SM (sm_75 .. sm_120)
MAX_REGISTERS = 255          # per thread
SPILL_LIMIT = 64             # bytes of spill stores plus loads per kernel
STATIC_SHARED_LIMIT = 48 << 10
OPT_IN_SHARED_LIMIT = {75: 64 << 10, 80: 163 << 10, 86: 99 << 10,
                       87: 163 << 10, 89: 99 << 10}   # else 227 KiB
LAUNCH_RE = re.compile(r"^// launch (\S+) grid \d+ \d+ \d+ "
                       r"block (\d+) (\d+) (\d+) shared (\d+)")


def ptxas_resources(text):
    """{kernel: dict(registers, spill, smem)} from ``ptxas -v`` output."""
    kernels, current = {}, None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = kernels.setdefault(
                m.group(1), dict(registers=0, spill=0, smem=0))
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            current["spill"] = int(m.group(1)) + int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            current["registers"] = int(m.group(1))
        m = re.search(r"(\d+) bytes smem", line)
        if m:
            current["smem"] = int(m.group(1))
    return kernels


def resource_problems(arch, resources, launches):
    """Why each kernel would not launch as planned (empty when all fit)."""
    problems = []
    opt_in = OPT_IN_SHARED_LIMIT.get(arch, 227 << 10)
    for name, r in sorted(resources.items()):
        if name not in launches:
            problems.append("%s: no launch in the schedule" % name)
            continue
        threads, dynamic = launches[name]
        if r["registers"] > MAX_REGISTERS or \
                r["registers"] * threads > REGISTER_FILE:
            problems.append("%s: %d registers x %d threads exceed the register "
                            "file" % (name, r["registers"], threads))
        if r["spill"] > SPILL_LIMIT:
            problems.append("%s: %d bytes of spills (limit %d)" %
                            (name, r["spill"], SPILL_LIMIT))
        if r["smem"] > STATIC_SHARED_LIMIT:
            problems.append("%s: %d bytes of static shared memory (limit %d)" %
                            (name, r["smem"], STATIC_SHARED_LIMIT))
        if r["smem"] + dynamic > opt_in:
            problems.append("%s: %d bytes of shared memory (sm_%d allows %d)" %
                            (name, r["smem"] + dynamic, arch, opt_in))
    return problems


def jobs_for(model):
    if model.endswith(".onnx"):
        return [(os.path.basename(model), model, None)]
    text = ModelText(model)
    jobs = []
    for name in text.funcs:
        with open(model) as f:
            for line in f:
                m = FUNC_RE.match(line)
                if m and m.group(2) == name and m.group(1) == "private":
                    break
            else:
                jobs.append(("%s:%s" % (os.path.basename(model), name), model,
                             name))
    return jobs, text


def run(args, label, model, entry, text):
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", label)
    path = model
    if entry is not None:
        path = os.path.join(args.workdir, safe + ".mlir")
        with open(path, "w") as f:
            f.write(text.only(entry) or open(model).read())
    ptx = os.path.join(args.workdir, safe + ".ptx")
    cmd = [args.kilnc, "compile", path, "--target", "cuda:sm_%d" % args.arch,
           "--emit=ptx", "-o", ptx]
    if entry is not None:
        cmd += ["--entry", entry]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return label, False, "kilnc exit %d: %s" % (
            r.returncode, r.stderr.strip().splitlines()[-1:]), 0, {}
    kernels = sum(1 for line in open(ptx) if line.startswith(".visible .entry"))
    r = subprocess.run([args.ptxas, "-v", "-arch=sm_%d" % args.arch, ptx,
                        "-o", os.devnull], capture_output=True, text=True)
    if r.returncode != 0:
        return label, False, "ptxas: " + r.stderr.strip()[:500], kernels, {}
    resources = ptxas_resources(r.stdout + r.stderr)
    cuda = subprocess.run(cmd[:cmd.index("--emit=ptx")] + ["--emit=cuda"] +
                          (["--entry", entry] if entry is not None else []),
                          capture_output=True, text=True)
    launches = {}
    for line in cuda.stdout.splitlines():
        m = LAUNCH_RE.match(line)
        if m:
            launches[m.group(1)] = (int(m.group(2)) * int(m.group(3)) *
                                    int(m.group(4)), int(m.group(5)))
    problems = resource_problems(args.arch, resources, launches)
    if problems:
        return label, False, "resources: " + "; ".join(problems), kernels, \
            resources
    return label, True, "", kernels, resources


SELF_TEST_PTXAS = """\
ptxas info    : Compiling entry function 'fits' for 'sm_90'
ptxas info    : Function properties for fits
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 128 registers, used 1 barriers, 17920 bytes smem
ptxas info    : Compiling entry function 'regs' for 'sm_90'
ptxas info    : Function properties for regs
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 168 registers, used 0 barriers
ptxas info    : Compiling entry function 'spills' for 'sm_90'
ptxas info    : Function properties for spills
    96 bytes stack frame, 48 bytes spill stores, 48 bytes spill loads
ptxas info    : Used 255 registers, used 0 barriers
ptxas info    : Compiling entry function 'smem' for 'sm_90'
ptxas info    : Function properties for smem
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 32 registers, used 1 barriers, 50000 bytes smem
"""


def self_test():
    """The checker on made-up ptxas output: each defect must be caught."""
    resources = ptxas_resources(SELF_TEST_PTXAS)
    launches = {"fits": (256, 0), "regs": (512, 0), "spills": (128, 0),
                "smem": (256, 200 << 10)}
    for problem in resource_problems(90, resources, launches):
        print("CAUGHT " + problem)
    print("CAUGHT " + "; ".join(resource_problems(90, resources, {})[:1]))
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    p = argparse.ArgumentParser()
    p.add_argument("--kilnc", required=True)
    p.add_argument("--ptxas", required=True)
    p.add_argument("--arch", type=int, default=90)
    p.add_argument("--workdir", required=True)
    p.add_argument("-j", type=int, default=2)
    p.add_argument("models", nargs="+")
    args = p.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    work = []
    for model in args.models:
        if model.endswith(".onnx"):
            work.append((os.path.basename(model), model, None, None))
            continue
        jobs, text = jobs_for(model)
        work += [(label, m, entry, text) for label, m, entry in jobs]
    passed = failed = kernels = 0
    most = dict(registers=0, spill=0, smem=0)
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        for label, ok, why, count, resources in pool.map(
                lambda w: run(args, *w), work):
            kernels += count if ok else 0
            for r in resources.values():
                for key in most:
                    most[key] = max(most[key], r[key])
            if ok:
                passed += 1
                print("PASS %s (%d kernels)" % (label, count))
            else:
                failed += 1
                print("FAIL %s: %s" % (label, why))
    print("RESOURCES: at most %d registers, %d spill bytes, %d bytes static "
          "shared memory a kernel" % (most["registers"], most["spill"],
                                      most["smem"]))
    print("SUMMARY: %d passed, %d failed, %d kernels assembled" %
          (passed, failed, kernels))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
