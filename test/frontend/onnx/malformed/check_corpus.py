#!/usr/bin/python3
"""Runs kilnc on every model of the malformed-model corpus and checks that
each one is rejected cleanly.

    /usr/bin/python3 check_corpus.py --kilnc PATH --corpus DIR

For each entry of DIR/expectations.json (see make_corpus.py) it runs

    kilnc compile FILE --emit=mlir -o /dev/null [args...]

in DIR, with a wall-clock timeout (10 s) and an address-space limit
(RLIMIT_AS, 4 GiB), and checks: a documented error exit code (2 or 3) equal
to the expected one, the expected message substring on stderr, and a located
message ("FILE: error: ..."). A signal, a timeout, an out-of-memory, exit 4
(internal error), exit 0 (a malformed model accepted) or any mismatch is a
failure. Models run in parallel worker processes (-j, default: the CPUs,
at most 4); the report is printed in name order.

known_failures.txt (next to this script, or --known-failures) lists models
that currently fail, one per line: `NAME  reason`. They are reported as
XFAIL and do not fail the run; one that starts passing is an XPASS, which
does (remove it from the list). Exit status: 0 when every file is PASS or
XFAIL, 1 otherwise.

Output: one line per file, then
    corpus: N files, M clean errors, K crashes, ...
where "clean errors" counts files rejected exactly as expected and
"crashes" counts unexpected signals, timeouts, out-of-memory and exit 4.
"""
import argparse
import json
import multiprocessing
import os
import resource
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kilnc", required=True, help="the kilnc binary")
    p.add_argument("--corpus", required=True, help="folder from make_corpus.py")
    p.add_argument("--timeout", type=float, default=10.0,
                   help="seconds per file (default 10)")
    p.add_argument("--memory-gib", type=float, default=4.0,
                   help="RLIMIT_AS per run in GiB (default 4)")
    p.add_argument("--no-memory-limit", action="store_true",
                   help="no RLIMIT_AS (sanitizer builds reserve huge "
                        "virtual memory)")
    p.add_argument("--known-failures",
                   default=os.path.join(HERE, "known_failures.txt"),
                   help="expected failures (default: next to this script)")
    p.add_argument("--min-files", type=int, default=60,
                   help="fail if the corpus is smaller (default 60)")
    p.add_argument("-j", "--jobs", type=int,
                   default=min(4, os.cpu_count() or 1),
                   help="kilnc runs at a time (default: CPUs, at most 4)")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print kilnc's stderr for every non-PASS file")
    p.add_argument("files", nargs="*",
                   help="only these corpus entries (default: all)")
    return p.parse_args()


def load_known(path):
    known = {}
    if not os.path.exists(path):
        return known
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, reason = line.partition(" ")
            known[name] = reason.strip()
    return known


def limiter(memory_bytes):
    def apply():
        os.setsid()  # a process group of its own, killed as a whole
        if memory_bytes > 0:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def run_one(job):
    """Runs one model; `job` is (kilnc, corpus, rel, entry, timeout,
    memory_bytes). Returns (verdict, detail, stderr). verdict is PASS or a failure
    class: CRASH, TIMEOUT, OOM, INTERNAL, ACCEPTED, WRONG-EXIT,
    WRONG-MESSAGE, UNLOCATED."""
    kilnc, corpus, rel, entry, timeout, memory_bytes = job
    cmd = [kilnc, "compile", rel, "--emit=mlir", "-o", os.devnull]
    cmd += entry.get("args", [])
    proc = subprocess.Popen(cmd, cwd=corpus, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=limiter(memory_bytes))
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return "TIMEOUT", "no answer within %gs" % timeout, \
            err.decode(errors="replace")
    err = err.decode(errors="replace")
    rc = proc.returncode
    oom = "out of memory" in err or "std::bad_alloc" in err
    if rc < 0:
        name = signal.Signals(-rc).name if -rc in signal.valid_signals() \
            else str(-rc)
        if oom:
            return "OOM", "killed by %s after running out of memory" % name, err
        return "CRASH", "killed by %s" % name, err
    if oom:
        return "OOM", "exit %d, out of memory" % rc, err
    if rc == 4:
        return "INTERNAL", "exit 4 (internal error)", err
    if rc == 0:
        return "ACCEPTED", "exit 0: the malformed model was accepted", err
    if rc != entry["exit"]:
        return "WRONG-EXIT", "exit %d, expected %d" % (rc, entry["exit"]), err
    if entry["message"] not in err:
        return "WRONG-MESSAGE", "stderr lacks %r" % entry["message"], err
    if rel + ": error:" not in err:
        return "UNLOCATED", "no '%s: error:' line" % rel, err
    return "PASS", "exit %d" % rc, err


