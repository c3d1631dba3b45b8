"""Result tables fit the terminal: one too wide is printed on its side."""

from __future__ import annotations

import pytest

from rummylab.cli import console, main


@pytest.mark.parametrize("width", [80, 120])
def test_three_player_gin_table_is_readable(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    monkeypatch.setattr(console, "_width", width)
    assert main(["simulate", "gin3", "--bots", "simple,simple,random", "--games", "1",
                 "--no-progress", "--option", "target=20"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= width
    assert "…" not in out  # nothing cut short (long labels may wrap at 80)
    for text in ("simple", "random", "captain points", "win % (95% CI)", "100.0%"):
        assert text in out


def test_narrow_table_keeps_one_row_per_bot(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "_width", 120)
    assert main(["simulate", "gin", "--bots", "simple,random", "--games", "1",
                 "--no-progress", "--option", "target=20"]) == 0
    header = next(line for line in capsys.readouterr().out.splitlines() if "seat" in line)
    assert "bot" in header and "undercuts" in header
