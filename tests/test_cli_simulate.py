"""``rummylab simulate``: bot lists read as the arena reads them, and a record
written beside its file until the run ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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

    real = cli.play_match
    monkeypatch.setattr(cli, "play_match", stop_at_the_second)
    argv = ["simulate", "gin", "--games", "3", "--no-progress", "--record", str(rec)]
    assert main(argv) != 0  # stopped as by Ctrl-C
    assert rec.read_text(encoding="utf-8") == "an older record\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jsonl"]
    monkeypatch.setattr(cli, "play_match", real)
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
