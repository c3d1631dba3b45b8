"""The arena: duplicate deals with seats rotated, figures per bot, backends."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path

import pytest

pytest.importorskip("openskill")

from rummylab import arena
from rummylab.arena import ArenaError, match_ranks, rotations, run_arena, seatings, split_bots
from rummylab.cli import main
from rummylab.records import replay
from rummylab.stats import wilson

FAST = ["--option", "target=10"]


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_duplicate_deals_reuse_deck_orders_with_seats_rotated(tmp_path: Path) -> None:
    rec = tmp_path / "arena.jsonl"
    with rec.open("w", encoding="utf-8") as f:
        run_arena("gin", ["simple", "random"], deals=4, seed=3, options={"target": 10}, record=f)
    by_seed: dict[int, list[tuple[list[str], dict[int, str]]]] = defaultdict(list)
    current: tuple[list[str], dict[int, str]] | None = None
    for obj in _lines(rec):
        if obj["type"] == "header":
            current = (obj["seats"], {})
            by_seed[obj["seed"]].append(current)
        elif obj["type"] == "deal":
            assert current is not None
            current[1][obj["hand"]] = obj["deck"]
    assert len(by_seed) == 4
    for plays in by_seed.values():
        assert [seats for seats, _ in plays] == [["simple", "random"], ["random", "simple"]]
        (_, decks_a), (_, decks_b) = plays
        common = decks_a.keys() & decks_b.keys()
        assert 1 in common
        assert all(decks_a[h] == decks_b[h] for h in common)


def test_rotations_and_ranks() -> None:
    assert rotations(3) == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert match_ranks("gin", [0], [100, 30]) == [1, 2]
    assert match_ranks("manipulation", [0, 1], [120, 120, 5]) == [1, 1, 3]
    assert match_ranks("three-thirteen", [2], [40, 60, 10]) == [2, 3, 1]
    assert split_bots("simple,random:seed=2") == ["simple", "random:seed=2"]


def test_all_seatings_put_every_bot_after_every_other() -> None:
    """--seatings all: every order of the bots, so each bot takes each seat
    equally often and sits right after each other bot equally often (the
    cyclic rotations keep the same neighbours)."""
    from collections import Counter

    for n in (2, 3, 4):
        order = seatings(n, "all")
        assert len(order) == math.factorial(n) and order[:n] == rotations(n)
        assert len({tuple(o) for o in order}) == len(order)
        seats = Counter((s, b) for o in order for s, b in enumerate(o))
        assert set(seats.values()) == {math.factorial(n - 1)}
        follows = Counter((o[s], o[(s + 1) % n]) for o in order for s in range(n))
        assert len(follows) == n * (n - 1) and len(set(follows.values())) == 1
    cyclic = Counter((o[s], o[(s + 1) % 3]) for o in rotations(3) for s in range(3))
    assert len(cyclic) == 3  # bot 1 always after bot 0, never before it


def test_all_seatings_run_replay_and_match_the_workers(tmp_path: Path) -> None:
    specs = ["simple", "random", "simple"]
    path = tmp_path / "all.jsonl"
    with path.open("w", encoding="utf-8") as f:
        one = run_arena("three-thirteen", specs, deals=2, seed=3, options={"players": 3},
                        ratings=False, record=f, seating="all")
    two = run_arena("three-thirteen", specs, deals=2, seed=3, options={"players": 3},
                    ratings=False, workers=2, chunk_size=1, seating="all")
    assert one.to_dict() == two.to_dict()
    d = one.to_dict()
    assert d["matches"] == 12 and d["rotations"] == 6 and d["seatings"] == "all"
    assert [b["matches"] for b in d["bots"]] == [12, 12, 12]
    with path.open(encoding="utf-8") as f:
        replayed = list(replay(f))
    assert [m.match for m in replayed] == list(range(1, 13))
    with pytest.raises(ArenaError, match="unknown --seatings 'some'"):
        run_arena("gin", ["simple", "random"], deals=1, seating="some")


def test_results_identical_with_one_and_two_workers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "gin", "--bots", "simple,random", "--games", "6", "--seed", "5",
            "--json", *FAST]
    one = _json(capsys, [*argv, "--workers", "1"])
    two = _json(capsys, [*argv, "--workers", "2"])
    assert one == two
    assert one["matches"] == 12 and one["deals"] == 6 and one["rotations"] == 2


def test_chunking_does_not_change_results() -> None:
    a = run_arena("gin", ["simple", "random"], deals=5, seed=2, options={"target": 10},
                  chunk_size=1)
    b = run_arena("gin", ["simple", "random"], deals=5, seed=2, options={"target": 10},
                  chunk_size=4)
    assert a.to_dict() == b.to_dict()


def test_json_keys_and_sane_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, ["arena", "gin", "--bots", "simple,random", "--games", "5",
                         "--json", *FAST])
    assert {"game", "deals", "rotations", "matches", "hands", "bots"} <= out.keys()
    names = [b["name"] for b in out["bots"]]
    assert names == ["simple", "random"]
    for bot in out["bots"]:
        for key in ("name", "match_wins", "matches", "win_rate", "ci_low", "ci_high",
                    "points_per_hand", "rating", "knocks", "gins", "undercuts"):
            assert key in bot
        assert bot["matches"] == 10
        assert 0.0 <= bot["ci_low"] <= bot["win_rate"] <= bot["ci_high"] <= 1.0
        assert {"mu", "sigma", "ordinal"} <= bot["rating"].keys()
    assert sum(b["match_wins"] for b in out["bots"]) == pytest.approx(10)
    simple, rand = out["bots"]
    assert simple["rating"]["mu"] > rand["rating"]["mu"]


def test_three_player_game_rotates_three_ways(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, ["arena", "three-thirteen", "--bots", "simple,random,simple",
                         "--games", "1", "--json"])
    assert out["matches"] == 3 and out["seatings"] == "cyclic"
    every = _json(capsys, ["arena", "three-thirteen", "--bots", "simple,random,simple",
                           "--games", "1", "--json", "--seatings", "all"])
    assert every["matches"] == 6 and every["rotations"] == 6
    assert main(["arena", "three-thirteen", "--bots", "simple,random,simple", "--games", "1",
                 "--no-progress", "--seatings", "all"]) == 0
    assert "rotations: 6, seatings: all" in capsys.readouterr().out
    assert [b["name"] for b in out["bots"]] == ["simple#1", "random", "simple#2"]
    assert all("went_out" in b for b in out["bots"])


def test_wilson_interval_is_sane() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.192, abs=0.002)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(500, 1000), wilson(5, 10)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


@pytest.mark.parametrize(("argv", "needle"), [
    (["--bots", "simple,bogus"], "unknown bot"),
    (["--bots", "simple"], "needs 2 bots"),
    (["--bots", "simple,random,simple"], "needs 2 bots"),
    (["--bots", "simple,random", "--games", "0"], "--games"),
    (["--bots", "simple,random", "--workers", "0"], "--workers"),
    (["--bots", "simple,random", "--backend", "dask"], "--scheduler"),
    (["--bots", "simple,random", "--backend", "spark"], "backend"),
    (["--bots", "simple,random", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1",
      "--workers", "2"], "--workers is for the local backend"),
    (["--bots", "simple,random", "--option", "nope=1"], "nope"),
    (["--bots", ":,random"], "no bot named"),
    (["--bots", "strong:budget=1:budget=2,simple"], "given twice"),
    (["--bots", "random,seed=3,simple"], "write random:seed=3"),
    (["--bots", "seed=3,simple"], "begins with an option"),
    (["--bots", "simple,random", "--seatings", "every"], "unknown --seatings 'every'"),
    (["--bots", "simple,random", "--seatings", "all", "--games", "600000"], "1,200,000"),
])
def test_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                      needle: str) -> None:
    assert main(["arena", "gin", *argv, "--no-progress"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith("rummylab: error:") and "\n" not in err and needle in err


def test_paths_that_cannot_be_written_fail_before_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    rec = tmp_path / "r.jsonl"
    for flag, path, needle in (("--plot", tmp_path / "no" / "x.png", "no directory"),
                               ("--plot", tmp_path, "is a directory"),
                               ("--record", tmp_path / "no" / "r.jsonl", "no directory")):
        argv = ["arena", "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
                "--record", str(rec), flag, str(path), *FAST]
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and needle in captured.err
        assert list(tmp_path.iterdir()) == []  # no record written, not even an empty one


@pytest.mark.parametrize("address", ["nonsense", "tls://127.0.0.1:1", "wss://127.0.0.1:1",
                                     "inproc://x", "ucx://127.0.0.1:1"])
def test_bad_scheduler_address_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           address: str) -> None:
    """Addresses of the wrong form, and the protocols the arena cannot use
    (no security settings, in-process only, no UCX), fail before any contact."""
    pytest.importorskip("distributed")
    rec = tmp_path / "r.jsonl"
    argv = ["arena", "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
            "--backend", "dask", "--scheduler", address, "--record", str(rec)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rummylab: error: bad Dask scheduler address") and "\n" not in err
    assert not rec.exists()


def test_unreachable_scheduler_leaves_the_record_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    rec = tmp_path / "r.jsonl"
    rec.write_text("an older record\n", encoding="utf-8")
    # port 1 on 127.0.0.1: nothing listens there (Dask retries until the timeout)
    monkeypatch.setattr(arena, "DASK_CONNECT_TIMEOUT", "1s")
    argv = ["arena", "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
            "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1", "--record", str(rec)]
    assert main(argv) == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err
    assert rec.read_text(encoding="utf-8") == "an older record\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl"]


def test_a_server_that_never_answers_the_handshake_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Something that takes the connection and says nothing (an HTTP server
    waiting for its request line) used to keep the run waiting for ever."""
    import contextlib
    import socket
    import threading

    pytest.importorskip("distributed")
    monkeypatch.setattr(arena, "DASK_CONNECT_TIMEOUT", "1s")
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                held.append(server.accept()[0])  # keep it open, never answer

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    rec = tmp_path / "r.jsonl"
    rec.write_text("an older record\n", encoding="utf-8")
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        assert main(["arena", "gin", "--bots", "simple,random", "--games", "1",
                     "--no-progress", "--backend", "dask", "--scheduler", address,
                     "--record", str(rec)]) == 2
    finally:
        stop.set()
        thread.join()
        for s in [*held, server]:
            s.close()
    err = capsys.readouterr().err.strip()
    assert err == (f"rummylab: error: cannot reach the Dask scheduler at {address}: the "
                   f"answer is not a Dask scheduler's (no handshake within 1s)")
    assert held  # the connection was taken
    assert rec.read_text(encoding="utf-8") == "an older record\n"


