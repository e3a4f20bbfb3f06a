#!/usr/bin/env python3
"""CPU time of mdprofile's watchers over a minute (issue 10).

  idle_cpu.py --bin ./mdprofile [--seconds 60] [--out build/bench]

Two figures, each from the child's own rusage (user + system seconds),
scaled to one minute:
  status --watch      on a fixture root where nothing changes (an idle box:
                      only the periodic 5 s refresh runs)
  apply --until-idle  during a simulated reshape whose sync_completed moves
                      every second, then ends; the revert is included
The goal for an idle watcher is under 0.05 CPU-seconds per minute. Like
bench.py it reports and never fails on timing; it fails only when a
command fails or the until-idle watcher does not revert.
"""
import argparse
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.dirname(os.path.dirname(HERE))
FIXTURE = os.path.join(SRCDIR, "tests", "fixtures", "ds-dsm6-reshape")


def child_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_for(cmd, seconds, during=None):
    """Run cmd for about `seconds` (calling during(t) once a second), stop it
    with SIGTERM, and return (its CPU seconds, exit code)."""
    before = child_cpu()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=SRCDIR)
    start = time.monotonic()
    while time.monotonic() - start < seconds and p.poll() is None:
        time.sleep(1)
        if during:
            during(time.monotonic() - start)
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=60)[1]
    if err:
        sys.stderr.write(err.decode(errors="replace"))
    return child_cpu() - before, p.returncode


def status_watch(binary, root, seconds):
    cpu, rc = run_for([binary, "--root", root, "status", "--watch"], seconds)
    if rc not in (-signal.SIGTERM, 128 + signal.SIGTERM):
        raise SystemExit("status --watch exited %s" % rc)
    return cpu


def until_idle(binary, root, seconds):
    md3 = os.path.join(root, "sys/block/md3/md")
    total = 3906989568

    def move(t):
        if t >= seconds - 5:  # the reshape ends
            with open(os.path.join(md3, "sync_action"), "w") as f:
                f.write("idle\n")
            return
        done = int(total * (0.25 + 0.001 * t))
        with open(os.path.join(md3, "sync_completed"), "w") as f:
            f.write("%d / %d\n" % (done, total))

    cpu, rc = run_for([binary, "--root", root, "--profiles", os.path.join(SRCDIR, "profiles"),
                       "apply", "--until-idle", "balanced"], seconds + 30, move)
    if rc != 0 or os.path.exists(os.path.join(root, "run/mdprofile/journal")):
        raise SystemExit("apply --until-idle did not end with a revert (exit %s)" % rc)
    return cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--out", default="build/bench")
    a = ap.parse_args()
    binary = os.path.abspath(a.bin)
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in (("status --watch, idle", status_watch),
                         ("apply --until-idle, simulated reshape", until_idle)):
            root = os.path.join(tmp, "root")
            shutil.rmtree(root, ignore_errors=True)
            shutil.copytree(FIXTURE, root, symlinks=True)
            cpu = fn(binary, root, a.seconds)
            lines.append("%-40s %.4f CPU-s over %ds = %.4f CPU-s per minute"
                         % (name, cpu, a.seconds, cpu * 60.0 / a.seconds))
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "idle_cpu.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
