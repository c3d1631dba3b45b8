"""The ``rummylab`` command: rules, analyze, simulate, arena, play, replay, verify, serve.

A thin adapter: it parses, calls the engine and prints. Bad input is one line
on stderr and exit code 2; a record that does not replay is exit code 1.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import IO, Annotated, Any, NoReturn, cast

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from typer.core import TyperArgument, TyperCommand

from rummylab import __version__
from rummylab.arena import SEATED, check_backend, check_scheduler, run_arena, split_bots
from rummylab.bots import make_bot
from rummylab.errors import RecordError, RummyError
from rummylab.match import MatchStats
from rummylab.options import parse_option_args
from rummylab.records import replay, staged, staged_path, unwritable
from rummylab.registry import DEFAULT_GAME, game_class, new_state

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Gin Rummy, three-player Gin, Three Thirteen and Manipulation: "
    "play, rules, analyze, simulate, arena, replay, verify, serve.",
    epilog="\b\nExamples:\n  rummylab play gin --bot hard\n  rummylab rules three-thirteen\n"
    "  rummylab simulate gin --bots simple,random --games 200\n"
    "  rummylab COMMAND -h      (help on one command)",
)


class _Argument(TyperArgument):
    """An argument shown by its metavar, as most command lines show them:
    ``GAME`` in the usage line and the argument list, not ``{game}`` and
    ``game <str>``; an optional one in brackets."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _rich_display_name(self) -> str:
        return self.display_name_raw + ("..." if self.nargs != 1 else "")

    def _usage_display_name(self) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name + ("..." if self.nargs != 1 else "")


class _Command(TyperCommand):
    """A command whose arguments show as :class:`_Argument` does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = _Argument  # the same object, shown by its metavar


def _show_version(value: bool) -> None:
    if value:
        console.print(f"rummylab {__version__}", highlight=False, markup=False)
        raise typer.Exit(0)


@app.callback()
def _main_options(
    version: Annotated[bool, typer.Option(
        "--version", help="show the version and exit", is_eager=True,
        callback=_show_version)] = False,
) -> None:
    pass



class _Unpadded(io.TextIOBase):
    """Standard output (whatever ``sys.stdout`` is when written to) without
    the spaces Rich pads each line with to the console's width: a file or a
    pipe gets the text, not the width."""

    _padding = re.compile(r"[ \t]+(?=\n)")

    def write(self, text: str) -> int:
        sys.stdout.write(self._padding.sub("", text))
        return len(text)

    def flush(self) -> None:
        sys.stdout.flush()

    def isatty(self) -> bool:
        return sys.stdout.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(sys.stdout, "encoding", None) or "utf-8"


console = Console()
if not console.is_terminal:
    console.width = max(console.width, 120)  # tables stay readable in pipes and logs
    console.file = cast(IO[str], _Unpadded())
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    raise typer.Exit(_one_line(message, code))


def shown(path: Path) -> str:
    """A path as it can be printed: bytes that are no text in the file
    system's encoding are shown as replacement characters."""
    return os.fsencode(path).decode("utf-8", "replace")


def writable(path: Path) -> None:
    """Fail now, not after a long run, if a file cannot be written at ``path``."""
    reason = unwritable(path)
    if reason is not None:
        fail(reason)


@contextmanager
def record_stream(record: Path | None) -> Iterator[IO[str] | None]:
    """The stream a run writes its record to: ``FILE.part`` (see
    :func:`staged`), renamed onto ``record`` when the run ends and removed if
    it fails or is stopped, so an older ``record`` stays whole."""
    if record is None:
        yield None
        return
    writable(record)
    try:
        with staged_path(record) as part:
            assert part is not None
            with part.open("w", encoding="utf-8") as stream:  # closed before the rename
                yield stream
    except OSError as e:  # a full disk, a file that went away, a failed rename
        fail(f"cannot write {shown(record)}: {e.strerror}")


# --- rules --------------------------------------------------------------


@app.command(cls=_Command, short_help="Show the rules of a game and its options.",
             epilog="\b\nExamples:\n  rummylab rules gin\n  rummylab rules all | less")