def test_record_to_a_device_or_a_link_is_written_in_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "target.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    for rec in (Path("/dev/null"), link):
        assert main(["arena", "gin", "--bots", "simple,random", "--games", "1",
                     "--no-progress", "--record", str(rec), *FAST]) == 0
    capsys.readouterr()
    assert not Path("/dev/null.part").exists()
    assert link.is_symlink() and target.read_text(encoding="utf-8").count('"type":"header"') == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "target.jsonl"]


def test_records_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "arena.jsonl"
    out = _json(capsys, ["arena", "gin", "--bots", "simple,random", "--games", "3",
                         "--workers", "2", "--record", str(rec), "--json", *FAST])
    matches = list(replay(rec.open(encoding="utf-8")))
    assert [m.match for m in matches] == list(range(1, 7))
    assert main(["replay", "-q", str(rec)]) == 0
    assert "ok: 6 matches" in capsys.readouterr().out
    assert out["matches"] == 6


def test_plot_writes_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "rates.png"
    assert main(["arena", "gin", "--bots", "simple,random", "--games", "2", "--no-progress",
                 "--plot", str(png), *FAST]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "simple" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rates.png"]


def test_plot_format_follows_the_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    svg, pdf, jpg = tmp_path / "rates.svg", tmp_path / "rates.PDF", tmp_path / "rates.jpg"
    for path in (svg, pdf):
        assert main(["arena", "gin", "--bots", "simple,random", "--games", "1",
                     "--no-progress", "--plot", str(path), *FAST]) == 0
    assert b"<svg" in svg.read_bytes()[:400] and pdf.read_bytes()[:5] == b"%PDF-"
    # any format matplotlib writes: the extension names it
    assert main(["arena", "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
                 "--plot", str(jpg), *FAST]) == 0
    assert jpg.read_bytes()[:3] == b"\xff\xd8\xff"  # a JPEG


@pytest.mark.parametrize("name", ["rates.txt", "rates.png.part", "rates.pgf"])
def test_plot_refuses_a_format_matplotlib_cannot_write(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """--plot out.txt is refused in one line before any match is played, not
    written as a PNG under that name (PGF is listed but needs LaTeX, which
    is not found here)."""
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("PATH", str(tmp_path))  # no LaTeX
    played = []
    monkeypatch.setattr(arena, "play_chunk", lambda chunk: played.append(chunk))
    path = tmp_path / name
    assert main(["arena", "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
                 "--plot", str(path), *FAST]) == 2
    err = capsys.readouterr().err
    suffix = name.rsplit(".", 1)[1]
    assert err.startswith(f"rummylab: error: --plot {path}: matplotlib cannot write .{suffix}"
                          if suffix == "pgf" else
                          f"rummylab: error: --plot {path}: matplotlib cannot write a .{suffix} "
                          "file (it writes ")
    assert len(err.strip().splitlines()) == 1 and not played
    assert list(tmp_path.iterdir()) == []


def test_plot_and_record_at_one_path_are_refused(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Else the plot, written last, would replace the record."""
    pytest.importorskip("matplotlib")
    same = tmp_path / "x.png"
    same.write_text("an older record\n", encoding="utf-8")
    assert main(["arena", "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
                 "--record", str(same), "--plot", str(tmp_path / "." / "x.png"), *FAST]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "name the same file" in captured.err
    assert same.read_text(encoding="utf-8") == "an older record\n"
    # nor may one be the other's part file, each being written there first (a plot
    # named FILE.part is refused for its extension)
    for rec, png in ((tmp_path / "y.part", tmp_path / "y"), (tmp_path / "z", tmp_path / "z.part")):
        assert main(["arena", "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
                     "--record", str(rec), "--plot", str(png), *FAST]) == 2
        assert ("name the same file" if png.suffix != ".part" else "cannot write a .part"
                ) in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.png"]


def test_a_plot_that_fails_keeps_the_older_files(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The plot is drawn before the record is kept: if drawing fails, the
    older record and plot stay as they were and no part file is left."""
    pytest.importorskip("matplotlib")
    rec, png = tmp_path / "r.jsonl", tmp_path / "p.png"
    rec.write_text("an older record\n", encoding="utf-8")
    png.write_bytes(b"an older plot")

    def broken(result: object, path: str, fmt: str = "png") -> None:
        Path(path).write_bytes(b"half a plot")
        raise arena.ArenaError(f"cannot write {path}: disk full")

    monkeypatch.setattr(arena, "plot", broken)
    assert main(["arena", "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
                 "--record", str(rec), "--plot", str(png), *FAST]) == 2
    assert "disk full" in capsys.readouterr().err
    assert rec.read_text(encoding="utf-8") == "an older record\n"
    assert png.read_bytes() == b"an older plot"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.png", "r.jsonl"]


def test_dask_backend_matches_local(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    argv = ["arena", "gin", "--bots", "simple,random", "--games", "4", "--seed", "9",
            "--json", *FAST]
    local = _json(capsys, argv)
    with distributed.LocalCluster(host="127.0.0.1", n_workers=1, threads_per_worker=1,
                                  processes=False, protocol="tcp://",
                                  dashboard_address=None) as cluster:
        remote = _json(capsys, [*argv, "--backend", "dask",
                                "--scheduler", cluster.scheduler_address])
    assert remote == local


def test_dask_scheduler_without_workers_is_one_line_and_keeps_the_record(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """A scheduler with no worker would leave the run waiting for ever: after
    ``DASK_WORKER_TIMEOUT`` it is refused in one line, the record untouched."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(arena, "DASK_WORKER_TIMEOUT", "1s")
    rec = tmp_path / "r.jsonl"
    rec.write_text("an older record\n")
    with distributed.LocalCluster(host="127.0.0.1", n_workers=0, processes=False,
                                  protocol="tcp://", dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert main(["arena", "gin", "--bots", "simple,random", "--games", "1",
                     "--no-progress", "--backend", "dask", "--scheduler", address,
                     "--record", str(rec)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"rummylab: error: the Dask scheduler at {address} has no worker (waited "
                   f"1s): start one with 'dask worker {address}'")
    assert rec.read_text() == "an older record\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl"]


def test_dask_run_whose_workers_leave_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last worker leaving mid-run: refused after ``DASK_WORKER_TIMEOUT``
    with no worker left, not waited on for ever."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(arena, "DASK_WORKER_TIMEOUT", "1s")
    monkeypatch.setattr(arena, "DASK_POLL_SECONDS", 0.2)
    with distributed.LocalCluster(host="127.0.0.1", n_workers=1, threads_per_worker=1,
                                  processes=False, protocol="tcp://",
                                  dashboard_address=None) as cluster:
        def leave(done: int) -> None:
            cluster.scale(0)  # after the first chunk, the only worker goes

        with pytest.raises(ArenaError, match="has no worker left \\(waited 1s\\)"):
            run_arena("gin", ["random", "simple"], deals=400, seed=1, ratings=False,
                      backend="dask", scheduler=cluster.scheduler_address, chunk_size=1,
                      progress=leave)


def test_three_player_gin_counts_every_hand_for_box_and_captain(tmp_path: Path) -> None:
    # §2.2: each hand is the box against the captain; the role figures must
    # add up to the hands, the hands won and the points of the whole run
    path = tmp_path / "g3.jsonl"
    with path.open("w", encoding="utf-8") as f:
        result = run_arena("gin3", ["simple", "random", "simple"], deals=2, seed=4,
                           options={"target": 30}, ratings=False, record=f)
    c = result.stats.counts
    hands, drawn = result.stats.hands, result.stats.drawn
    assert sum(c["box_hands"]) == sum(c["captain_hands"]) == hands > 0
    assert sum(c["box_won"]) + sum(c["captain_won"]) == hands - drawn
    assert sum(c["box_won"]) + sum(c["captain_won"]) == sum(c["hands_won"])
    # points are zero-sum between box and captain, hand by hand
    assert sum(c["box_points"]) + sum(c["captain_points"]) == 0
    # the box deals: count from the record which seat dealt and who won
    box_wins = 0
    for e in _lines(path):
        if e.get("type") == "deal":
            dealer = e["dealer"]
        elif e.get("type") == "result" and e.get("winner") is not None:
            box_wins += e["winner"] == dealer
    assert sum(c["box_won"]) == box_wins
    for row in result.rows():
        assert 0.0 <= row["box_win_rate"] <= 1.0 and 0.0 <= row["captain_win_rate"] <= 1.0


def test_a_bad_scheduler_leaves_the_record_a_link_names_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The address is checked before any file is opened, and a record that
    is a link is staged beside the file it names, which stays whole."""
    pytest.importorskip("distributed")
    target = tmp_path / "target.jsonl"
    target.write_text("an older record\n", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target.name)
    for address in ("tls://127.0.0.1:1", "tcp://127.0.0.1:99999"):
        assert main(["arena", "gin", "--bots", "simple,random", "--games", "1",
                     "--no-progress", "--backend", "dask", "--scheduler", address,
                     "--record", str(link)]) == 2
        assert "bad Dask scheduler address" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "an older record\n"
    # a run that fails once the record is open leaves it whole too
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(arena, "play_chunk", lambda chunk: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            main(["arena", "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
                  "--record", str(link), *FAST])
    assert target.read_text(encoding="utf-8") == "an older record\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "target.jsonl"]


def test_a_service_that_is_no_scheduler_is_one_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Something answers at the address (a web page, say), not Dask."""
    pytest.importorskip("distributed")
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)

    def serve() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            with conn:
                try:
                    conn.recv(1024)
                    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)
                except OSError:
                    pass

    threading.Thread(target=serve, daemon=True).start()
    monkeypatch.setattr(arena, "DASK_CONNECT_TIMEOUT", "2s")
    try:
        assert main(["arena", "gin", "--bots", "simple,random", "--games", "1",
                     "--no-progress", "--backend", "dask", "--scheduler",
                     f"tcp://127.0.0.1:{srv.getsockname()[1]}"]) == 2
    finally:
        srv.close()
    err = capsys.readouterr().err.strip()
    assert err.startswith("rummylab: error: cannot reach the Dask scheduler") and "\n" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("command", ["arena", "simulate"])
def test_a_record_that_cannot_be_written_is_one_line(
        capsys: pytest.CaptureFixture[str], command: str) -> None:
    assert main([command, "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
                 "--record", "/dev/full", *FAST]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "rummylab: error: cannot write /dev/full: No space left on device"


def test_long_file_names(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A name too long is refused in one line; a name just short enough is
    written, though FILE.part would be too long."""
    monkeypatch.chdir(tmp_path)
    for flag in ("--record", "--plot"):
        assert main(["arena", "gin", "--bots", "simple,random", "--games", "1",
                     "--no-progress", flag, "a" * 300, *FAST]) == 2
        assert "File name too long" in capsys.readouterr().err
    name = "b" * 253
    assert main(["arena", "gin", "--bots", "simple,random", "--games", "1", "--no-progress",
                 "--record", name, *FAST]) == 0
    capsys.readouterr()
    assert [p.name for p in tmp_path.iterdir()] == [name]
    assert len(list(replay((tmp_path / name).open(encoding="utf-8")))) == 2


def test_run_arena_refuses_what_would_play_nothing() -> None:
    with pytest.raises(arena.ArenaError, match="no bot"):
        run_arena("gin", [], 2, ratings=False)
    with pytest.raises(arena.ArenaError, match="chunk_size"):
        run_arena("gin", ["simple", "random"], 2, ratings=False, chunk_size=-1)


def test_one_worker_reports_every_deal_and_a_pool_is_no_larger_than_its_work(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    run_arena("gin", ["simple", "random"], 4, options={"target": 10}, ratings=False,
              progress=seen.append)
    assert seen == [2, 4, 6, 8]
    import multiprocessing
    from multiprocessing.pool import ThreadPool

    sizes: list[int] = []

    def pool(processes: int, initializer: object = None) -> ThreadPool:
        sizes.append(processes)
        return ThreadPool(processes)

    monkeypatch.setattr(multiprocessing, "Pool", pool)
    run_arena("gin", ["simple", "random"], 1, options={"target": 10}, ratings=False,
              workers=64)
    assert sizes == [1]


def test_plot_leaves_pyplot_alone(tmp_path: Path) -> None:
    mpl = pytest.importorskip("matplotlib")
    plt = pytest.importorskip("matplotlib.pyplot")
    backend = mpl.get_backend()
    mpl.use("svg")  # a caller's own choice, which Agg must not replace
    try:
        before = plt.get_fignums()
        result = run_arena("gin", ["simple", "random"], 1, options={"target": 10},
                           ratings=False)
        arena.plot(result, str(tmp_path / "p.png"))
        assert mpl.get_backend() == "svg" and plt.get_fignums() == before
    finally:
        mpl.use(backend)
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("line", ['{"seed": 1e999, "points": 1}', '{"seed": 1, "points": 1e999}',
                                  '{"seed": 1, "points": NaN}'])
def test_saved_runs_refuse_numbers_that_are_not_finite(tmp_path: Path, line: str) -> None:
    from rummylab.stats import saved_run

    path = tmp_path / "run.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot read hands"):
        saved_run(str(path), 1, "hands", ["points"])


def test_bot_specs_mixing_commas_and_colons_stay_whole() -> None:
    assert split_bots("strong:budget=2,knock=0.5:gin=0,simple") == [
        "strong:budget=2,knock=0.5:gin=0", "simple"]


def test_json_spec_is_the_records_name_for_the_seat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "r.jsonl"
    out = _json(capsys, ["arena", "gin", "--bots", "hard:budget=2,easy", "--games", "1",
                         "--no-progress", "--json", "--record", str(rec), *FAST])
    assert [b["name"] for b in out["bots"]] == ["hard:budget=2", "easy"]
    assert [b["spec"] for b in out["bots"]] == ["strong:budget=2", "random"]
    header = _lines(rec)[0]
    assert sorted(header["seats"]) == ["random", "strong:budget=2"]
