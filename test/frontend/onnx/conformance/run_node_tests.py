#!/usr/bin/python3
"""ONNX backend node-test conformance harness for Kiln.

Runs `kilnc run` on every ONNX node test (model.onnx + test_data_set_0/*.pb,
as shipped by Debian's libonnx-testdata) and compares the outputs with the
reference ones:

  * float32 / float16 / float64: rtol 1e-3, atol 1e-5 (computed in float64),
    NaN positions and infinities must match exactly;
  * integers and booleans: exactly;
  * shape and dtype must match (a dtype mismatch is a failure).

Each test is classified as
  PASS         outputs match;
  FAIL         wrong numbers, wrong shape/dtype, missing output, kilnc exit 2
               (invalid model or inputs) or 4 (internal error), a crash or a
               timeout;
  UNSUPPORTED  kilnc exit 3 (unsupported operator, opset, data type...);
  SKIP         the test is in the skip list (skip_list.txt). Skipped tests
               still run, so that a skipped test that now passes is reported.

Bind retry: a test that kilnc refuses only because a shape-like operand
(Reshape's shape, Slice's starts...) is a graph input is run again with that
input fixed to the test's value (`kilnc run --bind`), so that the converter
is still checked; it stays UNSUPPORTED unless the bound run fails, which
makes it a FAIL (--no-bind-retry turns this off).

The exit status is non-zero when a test FAILs that is not in the skip list,
or when a skip-list test now passes (the entry must be removed).
See docs/onnx-conformance.md.

Needs the system Python (/usr/bin/python3) with numpy and python3-onnx.
"""

import argparse
import collections
import concurrent.futures
import datetime
import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import numpy as np

try:
    import onnx
    from onnx import numpy_helper
except ImportError:  # pragma: no cover - environment problem
    sys.stderr.write("run_node_tests.py: cannot import onnx; use /usr/bin/python3 "
                     "with python3-onnx installed\n")
    sys.exit(2)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
DEFAULT_DATA = "/usr/share/libonnx-testdata/data/node"
DEFAULT_SKIP_LIST = os.path.join(HERE, "skip_list.txt")
CONVERTER_SOURCES = os.path.join(SRC_ROOT, "frontend", "onnx", "ops")


def read_opset_range(header=os.path.join(SRC_ROOT, "frontend", "onnx",
                                         "ConverterRegistry.h")):
    """(kMinOpset, kMaxOpset) from the importer's header; (7, 17) if absent."""
    try:
        with open(header, encoding="utf-8") as f:
            text = f.read()
        return (int(re.search(r"kMinOpset\s*=\s*(\d+)", text).group(1)),
                int(re.search(r"kMaxOpset\s*=\s*(\d+)", text).group(1)))
    except (OSError, AttributeError):
        return 7, 17


# Opsets the importer accepts (used when kilnc gives no verdict).
MIN_OPSET, MAX_OPSET = read_opset_range()

RTOL, ATOL = 1e-3, 1e-5

PASS, FAIL, UNSUPPORTED, SKIP = "PASS", "FAIL", "UNSUPPORTED", "SKIP"

EXIT_MEANING = {0: "ok", 1: "usage error", 2: "invalid model or inputs",
                3: "unsupported", 4: "internal error"}


# ----------------------------------------------------------------------------
# What the importer claims to support
# ----------------------------------------------------------------------------

def read_registry(folder=CONVERTER_SOURCES):
    """{op_type: [since_version, ...]} from the `r.add("Op", N, ...)` calls
    in frontend/onnx/ops/*.cpp; an op of another domain is keyed
    "domain.Op", as the importer registers it."""
    registry = collections.defaultdict(list)
    pattern = re.compile(r'\br\.add\(\s*"([\w.]+)"\s*,\s*(\d+)')
    for path in sorted(glob.glob(os.path.join(folder, "*.cpp"))):
        with open(path, encoding="utf-8") as f:
            for op, since in pattern.findall(f.read()):
                registry[op].append(int(since))
    return dict(registry)


def converter_exists(registry, op_type, domain, opset):
    if domain not in ("", "ai.onnx"):
        return "%s.%s" % (domain, op_type) in registry
    return any(since <= opset for since in registry.get(op_type, ()))


# ----------------------------------------------------------------------------
# Skip list
# ----------------------------------------------------------------------------