def rules(
    game: Annotated[str, typer.Argument(
        metavar="GAME", help="gin, gin3, three-thirteen or manipulation; all: the full rules")],
) -> None:
    """Show the rules of a game and every option with its default; `all` shows
    the full rules, every § rule and D-n decision the engine and its messages cite."""
    full = resources.files("rummylab.rules").joinpath("RULES.md")
    if game.strip().lower() == "all":
        console.print(Markdown(full.read_text("utf-8")))
        return
    cls = game_class(game)
    text = resources.files("rummylab.rules").joinpath(f"{cls.game_name}.md").read_text("utf-8")
    console.print(Markdown(text))
    table = Table(title=f"Options of {cls.game_name} (set with --option key=value)")
    for col in ("option", "default", "values", "rule", "meaning"):
        table.add_column(col)
    for opt in cls.option_spec.values():
        default = str(opt.default).lower() if isinstance(opt.default, bool) else str(opt.default)
        meaning = opt.help + (f" (only with {opt.needs}=true)" if opt.needs else "") + (
            f" (not with {opt.void_if}=true)" if opt.void_if else "")
        table.add_row(opt.name, default, opt.allowed(), opt.rule, meaning)
    console.print(table)
    # the § and D-n above are looked up in the full rules, which ship with the package
    console.print(f"Every § rule and D-n decision in full: rummylab rules all (the file {full})",
                  markup=False, highlight=False, soft_wrap=True)


# --- analyze ------------------------------------------------------------


@app.command(cls=_Command, short_help="Best arrangement of a hand, best discard or play.",
             epilog="\b\nExamples:\n  rummylab analyze gin 7h 8h 9h Ks Kd Kc 2s 3s 4s 5d Qh\n"
             "  rummylab analyze three-thirteen --round 3 5h 5d 7c 8c 9c\n"
             "  rummylab analyze manipulation --table \"7h 8h 9h | Ks Kd Kc\" --hand \"Kh 2c\"\n"
             "  rummylab analyze gin 7h 8h 9h Ks Kd Kc 2s 3s 4s 5d --json\n"
             "  rummylab analyze gin --position \"gin/1 seat=1 hand=1 dealer=0 scores=0,0 "
             "turn=1:offer hands=?10/7h,8h,9h,Ks,Kd,Kc,2s,3s,4s,5d stock=?31 pile=Qh\"")
