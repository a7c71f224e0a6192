#!/usr/bin/env python3
"""End-to-end numeric checker for `kilnc run` (Kiln's CPU path).

Usage:
  check_e2e.py --kilnc PATH --model MODEL.mlir --cases CASES.py
               [--only NAME[,NAME...]] [--no-split] [-j N] [--keep]
               [--workdir DIR]

For every case of CASES.py (see e2e.py) this

1. builds the inputs with a fixed seed and writes them as .npy files into a
   temporary folder;
2. runs ``kilnc run MODEL --entry <fn> --input NAME=FILE ... --output-dir D``;
3. checks kilnc's exit code (0, or the case's ``expect_rc``) and, for
   negative cases, that ``expect_err`` occurs on its stderr;
4. loads the outputs and compares them with the NumPy reference (shapes and
   dtypes exactly; floats within tolerance with matching NaN positions;
   integers and booleans exactly).

It prints ``PASS <name>`` or ``FAIL <name>: <why>`` per case, then a
``SUMMARY:`` line, and exits with 1 when any case failed.

Splitting: kilnc compiles the *whole* module whatever --entry says, so a
model with 40 functions would compile 40 functions per case (~2 s each).
Unless --no-split is given, the checker therefore hands kilnc a copy of the
model that holds only the case's function (plus every private function and
the trailing `{-# ... #-}` resource section); the other lines are blanked so
that diagnostics keep the original line numbers. This needs every top-level
`func.func` to start in column 0 and end with a line holding only `}`.
Failing cases keep their temporary folder and print a repro command.
"""

import argparse
import concurrent.futures
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import warnings  # noqa: E402

import numpy as np  # noqa: E402

# References meet inf/NaN on purpose (log(0), overflowing casts, ...).
warnings.simplefilter("ignore", RuntimeWarning)
np.seterr(all="ignore")

import e2e  # noqa: E402

FUNC_RE = re.compile(
    r"^func\.func\s+(?:(private|public|nested)\s+)?@([\w$.\-]+|\"[^\"]*\")")


# ----------------------------------------------------------------------------
# Model splitting
# ----------------------------------------------------------------------------

class ModelText:
    def __init__(self, path):
        with open(path) as f:
            self.lines = f.read().splitlines(keepends=True)
        self.funcs = {}      # name -> (first line, last line), inclusive
        self.keep = []       # ranges kept in every split (private, resources)
        self.splittable = True
        i, n = 0, len(self.lines)
        while i < n:
            line = self.lines[i]
            m = FUNC_RE.match(line)
            if m:
                j = i
                while j < n and self.lines[j].rstrip("\r\n") != "}":
                    j += 1
                if j == n:
                    self.splittable = False
                    return
                if m.group(1) == "private":
                    self.keep.append((i, j))
                else:
                    self.funcs[m.group(2).strip('"')] = (i, j)
                i = j + 1
                continue
            if line.startswith("{-#"):
                j = i
                while j < n and "#-}" not in self.lines[j]:
                    j += 1
                self.keep.append((i, min(j, n - 1)))
                i = j + 1
                continue
            stripped = line.strip()
            if stripped and not stripped.startswith("//"):
                # Something else at top level (`module {`, ...): run whole.
                self.splittable = False
            i += 1

    def only(self, fn):
        if not self.splittable or fn not in self.funcs:
            return None
        keep = list(self.keep) + [self.funcs[fn]]
        out = []
        for k, line in enumerate(self.lines):
            if any(a <= k <= b for a, b in keep):
                out.append(line)
            else:
                out.append("\n")
        return "".join(out)


# ----------------------------------------------------------------------------
# Comparison
# ----------------------------------------------------------------------------

def fmt(v):
    if isinstance(v, (np.floating, float)):
        return "%.9g" % v
    return repr(v.item() if hasattr(v, "item") else v)


def compare(label, expected, actual, rtol, atol):
    """Returns None when `actual` matches `expected`, else a message."""
    expected = np.asarray(expected)
    if actual.dtype != expected.dtype:
        return "%s: dtype %s, expected %s" % (label, actual.dtype,
                                             expected.dtype)
    if actual.shape != expected.shape:
        return "%s: shape %s, expected %s" % (label, actual.shape,
                                             expected.shape)
    if expected.size == 0:
        return None
    if np.issubdtype(expected.dtype, np.floating):
        d_rtol, d_atol = e2e.DEFAULT_TOLERANCES[expected.dtype]
        rtol = d_rtol if rtol is None else rtol
        atol = d_atol if atol is None else atol
        e = expected.astype(np.float64)
        a = actual.astype(np.float64)
        e_nan, a_nan = np.isnan(e), np.isnan(a)
        e_inf, a_inf = np.isinf(e), np.isinf(a)
        finite = ~(e_nan | a_nan | e_inf | a_inf)
        err = np.zeros_like(e)
        err[finite] = np.abs(a[finite] - e[finite])
        bad = (e_nan != a_nan) | ((e_inf | a_inf) & ~(e_nan | a_nan)
                                  & (a != e))
        bad |= finite & (err > atol + rtol * np.abs(e))
        if not bad.any():
            return None
        rel = np.zeros_like(e)
        nz = finite & (e != 0)
        rel[nz] = err[nz] / np.abs(e[nz])
        first = tuple(int(x) for x in np.argwhere(bad)[0])
        return ("%s: %d/%d mismatches (rtol %g, atol %g); max abs err %.3g, "
                "max rel err %.3g; first at %s: expected %s, actual %s"
                % (label, int(bad.sum()), e.size, rtol, atol,
                   err.max(), rel.max(), list(first), fmt(expected[first]),
                   fmt(actual[first])))
    bad = expected != actual
    if not bad.any():
        return None
    first = tuple(int(x) for x in np.argwhere(bad)[0])
    msg = ("%s: %d/%d mismatches (exact); first at %s: expected %s, actual %s"
           % (label, int(bad.sum()), expected.size, list(first),
              fmt(expected[first]), fmt(actual[first])))
    if np.issubdtype(expected.dtype, np.integer):
        diff = np.abs(expected.astype(object) - actual.astype(object))
        msg += "; max abs err %d" % diff.max()
    return msg