CRASHES = {"CRASH", "TIMEOUT", "OOM", "INTERNAL"}


def first_error_line(err):
    for line in err.splitlines():
        if "error:" in line:
            return line.strip()
    lines = [l for l in err.splitlines() if l.strip()]
    return lines[0].strip() if lines else "(no stderr)"


def main():
    args = parse_args()
    kilnc = os.path.abspath(shutil.which(args.kilnc) or args.kilnc)
    if not os.path.isfile(kilnc):
        sys.exit("check_corpus.py: no kilnc at %s" % args.kilnc)
    corpus = os.path.abspath(args.corpus)
    with open(os.path.join(corpus, "expectations.json")) as f:
        expectations = json.load(f)
    known = load_known(args.known_failures)
    problems = []

    # Every model in the folder has an expectation, and vice versa.
    on_disk = set()
    for root, dirs, files in os.walk(corpus):
        for name in dirs + files:
            if name.endswith(".onnx"):
                on_disk.add(os.path.relpath(os.path.join(root, name), corpus))
        dirs[:] = [d for d in dirs if not d.endswith(".onnx")]
    for rel in sorted(on_disk - set(expectations)):
        problems.append("%s: in the corpus but not in expectations.json" % rel)
    for rel in sorted(set(expectations) - on_disk):
        problems.append("%s: expected but missing from the corpus" % rel)
    for rel in sorted(set(known) - set(expectations)):
        problems.append("%s: listed in %s but not in the corpus" %
                        (rel, os.path.basename(args.known_failures)))
    for rel, entry in expectations.items():
        if entry.get("exit") not in (2, 3) or not entry.get("message"):
            problems.append("%s: expectation needs exit 2 or 3 and a message"
                            % rel)
    if len(expectations) < args.min_files:
        problems.append("only %d files (at least %d expected)" %
                        (len(expectations), args.min_files))

    selected = sorted(expectations)
    if args.files:
        selected = [f for f in selected if f in args.files]
    memory = 0 if args.no_memory_limit else int(args.memory_gib * (1 << 30))
    counts = {}
    clean = crashes = unexpected = xfail = xpass = 0
    jobs = [(kilnc, corpus, rel, expectations[rel], args.timeout, memory)
            for rel in selected]
    # Worker processes (not threads): preexec_fn is only safe in a
    # single-threaded parent.
    with multiprocessing.get_context("fork").Pool(max(1, args.jobs)) as pool:
        results = pool.map(run_one, jobs, chunksize=1)
    for rel, (verdict, detail, err) in zip(selected, results):
        counts[verdict] = counts.get(verdict, 0) + 1
        if verdict == "PASS":
            clean += 1
            if rel in known:
                xpass += 1
                print("XPASS %s: %s, now rejected as expected; remove it from "
                      "known_failures.txt" % (rel, detail))
            else:
                print("PASS  %s (%s)" % (rel, detail))
            continue
        line = "%s: %s [%s]" % (verdict, detail, first_error_line(err))
        if rel in known:
            xfail += 1
            print("XFAIL %s: %s -- known: %s" % (rel, line, known[rel]))
        else:
            unexpected += 1
            if verdict in CRASHES:
                crashes += 1
            print("FAIL  %s: %s" % (rel, line))
        if args.verbose:
            for l in err.splitlines()[:40]:
                print("      | " + l)
    for p in problems:
        print("ERROR %s" % p)
    breakdown = ", ".join("%s %d" % (k, v) for k, v in sorted(counts.items())
                          if k != "PASS")
    print("corpus: %d files, %d clean errors, %d crashes, %d unexpected "
          "failures, %d known failures, %d xpass%s" %
          (len(selected), clean, crashes, unexpected, xfail, xpass,
           " (%s)" % breakdown if breakdown else ""))
    return 1 if unexpected or xpass or problems else 0


if __name__ == "__main__":
    sys.exit(main())
