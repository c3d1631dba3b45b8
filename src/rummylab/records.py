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

A match started from a position (docs/positions.md) has ``"position":"gin/1 ..."``
after ``"match"`` in its header and no deal line for the hand in progress: it
replays from ``from_position(position, seed)``.

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
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

from rummylab.cards import Card, parse_cards
from rummylab.errors import RecordError, RummyError
from rummylab.game import Event, State
from rummylab.options import as_played
from rummylab.registry import game_class

FORMAT = "rummylab-record"
# 2: a Manipulation turn ends with its player's own "pass" line (in version 1 a
# turn whose only move was pass ended unrecorded); the other games are alike
VERSION = 2
VERSIONS = (1, 2)
# the end of the JSON reader's "Unterminated string starting at": the error gives the column
_AT_END = re.compile(r"(?: starting)? at$")


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
    if state.start_position is not None:
        # started from a position: the hand in progress is the position's,
        # with the seed's unknown cards; later hands are dealt by the seed
        out["position"] = state.start_position
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
    #: dealt again from the header's seed (False: no seed, dealt as given, or
    #: started from a position, whose first hand the seed did not deal)
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
            raise RecordError(f"not UTF-8 text (byte {data[e.start]:#04x})",
                              before.count("\n") + 1, column, unreadable=True) from None
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
            # the reader's "... starting at" points at the column, given apart
            raise RecordError(f"not JSON ({_AT_END.sub('', e.msg)})", n, e.colno,
                              unreadable=True) from None
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
                       plural: bool = False) -> tuple[str, str | None] | None:
    """The first field that differs, in words, and the key to point at."""
    for key, value in expected.items():
        if key not in got:
            return f"{what} {'lack' if plural else 'lacks'} {key!r}", None
        if dumps(got[key]) != dumps(value):
            return (f"{what}: {key!r} is {dumps(got[key])[:80]}; the engine records "
                    f"{dumps(value)[:80]}"), key
    extra = [k for k in got if k not in expected]
    if extra:
        return (f"{what} {'have' if plural else 'has'} {extra[0]!r}, which the engine does "
                "not record"), extra[0]
    if list(got) != list(expected):
        return (f"{what} {'are' if plural else 'is'} out of order (the engine writes "
                f"{', '.join(expected)})"), None
    return None


def _header_difference(expected: dict[str, Any], head: dict[str, Any],
                       raw: str) -> tuple[str, int]:
    """What is wrong with a header, field by field (the options by name),
    and the column it is at."""
    if "dealt" in head and head["dealt"] != "given":
        return (f"the header's 'dealt' may only be \"given\", not {dumps(head['dealt'])[:40]}",
                _column(raw, "dealt"))
    options, want = head.get("options"), expected["options"]
    if isinstance(options, dict):
        found = _fields_difference("the header's options", want, options, plural=True)
        if found:
            return found[0], _column(raw, "options", *([found[1]] if found[1] else []))
    found = _fields_difference("the header", expected, head)
    if found:
        return found[0], _column(raw, *([found[1]] if found[1] else []))
    return ("the header is not written as the engine writes it (spacing or escapes differ)",
            _first_difference(raw, dumps(expected)))


def _key_columns(raw: str) -> dict[tuple[str, ...], int]:
    """The 1-based column of each key of a JSON line's objects, by its path
    of keys (arrays are passed through): where a message points."""
    out: dict[tuple[str, ...], int] = {}
    keys: list[list[str] | None] = []  # per open object its current key; None: an array
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == '"':
            end = i + 1
            while end < len(raw) and raw[end] != '"':
                end += 2 if raw[end] == "\\" else 1
            after = raw[end + 1:].lstrip(" \t\r")
            current = keys[-1] if keys else None
            if current is not None and after.startswith(":"):
                current[:] = [json.loads(raw[i:end + 1])]
                out.setdefault(tuple(k[0] for k in keys if k), i + 1)
            i = end + 1
            continue
        if ch in "{[":
            keys.append([] if ch == "{" else None)
        elif ch in "}]" and keys:
            keys.pop()
        i += 1
    return out


def _column(raw: str, *path: str) -> int:
    """The column of the key at ``path`` in a record line (1 if none)."""
    return _key_columns(raw).get(path, 1) if path else 1


def _first_difference(raw: str, expected: str) -> int:
    """The column of the first character where a line differs from the
    engine's."""
    return next((i for i, (a, b) in enumerate(zip(raw, expected, strict=False), 1) if a != b),
                min(len(raw), len(expected)) + 1)


