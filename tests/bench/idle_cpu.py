#!/usr/bin/env python3
"""CPU time of mdprofile's watchers over a minute (issue 10).

  idle_cpu.py --bin ./mdprofile [--seconds 60] [--out build/bench]

Two figures, each from the child's own rusage (user + system seconds),
scaled to one minute:
  status --watch      on a fixture root where nothing changes (an idle box:
                      only the periodic 5 s refresh runs)
  apply --until-idle  during a simulated reshape whose sync_completed moves
                      every second, then ends; the revert is included
  auto, idle          mdprofile auto reshape-fast armed on an idle box for
                      --auto-seconds (default 600), extrapolated to an hour,
                      with the process's peak RSS (issue 20: at most 0.5
                      CPU-seconds per idle hour, 2 MiB on the static build)
  auto, reaction      the time from md3's sync_action turning to reshape to
                      the overlay being journaled active, 9 times, median
                      (a fixture's files never wake poll(): the 1 s interval
                      paces it there; on a real kernel md's own event does)
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


def journal(root):
    try:
        with open(os.path.join(root, "run/mdprofile/journal")) as f:
            return f.read()
    except OSError:
        return ""


def wait_until(cond, limit=30.0):
    start = time.monotonic()
    while not cond():
        if time.monotonic() - start > limit:
            raise SystemExit("timed out")
        time.sleep(0.005)
    return time.monotonic() - start


def set_md3(root, action):
    md3 = os.path.join(root, "sys/block/md3/md")
    with open(os.path.join(md3, "sync_action"), "w") as f:
        f.write(action + "\n")


def auto_run(binary, root, seconds, reactions):
    """auto armed for `seconds` on an idle box, then `reactions` timed engagements.
    Returns (idle CPU seconds, peak RSS KiB, [reaction seconds])."""
    set_md3(root, "idle")
    cmd = [binary, "--root", root, "--profiles", os.path.join(SRCDIR, "profiles"),
           "--services-backend", "none", "auto", "--interval", "1", "reshape-fast"]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=SRCDIR)
    state = os.path.join(root, "run/mdprofile/watcher")
    wait_until(lambda: os.path.exists(state))
    with open("/proc/%d/stat" % p.pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    cpu0 = (int(fields[11]) + int(fields[12])) / tick
    time.sleep(seconds)
    with open("/proc/%d/stat" % p.pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    idle = (int(fields[11]) + int(fields[12])) / tick - cpu0
    times = []
    for _ in range(reactions):
        set_md3(root, "reshape")
        times.append(wait_until(lambda: "by auto" in journal(root)
                                and "state active" in journal(root)))
        set_md3(root, "idle")
        wait_until(lambda: "by auto" not in journal(root))
    p.send_signal(signal.SIGTERM)
    _, status, ru = os.wait4(p.pid, 0)
    err = p.stderr.read()
    if err:
        sys.stderr.write(err.decode(errors="replace"))
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("auto exited %s" % os.waitstatus_to_exitcode(status))
    return idle, ru.ru_maxrss, times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--auto-bin", help="the binary for auto's figures (the static build)")
    ap.add_argument("--auto-seconds", type=int, default=600)
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
        root = os.path.join(tmp, "root")
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(FIXTURE, root, symlinks=True)
        abin = os.path.abspath(a.auto_bin or a.bin)
        idle, rss, times = auto_run(abin, root, a.auto_seconds, 9)
        times.sort()
        lines.append("%-40s %.4f CPU-s over %ds = %.3f CPU-s per idle hour (goal <= 0.5)"
                     % ("auto, armed, idle", idle, a.auto_seconds, idle * 3600.0 / a.auto_seconds))
        lines.append("%-40s %d KiB (goal <= 2048), %s" % ("auto, peak RSS", rss, abin))
        lines.append("%-40s median %.3f s, min %.3f s, max %.3f s over %d (goal < 1 s)"
                     % ("auto, reaction (fixture, --interval 1)", times[len(times) // 2],
                        times[0], times[-1], len(times)))
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "idle_cpu.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
