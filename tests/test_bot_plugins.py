"""Bots from other packages, by name: the ``rummylab.bots`` entry points."""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from rummylab import bots
from rummylab.bots import make_bot
from rummylab.cli import main
from rummylab.errors import OptionError

PLUGIN = '''
from rummylab.bots import RandomBot, SimpleGinBot


class Mine(SimpleGinBot):  # keeps its parent's name, "simple"
    games = ("gin",)


class Broken:
    pass


class Raises(SimpleGinBot):
    games = ("gin",)

    def move(self, observation):
        raise ValueError("out of ideas")


class Illegal(SimpleGinBot):
    games = ("gin",)

    def move(self, observation):
        return 9999


GIN_ONLY = {"gin": lambda options, seed: RandomBot(options, seed)}
raise_on_import = False
'''


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rl_plugin_mod.py").write_text(PLUGIN, encoding="utf-8")
    (tmp_path / "rl_plugin_bad.py").write_text("raise RuntimeError('boom')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [EntryPoint(name, value, "rummylab.bots") for name, value in (
        ("mine", "rl_plugin_mod:Mine"), ("ginonly", "rl_plugin_mod:GIN_ONLY"),
        ("notabot", "rl_plugin_mod:Broken"), ("crashes", "rl_plugin_bad:Anything"),
        ("raises", "rl_plugin_mod:Raises"), ("illegal", "rl_plugin_mod:Illegal"))]
    monkeypatch.setattr(bots, "entry_points", lambda group: [p for p in points
                                                             if p.group == group])
    # what the plugins register goes into a copy, dropped after the test
    monkeypatch.setattr(bots, "BOT_LEVELS", dict(bots.BOT_LEVELS))


@pytest.mark.usefixtures("plugins")
def test_an_installed_bot_plays_by_name(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    bot = make_bot("mine", "gin", seed=1)
    # named as it was asked for, not after the class it inherits from
    assert type(bot).__name__ == "Mine" and bot.spec() == "mine"
    assert make_bot("ginonly", "gin").spec() == "ginonly"
    rec = tmp_path / "r.jsonl"
    assert main(["simulate", "gin", "--bots", "mine,simple", "--games", "2", "--seed", "3",
                 "--record", str(rec), "--option", "target=10"]) == 0
    assert "mine" in capsys.readouterr().out
    header = json.loads(rec.read_text(encoding="utf-8").splitlines()[0])
    assert header["seats"] == ["mine", "simple"]
    assert main(["replay", "-q", str(rec)]) == 0


@pytest.mark.usefixtures("plugins")
@pytest.mark.parametrize(("spec", "game", "message"), [
    ("mine:depth=3", "gin", "bot 'mine' has no option 'depth'"),
    ("absent", "gin", "bots: random, simple, strong, easy, medium, hard, mine, ginonly"),
    ("mine", "manipulation", "bot 'mine' does not play manipulation"),
    ("ginonly", "three-thirteen", "bot 'ginonly' does not play three-thirteen"),
    ("notabot", "gin", "is neither a Bot subclass nor a mapping"),
    ("crashes", "gin", "cannot be loaded: RuntimeError: boom"),
    ("absent", "gin", "unknown bot 'absent'"),
])
def test_a_bot_that_cannot_play_is_one_line(spec: str, game: str, message: str) -> None:
    with pytest.raises(OptionError, match=message) as e:
        make_bot(spec, game)
    assert "\n" not in str(e.value)


@pytest.mark.usefixtures("plugins")
@pytest.mark.parametrize("argv", [
    ["simulate", "gin", "--games", "2"],
    ["arena", "gin", "--games", "2", "--no-progress"],
    ["arena", "gin", "--games", "2", "--no-progress", "--workers", "2"],
])
@pytest.mark.parametrize(("bot", "message"), [
    ("raises", "failed: ValueError: out of ideas"),
    ("illegal", "'9999' is not legal now"),
])
def test_a_bot_that_fails_in_play_is_named_in_one_line(
        argv: list[str], bot: str, message: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "r.jsonl"
    assert main([*argv, "--bots", f"simple,{bot}", "--seed", "3",
                 "--record", str(rec)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"rummylab: error: bot {bot} in seat ") and message in err
    assert "(match seed " in err and "\n" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rl_plugin_bad.py", "rl_plugin_mod.py"]