def analyze(
    game: Annotated[str, typer.Argument(
        metavar="GAME", help="gin, three-thirteen or manipulation (with --position any game)")],
    cards: Annotated[list[str] | None, typer.Argument(
        metavar="CARD", help="the hand, e.g. 7h 8h 9h Ks ... (manipulation: use --hand)")] = None,
    round_: Annotated[int | None, typer.Option(
        "--round", metavar="N",
        help="Three Thirteen: the round 1-11 (its wild rank is round + 2)")] = None,
    table_: Annotated[str | None, typer.Option(
        "--table", metavar='"MELD | MELD"',
        help='Manipulation: the table, "MELD | MELD | ..." (jokers Jk=7h)')] = None,
    hand: Annotated[str | None, typer.Option(
        "--hand", metavar='"CARDS"', help="Manipulation: the hand")] = None,
    decks: Annotated[int | None, typer.Option(
        metavar="N", help="1 deck or 2 (the default): Manipulation 1 for two players, 2 for "
                          "three to five; Three Thirteen 1 for two players, 2 for three or "
                          "four")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    position: Annotated[str | None, typer.Option(
        metavar='"POSITION"', help="a moment of a game (docs/positions.md): the best move of "
        "its seat, or of the seat to act, with the reason and the hand's figures")] = None,
    seed: Annotated[int | None, typer.Option(
        metavar="N", help="with --position: deals a seat's unknown cards")] = None,
) -> None:
    """Best arrangement of a hand; after the draw also the best discard; for
    Manipulation the best play onto a table; at a position the best move."""
    cls = game_class(game)
    text = " ".join(cards or [])
    # an option the game does not read would be dropped unseen: refuse it
    given = {"round": round_, "table": table_, "hand": hand, "decks": decks}
    if position is not None or seed is not None:
        _analyze_position(cls, position, seed, ["cards"] * bool(cards) + [
            f"--{k}" for k, v in given.items() if v is not None], as_json)
        return
    extra = [f"--{k}" for k, v in given.items() if v is not None
             and k not in cls.analysis_inputs]
    if extra:
        fail(f"{cls.game_name} does not take {', '.join(extra)}")
    result = cls.analyze(text, **{k: v for k, v in given.items() if k in cls.analysis_inputs})
    _print_analysis(result, as_json)


def _position_of(cls: Any, text: str) -> str:
    """``text``, checked to be a position of ``cls``'s game."""
    from rummylab.position import split

    found = game_class(split(text).game).game_name
    if found != cls.game_name:
        fail(f"the position is of {found}, not {cls.game_name}")
    return text


def _position_start(cls: Any, text: str, options: dict[str, object]) -> Any:
    """The state a match starts from at ``text`` (its unknown cards dealt
    from seed 0): a position of ``cls``'s game, with its own options, where
    the match is not over."""
    from rummylab.position import from_position

    if options:
        fail("--position holds the options: it takes no --option")
    state = from_position(_position_of(cls, text), 0)
    if state.is_terminal():
        fail("the match is over at this position: there is nothing to play")
    return state


def _analyze_position(cls: Any, position: str | None, seed: int | None,
                      extra: list[str], as_json: bool) -> None:
    from rummylab.analysis import analyze_position

    if position is None:
        fail("--seed goes with --position (it deals a seat's unknown cards)")
    if extra:  # the position holds the hand, the round, the table
        fail(f"--position holds the hand, the round and the table: it takes no {extra[0]}")
    result = analyze_position(_position_of(cls, position), seed)
    _print_analysis(result, as_json)


def _print_analysis(result: dict[str, Any], as_json: bool) -> None:
    """An analysis as JSON, or as a table of its keys (lists joined by ' | ')."""
    if as_json:
        console.print_json(json.dumps(result))
        return
    out = Table(show_header=False)
    for key, value in result.items():
        out.add_row(key, " | ".join(value) if isinstance(value, list) else _cell(value))
    console.print(out)


def _cell(value: object) -> str:
    """A value as a table shows it: yes or no, not Python's True or False."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


# --- simulate -----------------------------------------------------------


@app.command(cls=_Command, short_help="Play matches between bots and summarize them.",
             epilog="\b\nExamples:\n  rummylab simulate gin --bots simple,random --games 200\n"
             "  rummylab simulate three-thirteen --bots simple,simple,random --workers 2\n"
             "  rummylab simulate gin --option target=50 --json --record run.jsonl")
def simulate(
    game: Annotated[str, typer.Argument(
        metavar="GAME", help="gin, gin3, three-thirteen or manipulation")],
    bots: Annotated[str, typer.Option(
        metavar="BOT[,BOT...]", show_default=False,
        help="one bot per seat, comma-separated: random, simple or strong (easy, medium, "
             "hard), e.g. random,simple (default: simple in every seat)")] = "",
    games: Annotated[int, typer.Option(metavar="N", help="number of matches")] = 100,
    seed: Annotated[int, typer.Option(metavar="N", help="seed of the whole run")] = 1,
    record: Annotated[Path | None, typer.Option(
        metavar="FILE", help="write a JSON Lines record")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", metavar="KEY=VALUE", help="rule option (repeatable)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    workers: Annotated[int, typer.Option(
        metavar="N", help="local worker processes (1: in-process); the figures and the "
                          "record do not depend on it")] = 1,
    position: Annotated[str | None, typer.Option(
        metavar='"POSITION"', help="start every match from this moment (docs/positions.md); "
        "each match's seed deals a seat's position's unknown cards and the later hands")
    ] = None,
) -> None:
    """Play full matches between bots and summarize them."""
    cls = game_class(game)
    name = cls.game_name
    options: dict[str, object] = dict(parse_option_args(option))
    specs = split_bots(bots)  # as the arena splits them: key=value continues a spec
    if specs and position is None:
        _seats_from_bots(cls, options, specs, bots)
    # validates the options (or the position) before anything runs
    probe = (new_state(name, options, 0) if position is None
             else _position_start(cls, position, options))
    specs = specs or ["simple"] * probe.num_players
    if len(specs) != probe.num_players:
        fail(f"{name} needs {probe.num_players} bots, got {len(specs)}: {bots}")
    _check_games(games)
    check_backend(workers, "local", None)
    players = [make_bot(s, name, seed=i) for i, s in enumerate(specs)]
    with record_stream(record) as stream, _bar(progress and not as_json) as bar:
        task = bar.add_task(f"{name} matches", total=games)
        # the arena's runner, each deal once in the seats given: matches are
        # folded in deal order, so nothing depends on the number of workers
        result = run_arena(name, specs, games, seed, options, workers=workers, record=stream,
                           ratings=False, seating=SEATED, position=position,
                           progress=lambda done: bar.update(task, completed=done))
    stats = result.stats
    stats.seats = [b.spec() for b in players]
    if as_json:
        console.print_json(json.dumps(stats.to_dict()))
        return
    _print_stats(stats)


@contextmanager
def _bar(enabled: bool) -> Iterator[Progress]:
    """The progress bar on stderr; a run that fails takes its bar away, so
    that its error is the only line left."""
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err_console, disable=not enabled) as bar:
        try:
            yield bar
        except BaseException:
            bar.live.transient = True
            raise


MAX_MATCHES = 1_000_000  # seeds are drawn up front; a million matches is days of play


def _check_games(matches: int) -> None:
    if matches < 1:
        fail("--games must be at least 1")
    if matches > MAX_MATCHES:
        fail(f"--games asks for {matches:,} matches; a run holds at most {MAX_MATCHES:,} "
             "(split it over several seeds)")


def _seats_from_bots(cls: Any, options: dict[str, object], specs: list[str], bots: str) -> None:
    """Games for a range of players take their size from the bots given."""
    opt = cls.option_spec.get("players")
    if opt is None or "players" in options:
        return
    if not opt.minimum <= len(specs) <= opt.maximum:
        fail(f"{cls.game_name} takes {opt.minimum} to {opt.maximum} bots, got {len(specs)}: "
             f"{bots}")
    options["players"] = len(specs)


def _print_stats(stats: MatchStats) -> None:
    d = stats.to_dict()
    parts = [f"{k.replace('_', ' ')}: {v}" for k, v in d.items() if isinstance(v, int)]
    figures = [f.name for f in stats.figures]
    cols = ("seat", "bot", "wins", "win % (95% CI)", *(f.replace("_", " ") for f in figures))
    rows = []
    for row in stats.rows():
        cells = [f"{row[f]:.2f}" if isinstance(row[f], float) and not float(row[f]).is_integer()
                 else f"{row[f]:g}" for f in figures]
        rows.append([
            str(row["seat"]), row["name"], f"{row['match_wins']:g}",
            f"{row['win_rate']:.1%} ({row['ci_low']:.1%}-{row['ci_high']:.1%})", *cells,
        ])
    print_table(f"{stats.game} — " + ", ".join(parts), cols, rows, name_col=1)


def print_table(title: str, cols: Sequence[str], rows: Sequence[Sequence[str]],
                name_col: int) -> None:
    """A table of one row per bot; turned on its side (one column per bot)
    when it is wider than the terminal, as three-player Gin's figures are."""
    table = Table(title=title)
    for col in cols:
        table.add_column(col, justify="left" if col == cols[name_col] else "right",
                         no_wrap=True)
    for r in rows:
        table.add_row(*r)
    # each column: its widest text, a space either side, a border
    width = 1 + sum(3 + max(cell_len(str(x)) for x in (c, *(r[i] for r in rows)))
                    for i, c in enumerate(cols))
    if width > console.width:
        table = Table(title=title)
        table.add_column("")
        for r in rows:
            table.add_column(r[name_col], justify="right")
        for i, col in enumerate(cols):
            if i != name_col:
                table.add_row(col, *(r[i] for r in rows))
    console.print(table)


# --- arena --------------------------------------------------------------


@app.command(cls=_Command, short_help="Bots against each other over duplicate deals, rated.",
             epilog="\b\nExamples:\n  rummylab arena gin --bots simple,random --games 200\n"
             "  rummylab arena gin --bots strong,simple --workers 2 --plot rates.png\n"
             "  rummylab arena three-thirteen --bots strong,simple,random --seatings all\n"
             "  rummylab arena gin --bots simple,random --backend dask "
             "--scheduler tcp://127.0.0.1:8786")
def arena(
    game: Annotated[str, typer.Argument(
        metavar="GAME", help="gin, gin3, three-thirteen or manipulation")],
    bots: Annotated[str, typer.Option(
        metavar="BOT[,BOT...]",
        help="the bots, comma-separated, one per seat: random, simple or strong (easy, "
             "medium, hard), e.g. simple,random")],
    games: Annotated[int, typer.Option(
        metavar="N", help="number of deals; each is played once per seat rotation "
                          "(2 players: 2 matches a deal)")] = 100,
    seed: Annotated[int, typer.Option(metavar="N", help="seed of the whole run")] = 1,
    workers: Annotated[int, typer.Option(
        metavar="N", help="local worker processes (1: in-process)")] = 1,
    record: Annotated[Path | None, typer.Option(
        metavar="FILE", help="write a JSON Lines record")] = None,
    plot_: Annotated[Path | None, typer.Option(
        "--plot", metavar="FILE",
        help="save win rates with 95% CIs as a chart in the format its extension names: "
             ".png (also with no extension), .svg, .pdf, .jpg, .eps, ... (needs "
             "matplotlib)")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", metavar="KEY=VALUE", help="rule option (repeatable)")] = None,
    backend: Annotated[str, typer.Option(
        metavar="local|dask", help="where the matches are played: local or dask")] = "local",
    scheduler: Annotated[str | None, typer.Option(
        metavar="ADDRESS",
        help="Dask scheduler address, tcp://HOST:PORT (with --backend dask)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    seatings_: Annotated[str, typer.Option(
        "--seatings", metavar="cyclic|all",
        help="cyclic: each deal once per seat rotation; all: once per order "
        "of the bots (3 bots: 6 matches a deal, 4: 24)")] = "cyclic",
) -> None:
    """Bots against each other: duplicate deals with seats rotated, figures per
    bot, openskill ratings (needs the arena extra)."""
    from rummylab.arena import plot, plot_format, require, seatings

    cls = game_class(game)
    name = cls.game_name
    options: dict[str, object] = dict(parse_option_args(option))
    specs = split_bots(bots)
    if not specs:
        fail("--bots is required, e.g. --bots simple,random")
    _seats_from_bots(cls, options, specs, bots)
    probe = new_state(name, options, 0)  # validates the options before anything runs
    if len(specs) != probe.num_players:
        fail(f"{name} needs {probe.num_players} bots, got {len(specs)}: {bots}")
    rotations = len(seatings(len(specs), seatings_))  # an unknown kind fails here
    _check_games(games * rotations)
    check_backend(workers, backend, scheduler)
    for i, s in enumerate(specs):
        make_bot(s, name, seed=i)  # unknown bots fail before anything runs
    require("openskill.models", "arena ratings")
    if plot_ is not None:
        require("matplotlib", "--plot")
    if backend == "dask":
        assert scheduler is not None
        check_scheduler(scheduler)  # before any file is opened
    fmt = "png"
    if plot_ is not None:
        fmt = plot_format(shown(plot_))  # .txt, .part, ...: refused before the run
        writable(plot_)
        if record is not None and ({plot_.resolve(), staged(plot_).resolve()}
                                   & {record.resolve(), staged(record).resolve()}):
            # each is written to its FILE.part first: no name may serve both
            fail(f"--record {record} and --plot {plot_} name the same file")
    # the plot is drawn before the record is kept (they are kept in reverse
    # order of entry): a plot that fails leaves both older files as they were
    with (staged_path(plot_) as plot_part, record_stream(record) as stream,
          _bar(progress and not as_json) as bar):
        task = bar.add_task(f"{name} arena matches", total=games * rotations)
        result = run_arena(name, specs, games, seed, options, workers=workers,
                           backend=backend, scheduler=scheduler, record=stream,
                           progress=lambda done: bar.update(task, completed=done),
                           seating=seatings_)
        if plot_part is not None:
            plot(result, str(plot_part), fmt)
    if as_json:
        console.print_json(json.dumps(result.to_dict()))
    else:
        _arena_table(name, result.to_dict())
    if plot_ is not None and not as_json:
        console.print(f"plot: {shown(plot_)}", highlight=False, markup=False)


def _arena_table(name: str, d: dict[str, Any]) -> None:
    """The arena's figures as a table."""
    parts = [f"{k.replace('_', ' ')}: {v}" for k, v in d.items()
             if (isinstance(v, int) and k != "game") or (k == "seatings" and v != "cyclic")]
    cls = game_class(name)
    # the game's per-hand (per-round) figure is the arena's points_per_hand column
    per_hand = next(f.short for f in cls.figures if f.name == cls.deal_figure)
    figures = [f.name for f in cls.figures if f.name != cls.deal_figure]
    cols = ("bot", "wins", "played", "win % (95% CI)", per_hand,
            *(f.replace("_", " ") for f in figures), "mu (ordinal)")
    rows = []
    for row in d["bots"]:
        cells = [f"{row[f]:.2f}" if isinstance(row[f], float) and not float(row[f]).is_integer()
                 else f"{row[f]:g}" for f in figures]
        rows.append([
            row["name"], f"{row['match_wins']:g}", str(row["matches"]),
            f"{row['win_rate']:.1%} ({row['ci_low']:.1%}-{row['ci_high']:.1%})",
            f"{row['points_per_hand']:.2f}", *cells,
            f"{row['rating']['mu']:.2f} ({row['rating']['ordinal']:.2f})",
        ])
    print_table(f"{name} arena — " + ", ".join(parts), cols, rows, name_col=0)


# --- replay -------------------------------------------------------------


@app.command("replay", cls=_Command, short_help="Replay a record and verify every line.",
             epilog="\b\nExamples:\n  rummylab replay run.jsonl\n  rummylab replay -q run.jsonl")
def replay_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="a JSON Lines record")],
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="print only the total, not a line per match")] = False,
) -> None:
    """Re-apply a record and verify every line (exit 1 at the first mismatch)."""
    try:
        stream = file.open(encoding="utf-8-sig")  # a byte-order mark from an editor is no error
    except OSError as e:
        fail(f"cannot read {shown(file)}: {e.strerror}")
    n = hands = actions = unseeded = 0
    games: set[str] = set()
    with stream:
        try:
            for m in replay(stream):
                n += 1
                unseeded += not m.seed_checked
                hands += m.hands
                actions += m.actions
                games.add(m.game)
                if not quiet:
                    console.print(f"match {m.match} ({m.game}, line {m.line}): "
                                  f"{_many(m.hands, _hand_word({m.game}))}, "
                                  f"winners {m.winners}, final scores {m.final_scores}",
                                  highlight=False, markup=False)
        except RecordError as e:
            fail(str(e), 2 if e.unreadable else 1)
        except UnicodeDecodeError:
            fail(f"{shown(file)} is not a text file")
        except OSError as e:  # a read that fails part way
            fail(f"cannot read {shown(file)}: {e.strerror or e}")
    if n == 0:
        fail(f"{shown(file)} holds no match")
    # a match with no seed, or dealt from given decks, is checked against its own decks only
    own = f"; {unseeded} of them with no seed that deals them" if unseeded else ""
    console.print(f"ok: {_many(n, 'match')}, {_many(hands, _hand_word(games))}, "
                  f"{_many(actions, 'action')} replayed to the same bytes{own}", highlight=False)