def _shown(value: Any) -> str:
    """A recorded value in words: no JSON, and short."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value
    elif isinstance(value, list):
        text = "[" + ", ".join(_shown(v) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    else:
        text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _value_difference(key: str, have: Any, want: Any, source: str,
                      raw: str) -> tuple[str, int]:
    """How a field's recorded value differs from the engine's, in words, and
    the column it differs at: a deck or stock by its first card that differs,
    a list by its first entry."""
    column = _column(raw, key)
    if isinstance(have, str) and isinstance(want, str) and key in ("deck", "stock"):
        cards, wanted = have.split(), want.split()
        for i, (a, b) in enumerate(zip(cards, wanted, strict=False)):
            if a != b:
                start = raw.find('"', raw.find(":", column - 1)) + 1
                if raw[start:start + len(have)] == have:  # no escapes: point at the card
                    column = start + 1 + len(" ".join(cards[:i])) + (1 if i else 0)
                return (f"card {i + 1} of the {key} is {a} here, {source} {b}", column)
        return (f"the {key} holds {len(cards)} cards here, {source} {len(wanted)}", column)
    if isinstance(have, list) and isinstance(want, list) and len(have) == len(want):
        for i, (a, b) in enumerate(zip(have, want, strict=True)):
            if dumps(a) != dumps(b):
                return (f"{key!r} entry {i + 1} is {_shown(a)} here, {source} {_shown(b)}",
                        column)
    return f"{key!r} is {_shown(have)} here, {source} {_shown(want)}", column


def _line_difference(expected: Event, got: dict[str, Any], raw: str,
                     source: str = "the engine records") -> tuple[str, int]:
    """How a record line differs from the line the engine writes there, in
    words (no JSON), and the column it differs at."""
    kind = expected["type"]
    if got["type"] != kind:
        return (f"{_a(got['type'])} line where {source} {_a(kind)} line",
                _column(raw, "type"))
    for key, value in expected.items():
        if key not in got:
            return f"the {kind} line lacks {key!r}, which {source}", 1
        if dumps(got[key]) != dumps(value):
            message, column = _value_difference(key, got[key], value, source, raw)
            return f"the {kind} line: {message}", column
    extra = [k for k in got if k not in expected]
    if extra:
        return (f"the {kind} line has {extra[0]!r}, which the engine does not record",
                _column(raw, extra[0]))
    if list(got) != list(expected):
        return (f"the {kind} line's fields are out of order (the engine writes "
                f"{', '.join(expected)})", 1)
    return (f"the {kind} line is not written as the engine writes it (spacing or escapes "
            "differ)", _first_difference(raw, dumps(expected)))


def _a(kind: object) -> str:
    """'an action', 'a deal': a line's kind with its article."""
    word = str(kind)
    return f"{'an' if word[:1] in ('a', 'e', 'i', 'o', 'u') else 'a'} {word}"


def _from_position(text: object, seed: object, game: str, raw: str, line: int) -> State:
    """The state a record's header ``position`` names, dealt by its seed."""
    from rummylab.position import from_position, split

    if not isinstance(text, str):
        raise RecordError(f"'position' must be a position's text, not {_shown(text)}", line,
                          _column(raw, "position"))
    if type(seed) is not int:
        # the seed fills the position's unknown cards and deals the later hands
        raise RecordError("a match started from a position needs its seed", line,
                          _column(raw, "seed"))
    if split(text).game != game:
        raise RecordError(f"the position is of {split(text).game}, the header's game is {game}",
                          line, _column(raw, "position"))
    return from_position(text, seed)


def start_state(head: dict[str, Any], body: list[dict[str, Any]] | None = None,
                decks: list[list[Card]] | None = None, *, raw: str = "",
                line: int | None = None) -> State:
    """The state a match's header ``head`` starts from, before its first line:
    its position (docs/positions.md), or dealt again from its seed, or, dealt
    as given, from ``decks`` (its deal lines' decks; ``body``, its lines, sets
    up the game's replay). ``raw`` and ``line`` place an error in the file."""
    cls: Any = game_class(str(head.get("game")))
    played = cls.record_version_setup(head.get("version"))  # an older version's play
    options, seed, start = head.get("options"), head.get("seed"), head.get("position")
    setup = cls.replay_setup(body or [])  # read first: a malformed line is the header's error
    with as_played():
        if start is not None:
            return _from_position(start, seed, cls.game_name, raw, line or 1)
        if type(seed) is int and head.get("dealt") != "given":
            return cast(State, cls(options, seed, **played))
        if decks is None:
            raise RecordError("this match was dealt from given decks, not by a seed", line)
        return cast(State, cls(options, seed, decks=decks, **setup, **played))


