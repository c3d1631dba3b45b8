"""The command line's help (issue 45, done-when 3): ``-h`` and ``--help``
everywhere, ``--version``, readable metavars and no Python type names,
examples in every command's help, required options marked."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest
import typer

from rummylab import __version__
from rummylab.cli import app, main

GROUP = typer.main.get_command(app)
COMMANDS = sorted(GROUP.commands)  # type: ignore[attr-defined]

# what a Python type looks like when it leaks into help: typer's <str>, <list[str]>,
# <path>; a {game} placeholder; click's TEXT, INTEGER, PATH; bare type names
TYPE_LEAKS = [
    re.compile(r"<[A-Za-z_][\w\[\], |.]*>"),
    re.compile(r"\b(?:list|dict|tuple|set|Optional|Union)\["),
    re.compile(r"\b(?:str|int|float|bool|Path)\]"),
    re.compile(r"\{[a-z_]+\}"),
    re.compile(r"\b(?:TEXT|INTEGER|FLOAT|BOOLEAN|PATH|FILENAME)\b"),
    re.compile(r"\b(?:str|int|float|bool|NoneType|PosixPath)\b"),
]


def help_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main([*argv]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def test_there_are_commands() -> None:
    assert {"rules", "analyze", "simulate", "arena", "replay", "play"} <= set(COMMANDS)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert help_of(capsys, "--version") == f"rummylab {__version__}\n"
    assert __version__ == "0.1.0"


def test_version_of_the_console_script() -> None:
    out = subprocess.run([sys.executable, "-m", "rummylab", "--version"], capture_output=True,
                         text=True, check=True).stdout
    assert out == f"rummylab {__version__}\n"


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_top_level_help(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = help_of(capsys, flag)
    assert "-h, --help" in out and "--version" in out
    listing = out.split("Commands:")[1].split("Examples:")[0]
    for name in COMMANDS:
        line = next(x for x in listing.splitlines() if x.strip().startswith(name + " "))
        # a one-line description, whole: not cut off with an ellipsis
        assert len(line.split(name, 1)[1].strip()) > 10
        assert not line.rstrip().endswith(("...", "…")), line
    assert "Examples:" in out


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_each_command_help(command: str, flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = help_of(capsys, command, flag)
    assert out.startswith("Usage:") and "-h, --help" in out


@pytest.mark.parametrize("argv", [[], *([c] for c in COMMANDS)])
def test_no_help_shows_a_python_type(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    out = help_of(capsys, *argv, "-h")
    for pattern in TYPE_LEAKS:
        found = pattern.search(out)
        assert found is None, f"{argv}: {found.group()!r} in help"


def examples(out: str) -> list[list[str]]:
    """The example command lines of a help text, as argument lists (after
    ``rummylab``; a pipe and what follows it left out)."""
    out_lines = out.split("Examples:", 1)[1].splitlines()
    words = [shlex.split(line) for line in out_lines if line.strip().startswith("rummylab ")]
    return [w[1:w.index("|")] if "|" in w else w[1:] for w in words]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_has_examples_that_parse(command: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Each example runs this command, and its options and arguments parse."""
    found = examples(help_of(capsys, command, "-h"))
    assert found, f"{command} -h shows no example"
    sub = GROUP.commands[command]  # type: ignore[attr-defined]
    for argv in found:
        assert argv[0] == command, argv
        sub.make_context(command, argv[1:])  # a parse error raises here


def test_required_options_and_choices_are_shown(capsys: pytest.CaptureFixture[str]) -> None:
    arena = help_of(capsys, "arena", "-h")
    bots = re.search(r"--bots BOT\[,BOT\.\.\.\](.*?)\n  --", arena, re.S)
    assert bots is not None and "[required]" in bots.group(1)
    assert "--backend local|dask" in arena and "--seatings cyclic|all" in arena
    play = help_of(capsys, "play", "-h")
    bot = re.search(r"--bot LEVEL(.*?)\n  --", play, re.S)
    assert bot is not None
    for level in ("easy", "medium", "hard", "random", "simple", "strong"):
        assert level in bot.group(1)
    assert "Usage: " in play and " [GAME]" in play  # an optional argument in brackets
    assert " GAME\n" in help_of(capsys, "rules", "-h").splitlines()[0] + "\n"


def test_metavars_name_what_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    out = help_of(capsys, "simulate", "-h")
    for shown in ("--option KEY=VALUE", "--games N", "--seed N", "--record FILE",
                  "--workers N", "--bots BOT[,BOT...]"):
        assert shown in out
    assert "--plot FILE" in help_of(capsys, "arena", "-h")
    assert "[CARD]..." in help_of(capsys, "analyze", "-h")


def test_a_missing_required_option_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "gin"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummylab: error: ") and "--bots" in err
    assert len(err.strip().splitlines()) == 1