def _hand_word(games: set[str]) -> str:
    """What the games call a deal: "round" if every one of them plays rounds."""
    return "round" if all(game_class(g).deal_word == "round" for g in games) else "hand"


def _many(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless one.

    >>> _many(1, "round"), _many(2, "match"), _many(0, "hand")
    ('1 round', '2 matches', '0 hands')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith('ch') else 's'}"


# --- play ---------------------------------------------------------------


@app.command(cls=_Command, short_help="Play in the browser (or the terminal) against bots.",
             epilog="\b\nExamples:\n  rummylab play\n  rummylab play gin --bot hard\n"
             "  rummylab play gin --terminal --seed 7\n"
             "  rummylab play manipulation --players 3 --bot easy\n"
             "  rummylab play three-thirteen --terminal --record mine.jsonl\n"
             "  rummylab play gin --terminal --position \"$(cat moment.txt)\"\n"
             "  rummylab play --no-browser --port 8080")
def play(
    game: Annotated[str | None, typer.Argument(
        metavar="GAME", help="gin, gin3, three-thirteen or manipulation (in the browser, "
                             "without it: the lobby; in the terminal: gin)")] = None,
    bot: Annotated[str, typer.Option(
        metavar="LEVEL", help="the bot in every other seat: easy, medium or hard (the same "
                              "as random, simple, strong)")] = "simple",
    seed: Annotated[int | None, typer.Option(metavar="N", help="seed of the match")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", metavar="KEY=VALUE", help="rule option (repeatable)")] = None,
    record: Annotated[Path | None, typer.Option(
        metavar="FILE", help="write the match's record when it is over (with --terminal; "
                             "in the browser the finished match's page offers it)")] = None,
    players: Annotated[int | None, typer.Option(
        metavar="N", help="number of players (three-thirteen, manipulation)")] = None,
    position: Annotated[str | None, typer.Option(
        metavar='"POSITION"', help="start from this moment (docs/positions.md), in its seat "
        "for a seat's position, else in seat 0")] = None,
    terminal: Annotated[bool, typer.Option(
        "--terminal", help="play in this terminal instead of the browser")] = False,
    port: Annotated[int, typer.Option(
        metavar="PORT", help="the browser's local server port (another if it is taken)")] = 8000,
    db: Annotated[str | None, typer.Option(
        metavar="URL", help="the local server's database (default: a SQLite file in the "
                            "user's data directory)")] = None,
    no_browser: Annotated[bool, typer.Option(
        "--no-browser", help="print the address to open instead of opening a browser")] = False,
) -> None:
    """Play a match against bots: in the browser (a local server on 127.0.0.1,
    at the lobby or, with GAME, at a new table) or, with --terminal, here."""
    cls = game_class(game or DEFAULT_GAME)
    options: dict[str, object] = dict(parse_option_args(option))
    if position is not None:  # the position holds the options and the players
        if players is not None:
            fail("--position holds the number of players: it takes no --players")
        _position_start(cls, position, options)
    if players is not None:
        if "players" not in cls.option_spec:
            fail(f"{cls.game_name} has a fixed number of players")
        given = options.get("players")
        if given is not None:
            try:
                same = int(str(given).strip()) == players
            except ValueError:
                same = False
            if not same:
                fail(f"--players {players} and --option players={given} disagree")
        options["players"] = players
    if not terminal and position is not None:
        fail("--position starts a match in the terminal for now: add --terminal (a table "
             "server takes a position in POST /api/tables, docs/positions.md)")
    if not terminal:
        _play_in_browser(game, bot, seed, options, players, port, db, no_browser,
                         record is not None)
        return
    from rummylab.tui import play_terminal

    if record is not None:
        writable(record)  # before the match, not after it
    if seed is None:
        # drawn here, not by the engine, so the record and the player can keep it
        seed = random.SystemRandom().randrange(2**31)
    again = f"This match was seed {seed}: --seed {seed} deals it again."
    try:
        text = play_terminal(cls.game_name, bot, seed, options, record is not None, console,
                             position=position)
    except KeyboardInterrupt:
        # Ctrl-C leaves like 'quit', with the seed to come back to (130, the shell's
        # code; main reports SIGTERM's as 143)
        console.print(f"\nStopped. {again}", highlight=False, markup=False)
        raise typer.Exit(130) from None
    console.print(again, highlight=False)
    if record is None:
        return
    if text is None:
        console.print(f"The match was not finished, so no record was written to "
                      f"{shown(record)}.", highlight=False, markup=False)
        return
    with record_stream(record) as stream:
        assert stream is not None
        stream.write(text)
    console.print(f"Record written to {shown(record)}.", highlight=False, markup=False)


def _play_in_browser(game: str | None, bot: str, seed: int | None, options: dict[str, object],
                     players: int | None, port: int, db: str | None, no_browser: bool,
                     record: bool) -> None:
    """``rummylab play`` without --terminal: the local server and the browser."""
    if record:
        fail("--record is for --terminal; in the browser, a finished match's page "
             "offers its record")
    try:
        from rummylab.server.local import free_port, launch
    except ImportError as e:
        fail(f"playing in the browser needs the web extra: pip install 'rummylab[web]' "
             f"(or play in the terminal: rummylab play --terminal) [{e}]")
    if game is not None:  # a bad option or bot is one line now, not in the browser
        name = game_class(game).game_name
        new_state(name, options, 0)
        make_bot(bot, name)
    chosen = free_port("127.0.0.1", port)
    if chosen != port:
        console.print(f"Port {port} is taken: using {chosen}.", highlight=False, markup=False)
    launch(game, port=chosen, db=db, bot=bot, open_browser=not no_browser,
           options=dict(options), players=players, seed=seed)


# --- verify and serve (the table server) ---------------------------------


@app.command("verify", cls=_Command, short_help="Check a record was dealt fairly by its seed.",
             epilog="\b\nExamples:\n  rummylab verify match.jsonl\n"
             "  rummylab verify match.jsonl --seed-hash HASH")
def verify_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="a JSON Lines record")],
    seed_hash: Annotated[str | None, typer.Option(
        "--seed-hash", metavar="HEX",
        help="the seed_hash the table server published at creation")] = None,
) -> None:
    """Check a record was dealt fairly: it replays, its seed deals every hand as
    recorded and hashes to the committed seed_hash (exit 1 at the first failure)."""
    from rummylab.verify import check_seed_hash, verify

    committed = None if seed_hash is None else check_seed_hash(seed_hash)
    try:
        stream = file.open(encoding="utf-8-sig")
    except OSError as e:
        fail(f"cannot read {shown(file)}: {e.strerror}")
    with stream:
        try:
            matches = verify(stream, committed)
        except RecordError as e:
            fail(str(e), 2 if e.unreadable else 1)
        except UnicodeDecodeError:
            fail(f"{shown(file)} is not a text file")
    if not matches:
        fail(f"{shown(file)} holds no match")
    against = " and hash to the committed seed_hash" if committed else ""
    console.print(f"ok: {_many(len(matches), 'match')} replayed, dealt by their seeds{against}",
                  highlight=False, markup=False)


