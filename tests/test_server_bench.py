"""CI's sample of the table server's benchmark (the full run is by hand:
``python benchmarks/bench_server.py``; its figures are in benchmarks/README.md)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_server.py"


def test_a_small_sample_of_the_server_benchmark_runs() -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--tables", "3", "--seconds", "1.5",
                           "--think", "0"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("table server, SQLite (WAL, synchronous=FULL)")
    words = lines[-1].split()
    assert words[:2] == ["3", "tables"]
    moves, acks = float(words[2]), int(words[4])
    p50, p99 = float(words[7]), float(words[10])
    assert moves > 0 and acks > 0
    assert math.isfinite(p50) and 0 < p50 <= p99
    assert words[12:15] == ["CPU", "us/move:", "server"] and words[16] == "players"
    server_cpu = float(words[15].rstrip(","))  # read from /proc: Linux only
    assert server_cpu > 0 or (sys.platform != "linux" and math.isnan(server_cpu))


def test_the_benchmark_is_bounded() -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--tables", "501"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "tables from 1 to 500" in done.stderr
