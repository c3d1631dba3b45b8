"""The table server under load: N concurrent Gin tables, a person (this
script) against the simple bot at each, over WebSockets on 127.0.0.1.

It starts ``rummylab``'s server in a child process on a fresh SQLite file
(WAL, synchronous=FULL: every move is on disk before it is acknowledged),
opens N tables, and at each plays a random legal move as soon as it is the
person's turn (or after a thinking time), for a fixed time; a match that ends is
followed by a new table. It reports the moves committed per second
(the person's and the bot's), the person's acknowledgement latency, from
sending a move to its ack (the ack comes after the commit), and the CPU time a
move cost the server and the players (this process, on the same machine).

    python benchmarks/bench_server.py                  # 10, 50 and 200 tables, 20 s each
    python benchmarks/bench_server.py --tables 3 --seconds 2

The number of tables and the time are bounded (at most 500 tables, 120 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

MAX_TABLES, MAX_SECONDS = 500, 120.0


@dataclass
class Result:
    tables: int
    seconds: float
    moves: int  # committed: the person's and the bot's
    latencies: list[float] = field(default_factory=list)  # the person's, seconds
    cpu: float = float("nan")  # the server process's CPU seconds over the run
    client_cpu: float = float("nan")  # this process's (the players')

    def line(self) -> str:
        lat = sorted(self.latencies)
        p50 = statistics.median(lat) * 1000 if lat else float("nan")
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan")
        moves = self.moves or float("nan")
        server, players = self.cpu / moves * 1e6, self.client_cpu / moves * 1e6
        return (f"{self.tables:4d} tables  {self.moves / self.seconds:8.0f} moves/s  "
                f"{len(lat):6d} acks  p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  CPU us/move: "
                f"server {server:4.0f}, players {players:4.0f}")


def _cpu_seconds(pid: int) -> float:
    """A process's user and system CPU time so far (Linux; NaN elsewhere): the
    server's cost per move, steadier than the rates on a shared machine."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve_only(port: int, db: str) -> None:
    """The child process: the server with the bounds lifted for one client."""
    import uvicorn

    from rummylab.server.app import create_app
    from rummylab.server.hub import Settings

    settings = Settings(db=db, max_open_tables=MAX_TABLES + 10, moves_per_second=1e6,
                        move_burst=1_000_000)
    # as ``rummylab serve`` runs it (views are small: compressing them costs more than it saves)
    uvicorn.run(create_app(settings), host="127.0.0.1", port=port, log_level="warning",
                ws_max_size=settings.max_body, ws_per_message_deflate=False)


async def _table(http: object, base: str, port: int, ready: asyncio.Barrier,
                 clock: list[float], seconds: float, think: float, rng: random.Random,
                 out: Result) -> None:
    """One seat at a table after another (a match that ends is followed by a new
    table), until the time is up."""
    first = True
    while first or time.monotonic() < clock[0] + seconds:
        await _one_table(http, base, port, ready if first else None, clock, seconds, think,
                         rng, out)
        first = False


async def _one_table(http: object, base: str, port: int, ready: asyncio.Barrier | None,
                     clock: list[float], seconds: float, think: float, rng: random.Random,
                     out: Result) -> None:
    import websockets

    r = await http.post(f"{base}/api/tables", json={  # type: ignore[attr-defined]
        "game": "gin", "seats": ["human", "bot:simple"], "options": {"target": 500}})
    r.raise_for_status()
    t = r.json()
    token = t["seats"][0]["token"]
    url = f"ws://127.0.0.1:{port}/ws/tables/{t['table']}?token={token}&since=-1"
    sent_at: float | None = None
    view: dict | None = None
    last_version: int | None = None
    n = 0
    async with websockets.connect(url, max_size=2**22, compression=None) as ws:
        if ready is not None:  # the clock starts once every table is open and connected
            if await ready.wait() == 0:
                clock.append(time.monotonic())
            await ready.wait()
        end = clock[0] + seconds
        while time.monotonic() < end:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, end - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] in ("view", "event"):
                view = msg["view"]
                if last_version is not None:  # moves made since the clock started
                    out.moves += max(0, msg["version"] - last_version)
                last_version = max(last_version or 0, msg["version"])
            elif msg["type"] == "ack":
                assert sent_at is not None
                out.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            elif msg["type"] == "error":
                raise RuntimeError(f"the server refused a move: {msg['error']}")
            if view is None or view["terminal"]:
                if view is not None:
                    break
                continue
            if sent_at is None and view["to_act"] == 0 and view["version"] == last_version:
                n += 1
                if think:  # the person thinks (the bot's move meanwhile is not delayed)
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "id": n,
                                          "action": rng.choice(view["legal"])}))


async def _run(tables: int, seconds: float, port: int, think: float = 0.0,
               server: int | None = None) -> Result:
    import httpx

    base = f"http://127.0.0.1:{port}"
    out = Result(tables, seconds, 0)
    rng = random.Random(tables)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        ready = asyncio.Barrier(tables)
        clock: list[float] = []
        tasks = [asyncio.create_task(_table(http, base, port, ready, clock, seconds, think, rng,
                                                   out))
                 for _ in range(tables)]
        started = asyncio.create_task(_cpu_at_start(clock, server))
        await asyncio.gather(*tasks)
        out.seconds = time.monotonic() - clock[0]
        server_cpu, own_cpu = await started
        out.cpu = _cpu_seconds(server) - server_cpu if server is not None else float("nan")
        out.client_cpu = time.process_time() - own_cpu
    return out


async def _cpu_at_start(clock: list[float], server: int | None) -> tuple[float, float]:
    """The server's and this process's CPU time when the clock starts (every
    table open)."""
    while not clock:
        await asyncio.sleep(0.001)
    return (_cpu_seconds(server) if server is not None else float("nan"),
            time.process_time())


def _wait_for(port: int, proc: subprocess.Popen[bytes]) -> None:
    import httpx

    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit("the server did not start")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit("the server did not start within 60 s")


def bench(tables: int, seconds: float, think: float = 0.0) -> Result:
    """One run on a fresh database in a fresh server process."""
    if not 1 <= tables <= MAX_TABLES or not 0 < seconds <= MAX_SECONDS:
        raise SystemExit(f"tables from 1 to {MAX_TABLES}, seconds up to {MAX_SECONDS:g}")
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        env = dict(os.environ)
        src = str(Path(__file__).resolve().parent.parent / "src")
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        proc = subprocess.Popen([sys.executable, __file__, "--serve-only", str(port), db],
                                env=env)
        try:
            _wait_for(port, proc)
            return asyncio.run(_run(tables, seconds, port, think, proc.pid))
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, nargs="*", default=[10, 50, 200])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--think", type=float, nargs="*", default=[0.0, 1.0],
                   help="the person's mean thinking time per move, seconds (0: at once)")
    p.add_argument("--serve-only", nargs=2, metavar=("PORT", "DB"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve_only:
        serve_only(int(args.serve_only[0]), args.serve_only[1])
        return
    if not all(0 <= t <= 10 for t in args.think):
        raise SystemExit("--think from 0 to 10 seconds")
    print(f"table server, SQLite (WAL, synchronous=FULL), gin vs bot:simple over WebSockets, "
          f"{args.seconds:g} s per run, {os.cpu_count()} CPUs")
    for think in args.think:
        print(f"the person moves {'at once' if not think else f'after ~{think:g} s'}:")
        for n in args.tables:
            print(bench(n, args.seconds, think).line(), flush=True)


if __name__ == "__main__":
    main()
