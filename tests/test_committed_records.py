"""Records written by earlier versions of rummylab replay byte for byte.

``tests/data/records/`` holds matches of all four games (strong, simple and
random bots; Oklahoma, Hollywood and big gin among the options), written
before the upper floors were reorganised. A change that alters what the
engine deals, allows or records fails here at the first line it changes.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummylab.errors import RecordError
from rummylab.records import replay

RECORDS = sorted((Path(__file__).parent / "data" / "records").glob("*.jsonl"))


def test_every_game_has_a_committed_record() -> None:
    games = {json.loads(p.read_text().splitlines()[0])["game"] for p in RECORDS}
    assert games == {"gin", "gin3", "three-thirteen", "manipulation"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_committed_record_replays_to_the_same_bytes(path: Path) -> None:
    matches = list(replay(io.StringIO(path.read_text())))
    assert matches and all(m.state.is_terminal() for m in matches)
    # the command also deals every match again from its seed
    done = subprocess.run([sys.executable, "-m", "rummylab", "replay", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "replayed to the same bytes" in done.stdout


@pytest.mark.parametrize("path", RECORDS[:1], ids=lambda p: p.stem)
def test_a_changed_line_is_caught(path: Path) -> None:
    lines = path.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"result"' in line)
    lines[i] = lines[i].replace('"points":', '"points":1', 1)
    with pytest.raises(RecordError):
        list(replay(io.StringIO("\n".join(lines) + "\n")))