@app.command(cls=_Command, short_help="Run the table server (play with friends).",
             epilog="\b\nExamples:\n  rummylab serve\n  rummylab serve --port 8080\n"
             "  rummylab serve --db postgresql+psycopg://user:pw@localhost/rummylab")
def serve(
    host: Annotated[str, typer.Option(metavar="ADDRESS", help="address to listen on")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="port to listen on")] = 8000,
    db: Annotated[str | None, typer.Option(
        metavar="URL",
        help="database URL (default: a SQLite file in the user's data directory; "
        "postgresql+psycopg://... for PostgreSQL)")] = None,
    max_open_tables: Annotated[int, typer.Option(
        metavar="N", help="unfinished tables one client address may have open")] = 20,
) -> None:
    """Run the table server: play with friends over HTTP and WebSockets."""
    try:
        from rummylab.server.app import serve as run_server
    except ImportError as e:
        fail(f"the table server needs the web extra (pip install 'rummylab[web]'): {e}")
    run_server(host=host, port=port, db=db, max_open_tables=max_open_tables)


def main(argv: list[str] | None = None) -> int:
    """Entry point: every error becomes one line and an exit code."""
    try:
        rc = app(args=argv, standalone_mode=False)
    except typer.Exit as e:
        return _stopped(int(e.exit_code))
    except typer.Abort:
        err_console.print("rummylab: aborted")
        return 1
    except RummyError as e:
        return _one_line(str(e), 2)
    except Terminated:
        return 143
    except (BrokenPipeError, KeyboardInterrupt):
        return 1
    except Exception as e:
        # the command-line parser's own usage errors (wrong type, missing argument)
        if hasattr(e, "format_message") and hasattr(e, "exit_code"):
            if type(e).__name__ == "NoArgsIsHelpError":
                console.print(e.format_message())
                return 0
            return _one_line(str(e.format_message()), 2)
        raise
    return _stopped(rc) if isinstance(rc, int) else 0


def _stopped(code: int) -> int:
    """The parser reports any interrupt as Ctrl-C's 130; SIGTERM's is 143."""
    return 143 if _terminated and code == 130 else code


def _one_line(message: str, code: int) -> int:
    text = " ".join(message.split())
    err_console.print(f"rummylab: error: {text}", markup=False, highlight=False, soft_wrap=True)
    return code


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be (exit code 143)."""


_terminated = False  # set by SIGTERM: the command line's parser reports it as Ctrl-C


def _stop_on_sigterm() -> None:
    """SIGTERM (``kill``, ``timeout``) stops a run as Ctrl-C does, so a record
    being written is removed rather than left as ``FILE.part``; a second
    SIGTERM ends the process at once."""
    import contextlib
    import signal

    def stop(signum: int, frame: object) -> None:
        global _terminated
        _terminated = True
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        raise Terminated

    # not the main thread, or a platform without SIGTERM: leave the default
    with contextlib.suppress(ValueError, OSError, AttributeError):
        signal.signal(signal.SIGTERM, stop)


def run() -> None:
    """The console script (and ``python -m rummylab``)."""
    _stop_on_sigterm()
    sys.exit(main())