def read_skip_list(path):
    """{test_name: reason}. Lines: `test_name  # reason`; '#' lines are
    comments."""
    skips = {}
    if not path or not os.path.exists(path):
        return skips
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            name, _, reason = stripped.partition("#")
            name = name.strip()
            reason = reason.strip()
            if not re.fullmatch(r"test_\w+", name):
                raise SystemExit("%s:%d: expected `test_name  # reason`, got %r"
                                 % (path, number, line.rstrip()))
            if not reason:
                raise SystemExit("%s:%d: %s has no reason" % (path, number, name))
            if name in skips:
                raise SystemExit("%s:%d: %s is listed twice" % (path, number, name))
            skips[name] = reason
    return skips


# ----------------------------------------------------------------------------
# Comparison
# ----------------------------------------------------------------------------

def fmt(v):
    if isinstance(v, (np.floating, float)):
        return "%.9g" % v
    return repr(v.item() if hasattr(v, "item") else v)


def compare(label, expected, actual, rtol=RTOL, atol=ATOL):
    """None when `actual` matches `expected`, else a message."""
    expected = np.asarray(expected)
    if actual.dtype != expected.dtype:
        return "%s: dtype %s, expected %s" % (label, actual.dtype, expected.dtype)
    if actual.shape != expected.shape:
        return "%s: shape %s, expected %s" % (label, list(actual.shape),
                                             list(expected.shape))
    if expected.size == 0:
        return None
    if np.issubdtype(expected.dtype, np.floating):
        e = expected.astype(np.float64)
        a = actual.astype(np.float64)
        e_nan, a_nan = np.isnan(e), np.isnan(a)
        e_inf, a_inf = np.isinf(e), np.isinf(a)
        finite = ~(e_nan | a_nan | e_inf | a_inf)
        err = np.zeros_like(e)
        err[finite] = np.abs(a[finite] - e[finite])
        bad = (e_nan != a_nan) | ((e_inf | a_inf) & ~(e_nan | a_nan) & (a != e))
        bad |= finite & (err > atol + rtol * np.abs(e))
        if not bad.any():
            return None
        rel = np.zeros_like(e)
        nz = finite & (e != 0)
        rel[nz] = err[nz] / np.abs(e[nz])
        first = tuple(int(x) for x in np.argwhere(bad)[0])
        return ("%s: %d/%d mismatches (rtol %g, atol %g); max abs err %.3g, "
                "max rel err %.3g; first at %s: expected %s, actual %s"
                % (label, int(bad.sum()), e.size, rtol, atol, err.max(),
                   rel.max(), list(first), fmt(expected[first]),
                   fmt(actual[first])))
    bad = expected != actual
    if not np.any(bad):
        return None
    if bad.ndim == 0:
        return "%s: expected %s, actual %s" % (label, fmt(expected), fmt(actual))
    first = tuple(int(x) for x in np.argwhere(bad)[0])
    return ("%s: %d/%d mismatches (exact); first at %s: expected %s, actual %s"
            % (label, int(bad.sum()), expected.size, list(first),
               fmt(expected[first]), fmt(actual[first])))


# ----------------------------------------------------------------------------
# One test
# ----------------------------------------------------------------------------

def file_safe(name):
    """runtime/src/io/ModelIO.cpp fileSafeName()."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    if not safe or safe.startswith("."):
        safe = "_" + safe
    return safe


def read_tensor(path):
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return numpy_helper.to_array(tensor)


def needs_shape(value_info):
    """True when a graph input's declared shape is missing or symbolic."""
    t = value_info.type
    if not t.HasField("tensor_type"):
        return False
    if not t.tensor_type.HasField("shape"):
        return True
    return any(not d.HasField("dim_value") or d.dim_value < 0
               for d in t.tensor_type.shape.dim)


def describe_model(model, registry):
    opset = None
    for imp in model.opset_import:
        if imp.domain in ("", "ai.onnx"):
            opset = imp.version
    nodes = [(n.domain, n.op_type) for n in model.graph.node]
    ops = [op for _, op in nodes]
    group = next((op for op in ops if op != "Constant"), "Constant")
    missing = sorted({op if d in ("", "ai.onnx") else "%s.%s" % (d, op)
                      for d, op in nodes
                      if opset is None
                      or not converter_exists(registry, op, d, opset)})
    supported = (opset is not None and MIN_OPSET <= opset <= MAX_OPSET
                 and not missing)
    return {"opset": opset, "ops": sorted(set(ops)), "op": group,
            "missing_converters": missing, "importer_supported": supported}


