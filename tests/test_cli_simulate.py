"""``rummylab simulate``: bot lists read as the arena reads them, and a record
written beside its file until the run ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rummylab.arena as arena
import rummylab.cli as cli
from rummylab.cli import main


def test_bots_split_as_the_arena_splits_them(capsys: pytest.CaptureFixture[str]) -> None:
    """A ``key=value`` piece after a comma continues the bot before it."""
    assert main(["simulate", "gin", "--bots", "strong:budget=2,gin=0,simple", "--games", "1",
                 "--json", "--no-progress"]) == 0
    names = [s["name"] for s in json.loads(capsys.readouterr().out)["seats"]]
    assert names == ["strong:budget=2:gin=0", "simple"]
    assert main(["simulate", "three-thirteen", "--bots", "random:seed=3,x=1,simple,simple",
                 "--games", "1", "--no-progress"]) == 2
    assert "bot 'random' has no option 'x'" in capsys.readouterr().err


def test_stopped_run_leaves_an_older_record_whole(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    rec = tmp_path / "run.jsonl"
    rec.write_text("an older record\n", encoding="utf-8")
    played = []

    def stop_at_the_second(*args, **kwargs):
        played.append(1)
        if len(played) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    real = arena.play_match  # simulate plays through the arena's runner
    monkeypatch.setattr(arena, "play_match", stop_at_the_second)
    argv = ["simulate", "gin", "--games", "3", "--no-progress", "--record", str(rec)]
    assert main(argv) != 0  # stopped as by Ctrl-C
    assert rec.read_text(encoding="utf-8") == "an older record\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jsonl"]
    monkeypatch.setattr(arena, "play_match", real)
    assert main(argv) == 0
    capsys.readouterr()
    assert rec.read_text(encoding="utf-8").count('"type":"header"') == 3
    assert main(["replay", str(rec)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jsonl"]


@pytest.mark.parametrize("kind", ["directory", "link"])
def test_a_part_file_in_the_way_is_refused_before_playing(kind: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """A leftover ``FILE.part`` that is no plain file (a directory, a link) is
    a one-line error before the first match: the record is never written
    through it, and nothing is removed or changed."""
    rec = tmp_path / "run.jsonl"
    part = tmp_path / "run.jsonl.part"
    target = tmp_path / "target.txt"
    target.write_text("keep me\n", encoding="utf-8")
    if kind == "directory":
        part.mkdir()
    else:
        part.symlink_to(target)
    argv = ["simulate", "gin", "--games", "1", "--no-progress", "--record", str(rec)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "run.jsonl.part is in the way" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not rec.exists() and target.read_text(encoding="utf-8") == "keep me\n"
    assert part.is_dir() if kind == "directory" else part.is_symlink()


@pytest.mark.parametrize("command", ["simulate", "arena"])
def test_too_many_games_is_one_line(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Seeds are drawn up front: a run past a million matches is refused at once."""
    assert main([command, "gin", "--bots", "simple,random", "--games", "99999999999",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "at most 1,000,000" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["simulate", "arena"])
def test_wrong_number_of_bots_is_told_as_such(command: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    for bots in ("simple", "simple,simple,simple,simple,simple"):
        assert main([command, "three-thirteen", "--bots", bots, "--games", "1",
                     "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert "three-thirteen takes 2 to 4 bots, got" in err and "option players" not in err


def test_an_option_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "gin", "--games", "1", "--no-progress", "--option", "target=5",
                 "--option", "target=500"]) == 2
    assert "option target is given twice: target=5 and target=500" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["gin", "manipulation"])
def test_target_has_a_ceiling(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A run must end: the target is at most 100,000."""
    assert main(["simulate", game, "--games", "1", "--no-progress", "--option",
                 "target=99999999999999999999999"]) == 2
    assert "integer 1..100000" in capsys.readouterr().err


def test_a_record_that_fails_part_way_through_reading(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rec = tmp_path / "run.jsonl"
    assert main(["simulate", "gin", "--games", "1", "--no-progress", "--record", str(rec)]) == 0

    def failing(stream: object) -> object:
        raise OSError(5, "Input/output error")
        yield  # a generator, as replay is

    monkeypatch.setattr(cli, "replay", failing)
    capsys.readouterr()
    assert main(["replay", str(rec)]) == 2
    assert capsys.readouterr().err.strip().endswith("cannot read " + str(rec) +
                                                    ": Input/output error")


def _children(pid: int) -> list[int]:
    from pathlib import Path as P

    tasks = P(f"/proc/{pid}/task")
    out: list[int] = []
    for t in tasks.iterdir() if tasks.exists() else ():
        kids = (t / "children").read_text().split() if (t / "children").exists() else []
        out += [int(k) for k in kids]
    return out


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = f"/proc/{pid}/stat"
    # a zombie is dead, only not yet reaped
    return not (Path(stat).exists() and Path(stat).read_text().split(")")[-1].split()[0] == "Z")


@pytest.mark.parametrize("command", [
    ["simulate", "gin", "--games", "100000"],
    # 40 deals: chunks of 5 deals, so the first is written within seconds and most are still out
    ["arena", "manipulation", "--bots", "simple,simple", "--games", "40", "--workers", "2"],
])
def test_sigterm_stops_a_run_without_a_part_file(tmp_path: Path, command: list[str]) -> None:
    """``kill`` stops a run as Ctrl-C does, at once: the record being written
    is removed, the arena's worker processes end, the exit code is 143."""
    import signal
    import subprocess
    import sys
    import time

    rec = tmp_path / "run.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "rummylab", *command, "--no-progress",
                             "--record", str(rec)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    part = tmp_path / "run.jsonl.part"
    deadline = time.monotonic() + 60
    workers = 2 if "--workers" in command else 0
    while time.monotonic() < deadline and not (
            part.exists() and part.stat().st_size > 0 and len(_children(proc.pid)) >= workers):
        time.sleep(0.05)
    assert part.exists()
    children = _children(proc.pid)
    assert len(children) >= workers
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143 and b"Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    time.sleep(0.5)
    assert not [c for c in children if _alive(c)]


@pytest.mark.parametrize("game, bots", [("gin", "simple,random"),
                                        ("three-thirteen", "simple,random,random")])
def test_workers_do_not_change_the_figures_or_the_record(
        game: str, bots: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """simulate --workers: the matches are folded in deal order, so one
    process and two give the same JSON and the same record, byte for byte."""
    out = {}
    for workers in (1, 2):
        rec = tmp_path / f"w{workers}.jsonl"
        assert main(["simulate", game, "--bots", bots, "--games", "5", "--seed", "4",
                     "--no-progress", "--json", "--workers", str(workers),
                     "--record", str(rec)]) == 0
        out[workers] = capsys.readouterr().out
    assert out[1] == out[2] and json.loads(out[1])["matches"] == 5
    assert (tmp_path / "w1.jsonl").read_bytes() == (tmp_path / "w2.jsonl").read_bytes()
    assert main(["simulate", game, "--workers", "0", "--games", "1", "--no-progress"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err
