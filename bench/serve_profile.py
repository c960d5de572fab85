"""Where one request's CPU goes: one `weft serve` worker (response cache off), shape by shape, CPU ms per request.

A fixed number of requests of each shape is sent one at a time; the worker's user + system CPU (from /proc, so
another helper's load changes it little) is divided by the requests. With `--py-spy`, py-spy (`pip install py-spy`)
samples the worker meanwhile and the run prints, per shape, the functions holding the most CPU (inclusive and
own), so the fixed cost per request (HTTP, Starlette, Strawberry, graphql-core, driver decoding) is split by layer:

    .venv/bin/python -m bench.serve_profile --uri bolt://127.0.0.1:7831 --port 8831 --requests 400 [--py-spy]

With `--before-code DIR` (a `git archive` of another commit under DIR/weft), a second worker serves that code on
port + 1, and each shape is measured on both in turn (`--rounds` times, the order swapped each round), so the two
columns share the machine's load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from bench import serve_queries as gq
from bench.serve import OUT, Http, Ids, fmt_load, load_average, open_driver, weft_server
from bench.serve_cpu import cpu_seconds, descendants

SMALL_NETWORK_TIES = 1000


def shapes(ids: Ids, small_networks: list[str]) -> dict[str, tuple[str, Callable[[int], dict[str, str]]]]:
    """Each shape's query and its variables for the k-th request (a network: a new spelling each, a cache miss)."""
    pairs = gq.shared_pairs()

    def of(values: list[str]) -> Callable[[int], dict[str, str]]:
        return lambda k: {"id": values[k % len(values)]} if values else {}

    def missed(k: int) -> dict[str, str]:
        return {"id": f"{small_networks[k % len(small_networks)]}-p{os.getpid()}x{k}"}

    out = {
        "profile": (gq.PROFILE, of(ids.researchers)),
        "paper": (gq.PAPER, of(ids.papers)),
        "roster": (gq.ROSTER, of(ids.institutions)),
        "mostCited": (gq.MOST_CITED, of([])),
        "pair A": (pairs["A"].weft, of(list(pairs["A"].ids))),
        "pair C": (pairs["C"].weft, of(list(pairs["C"].ids))),
        "pair P": (gq.PAPER_PAIR_WEFT, of(ids.papers)),
    }
    if small_networks:
        out["network small, miss"] = (gq.NETWORK, missed)
    return out