def first_error(text):
    """kilnc's diagnostics, trimmed for the report."""
    lines = [l.rstrip() for l in text.splitlines() if l.strip()]
    keep = [l for l in lines if "error" in l or l.startswith("  ")]
    return "\n".join((keep or lines)[:12])


def run_test(job):
    """Runs one node test; returns its result record (a dict). A harness
    error is a FAIL of that test, not the end of the run."""
    try:
        return run_one(job)
    except Exception as ex:  # a bug of the harness or unexpected test data
        import traceback
        return {"name": job["name"], "status": FAIL, "exit_code": None,
                "seconds": 0.0, "command": None, "op": "?", "ops": [],
                "opset": None, "missing_converters": [],
                "importer_supported": False,
                "detail": "harness error: %r\n%s" % (ex, traceback.format_exc())}


NOT_CONSTANT = re.compile(r"node '([^']*)' \(\w+\): input #(\d+) \((\w+)\) must be "
                          r"a constant")


def operands_to_bind(model, stderr, inputs, bound):
    """The graph inputs to bind after kilnc said "node 'n' (Op): input #i
    (what) must be a constant": that input, plus the node's other integer
    graph inputs after its first (Slice's starts, ends, axes and steps come
    together), so that one retry usually suffices. [] when none."""
    m = NOT_CONSTANT.search(stderr)
    if not m:
        return []
    node_name, index = m.group(1), int(m.group(2))
    for position, node in enumerate(model.graph.node):
        label = node.name or "%s#%d" % (node.op_type, position)
        if label != node_name or index >= len(node.input):
            continue
        named = node.input[index]
        if named not in inputs or named in bound:
            return []
        chosen = [named]
        for other in node.input[1:]:
            if (other in inputs and other not in bound and other not in chosen
                    and inputs[other][1].dtype.kind in "iu"):
                chosen.append(other)
        return chosen
    return []


def run_kilnc(cmd, timeout):
    """(exit code, or None on timeout; stderr)."""
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        return proc.returncode, proc.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, "timeout after %d s" % timeout


def classify(rc, stderr, model, data, out_dir):
    """(status, detail) of one kilnc run."""
    if rc is None:
        return FAIL, stderr
    if rc == 3:
        return UNSUPPORTED, first_error(stderr)
    if rc < 0:
        try:
            signame = signal.Signals(-rc).name
        except ValueError:
            signame = str(-rc)
        return FAIL, "kilnc crashed (signal %s)\n%s" % (signame, first_error(stderr))
    if rc != 0:
        return FAIL, "kilnc exit %d (%s)\n%s" % (rc, EXIT_MEANING.get(rc, "crash"),
                                                first_error(stderr))
    problems = []
    for index, out in enumerate(model.graph.output):
        label = "output '%s'" % out.name
        pb = os.path.join(data, "output_%d.pb" % index)
        try:
            expected = read_tensor(pb)
        except Exception as ex:
            problems.append("%s: cannot read the reference %s: %s"
                            % (label, os.path.basename(pb), ex))
            continue
        path = os.path.join(out_dir, file_safe(out.name) + ".npy")
        if not os.path.exists(path):
            problems.append("%s: kilnc wrote no %s" % (label, os.path.basename(path)))
            continue
        try:
            actual = np.load(path, allow_pickle=False)
        except Exception as ex:
            problems.append("%s: cannot read %s: %s" % (label, path, ex))
            continue
        message = compare(label, expected, actual)
        if message:
            problems.append(message)
    return (FAIL if problems else PASS), "\n".join(problems)


