"""Game records: JSON Lines, one object a line, streamed as play goes on.

A record file holds one or more matches. Each match is::

    {"type":"header","format":"rummylab-record","version":2,"game":"gin",
     "options":{...},"seats":["simple","random"],"seed":7,"match":1}
    {"type":"cut",...}                       three-player Gin: the role cut (D-6)
    {"type":"deal","hand":1,"dealer":0,"deck":"7h Kd ..."}   deck order, top first
    {"type":"action","seat":1,"action":"take discard"}
    {"type":"advice","seat":2,"action":"discard 7h"}        the sitter's advice
    {"type":"result","hand":1,"outcome":"knock",...,"scores":[..]}
    ...
    {"type":"end","winners":[1],"totals":[..],"hands_won":[..],"final_scores":[..]}

Lines are compact JSON (``separators=(",", ":")``) with keys in the order
above; replaying a record re-applies every action to a fresh state built from
the header and the deck orders, and regenerates every line, which must match
the record byte for byte.

>>> import io
>>> from rummylab import new_state
>>> from rummylab.bots import make_bot
>>> buf = io.StringIO()
>>> state = new_state("gin", {"target": 10}, seed=5)
>>> bot = make_bot("simple", "gin")
>>> writer = RecordWriter(buf)
>>> writer.begin(state, ["simple", "simple"])
>>> while not state.is_terminal():
...     state.apply_action(bot.act(state.observation(state.current_player())))
...     writer.write_events(state.take_events())
>>> _ = buf.seek(0)
>>> [m.winners == state.winners for m in replay(buf)]
[True]
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from rummylab.cards import parse_cards
from rummylab.errors import RecordError, RummyError
from rummylab.game import Event, State
from rummylab.options import as_played
from rummylab.registry import game_class

FORMAT = "rummylab-record"
# 2: a Manipulation turn ends with its player's own "pass" line (in version 1 a
# turn whose only move was pass ended unrecorded); the other games are alike
VERSION = 2
VERSIONS = (1, 2)


def unwritable(path: Path) -> str | None:
    """Why a file cannot be written at ``path`` (one line), or None if it
    can: asked before a long run, so that it fails at once, not at the end.
    Nothing is created.

    >>> unwritable(Path("/no/such/dir/run.jsonl"))
    'cannot write /no/such/dir/run.jsonl: no directory /no/such/dir'
    >>> unwritable(Path("x" * 300))  # doctest: +ELLIPSIS
    'cannot write xxx...: File name too long'
    """
    try:
        return _unwritable(path)
    except OSError as e:  # a name too long, a directory we may not search
        return f"cannot write {path}: {e.strerror}"


def _unwritable(path: Path) -> str | None:
    if path.is_dir():
        return f"cannot write {path}: it is a directory"
    target = _target(path)
    part = _part(target)
    if _plain(target) and not _plain(part):
        # a leftover FILE.part that is not a file of ours: never write through it
        return f"cannot write {path}: {part} is in the way (not a plain file); remove it"
    if target.exists():
        return None if os.access(target, os.W_OK) else f"cannot write {path}: permission denied"
    parent = target.parent
    if not parent.is_dir():
        return f"cannot write {path}: no directory {parent}"
    if not os.access(parent, os.W_OK):
        return f"cannot write {path}: permission denied"
    return None


def staged(path: Path) -> Path:
    """Where to write a long run's file: beside ``path`` (renamed onto it at
    the end) when it is a plain file or none yet, so a failed run leaves an
    older file whole; beside the file a link names, so the link stays a link;
    ``path`` itself for a device (/dev/stdout)."""
    target = _target(path)
    part = _part(target)
    if _plain(target) and _plain(part) and os.access(target.parent, os.W_OK):
        return part
    return path


def _target(path: Path) -> Path:
    """The plain file a link names, else the path itself (a device such as
    /dev/stdout, or a pipe, is written through)."""
    if path.is_symlink():
        real = path.resolve()
        if real.is_file() and not real.is_symlink():
            return real
    return path


def _part(path: Path) -> Path:
    name = path.name + ".part"
    if len(os.fsencode(name)) > 255:  # a name near the limit: a short one of its own
        name = "." + hashlib.sha256(os.fsencode(path.name)).hexdigest()[:16] + ".part"
    return path.with_name(name)


def _plain(path: Path) -> bool:
    """A plain file, or nothing yet (not a link, a device or a directory)."""
    return not path.is_symlink() and (path.is_file() or not path.exists())


@contextmanager
def staged_path(path: Path | None) -> Iterator[Path | None]:
    """The path to write ``path``'s new contents at (:func:`staged`): renamed
    onto ``path`` when the block ends, removed if the block fails or is
    stopped, so an older file stays whole. None passes through."""
    if path is None:
        yield None
        return
    part = staged(path)
    target = _target(path)
    finished = False
    try:
        yield part
        finished = True
    finally:
        if part != path:
            if finished:
                part.replace(target)
            else:
                part.unlink(missing_ok=True)


def dumps(event: Event) -> str:
    """One record line (no newline)."""
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False)


def header(state: State, seats: Sequence[str], match: int = 1,
           version: int = VERSION) -> Event:
    """A match's first line. ``"dealt": "given"`` marks a match whose deck
    orders, first dealer or cut were given to the engine: its seed alone
    does not reproduce it."""
    out: Event = {
        "type": "header", "format": FORMAT, "version": version, "game": state.game_name,
        "options": dict(state.options), "seats": list(seats), "seed": state.seed,
        "match": match,
    }
    if state.decks_given:
        out["dealt"] = "given"
    return out


class RecordWriter:
    """Streams matches to a text file as they are played."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.matches = 0

    def begin(self, state: State, seats: Sequence[str]) -> None:
        """Start a match: its header, then what happened so far (cut, deal)."""
        self.matches += 1
        self.stream.write(dumps(header(state, seats, self.matches)) + "\n")
        self.write_events(state.take_events())

    def write_events(self, events: Iterable[Event]) -> None:
        for e in events:
            self.stream.write(dumps(e) + "\n")


