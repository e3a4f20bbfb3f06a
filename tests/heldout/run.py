#!/usr/bin/env python3
"""Score `mdprofile explain` on the held-out reports (issue 39's "Done when").

The held-out set is kept apart from the project's tests: heldout.json beside
this file, built as captures by tests/fixtures/explain/mk.py's builders into
a directory under build/ (never committed), replayed with
`BINARY --root TREE --json explain`. Not run by `make check` or `make test`:
`make explain-heldout`.

Each entry's verdict was written from its thread's cause before explain ran
on it: the accepted first finding kinds and the exit code (1: explain
recommends something). Per case:
  right   the first finding is one of them and the exit code matches;
  partly  not that, but an accepted kind appears among the findings or the
          exit code matches (no cause, or another one, and nothing harmful);
  wrong   neither: the wrong cause and the wrong action.
Exit 1 unless the set holds 27 cases, at least 25 (90 %) are right and none is wrong.

  run.py BINARY [OUTDIR]
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "fixtures", "explain"))
import mk  # noqa: E402  (the corpus's builders, reused as they are)

WANT, RIGHT, WRONG_MAX = 27, 25, 0


def build(entry, out):
    """mk.py's two samples for the entry's knobs, plus its extra files (first sample)."""
    c = mk.case(**entry["case"])
    for second in (False, True):
        top = os.path.join(out, ".explain", "1") if second else out
        files = mk.files(c, second)
        if not second:
            files.update(entry.get("extra", {}))
        for path, text in sorted(files.items()):
            p = os.path.join(top, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            if isinstance(text, tuple):
                os.symlink(text[1], p)
                continue
            with open(p, "w") as fh:
                fh.write(text)
    with open(os.path.join(out, ".explain", "elapsed_ms"), "w") as fh:
        fh.write("%d\n" % int(mk.DT * 1000))


def explain(binary, tree):
    p = subprocess.run([binary, "--root", tree, "--json", "explain"], capture_output=True,
                       text=True)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return p.returncode, None, p.stderr.strip()
    arrays = [a for a in doc.get("arrays", []) if a.get("array") == "md2"]
    return p.returncode, arrays[0] if arrays else None, ""


def judge(entry, rc, arr):
    kinds = [f["kind"] for f in (arr or {}).get("findings", [])]
    first = kinds[0] if kinds else "(none)"
    if first in entry["verdict"] and rc == entry["rc"]:
        return "right", first
    if any(k in entry["verdict"] for k in kinds) or rc == entry["rc"]:
        return "partly", first
    return "wrong", first


def recommendation(arr):
    for f in (arr or {}).get("findings", []):
        r = f.get("recommendation") or {}
        if r.get("kind") not in (None, "none"):
            return r.get("text") or r.get("kind")
    return "none"


def main(argv):
    if len(argv) < 2:
        print("usage: run.py BINARY [OUTDIR]", file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    out = argv[2] if len(argv) > 2 else os.path.join(ROOT, "build", "heldout")
    with open(os.path.join(HERE, "heldout.json")) as fh:
        cases = json.load(fh)
    shutil.rmtree(out, ignore_errors=True)
    score = {"right": 0, "partly": 0, "wrong": 0}
    for name, entry in cases.items():
        tree = os.path.join(out, name)
        build(entry, tree)
        rc, arr, err = explain(binary, tree)
        verdict, first = judge(entry, rc, arr)
        score[verdict] += 1
        print("%-32s %-6s first %s, exit %d (expected %s, exit %d)" % (
            name, verdict, first, rc, " or ".join(entry["verdict"]), entry["rc"]))
        print("    recommends: %s%s" % (recommendation(arr), ("; " + err) if err else ""))
        print("    thread: %s" % entry["cause"])
    n = len(cases)
    print("held-out: %d right, %d partly, %d wrong of %d%s" % (
        score["right"], score["partly"], score["wrong"], n,
        "" if n == WANT else " (the issue asks for %d reports)" % WANT))
    ok = n >= WANT and score["right"] >= RIGHT and score["wrong"] <= WRONG_MAX
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