def run_one(job):
    name, folder, kilnc = job["name"], job["folder"], job["kilnc"]
    record = {"name": name, "status": None, "detail": "", "exit_code": None,
              "seconds": 0.0, "command": None}
    start = time.time()
    try:
        model = onnx.load(os.path.join(folder, "model.onnx"))
    except Exception as ex:  # corrupt test data: nothing kilnc can be blamed for
        record.update(op="?", ops=[], opset=None, missing_converters=[],
                      importer_supported=False, status=FAIL,
                      detail="harness: cannot load model.onnx: %r" % ex)
        return record
    record.update(describe_model(model, job["registry"]))

    test_dir = os.path.join(job["workdir"], name)
    shutil.rmtree(test_dir, ignore_errors=True)
    in_dir = os.path.join(test_dir, "inputs")
    os.makedirs(in_dir)

    # Graph inputs (minus initializers), in order: input_N.pb is the N-th.
    data = os.path.join(folder, "test_data_set_0")
    initializers = {i.name for i in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in initializers]
    inputs = collections.OrderedDict()  # name -> (npy path, array, info)
    notes = []
    for index, info in enumerate(graph_inputs):
        pb = os.path.join(data, "input_%d.pb" % index)
        if not os.path.exists(pb):
            notes.append("no input_%d.pb for input '%s'" % (index, info.name))
            continue
        try:
            array = read_tensor(pb)
            npy = os.path.join(in_dir, "input_%d.npy" % index)
            np.save(npy, array, allow_pickle=False)
        except Exception as ex:  # sequences, optionals, strings...
            notes.append("input '%s' not converted to .npy: %s"
                         % (info.name, str(ex).splitlines()[0] if str(ex) else
                            type(ex).__name__))
            continue
        inputs[info.name] = (npy, array, info)
        if needs_shape(info) and array.ndim == 0:
            notes.append("input '%s' is a scalar with no declared shape" % info.name)

    def command(model_path, bound, out_dir):
        cmd = [kilnc, "run", model_path]
        for input_name, (npy, array, info) in inputs.items():
            if input_name in bound:
                if job["bind"] == "flag":
                    cmd += ["--bind", "%s=%s" % (input_name, npy)]
                continue
            cmd += ["--input", "%s=%s" % (input_name, npy)]
            if needs_shape(info) and array.ndim > 0:
                cmd += ["--input-shape", "%s=%s" % (
                    input_name, "x".join(str(d) for d in array.shape))]
        return cmd + ["--output-dir", out_dir]

    # The test as it is.
    out_dir = os.path.join(test_dir, "outputs")
    os.makedirs(out_dir)
    cmd = command(os.path.join(folder, "model.onnx"), (), out_dir)
    record["command"] = " ".join(shlex.quote(c) for c in cmd)
    try:
        rc, stderr = run_kilnc(cmd, job["timeout"])
    except OSError as ex:
        record.update(status=FAIL, detail="cannot run kilnc: %s" % ex)
        return record
    record["exit_code"] = rc
    status, detail = classify(rc, stderr, model, data, out_dir)
    record.update(status=status, detail=detail)
    # What the importer claims to support is what kilnc itself accepts: the
    # opset is in range and kilnc names no unsupported operator. (The
    # sources' registry is only the fallback, when kilnc gave no verdict.)
    record["sources_register_all_ops"] = record["importer_supported"]
    if rc is not None and rc >= 0:
        listed = UNSUPPORTED_OP_LINE.findall(stderr)
        record["kilnc_unsupported_ops"] = sorted(
            {op if domain == "ai.onnx" else "%s.%s" % (domain, op)
             for op, domain in listed})
        record["importer_supported"] = (
            record["opset"] is not None
            and not listed
            and "imports no version of the default" not in stderr
            and "uses ONNX opset" not in stderr)

    # Bind retry: when kilnc only refuses because a shape-like operand
    # (Reshape's shape, Slice's starts...) is a graph input, run again with
    # that input fixed to the test's value, so that the converter is still
    # checked. The test keeps its status unless the bound run FAILs (a wrong
    # answer or a crash in a supported case), which makes it a FAIL.
    if job["bind"] and rc in (2, 3):
        bound = []
        model_path = os.path.join(folder, "model.onnx")
        bound_model = None
        bound_dir = os.path.join(test_dir, "outputs_bound")
        while rc in (2, 3):
            operands = operands_to_bind(bound_model or model, stderr, inputs, bound)
            if not operands:
                break
            bound.extend(operands)
            if job["bind"] == "rewrite":
                # kilnc without --bind: the operands become initializers
                # (initializers shadow graph inputs of the same name).
                bound_model = bound_model or onnx.load(model_path)
                for operand in operands:
                    bound_model.graph.initializer.append(
                        numpy_helper.from_array(inputs[operand][1], operand))
                model_path = os.path.join(test_dir, "model_bound.onnx")
                onnx.save(bound_model, model_path)
            shutil.rmtree(bound_dir, ignore_errors=True)
            os.makedirs(bound_dir)
            cmd = command(model_path, bound, bound_dir)
            rc, stderr = run_kilnc(cmd, job["timeout"])
        if bound:
            bound_status, bound_detail = classify(rc, stderr, model, data, bound_dir)
            record.update(bound_operands=bound, bound_status=bound_status,
                          bound_detail=bound_detail, bound_exit_code=rc,
                          bound_command=" ".join(shlex.quote(c) for c in cmd))
            if bound_status == FAIL:
                record.update(status=FAIL, detail=(
                    "with %s bound to the test's value (--bind): %s\n"
                    "(as is: %s)" % (", ".join(repr(b) for b in bound), bound_detail,
                                     record["detail"].splitlines()[0]
                                     if record["detail"] else "?")),
                    command=record["bound_command"])

    if notes:
        record["notes"] = notes
    record["seconds"] = round(time.time() - start, 3)
    if record["status"] == PASS and not job["keep"]:
        shutil.rmtree(test_dir, ignore_errors=True)
    return record