@dataclass
class ReplayedMatch:
    """One match that replayed cleanly."""

    match: int
    game: str
    line: int
    hands: int
    actions: int
    winners: list[int]
    final_scores: list[int]
    state: State
    #: dealt again from the header's seed (False: no seed, or dealt as given)
    seed_checked: bool = False


def _decoded(stream: IO[str]) -> Iterator[str]:
    """The lines of ``stream``; bytes that are not UTF-8 are a
    :class:`RecordError` naming their line (the text layer decodes a whole
    block at once, so the line is found again in the file's bytes)."""
    read = 0
    try:
        for line in stream:
            read += 1
            yield line
    except UnicodeDecodeError:
        try:
            buffer = stream.buffer  # type: ignore[attr-defined]
            buffer.seek(0)
            data = buffer.read()
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            start = 3 if data.startswith(b"\xef\xbb\xbf") else 0  # an editor's byte-order mark
            before = data[start:e.start].decode("utf-8")
            before = before.replace("\r\n", "\n").replace("\r", "\n")
            column = len(before) - before.rfind("\n")
            raise RecordError(f"not UTF-8 text (byte {data[e.start]:#04x} at column {column})",
                              before.count("\n") + 1, unreadable=True) from None
        except (AttributeError, OSError, ValueError):  # no file under it to read again
            pass
        raise RecordError(f"not UTF-8 text (after line {read})", unreadable=True) from None


def _read(stream: IO[str]) -> Iterator[tuple[int, str, dict[str, Any]]]:
    blank = None  # the first of a run of blank lines: allowed only at the end
    for n, raw in enumerate(_decoded(stream), 1):
        text = raw.rstrip("\n")
        if not text.strip():
            blank = blank or n
            continue
        if blank is not None:
            raise RecordError("empty line", blank, unreadable=True)
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON ({e.msg})", n, unreadable=True) from None
        except RecursionError:
            raise RecordError("not JSON (nested too deeply)", n, unreadable=True) from None
        except ValueError as e:  # e.g. an integer too long to convert
            raise RecordError(f"not JSON ({e})", n, unreadable=True) from None
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise RecordError("each line must be a JSON object with a 'type'", n, unreadable=True)
        yield n, text, obj


