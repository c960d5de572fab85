"""Issue 52's "rate at 1M": a 1% OpenAlex update through `weft sync` against a full rebuild, on one machine
in one session, with the 1M read benchmarks (bench/scale.py's shapes) idle and during the sync.

    NEO4J_URI=bolt://127.0.0.1:7811 WEFT_NEO4J_HOME=/work/neo4j-home \\
        .venv/bin/python -m bench.sync_rate --works 1000000 --dir /work/bench-data/rate/s1m --port 8811

Steps (`--steps`, default all, in this order; each step's figures go to DIR/sync_rate.json, so a later
step can run alone and the summary table is printed from everything recorded):

- `synth`: bench/synth.py writes DIR/before (the snapshot) and DIR/after (before plus one newer day:
  works/100 changed works with author, reference and title changes, works/1000 merges, half works half
  authors, and works/2000 withdrawn works in merged_ids; manifests to match). Skipped when present.
- `build`, `import`: the full rebuild, `weft build DIR/before --out DIR/built --memory-limit 3GB` then
  `weft import DIR/built --yes` (heap 3g, page cache `--pagecache`), each timed, with the peak RSS of its
  process tree. The rebuild is of the *before* state: the same size as before+update (1M works less 0.1%)
  and the state the sync starts from, so the one import is both the rebuild timed and the sync's start.
- `mark`: the graph's OpenAlex watermark set to the before snapshot's last partition date (what `weft sync`
  of DIR/before would have left), so the sync applies exactly the update.
- `sync`: `weft serve --workers 1` (response cache off) on `--port`; bench/scale.py's shapes, GraphQL side,
  on ids picked once: one warm-up round, `--rounds` idle rounds, then `weft sync openalex DIR/after` in
  the background with rounds running until it ends (a request counts as busy when the sync ran all
  through it), then `--rounds` idle rounds again. Peak RSS of the sync process, `weft serve` and the
  Neo4j JVM (sampled every 0.25 s, and the JVM's VmHWM).

Reruns: the sync changes the graph, so `--steps import,mark,sync` runs it again on the same build.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from bench.serve import percentile

ROOT = Path(__file__).resolve().parent.parent
WEFT = str(ROOT / ".venv" / "bin" / "weft")
STEPS = ("synth", "build", "import", "mark", "sync")
GIB = 1024**3


class Peaks(threading.Thread):
    """Samples the RSS of named process trees every `every` seconds; keeps each process's peak."""

    def __init__(self, every: float = 0.25) -> None:
        super().__init__(daemon=True)
        self.every = every
        self.roots: dict[str, int] = {}
        self.peaks: dict[str, float] = {}  # "name: process (pid)" -> peak RSS bytes
        self.stop = threading.Event()

    def watch(self, name: str, pid: int) -> None:
        self.roots[name] = pid

    def run(self) -> None:
        while not self.stop.is_set():
            for name, pid in list(self.roots.items()):
                try:
                    root = psutil.Process(pid)
                    procs = [root, *root.children(recursive=True)]
                except psutil.Error:
                    continue
                for proc in procs:
                    try:
                        label = f"{name}: {proc.name()} ({proc.pid})"
                        self.peaks[label] = max(self.peaks.get(label, 0), proc.memory_info().rss)
                    except psutil.Error:
                        pass
            time.sleep(self.every)

    def finish(self) -> dict[str, float]:
        self.stop.set()
        self.join()
        return {k: round(v / GIB, 2) for k, v in sorted(self.peaks.items())}