# ----------------------------------------------------------------------------
# Reports
# ----------------------------------------------------------------------------

UNSUPPORTED_OP_LINE = re.compile(r"^\s+(\S+) \(domain (\S+), opset \d+\):",
                                 re.M)


def unsupported_reasons(record):
    """What made a test UNSUPPORTED: operator names, or another reason."""
    detail = record.get("detail", "")
    ops = UNSUPPORTED_OP_LINE.findall(detail)
    if ops:
        return [op if domain == "ai.onnx" else "%s.%s" % (domain, op)
                for op, domain in ops]
    m = re.search(r"uses ONNX opset (\d+)", detail)
    if m:
        return ["(opset %s)" % m.group(1)]
    if NOT_CONSTANT.search(detail):
        return ["(a shape-like operand is a graph input)"]
    m = re.search(r"element type (\w+)", detail)
    if m:
        return ["(element type %s)" % m.group(1)]
    first = detail.splitlines()[0] if detail else "?"
    first = re.sub(r"^\S*: error: ", "", first)
    first = re.sub(r"^node '[^']*' ", "", first)
    return ["(other: %s)" % first[:120]]


def pct(part, whole):
    return "%.1f%%" % (100.0 * part / whole) if whole else "n/a"


def summarize(results):
    counts = collections.Counter(r["status"] for r in results)
    supported = [r for r in results if r["importer_supported"]]
    scounts = collections.Counter(r["status"] for r in supported)
    return counts, supported, scounts