def _matches(stream: IO[str]) -> Iterator[list[tuple[int, str, dict[str, Any]]]]:
    current: list[tuple[int, str, dict[str, Any]]] = []
    for item in _read(stream):
        n, _, obj = item
        if obj["type"] == "header":
            if current:
                raise RecordError("a new match begins before the last one ended", n)
            current = [item]
        else:
            if not current:
                raise RecordError("the record must begin with a header line", n, unreadable=True)
            current.append(item)
            if obj["type"] == "end":
                yield current
                current = []
    if current:
        raise RecordError("the record ends in the middle of a match", current[-1][0])


def read_matches(stream: IO[str]) -> Iterator[list[tuple[int, Event]]]:
    """The events of each match of a record with their line numbers, read
    but not replayed (:func:`replay` checks them against the engine). A line
    that is no JSON object, a match before its header or one cut short is a
    :class:`RecordError`."""
    for lines in _matches(stream):
        yield [(n, obj) for n, _, obj in lines]


def replay(stream: IO[str]) -> Iterator[ReplayedMatch]:
    """Replay every match of a record, checking each line; yields each match
    once it has replayed. A mismatch raises :class:`RecordError` with the
    line number. Matches are numbered one after another (a record may start
    at any number: one match cut out of a run replays alone)."""
    number = None
    for lines in _matches(stream):
        m = _replay_match(lines, number)
        number = m.match + 1
        yield m


def _fields_difference(what: str, expected: dict[str, Any], got: dict[str, Any],
                       plural: bool = False) -> str | None:
    for key, value in expected.items():
        if key not in got:
            return f"{what} {'lack' if plural else 'lacks'} {key!r}"
        if dumps(got[key]) != dumps(value):
            return (f"{what}: {key!r} is {dumps(got[key])[:80]}; the engine records "
                    f"{dumps(value)[:80]}")
    extra = [k for k in got if k not in expected]
    if extra:
        return (f"{what} {'have' if plural else 'has'} {extra[0]!r}, which the engine does "
                "not record")
    if list(got) != list(expected):
        return (f"{what} {'are' if plural else 'is'} out of order (the engine writes "
                f"{', '.join(expected)})")
    return None


def _header_difference(expected: dict[str, Any], head: dict[str, Any]) -> str:
    """What is wrong with a header, field by field (the options by name)."""
    if "dealt" in head and head["dealt"] != "given":
        return f"the header's 'dealt' may only be \"given\", not {dumps(head['dealt'])[:40]}"
    options, want = head.get("options"), expected["options"]
    if isinstance(options, dict):
        found = _fields_difference("the header's options", want, options, plural=True)
        if found:
            return found
    found = _fields_difference("the header", expected, head)
    if found:
        return found
    return "the header is not written as the engine writes it (spacing or escapes differ)"