def _replay_match(lines: list[tuple[int, str, dict[str, Any]]],
                  number: int | None) -> ReplayedMatch:
    n0, _, head = lines[0]
    if head.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} header", n0, _column(lines[0][1], "format"),
                          unreadable=True)
    version = head.get("version")
    if type(version) is not int or version not in VERSIONS:
        raise RecordError(f"record format version {version!r} is not supported "
                          f"(this reads versions {', '.join(map(str, VERSIONS))})", n0,
                          _column(lines[0][1], "version"), unreadable=True)
    match = head.get("match", 1)
    if type(match) is not int or match < 1:
        raise RecordError(f"'match' must be a match number (1, 2, ...), not {match!r}", n0,
                          _column(lines[0][1], "match"))
    if number is not None and match != number:
        raise RecordError(f"match {match} where match {number} comes next (a record numbers "
                          "its matches one after another)", n0, _column(lines[0][1], "match"))
    options = head.get("options")
    if options is not None and not isinstance(options, dict):
        raise RecordError(f"'options' must map option names to values, not {options!r}", n0,
                          _column(lines[0][1], "options"))
    decks = []
    for n, raw, obj in lines:
        kind = obj["type"]
        if kind == "deal":
            dealer = obj.get("dealer")
            if type(dealer) is not int:
                raise RecordError(f"a deal's 'dealer' must be a seat number, not {dealer!r}", n,
                                  _column(raw, "dealer"))
        if kind in ("deal", "reshuffle"):
            field = "deck" if kind == "deal" else "stock"
            cards = obj.get(field)
            if not isinstance(cards, str):
                raise RecordError(f"a {kind}'s {field!r} must be its cards as text, "
                                  f"not {cards!r}", n, _column(raw, field))
            try:
                parsed = parse_cards(cards, jokers=True)
            except RummyError as e:
                raise RecordError(f"bad {field}: {e}", n, _column(raw, field)) from None
            if kind == "deal":
                decks.append(parsed)
    try:
        seed = head.get("seed")
        # every game is reproducible from its seed: a seeded match is dealt again from
        # it, and its deal lines must agree; one dealt as given replays its own decks
        seeded = type(seed) is int and head.get("dealt") != "given"
        start = head.get("position")
        state = start_state(head, [obj for _, _, obj in lines], decks, raw=lines[0][1],
                            line=n0)
        seats = head.get("seats")
        if (not isinstance(seats, list) or len(seats) != state.num_players
                or not all(isinstance(x, str) for x in seats)):
            raise RecordError(f"'seats' must name the {state.num_players} players, "
                              f"not {seats!r}", n0, _column(lines[0][1], "seats"))
        state.decks_given = head.get("dealt") == "given"  # the header's word, checked below
        expected = dumps(header(state, seats, match, version))
    except RecordError:
        raise
    except KeyError as e:
        raise RecordError(f"cannot set up the match: a line lacks its {e} field", n0) from None
    except (RummyError, TypeError, ValueError, OverflowError) as e:
        raise RecordError(f"cannot set up the match: {e}", n0) from None
    if expected != lines[0][1]:
        message, column = _header_difference(json.loads(expected), head, lines[0][1])
        raise RecordError(message, n0, column)
    pending = state.take_events()
    actions = 0
    for n, raw, obj in lines[1:]:
        kind = obj["type"]
        if kind in ("action", "advice"):
            if pending:
                raise RecordError(f"{_a(kind)} line where the engine records "
                                  f"{_a(pending[0]['type'])} line", n, _column(raw, "type"))
            try:
                seat = obj["seat"]
                if type(seat) is not int:
                    raise RecordError(f"'seat' must be a seat number, not {seat!r}", n,
                                      _column(raw, "seat"))
                if kind == "action":
                    if seat != state.current_player():
                        raise RecordError(f"seat {seat} acts, but seat "
                                          f"{state.current_player()} is to act", n,
                                          _column(raw, "seat"))
                    state.apply(str(obj["action"]))
                    actions += 1
                else:
                    advise = getattr(state, "advise", None)
                    if advise is None:
                        raise RecordError(f"{state.game_name} has no advice", n,
                                          _column(raw, "type"))
                    advise(str(obj["action"]))
            except RecordError:
                raise
            except KeyError as e:
                raise RecordError(f"the line lacks its {e} field", n) from None
            except RummyError as e:
                raise RecordError(f"illegal action: {e}", n, _column(raw, "action")) from None
            pending = state.take_events()
        if not pending:
            after = "the match is over" if state.is_terminal() else "an action comes next"
            raise RecordError(f"{_a(kind)} line the engine does not record here: {after}", n,
                              _column(raw, "type"))
        event = pending.pop(0)
        if dumps(event) != raw:
            if seeded and kind in ("deal", "cut", "reshuffle"):
                message, column = _line_difference(event, obj, raw, "the header's seed gives")
                raise RecordError(f"seed {seed} does not deal this match: {message}", n, column)
            message, column = _line_difference(event, obj, raw)
            raise RecordError(f"mismatch: {message}", n, column)
    if pending or not state.is_terminal():
        raise RecordError("the match is not over where the record ends", lines[-1][0])
    # a match started from a position plays its first hand undealt
    hands = sum(1 for _, _, o in lines if o["type"] == "deal") + (start is not None)
    winners = list(getattr(state, "winners", []))
    final = list(getattr(state, "final_scores", []))
    return ReplayedMatch(match, state.game_name, n0, hands, actions,
                         winners, final, state, seeded and start is None)