def per_op_table(results, registry):
    rows = collections.OrderedDict()
    for r in sorted(results, key=lambda r: r["op"].lower()):
        row = rows.setdefault(r["op"], collections.Counter())
        row["tests"] += 1
        row[r["status"]] += 1
    lines = ["| op | importer | tests | pass | fail | unsupported | skipped | pass rate |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for op, row in rows.items():
        lines.append("| %s | %s | %d | %d | %d | %d | %d | %s |" % (
            op, "yes" if op in registry else "no", row["tests"], row[PASS],
            row[FAIL], row[UNSUPPORTED], row[SKIP], pct(row[PASS], row["tests"])))
    return lines


def write_markdown(path, results, registry, skips, elapsed, args):
    counts, supported, scounts = summarize(results)
    total = len(results)
    out = ["# Kiln ONNX node-test conformance", ""]
    out.append("Generated by `test/frontend/onnx/conformance/run_node_tests.py` on %s "
               "(%d tests from `%s`%s; %.0f s with %d workers)."
               % (datetime.date.today().isoformat(), total, args.data,
                  ", filter `%s`" % args.filter if args.filter else "",
                  elapsed, args.jobs))
    out.append("")
    out.append("| | tests | pass | fail | unsupported | skipped | pass rate |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    out.append("| all tests | %d | %d | %d | %d | %d | %s |" % (
        total, counts[PASS], counts[FAIL], counts[UNSUPPORTED], counts[SKIP],
        pct(counts[PASS], total)))
    out.append("| tests the importer claims to support | %d | %d | %d | %d | %d | %s |" % (
        len(supported), scounts[PASS], scounts[FAIL], scounts[UNSUPPORTED],
        scounts[SKIP], pct(scounts[PASS], len(supported))))
    out.append("")
    out.append("A test counts as *claimed supported* when kilnc accepts its "
               "opset (the importer's range is %d..%d) and every operator of its "
               "graph (it names no unsupported operator). The **op** of a test is the op "
               "type of its first non-Constant node (so the `_expanded` "
               "function-body tests are listed under their first op). "
               "**importer** says whether the importer's sources register a "
               "converter for that op (at some opset)." % (MIN_OPSET, MAX_OPSET))
    out.append("")
    out.append("## Per op")
    out.append("")
    out.extend(per_op_table(results, registry))
    out.append("")

    unsupported = collections.Counter()
    for r in results:
        if r["status"] == UNSUPPORTED:
            for reason in set(unsupported_reasons(r)):
                unsupported[reason] += 1
    out.append("## Most common reasons for UNSUPPORTED")
    out.append("")
    out.append("Counted once per test; a test may need several missing operators.")
    out.append("")
    out.append("| unsupported operator (or reason) | tests |")
    out.append("|---|---:|")
    for reason, n in unsupported.most_common():
        out.append("| %s | %d |" % (reason, n))
    out.append("")

    odd = [r for r in results if r["status"] == UNSUPPORTED and r["importer_supported"]]
    if odd:
        out.append("## Claimed supported, yet UNSUPPORTED")
        out.append("")
        out.append("Every node has a converter, but kilnc exits 3: a converter "
                   "refuses the case (most often a shape-like operand that is a "
                   "graph input: see the bind retry below) or a later stage "
                   "cannot compile it.")
        out.append("")
        for r in sorted(odd, key=lambda r: r["name"]):
            reason = r["detail"].splitlines()[0] if r["detail"] else ""
            reason = re.sub(r"^\S*model\.onnx: error: ", "", reason)
            out.append("* `%s` (%s): %s" % (r["name"], r["op"], reason))
        out.append("")
    rebound = [r for r in results if r.get("bound_operands")]
    if rebound:
        out.append("## Bind retry")
        out.append("")
        out.append("These tests feed a shape-like operand (Reshape's shape, Slice's "
                   "starts, Squeeze's axes...) as a graph input, which kilnc refuses "
                   "(Kiln compiles static shapes). The harness runs them again with "
                   "that input fixed to the test's value (`kilnc run --bind "
                   "NAME=FILE.npy`), so that the converter is still checked. The "
                   "test keeps its status above unless the bound run fails.")
        out.append("")
        out.append("| test | bound | with --bind |")
        out.append("|---|---|---|")
        for r in sorted(rebound, key=lambda r: r["name"]):
            result = r["bound_status"]
            if r["bound_status"] != PASS and r["bound_detail"]:
                lines = [l for l in r["bound_detail"].splitlines()
                         if not l.startswith("kilnc exit")] or [""]
                result += ": " + re.sub(r"^\S*: error: ", "", lines[0]).replace("|", "\\|")
            out.append("| %s | %s | %s |" % (r["name"], ", ".join(r["bound_operands"]),
                                            result))
        out.append("")
    skipped = [r for r in results if r["status"] == SKIP]
    if skipped:
        out.append("## Skipped tests")
        out.append("")
        out.append("| test | op | reason |")
        out.append("|---|---|---|")
        for r in sorted(skipped, key=lambda r: (r["op"], r["name"])):
            out.append("| %s | %s | %s |" % (r["name"], r["op"],
                                            skips[r["name"]].replace("|", "\\|")))
        out.append("")
    failed = [r for r in results if r["status"] == FAIL]
    if failed:
        out.append("## Failing tests")
        out.append("")
        for r in sorted(failed, key=lambda r: r["name"]):
            out.append("* `%s` (%s): %s" % (
                r["name"], r["op"], r["detail"].splitlines()[0] if r["detail"] else ""))
        out.append("")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


# ----------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------