def vm_hwm(pid: int) -> float | None:
    """A process's peak RSS since it started (VmHWM), GiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) * 1024 / GIB, 2)
    except OSError:
        return None
    return None


@dataclass
class Run:
    """The run's settings and its recorded figures (DIR/sync_rate.json)."""

    args: argparse.Namespace
    results: dict[str, Any] = field(default_factory=dict[str, Any])

    @property
    def path(self) -> Path:
        return self.args.dir / "sync_rate.json"

    def load(self) -> None:
        if self.path.exists():
            self.results = json.loads(self.path.read_text())

    def save(self, step: str, figures: dict[str, Any]) -> None:
        self.results[step] = figures
        self.path.write_text(json.dumps(self.results, indent=2) + "\n")
        print(f"[{step}] {json.dumps(figures)}", flush=True)

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "NEO4J_URI": self.args.uri,
            "WEFT_NEO4J_HEAP": self.args.heap,
            "WEFT_NEO4J_PAGECACHE": self.args.pagecache,
        }


def timed(run: Run, name: str, cmd: list[str], extra_env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run a command to its end: seconds, the peak RSS of its process tree, load average before and after."""
    print(f"$ {' '.join(cmd)}", flush=True)
    load0 = os.getloadavg()
    peaks = Peaks()
    began = time.perf_counter()
    proc = subprocess.Popen(cmd, env={**run.env(), **(extra_env or {})}, cwd=ROOT)  # noqa: S603 - our command
    peaks.watch(name, proc.pid)
    peaks.start()
    code = proc.wait()
    seconds = time.perf_counter() - began
    figures = {
        "command": " ".join(cmd),
        "seconds": round(seconds, 1),
        "exit": code,
        "peak RSS GiB": peaks.finish(),
        "load average (start, end)": [load0, os.getloadavg()],
    }
    if code:
        run.save(name, figures)
        sys.exit(f"{name} failed (exit {code})")
    return figures


def step_synth(run: Run) -> None:
    a = run.args
    if (a.dir / "after" / "data" / "works" / "manifest").exists():
        print("synth: DIR/after exists, kept", flush=True)
        return
    n = a.works
    cmd = [sys.executable, "-m", "bench.synth", "--works", str(n), "--snapshot", str(a.dir / "before")]
    cmd += ["--update", str(a.dir / "after"), "--changed", str(n // 100), "--merges", str(n // 1000)]
    cmd += ["--deletes", str(n // 2000), "--per-part", "50000"]
    run.save("synth", timed(run, "synth", cmd))


def step_build(run: Run) -> None:
    a = run.args
    cmd = [WEFT, "build", str(a.dir / "before"), "--out", str(a.dir / "built"), "--memory-limit", a.build_memory]
    run.save("build", timed(run, "build", cmd))


def step_import(run: Run) -> None:
    a = run.args
    figures = timed(run, "import", [WEFT, "import", str(a.dir / "built"), "--yes"])
    jvm = neo4j_pid(run)
    figures["Neo4j JVM VmHWM GiB (after import)"] = vm_hwm(jvm) if jvm else None
    run.save("import", figures)


def neo4j_pid(run: Run) -> int | None:
    from weft.graph.local_server import Instance, read_pid
    from weft.graph.settings import load_settings

    os.environ.update(run.env())
    return read_pid(Instance(load_settings()))


def last_partition(root: Path) -> str:
    return max(p.name.split("=", 1)[1] for p in (root / "data" / "works").iterdir() if p.name.startswith("updated"))


def step_mark(run: Run) -> None:
    from bench.serve import open_driver

    mark = last_partition(run.args.dir / "before")
    driver = open_driver(run.args.uri)
    driver.execute_query(
        "MERGE (s:SyncState {source: 'openalex'}) SET s.watermark = $mark "
        "REMOVE s.merged_works, s.merged_authors, s.merged_institutions",
        mark=mark,
        database_="neo4j",
    )
    counts = {
        label: driver.execute_query(f"MATCH (n:{label}) RETURN count(n) AS n", database_="neo4j").records[0]["n"]
        for label in ("Paper", "Researcher", "Institution")
    }
    driver.close()
    run.save("mark", {"watermark": mark, "nodes before the sync": counts})


def serve(run: Run) -> subprocess.Popen[bytes]:
    env = {**run.env(), "WEFT_RESPONSE_CACHE_MB": "0"}
    cmd = [WEFT, "serve", "--workers", "1", "--port", str(run.args.port)]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)  # noqa: S603 - our command
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{run.args.port}/health", timeout=5):  # noqa: S310
                return proc
        except OSError:
            time.sleep(1)
    proc.terminate()
    sys.exit("weft serve did not answer /health within 120 s")


def step_sync(run: Run) -> None:
    from bench.scale import Ids, Readers, make_shapes

    a = run.args
    server = serve(run)
    peaks = Peaks()
    peaks.watch("weft serve", server.pid)
    jvm = neo4j_pid(run)
    if jvm:
        peaks.watch("neo4j", jvm)
    peaks.start()
    readers = Readers.open(a.uri, a.port)
    try:
        ids = Ids.pick(readers.driver, a.sample)
        shapes = make_shapes(readers, ids, a.sample, raw=False)
        times: dict[str, dict[str, list[float]]] = {s.name: {"idle": [], "busy": [], "after": []} for s in shapes}
        errors: dict[str, int] = {"idle": 0, "busy": 0, "after": 0}

        def rounds(phase: str, count: int | None, sync: subprocess.Popen[bytes] | None = None) -> int:
            done = 0
            while count is None or done < count:
                for shape in shapes:
                    for id_ in shape.ids:
                        running = sync is not None and sync.poll() is None
                        seconds, error = shape.weft(id_)
                        busy = running and sync is not None and sync.poll() is None
                        where = "busy" if busy else ("after" if sync is not None else phase)
                        if phase != "warm-up" and (sync is None or busy):
                            times[shape.name][where].append(seconds * 1000)
                            errors[where] += error is not None
                done += 1
                print(f"{phase} round {done}, load {os.getloadavg()[0]:.1f}", flush=True)
                if sync is not None and sync.poll() is not None:
                    break
            return done

        load0 = os.getloadavg()
        rounds("warm-up", 1)
        rounds("idle", a.rounds)
        cmd = [a.weft, "sync", "openalex", str(a.dir / "after")]
        print(f"$ {' '.join(cmd)}", flush=True)
        sync_load0 = os.getloadavg()
        began = time.perf_counter()
        sync = subprocess.Popen(cmd, env=run.env(), cwd=ROOT)  # noqa: S603 - our command
        peaks.watch("weft sync", sync.pid)
        busy_rounds = rounds("busy", None, sync)
        code = sync.wait()
        seconds = time.perf_counter() - began
        sync_load1 = os.getloadavg()
        rounds("after", a.rounds)
        jvm_hwm = vm_hwm(jvm) if jvm else None
    finally:
        readers.close()
        server.terminate()
        server.wait()
    rss = peaks.finish()
    p95 = {
        name: {phase: round(percentile(v, 0.95), 1) if v else None for phase, v in by_phase.items()}
        | {"n busy": len(by_phase["busy"]), "p50 idle": round(statistics.median(by_phase["idle"]), 1)}
        for name, by_phase in times.items()
    }
    changed = a.works // 100
    run.save(
        f"sync{a.tag}",
        {
            "command": " ".join(cmd),
            "exit": code,
            "seconds": round(seconds, 1),
            "changed works/s": round(changed / seconds, 1),
            "load average during sync (start, end)": [sync_load0, sync_load1],
            "busy rounds": busy_rounds,
            "peak RSS GiB": rss,
            "Neo4j JVM VmHWM GiB": jvm_hwm,
            "read p95 ms (idle, busy, after)": p95,
            "read errors": errors,
            "load average (start, end)": [load0, os.getloadavg()],
        },
    )


def summary(run: Run) -> None:
    """The table of everything recorded (README of the run: bench/RESULTS.md takes it as is)."""
    from bench.machine import describe, load_average
    from weft.graph.settings import load_settings

    r, a = run.results, run.args
    os.environ.update(run.env())
    print(f"\n## weft sync rate, {a.works:,} works, {platform.node()}\n")
    print("\n".join(describe(load_settings()).lines()))
    print(f"- load average now: {load_average()}\n")
    print("| figure | value | target |\n|---|---:|---|")
    rebuild = sum(r.get(step, {}).get("seconds") or 0 for step in ("build", "import"))
    for step in ("build", "import"):
        if step in r:
            print(f"| weft {step} (before) | {r[step]['seconds']:.1f} s | |")
    for step in sorted(k for k in r if k.startswith("sync")):
        _sync_rows(step, r[step], rebuild)
    peaks = {f"{step} / {proc}": gib for step in r for proc, gib in r[step].get("peak RSS GiB", {}).items()}
    if peaks:
        top = max(peaks.items(), key=lambda kv: kv[1])
        verdict = "met" if top[1] * GIB <= 4e9 else "not met"
        print(f"| peak RSS, largest process | {top[1]:.2f} GiB ({top[0]}) | <= 4 GB ({verdict}) |")
        print("\nPeak RSS per process (GiB, sampled every 0.25 s):")
        for proc, gib in sorted(peaks.items()):
            print(f"- {proc}: {gib}")


def _sync_rows(step: str, sync: dict[str, Any], rebuild: float) -> None:
    load = [round(x[0], 1) for x in sync["load average during sync (start, end)"]]
    ended = "" if not sync.get("exit") else f"; exit {sync['exit']}: stopped before it ended"
    print(f"| {step}: weft sync of the update | {sync['seconds']:.1f} s (1-min load {load}{ended}) | |")
    if rebuild:
        ratio = sync["seconds"] / rebuild
        verdict = "met" if ratio <= 0.05 else "not met"
        print(f"| {step}: sync / rebuild ({rebuild:.0f} s) | {ratio:.1%} | <= 5% ({verdict}) |")
    rate = sync["changed works/s"]
    print(f"| {step}: changed works/s | {rate:.0f} | stretch 1,000 ({'met' if rate >= 1000 else 'not met'}) |")
    for name, p in sync.get("read p95 ms (idle, busy, after)", {}).items():
        idle, busy = p.get("idle"), p.get("busy")
        verdict = "–" if not idle or not busy else ("met" if busy <= 2 * idle else "not met")
        print(
            f"| {step}: p95 {name}, idle / busy / after (n busy) | {idle} / {busy} / {p.get('after')} ms "
            f"({p['n busy']}) | busy <= 2x idle ({verdict}) |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--works", type=int, default=1_000_000)
    parser.add_argument("--dir", type=Path, required=True, help="where the snapshots, the build and results go")
    parser.add_argument("--uri", default=os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7811"))
    parser.add_argument("--port", type=int, default=8811, help="HTTP port of the `weft serve` started here")
    parser.add_argument("--heap", default="3g")
    parser.add_argument("--pagecache", default="6g")
    parser.add_argument("--build-memory", default="3GB", help="weft build --memory-limit")
    parser.add_argument("--sample", type=int, default=20, help="ids per read shape")
    parser.add_argument("--rounds", type=int, default=2, help="idle rounds before and after the sync")
    parser.add_argument("--steps", default=",".join(STEPS), help=f"comma-separated, of {', '.join(STEPS)}")
    parser.add_argument("--weft", default=WEFT, help="the weft executable the sync step runs (another checkout's)")
    parser.add_argument("--tag", default="", help="recorded as step `sync<TAG>` (e.g. a baseline beside the run)")
    parser.add_argument("--summary", action="store_true", help="only print the summary of what is recorded")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    run = Run(args)
    run.load()
    if not args.summary:
        steps = [s.strip() for s in args.steps.split(",") if s.strip()]
        unknown = set(steps) - set(STEPS)
        if unknown:
            parser.error(f"unknown steps {sorted(unknown)}")
        for step in STEPS:
            if step in steps:
                globals()[f"step_{step}"](run)
    summary(run)


if __name__ == "__main__":
    main()