def worker_pid(supervisor: int) -> int:
    """The one worker under `weft serve --workers 1`'s supervisor (uvicorn forks even for one), else itself."""
    below = descendants(supervisor)[1:]
    python = [p for p in below if "python" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")]
    return python[-1] if python else supervisor


def _frame(spelled: str) -> str:
    """`function (file.py)` of a py-spy frame `function (path/file.py:line)`."""
    function, _, where = spelled.partition(" (")
    return f"{function} ({where.split(':')[0].split('/')[-1]})"


def hot_functions(raw: Path, top: int) -> list[str]:
    """The functions py-spy saw most (raw = collapsed stacks): inclusive and own share of the samples."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in raw.read_text(encoding="utf-8").splitlines():
        stack, _, count = line.rpartition(" ")
        n = int(count)
        total += n
        frames = [
            f.split(" (")[0] + " (" + f.split(" (")[-1].split(":")[0].split("/")[-1] + ")" for f in stack.split(";")
        ]
        for frame in set(frames):
            inclusive[frame] += n
        own[frames[-1]] += n
    lines = [f"{total} samples; inclusive % | own % | function"]
    for frame, n in inclusive.most_common(top):
        lines.append(f"{100 * n / total:5.1f} | {100 * own[frame] / total:5.1f} | {frame}")
    lines.append("own time, top:")
    for frame, n in own.most_common(top // 2):
        lines.append(f"{100 * n / total:5.1f} | {frame}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uri", default="bolt://127.0.0.1:7791")
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--requests", type=int, default=400, help="requests per shape (after 20 to warm)")
    parser.add_argument("--shapes", default=None, help="comma-separated subset (default: all)")
    parser.add_argument("--code", type=Path, default=None, help="serve CODE/weft (a git archive) instead")
    parser.add_argument("--before-code", type=Path, default=None, help="also serve CODE/weft as `before`")
    parser.add_argument("--rounds", type=int, default=2, help="with --before-code: rounds per shape")
    parser.add_argument("--py-spy", action="store_true", help="sample the worker with py-spy, print hot functions")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args(argv)
    load_before = load_average()
    print(f"load average before: {fmt_load(load_before)}", flush=True)
    env = {"WEFT_RESPONSE_CACHE_MB": "0", "WEFT_WORKERS": "1"}
    logs = OUT / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    if args.before_code is not None:
        return compare(args, env, logs)
    with (
        open_driver(args.uri) as driver,
        weft_server(args.uri, args.port, None, logs / "weft-profile.log", args.code, extra_env=env) as server,
    ):
        assert server.pid is not None
        ids = Ids.pick(driver, 4)
        small = [r for r in ids.networks[:4]]
        weft = Http(server.url)
        chosen = shapes(ids, small)
        if args.shapes:
            chosen = {k: v for k, v in chosen.items() if k in args.shapes.split(",")}
        time.sleep(3)  # the worker's background warm-up
        pid = worker_pid(server.pid)
        for name, (query, variables) in chosen.items():
            for k in range(20):
                weft.data(query, variables(k))
            spy = None
            raw = OUT / f"profile-{name.replace(' ', '-').replace(',', '')}.txt"
            if args.py_spy:
                binary = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
                spy = subprocess.Popen(
                    [binary, "record", "--pid", str(pid), "--rate", "500", "--format", "raw", "-o", str(raw)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                time.sleep(1.0)
            before = cpu_seconds(pid)
            began = time.perf_counter()
            for k in range(args.requests):
                weft.data(query, variables(k + 20))
            wall = time.perf_counter() - began
            spent = cpu_seconds(pid) - before
            print(
                f"{name:22} {1000 * spent / args.requests:6.2f} CPU ms/request (worker), "
                f"{1000 * wall / args.requests:6.2f} ms wall, load {fmt_load(load_average())}",
                flush=True,
            )
            if spy is not None:
                spy.send_signal(2)
                spy.wait(timeout=30)
                if raw.exists():
                    print("\n".join(hot_functions(raw, args.top)), flush=True)
        weft.close()
    print(f"load average after: {fmt_load(load_average())}")
    return 0


def compare(args: argparse.Namespace, env: dict[str, str], logs: Path) -> int:
    """Each shape on the `before` worker and on this one in turn: CPU ms per request of each, and the change."""
    with (
        open_driver(args.uri) as driver,
        weft_server(args.uri, args.port, None, logs / "weft-profile.log", args.code, extra_env=env) as after,
        weft_server(args.uri, args.port + 1, None, logs / "weft-before.log", args.before_code, extra_env=env) as before,
    ):
        assert after.pid is not None and before.pid is not None
        ids = Ids.pick(driver, 4)
        chosen = shapes(ids, list(ids.networks[:4]))
        if args.shapes:
            chosen = {k: v for k, v in chosen.items() if k in args.shapes.split(",")}
        time.sleep(3)
        servers = {
            "before": (Http(before.url), worker_pid(before.pid)),
            "after": (Http(after.url), worker_pid(after.pid)),
        }
        spent: dict[tuple[str, str], list[float]] = {}
        loads: list[float] = []
        for name, (query, variables) in chosen.items():
            for round_ in range(args.rounds):
                for label in ("before", "after") if round_ % 2 == 0 else ("after", "before"):
                    http, pid = servers[label]
                    for k in range(20):
                        http.data(query, variables(k))
                    start = cpu_seconds(pid)
                    for k in range(args.requests):
                        http.data(query, variables(k + 20 + round_ * args.requests))
                    ms = 1000 * (cpu_seconds(pid) - start) / args.requests
                    spent.setdefault((name, label), []).append(ms)
                    loads.append(load_average()[0])
                    print(f"{name:22} {label:6} {ms:6.2f} CPU ms/request, load {fmt_load(load_average())}", flush=True)
        for http, _ in servers.values():
            http.close()
    print("\n| shape | before CPU ms/req | after CPU ms/req | change |\n|---|---:|---:|---:|")
    for name in chosen:
        b, a = (statistics.median(spent[(name, label)]) for label in ("before", "after"))
        print(f"| {name} | {b:.2f} | {a:.2f} | {100 * (a - b) / b:+.0f}% |")
    print(f"\nload (1 min) during the run: {min(loads):.1f}–{max(loads):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