def default_kilnc():
    found = shutil.which("kilnc")
    if found:
        return found
    return os.path.join(SRC_ROOT, "build", "bin", "kilnc")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kilnc", default=None,
                        help="kilnc binary (default: on PATH, else build/bin/kilnc)")
    parser.add_argument("--data", default=DEFAULT_DATA,
                        help="folder of test_* node tests (default: %(default)s)")
    parser.add_argument("--filter", default=None,
                        help="only tests whose name matches this regex (re.search)")
    parser.add_argument("--workdir", default=None,
                        help="scratch folder (inputs/outputs of non-passing tests "
                             "are kept there; default: a temporary folder)")
    parser.add_argument("--json", default=None, help="write results as JSON here")
    parser.add_argument("--markdown", default=None,
                        help="write the per-op Markdown report here")
    parser.add_argument("--skip-list", default=DEFAULT_SKIP_LIST,
                        help="skip list (default: %(default)s)")
    parser.add_argument("--jobs", "-j", type=int, default=2,
                        help="worker processes (default: %(default)s)")
    parser.add_argument("--timeout", type=int, default=60,
                        help="seconds per kilnc run (default: %(default)s)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the files of passing tests too")
    parser.add_argument("--no-bind-retry", action="store_true",
                        help="do not re-run, with --bind, the tests that kilnc "
                             "refuses only because a shape-like operand is a "
                             "graph input")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="print every test's result")
    parser.add_argument("--min-pass", type=int, default=0,
                        help="exit non-zero when fewer tests pass (the pinned "
                             "count of the lit test: a regression fails it)")
    args = parser.parse_args(argv)

    kilnc = args.kilnc or default_kilnc()
    if os.sep not in kilnc:
        kilnc = shutil.which(kilnc) or kilnc
    if not (os.path.isfile(kilnc) and os.access(kilnc, os.X_OK)):
        parser.error("kilnc not found or not executable: %s" % kilnc)
    bind_mode = None
    if not args.no_bind_retry:
        try:
            help_text = subprocess.run([kilnc, "run", "--help"], stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            help_text = b""
        bind_mode = "flag" if b"--bind" in help_text else "rewrite"
    registry = read_registry()
    if not registry:
        parser.error("no converters found under %s" % CONVERTER_SOURCES)
    skips = read_skip_list(args.skip_list)

    names = sorted(d for d in os.listdir(args.data)
                   if d.startswith("test_")
                   and os.path.isfile(os.path.join(args.data, d, "model.onnx")))
    if not names:
        parser.error("no node tests (test_*/model.onnx) in %s" % args.data)
    if args.filter:
        names = [n for n in names if re.search(args.filter, n)]

    workdir = args.workdir
    temporary = workdir is None
    if temporary:
        import tempfile
        workdir = tempfile.mkdtemp(prefix="kiln-onnx-conformance-")
    os.makedirs(workdir, exist_ok=True)
    workdir = os.path.abspath(workdir)

    jobs = [{"name": n, "folder": os.path.join(args.data, n), "kilnc": kilnc,
             "workdir": workdir, "timeout": args.timeout, "registry": registry,
             "keep": args.keep, "bind": bind_mode}
            for n in names]
    start = time.time()
    results = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for record in pool.map(run_test, jobs, chunksize=4):
            results.append(record)
            if args.verbose:
                status = record["status"]
                if record["name"] in skips:
                    status = "SKIP(%s)" % status.lower()
                print("%-17s %s" % (status, record["name"]), flush=True)
    elapsed = time.time() - start
    import resource
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_seconds = usage.ru_utime + usage.ru_stime

    # Skip list: a skipped test keeps its actual outcome for the record.
    stale = []
    for r in results:
        r["actual_status"] = r["status"]
        if r["name"] in skips:
            r["skip_reason"] = skips[r["name"]]
            if r["status"] == PASS:
                stale.append(r)
            r["status"] = SKIP
    unknown_skips = sorted(set(skips) - set(os.listdir(args.data)))

    counts, supported, scounts = summarize(results)
    total = len(results)
    failed = [r for r in results if r["status"] == FAIL]

    for r in sorted(failed, key=lambda r: r["name"]):
        print("FAIL: %s (op %s)" % (r["name"], r["op"]))
        for line in r["detail"].splitlines():
            print("    " + line)
        print("    repro: " + (r["command"] or "(kilnc not run)"))
    for r in stale:
        print("SKIP-LIST ENTRY NOW PASSES (remove it from %s): %s  # %s"
              % (os.path.basename(args.skip_list), r["name"], r["skip_reason"]))
    drift = sorted({op for r in results if "kilnc_unsupported_ops" in r
                    for op in set(r["kilnc_unsupported_ops"]) ^ set(r["missing_converters"])
                    if r["opset"] and MIN_OPSET <= r["opset"] <= MAX_OPSET
                    and "uses ONNX opset" not in r.get("detail", "")})
    if drift:
        print("warning: the converter registry in %s and kilnc disagree about %s: "
              "is %s up to date? (the figures follow kilnc)"
              % (CONVERTER_SOURCES, ", ".join(drift), kilnc))
    odd = [r for r in results if r["status"] == UNSUPPORTED and r["importer_supported"]]
    if odd:
        print("note: %d tests have converters for all their nodes but kilnc reports "
              "them unsupported (listed in the Markdown report)" % len(odd))
    for r in sorted(results, key=lambda r: r["name"]):
        if r.get("bound_status") == UNSUPPORTED:
            print("note: %s still does not compile with %s bound (--bind): %s"
                  % (r["name"], ", ".join(r["bound_operands"]),
                     " / ".join(r["bound_detail"].splitlines()[:2])))
    for r in sorted(results, key=lambda r: r["name"]):
        if r["status"] == SKIP and r["actual_status"] == UNSUPPORTED \
                and not r["skip_reason"].startswith("BUG:"):
            print("note: skip-list entry %s is now reported UNSUPPORTED (exit 3): "
                  "its line can go" % r["name"])
    for name in unknown_skips:
        print("warning: skip list names %s, which is not in %s" % (name, args.data))

    bugs = [r for r in results if r["status"] == SKIP
            and r["skip_reason"].startswith("BUG:")]
    print("")
    print("ONNX node tests: %d run in %.1f s (%d workers, %.0f CPU-seconds)"
          % (total, elapsed, args.jobs, cpu_seconds))
    print("  pass %d, fail %d, unsupported %d, skipped %d (%d of them known BUGs)"
          % (counts[PASS], counts[FAIL], counts[UNSUPPORTED], counts[SKIP], len(bugs)))
    print("  pass rate over all tests: %s (%d/%d)"
          % (pct(counts[PASS], total), counts[PASS], total))
    print("  pass rate over tests the importer claims to support: %s (%d/%d; "
          "fail %d, unsupported %d, skipped %d)"
          % (pct(scounts[PASS], len(supported)), scounts[PASS], len(supported),
             scounts[FAIL], scounts[UNSUPPORTED], scounts[SKIP]))
    rebound = [r for r in results if r.get("bound_operands")]
    if rebound:
        print("  bind retry: %d tests refused only for a non-constant shape operand; "
              "with it bound: %d pass, %d fail, %d still unsupported"
              % (len(rebound), sum(r["bound_status"] == PASS for r in rebound),
                 sum(r["bound_status"] == FAIL for r in rebound),
                 sum(r["bound_status"] == UNSUPPORTED for r in rebound)))
    print("SUMMARY: total=%d pass=%d fail=%d unsupported=%d skipped=%d stale_skips=%d"
          % (total, counts[PASS], counts[FAIL], counts[UNSUPPORTED], counts[SKIP],
             len(stale)))

    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({
                "kilnc": kilnc, "data": args.data, "filter": args.filter,
                "seconds": round(elapsed, 1), "jobs": args.jobs,
                "cpu_seconds": round(cpu_seconds, 1),
                "tolerances": {"rtol": RTOL, "atol": ATOL},
                "summary": {"total": total, "pass": counts[PASS],
                            "fail": counts[FAIL],
                            "unsupported": counts[UNSUPPORTED],
                            "skipped": counts[SKIP], "stale_skips": len(stale),
                            "claimed_supported": len(supported),
                            "claimed_supported_pass": scounts[PASS],
                            "bind_retried": len(rebound),
                            "bind_retry_pass": sum(r["bound_status"] == PASS
                                                   for r in rebound)},
                "tests": sorted(results, key=lambda r: r["name"]),
            }, f, indent=1)
    if args.markdown:
        os.makedirs(os.path.dirname(os.path.abspath(args.markdown)), exist_ok=True)
        write_markdown(args.markdown, results, registry, skips, elapsed, args)
    if temporary:
        if failed:
            print("(inputs of the failing tests are kept in %s)" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    below_pin = counts[PASS] < args.min_pass
    if below_pin:
        print("PASS COUNT BELOW THE PIN: %d pass, --min-pass %d"
              % (counts[PASS], args.min_pass))
    elif args.min_pass and counts[PASS] > args.min_pass:
        print("note: %d pass, more than --min-pass %d: raise the pin"
              % (counts[PASS], args.min_pass))
    return 1 if failed or stale or below_pin else 0


if __name__ == "__main__":
    sys.exit(main())