def _replay_match(lines: list[tuple[int, str, dict[str, Any]]],
                  number: int | None) -> ReplayedMatch:
    n0, _, head = lines[0]
    if head.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} header", n0, unreadable=True)
    version = head.get("version")
    if type(version) is not int or version not in VERSIONS:
        raise RecordError(f"record format version {version!r} is not supported "
                          f"(this reads versions {', '.join(map(str, VERSIONS))})", n0,
                          unreadable=True)
    match = head.get("match", 1)
    if type(match) is not int or match < 1:
        raise RecordError(f"'match' must be a match number (1, 2, ...), not {match!r}", n0)
    if number is not None and match != number:
        raise RecordError(f"match {match} where match {number} comes next (a record numbers "
                          "its matches one after another)", n0)
    options = head.get("options")
    if options is not None and not isinstance(options, dict):
        raise RecordError(f"'options' must map option names to values, not {options!r}", n0)
    decks = []
    for n, _, obj in lines:
        kind = obj["type"]
        if kind == "deal":
            dealer = obj.get("dealer")
            if type(dealer) is not int:
                raise RecordError(f"a deal's 'dealer' must be a seat number, not {dealer!r}", n)
        if kind in ("deal", "reshuffle"):
            field = "deck" if kind == "deal" else "stock"
            cards = obj.get(field)
            if not isinstance(cards, str):
                raise RecordError(f"a {kind}'s {field!r} must be its cards as text, "
                                  f"not {cards!r}", n)
            try:
                parsed = parse_cards(cards, jokers=True)
            except RummyError as e:
                raise RecordError(f"bad {field}: {e}", n) from None
            if kind == "deal":
                decks.append(parsed)
    try:
        cls = game_class(str(head.get("game")))
        kwargs: dict[str, Any] = cls.replay_setup([obj for _, _, obj in lines])  # type: ignore[attr-defined]
        played = cls.record_version_setup(version)  # an older version's play
        ctor: Any = cls
        seed = head.get("seed")
        # every game is reproducible from its seed: a seeded match is dealt again from
        # it, and its deal lines must agree; one dealt as given replays its own decks
        seeded = type(seed) is int and head.get("dealt") != "given"
        with as_played():
            state: State = (ctor(options, seed, **played) if seeded
                            else ctor(options, seed, decks=decks, **kwargs, **played))
        seats = head.get("seats")
        if (not isinstance(seats, list) or len(seats) != state.num_players
                or not all(isinstance(x, str) for x in seats)):
            raise RecordError(f"'seats' must name the {state.num_players} players, "
                              f"not {seats!r}", n0)
        state.decks_given = head.get("dealt") == "given"  # the header's word, checked below
        expected = dumps(header(state, seats, match, version))
    except RecordError:
        raise
    except KeyError as e:
        raise RecordError(f"cannot set up the match: a line lacks its {e} field", n0) from None
    except (RummyError, TypeError, ValueError, OverflowError) as e:
        raise RecordError(f"cannot set up the match: {e}", n0) from None
    if expected != lines[0][1]:
        raise RecordError(_header_difference(json.loads(expected), head), n0)
    pending = state.take_events()
    actions = 0
    for n, raw, obj in lines[1:]:
        kind = obj["type"]
        if kind in ("action", "advice"):
            if pending:
                raise RecordError(f"expected {dumps(pending[0])}", n)
            try:
                seat = obj["seat"]
                if type(seat) is not int:
                    raise RecordError(f"'seat' must be a seat number, not {seat!r}", n)
                if kind == "action":
                    if seat != state.current_player():
                        raise RecordError(f"seat {seat} acts, but seat "
                                          f"{state.current_player()} is to act", n)
                    state.apply(str(obj["action"]))
                    actions += 1
                else:
                    advise = getattr(state, "advise", None)
                    if advise is None:
                        raise RecordError(f"{state.game_name} has no advice", n)
                    advise(str(obj["action"]))
            except RecordError:
                raise
            except KeyError as e:
                raise RecordError(f"the line lacks its {e} field", n) from None
            except RummyError as e:
                raise RecordError(f"illegal action: {e}", n) from None
            pending = state.take_events()
        if not pending:
            raise RecordError(f"unexpected line: {raw[:80]}", n)
        got = dumps(pending.pop(0))
        if got != raw:
            if seeded and kind in ("deal", "cut", "reshuffle"):
                raise RecordError(f"seed {seed} does not deal this match (the header's seed "
                                  f"gives {got[:120]})", n)
            raise RecordError(f"mismatch: the engine writes {got[:200]}", n)
    if pending or not state.is_terminal():
        raise RecordError("the match is not over where the record ends", lines[-1][0])
    hands = sum(1 for _, _, o in lines if o["type"] == "deal")
    winners = list(getattr(state, "winners", []))
    final = list(getattr(state, "final_scores", []))
    return ReplayedMatch(match, state.game_name, n0, hands, actions,
                         winners, final, state, seeded)
