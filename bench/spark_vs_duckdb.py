"""The bulk transform on Spark vs DuckDB, same input (issue 15): seconds, peak memory, output equality.

Each build is `weft build --engine E` in its own process; its peak memory is the largest sum of the
resident sets of the whole process tree (for Spark: the Python driver, the JVM and its Python
workers), sampled every 0.2 s by bench.serve's RssSampler. Builds run in the order given
(`duckdb spark duckdb` brackets Spark with two DuckDB runs on a noisy machine). Afterwards the import
files of the first build of each engine are compared (loaders.bulk.output.import_file_differences, load times left out).

    .venv/bin/python -m bench.synth --works 100000 --snapshot /tmp/s100k/in
    .venv/bin/python -m bench.spark_vs_duckdb /tmp/s100k/in --out /tmp/s100k/engines --master 'local[2]'

`--standalone CORES` starts a Spark standalone master and one worker with CORES cores on this machine
(pyspark's own `spark-class`) and builds against `spark://…`: the cluster code path (every table written
as Parquet under the work folder, executors in their own JVM) rather than `local[…]`'s checkpoints.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from bench.serve import RssSampler
from weft.loaders.bulk.output import import_file_differences

ROOT = Path(__file__).resolve().parent.parent
WEFT = ROOT / ".venv" / "bin" / "weft"
OUT = ROOT / "bench" / "out"


def build(engine: str, source: Path, out: Path, master: str, memory: str) -> dict[str, object]:
    """One `weft build`: wall seconds, peak tree RSS, the load average before and after."""
    command = [str(WEFT), "build", str(source), "--out", str(out), "--engine", engine, "--memory-limit", memory]
    if engine == "spark":
        command += ["--master", master]
    load_before = os.getloadavg()[0]
    began = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)  # noqa: S603
    with RssSampler({engine: child.pid}, interval=0.2) as sampler:
        stdout, _ = child.communicate()
    seconds = time.monotonic() - began
    if child.returncode != 0:
        raise SystemExit(f"{engine} build failed ({child.returncode}):\n{stdout[-2000:]}")
    return {
        "engine": engine,
        "seconds": round(seconds, 1),
        "peak_rss_mib": round(sampler.peak[engine]),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "summary": stdout.strip().splitlines()[-1],
    }


def _answers(port: int) -> bool:
    with closing(socket.socket()) as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def standalone_cluster(cores: int, memory: str, folder: Path) -> Iterator[str]:
    """A Spark standalone master and one worker on this machine; the master's URL."""
    from pyspark.find_spark_home import _find_spark_home  # pyright: ignore[reportPrivateUsage]

    spark_class = str(Path(_find_spark_home()) / "bin" / "spark-class")
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
    folder.mkdir(parents=True, exist_ok=True)
    master_port = 7177
    url = f"spark://127.0.0.1:{master_port}"
    started: list[subprocess.Popen[bytes]] = []
    try:
        for name, command in (
            (
                "master",
                [
                    "org.apache.spark.deploy.master.Master",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(master_port),
                    "--webui-port",
                    "7178",
                ],
            ),
            (
                "worker",
                [
                    "org.apache.spark.deploy.worker.Worker",
                    url,
                    "--cores",
                    str(cores),
                    "--memory",
                    memory,
                    "--webui-port",
                    "7179",
                    "--work-dir",
                    str(folder / "worker"),
                ],
            ),
        ):
            with (folder / f"{name}.log").open("wb") as log:
                started.append(subprocess.Popen([spark_class, *command], stdout=log, stderr=log, env=env))  # noqa: S603
            deadline = time.monotonic() + 60
            port = master_port if name == "master" else 7179
            while not _answers(port):
                if time.monotonic() > deadline or started[-1].poll() is not None:
                    raise SystemExit(f"the Spark {name} did not start: see {folder / f'{name}.log'}")
                time.sleep(0.5)
        yield url
    finally:
        for process in reversed(started):
            process.terminate()
            process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="dump folder (e.g. bench.synth --snapshot output)")
    parser.add_argument("--out", type=Path, required=True, help="folder for one build folder per run")
    parser.add_argument("--engines", nargs="+", default=["duckdb", "spark"], choices=["duckdb", "spark"])
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--memory", default="2GB", help="DuckDB memory_limit / Spark driver memory")
    parser.add_argument("--standalone", type=int, metavar="CORES", help="run a standalone master + worker here")
    args = parser.parse_args()
    if args.standalone:
        with standalone_cluster(args.standalone, args.memory, args.out / "cluster") as url:
            args.master = url
            run_all(args)
    else:
        run_all(args)


def run_all(args: argparse.Namespace) -> None:
    runs: list[dict[str, object]] = []
    first: dict[str, Path] = {}
    for i, engine in enumerate(args.engines):
        out = args.out / f"{i}-{engine}"
        run = build(engine, args.source, out, args.master, args.memory)
        runs.append(run)
        first.setdefault(engine, out)
        print(json.dumps(run), flush=True)
    differences = None
    if len(first) == 2:
        differences = import_file_differences(first["duckdb"], first["spark"], ignore_suffix="loaded_at")
        print("import files equal:" if not differences else "import files differ:", differences or "")
    lines = ["| run | engine | seconds | peak RSS (MiB, process tree) | load before / after |"]
    lines.append("|---|---|---:|---:|---|")
    for i, run in enumerate(runs):
        lines.append(
            f"| {i} | {run['engine']} | {run['seconds']} | {run['peak_rss_mib']} | "
            f"{run['load_before']} / {run['load_after']} |"
        )
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "spark_vs_duckdb.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (OUT / "spark_vs_duckdb.json").write_text(
        json.dumps({"runs": runs, "differences": differences}, indent=2) + "\n", encoding="utf-8"
    )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