# ----------------------------------------------------------------------------
# Running one case
# ----------------------------------------------------------------------------

def run_case(args, model, case):
    """Returns (ok, message, lines of detail)."""
    detail = []
    try:
        inputs = case.make_inputs()
    except Exception as ex:  # a broken case file
        return False, "cannot build inputs: %r" % ex, detail
    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="%s-" % re.sub(r"[^\w.-]", "_",
                                                     case.name),
                               dir=args.workdir or None)
    keep = args.keep
    try:
        model_path = args.model
        if not args.no_split:
            text = model.only(case.fn)
            if text is not None:
                model_path = os.path.join(workdir, "model.mlir")
                with open(model_path, "w") as f:
                    f.write(text)
        cmd = [args.kilnc, "run", model_path, "--entry", case.fn]
        cmd += args.kilnc_arg
        for name, array in inputs.items():
            path = os.path.join(workdir, "in_%s.npy" % name)
            np.save(path, np.asarray(array), allow_pickle=False)
            cmd += ["--input", "%s=%s" % (name, path)]
        outdir = os.path.join(workdir, "out")
        cmd += ["--output-dir", outdir]
        repro = " ".join(shlex.quote(c) for c in cmd)
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True,
                                  timeout=args.timeout)
        except subprocess.TimeoutExpired:
            keep = True
            detail.append("  repro: " + repro)
            return False, "kilnc timed out after %gs" % args.timeout, detail
        rc = proc.returncode
        stderr = proc.stderr.strip()

        def failure(msg):
            nonlocal keep
            keep = True
            detail.append("  repro: " + repro)
            if stderr:
                detail.extend("  stderr: " + l for l in stderr.splitlines())
            return False, msg, detail

        if rc != case.expect_rc:
            return failure("kilnc exited with %d, expected %d"
                           % (rc, case.expect_rc))
        if case.expect_err is not None and case.expect_err not in stderr:
            return failure("kilnc's stderr lacks %r" % case.expect_err)
        if case.ref is None:
            return True, None, detail

        try:
            expected = case.ref(*inputs.values())
        except Exception as ex:  # a broken reference
            return failure("the reference raised %r" % ex)
        if not isinstance(expected, (tuple, list)):
            expected = (expected,)
        names = case.out_names or ["result%d" % i
                                   for i in range(len(expected))]
        if len(names) != len(expected):
            return failure("case gives %d names for %d outputs"
                           % (len(names), len(expected)))
        produced = sorted(f[:-4] for f in os.listdir(outdir)
                          if f.endswith(".npy")) if os.path.isdir(outdir) \
            else []
        if sorted(names) != produced:
            return failure("outputs %s, expected %s" % (produced,
                                                        sorted(names)))
        problems = []
        for name, exp in zip(names, expected):
            actual = np.load(os.path.join(outdir, name + ".npy"))
            msg = compare(name, exp, actual, case.rtol, case.atol)
            if msg:
                problems.append(msg)
        if problems:
            return failure("; ".join(problems))
        return True, None, detail
    finally:
        if keep:
            detail.append("  kept: " + workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def load_cases(path):
    spec = importlib.util.spec_from_file_location(
        "cases_" + re.sub(r"\W", "_", os.path.basename(path)), path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec.loader.exec_module(module)
    return module.CASES


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kilnc", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--cases", required=True)
    parser.add_argument("--only", default="",
                        help="comma-separated case names to run")
    parser.add_argument("--no-split", action="store_true",
                        help="hand kilnc the whole model for every case")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--keep", action="store_true",
                        help="keep every case's temporary folder")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--kilnc-arg", action="append", default=[],
                        help="extra kilnc argument for every case (e.g. "
                        "--kilnc-arg=--fusion=none)")
    parser.add_argument("--workdir", default="",
                        help="folder for the cases' temporary folders "
                        "(default: the system's temporary folder)")
    args = parser.parse_args()

    cases = load_cases(args.cases)
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c.name in wanted or c.fn in wanted]
    names = [c.name for c in cases]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        print("FAIL <cases>: duplicate case names %s" % dupes)
        return 1
    model = ModelText(args.model)
    missing = [c.fn for c in cases if model.splittable and
               c.fn not in model.funcs]
    failed = 0
    if missing:
        for fn in missing:
            print("FAIL %s: no public function @%s in %s"
                  % (fn, fn, args.model))
        failed += len(missing)
        cases = [c for c in cases if c.fn not in missing]
    if model.splittable and not args.only:
        # Every public function should be exercised by some case.
        untested = sorted(set(model.funcs) - {c.fn for c in cases}
                          - set(missing))
        for fn in untested:
            print("FAIL %s: no case runs this function" % fn)
        failed += len(untested)

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(lambda c: run_case(args, model, c), cases))
    for case, (ok, msg, detail) in zip(cases, results):
        if ok:
            print("PASS %s" % case.name)
        else:
            failed += 1
            print("FAIL %s: %s" % (case.name, msg))
            for line in detail:
                print(line)
    passed = sum(1 for ok, _, _ in results if ok)
    print("SUMMARY: %d passed, %d failed" % (passed, failed))
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
