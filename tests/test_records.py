"""Game records: JSON Lines that replay byte for byte; a tampered record is a
RecordError naming the line ("What a complete implementation shows")."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from helpers import gin, play
from rummylab import new_state
from rummylab.bots import make_bot
from rummylab.errors import RecordError
from rummylab.gin.game import GinState
from rummylab.gin.three_player import Gin3State
from rummylab.records import RecordWriter, dumps, replay


def record_match(game: str, seed: int, options=None, advise: bool = False,
                 writer: RecordWriter | None = None, stream: io.StringIO | None = None) -> str:
    """Play one match with simple bots and return its record text."""
    stream = stream or io.StringIO()
    writer = writer or RecordWriter(stream)
    state = new_state(game, options or {"target": 40}, seed=seed)
    bots = [make_bot("simple", game, seed + i) for i in range(state.num_players)]
    writer.begin(state, ["simple"] * state.num_players)
    while not state.is_terminal():
        seat = state.current_player()
        if advise and isinstance(state, Gin3State) and seat == state.non_dealer:
            state.advise(state.legal_actions()[0])
        state.apply_action(bots[seat].act(state.observation(seat)))
        writer.write_events(state.take_events())
    return stream.getvalue()


def replay_text(text: str):
    return list(replay(io.StringIO(text)))


def lines_of(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def first_line(text: str, pred) -> int:
    """1-based number of the first line whose object satisfies ``pred``."""
    for n, line in enumerate(text.splitlines(), 1):
        if pred(json.loads(line)):
            return n
    raise AssertionError("no such line")


@pytest.mark.parametrize("game", ["gin", "gin3"])
def test_records_replay_byte_for_byte(game):
    """Records: a match replays to the same result; every line is regenerated
    by the engine and must match byte for byte."""
    text = record_match(game, 3, advise=True)
    (m,) = replay_text(text)
    assert m.game == game and m.line == 1
    lines = text.splitlines()
    assert m.hands == sum(1 for line in lines if '"type":"deal"' in line)
    assert m.actions == sum(1 for line in lines if '"type":"action"' in line)
    assert m.winners == m.state.winners and m.winners
    head = json.loads(lines[0])
    assert head["format"] == "rummylab-record" and head["version"] == 2
    assert head["game"] == game and head["seed"] == 3
    assert json.loads(lines[-1])["type"] == "end"
    for line in lines:
        assert dumps(json.loads(line)) == line  # compact, key order kept


@pytest.mark.parametrize(("changed", "value"), [("knock_limit", 5), ("big_gin_bonus", 40),
                                              ("game_bonus", 250_000)])
def test_records_written_before_an_option_check_still_replay(changed, value):
    """Every game is reproducible from its record: options that a later check
    refuses (a value Oklahoma makes void, a bonus without big gin, one over
    the ceiling) were accepted before it, and a record of them replays as it
    was played; a new game with them is still refused."""
    from rummylab.errors import OptionError
    from rummylab.options import as_played

    options = {"target": 40, "oklahoma": True, changed: value}
    with pytest.raises(OptionError):
        new_state("gin", options, seed=5)
    with as_played():  # the match as the code before the check played it
        text = record_match("gin", 5, options)
    assert json.loads(text.splitlines()[0])["options"][changed] == value
    (m,) = replay_text(text)
    assert m.state.options[changed] == value and m.winners
    with pytest.raises(OptionError):  # as_played ends with its block
        new_state("gin", options, seed=5)


def test_records_gin3_record_holds_cut_and_advice():
    """Records: three-player Gin records the role cut (D-6) and the sitter's
    advice (§2.2), and both replay."""
    text = record_match("gin3", 5, advise=True)
    kinds = [json.loads(line)["type"] for line in text.splitlines()]
    assert kinds[:3] == ["header", "cut", "deal"]
    assert "advice" in kinds
    replay_text(text)


def test_records_several_matches_in_one_file():
    """Records: a file holds one or more matches, numbered."""
    stream = io.StringIO()
    writer = RecordWriter(stream)
    record_match("gin", 1, writer=writer, stream=stream)
    text = record_match("gin", 2, writer=writer, stream=stream)
    ms = replay_text(text)
    assert [m.match for m in ms] == [1, 2]
    headers = [n for n, line in enumerate(text.splitlines(), 1) if '"type":"header"' in line]
    assert [m.line for m in ms] == headers and headers[0] == 1


def test_records_scripted_match_replays():
    """Records: a scripted deal (deck orders given) is recorded and replays."""
    state = gin("Ac 2c 3c 7d 7h 7s 9h Th Jh Kd", "4s 5s 6s Jc Jd Js 2h 3h 4h Tc", "Qh", "",
                {"target": 30})
    stream = io.StringIO()
    writer = RecordWriter(stream)
    writer.begin(state, ["a", "b"])
    play(state, "take discard", "knock Kd")
    writer.write_events(state.take_events())
    (m,) = replay_text(stream.getvalue())
    assert m.winners == [1] and m.final_scores == [0, 35]


# --- tampering ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def gin_text() -> str:
    return record_match("gin", 8)


def tamper(text: str, n: int, new: str) -> str:
    lines = text.splitlines()
    lines[n - 1] = new
    return "\n".join(lines) + "\n"


def assert_error_at(text: str, line: int, match: str | None = None) -> RecordError:
    with pytest.raises(RecordError, match=match) as info:
        replay_text(text)
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}, column ")
    return info.value


def test_records_tampered_action_is_an_error_at_its_line(gin_text):
    """Records: an action changed to one that is not legal there fails on its line."""
    n = first_line(gin_text, lambda o: o["type"] == "action" and o["action"].startswith("discard"))
    obj = json.loads(gin_text.splitlines()[n - 1])
    obj["action"] = "pass"  # no pass after the opening
    assert_error_at(tamper(gin_text, n, dumps(obj)), n, "illegal action")


def test_records_tampered_legal_action_fails_where_the_record_diverges(gin_text):
    """Records: changing an opening pass into taking the upcard is legal, but
    the next line (the dealer's turn) no longer matches."""
    n = first_line(gin_text, lambda o: o["type"] == "action")
    obj = json.loads(gin_text.splitlines()[n - 1])
    obj["action"] = "take discard" if obj["action"] == "pass" else "pass"
    assert_error_at(tamper(gin_text, n, dumps(obj)), n + 1)


def test_records_wrong_seat_is_an_error_at_its_line(gin_text):
    """Records: an action by the wrong seat fails on its line."""
    n = first_line(gin_text, lambda o: o["type"] == "action")
    obj = json.loads(gin_text.splitlines()[n - 1])
    obj["seat"] = 1 - obj["seat"]
    assert_error_at(tamper(gin_text, n, dumps(obj)), n, "is to act")


def test_records_changed_result_is_a_mismatch_at_its_line(gin_text):
    """Records: a result whose points were edited fails byte comparison."""
    n = first_line(gin_text, lambda o: o["type"] == "result")
    obj = json.loads(gin_text.splitlines()[n - 1])
    obj["points"] += 1
    assert_error_at(tamper(gin_text, n, dumps(obj)), n, "mismatch")


def test_records_reformatted_line_is_a_mismatch(gin_text):
    """Records: byte for byte — the same object with other spacing does not pass."""
    n = first_line(gin_text, lambda o: o["type"] == "result")
    obj = json.loads(gin_text.splitlines()[n - 1])
    assert_error_at(tamper(gin_text, n, json.dumps(obj)), n, "mismatch")


def test_records_truncated_record_is_an_error_at_its_last_line(gin_text):
    """Records: a record that stops mid-match fails at its last line."""
    lines = lines_of(gin_text)
    for keep in (len(lines) - 1, len(lines) // 2, 1):
        assert_error_at("".join(lines[:keep]), keep, "middle of a match")


def test_records_missing_action_line_is_an_error(gin_text):
    """Records: a record with an action line removed fails on the line after."""
    n = first_line(gin_text, lambda o: o["type"] == "action")
    lines = lines_of(gin_text)
    text = "".join(lines[: n - 1] + lines[n:])
    assert_error_at(text, n)


def test_records_not_json_is_an_error_at_its_line(gin_text):
    """Records: a line that is not JSON fails on its line."""
    assert_error_at(tamper(gin_text, 4, '{"type": "action", '), 4, "not JSON")
    assert_error_at(tamper(gin_text, 3, "[1, 2]"), 3, "JSON object")
    assert_error_at(tamper(gin_text, 5, ""), 5, "empty line")
    # nesting deeper than the JSON reader recurses is no JSON either, not a crash
    assert_error_at(tamper(gin_text, 4, "[" * 100_000 + "]" * 100_000), 4, "nested too deeply")


def test_records_wrong_version_is_an_error_at_the_header(gin_text):
    """Records: an unsupported format version fails on the header line."""
    head = json.loads(gin_text.splitlines()[0])
    for bad in (3, 0, True, "2", None):
        head["version"] = bad
        assert_error_at(tamper(gin_text, 1, dumps(head)), 1, f"version {bad!r}")
    head["version"], head["format"] = 2, "something-else"
    assert_error_at(tamper(gin_text, 1, dumps(head)), 1, "header")


def test_records_wrong_header_fields_are_errors_at_the_header(gin_text):
    """Records: an unknown game or option in the header fails on line 1."""
    head = json.loads(gin_text.splitlines()[0])
    assert_error_at(tamper(gin_text, 1, dumps({**head, "game": "canasta"})), 1)
    bad = {**head, "options": {**head["options"], "nope": 1}}
    assert_error_at(tamper(gin_text, 1, dumps(bad)), 1)
    for match in ("x", None, 0, 1.0, True):
        assert_error_at(tamper(gin_text, 1, dumps({**head, "match": match})), 1, "'match'")
    # seats: one name per player of the game
    for seats in (["simple"], ["simple", "simple", "simple"], "simple,simple", [1, 2]):
        assert_error_at(tamper(gin_text, 1, dumps({**head, "seats": seats})), 1, "'seats'")
    # a seed that is no whole number would deal another game than the one it names
    for seed in ("7", 7.0, [1], True):
        assert_error_at(tamper(gin_text, 1, dumps({**head, "seed": seed})), 1, "seed")


@pytest.mark.parametrize("game, options", [
    ("gin", None), ("gin3", None), ("three-thirteen", {"players": 3}),
    ("manipulation", {"players": 3, "target": 40})])
def test_records_malformed_deal_lines_are_errors_not_crashes(game, options):
    """Records: a deck holding a number instead of a card, or a dealer that
    no whole number can hold (JSON's 1e999), fails as a match that cannot be
    set up, not with a crash."""
    text = record_match(game, 5, options)
    n = first_line(text, lambda o: o["type"] == "deal")
    deal = json.loads(text.splitlines()[n - 1])
    for deck in ([7], 5, None):
        assert_error_at(tamper(text, n, dumps({**deal, "deck": deck})), n, "'deck' must be")
    no_deck = {k: v for k, v in deal.items() if k != "deck"}
    assert_error_at(tamper(text, n, dumps(no_deck)), n, "'deck' must be")
    assert_error_at(tamper(text, n, dumps({**deal, "deck": "7h zz"})), n, "bad deck")
    line = dumps(deal).replace('"dealer":', '"dealer":1e999,"x":', 1)
    assert_error_at(tamper(text, n, line), n, "'dealer' must be a seat number")
    no_dealer = {k: v for k, v in deal.items() if k != "dealer"}
    assert_error_at(tamper(text, n, dumps(no_dealer)), n, "'dealer' must be a seat number")


def test_records_reshuffle_stock_is_checked_on_its_line():
    """Records (Three Thirteen, D-12): a reshuffle whose stock is missing or
    no cards as text fails on its own line."""
    # random players seldom go out, so the stock runs out
    stream = io.StringIO()
    writer = RecordWriter(stream)
    state = new_state("three-thirteen", {"players": 2}, seed=1)
    bots = [make_bot("random", "three-thirteen", seed=s) for s in range(2)]
    writer.begin(state, ["random", "random"])
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(bots[seat].act(state.observation(seat)))
        writer.write_events(state.take_events())
    text = stream.getvalue()
    assert '"type":"reshuffle"' in text
    n = first_line(text, lambda o: o["type"] == "reshuffle")
    obj = json.loads(text.splitlines()[n - 1])
    for stock in (5, [7], None):
        assert_error_at(tamper(text, n, dumps({**obj, "stock": stock})), n, "'stock' must be")
    assert_error_at(tamper(text, n, dumps({**obj, "stock": "Zz"})), n, "bad stock")


def test_records_missing_fields_are_named(gin_text):
    """Records: a line without a field it needs names the field; options
    that are no mapping are named as such."""
    n = first_line(gin_text, lambda o: o["type"] == "action")
    obj = json.loads(gin_text.splitlines()[n - 1])
    del obj["action"]
    assert_error_at(tamper(gin_text, n, dumps(obj)), n, "lacks its 'action' field")
    head = json.loads(gin_text.splitlines()[0])
    assert_error_at(tamper(gin_text, 1, dumps({**head, "options": [1]})), 1,
                    "'options' must map option names")


def test_records_seat_must_be_a_seat_number(gin_text):
    """Records: an action's seat written as text is named as such."""
    n = first_line(gin_text, lambda o: o["type"] == "action")
    obj = json.loads(gin_text.splitlines()[n - 1])
    assert_error_at(tamper(gin_text, n, dumps({**obj, "seat": str(obj["seat"])})), n,
                    "'seat' must be a seat number")


@pytest.mark.parametrize("rounds", [[1], "abc", {"0": "Kc"}, [["Kc"]], [{"x": "Kc"}], None])
def test_records_gin3_malformed_cut_is_an_error_at_the_header(rounds):
    """Records, D-6: a three-player Gin cut line that is no list of {seat: card}
    rounds fails as a match that cannot be set up, not with a crash."""
    text = record_match("gin3", 4)
    n = first_line(text, lambda o: o["type"] == "cut")
    cut = json.loads(text.splitlines()[n - 1])
    assert_error_at(tamper(text, n, dumps({**cut, "rounds": rounds})), 1, "cut")


def test_records_blank_lines_only_at_the_end(gin_text):
    """Records: blank lines after the last match are no part of it (an
    editor's final newline); between lines they are an error at the first."""
    (m,) = replay_text(gin_text + "\n\n")
    assert m.match == 1
    lines = lines_of(gin_text)
    assert_error_at("".join(lines[:4]) + "\n\n" + "".join(lines[4:]), 5, "empty line")


def test_records_second_match_errors_count_lines_from_the_file_start():
    """Records: line numbers count from the start of the file, across matches."""
    stream = io.StringIO()
    writer = RecordWriter(stream)
    record_match("gin", 1, writer=writer, stream=stream)
    text = record_match("gin3", 2, writer=writer, stream=stream)
    lines = text.splitlines()
    second = next(i for i, line in enumerate(lines, 1) if i > 1 and '"type":"header"' in line)
    n = next(i for i in range(second, len(lines) + 1) if '"type":"action"' in lines[i - 1])
    obj = json.loads(lines[n - 1])
    obj["seat"] = (obj["seat"] + 1) % 3
    with pytest.raises(RecordError) as info:
        replay_text(tamper(text, n, dumps(obj)))
    assert info.value.line == n


def test_records_record_must_begin_with_a_header(gin_text):
    """Records: a record whose first line is not a header fails at line 1."""
    assert_error_at("".join(lines_of(gin_text)[1:]), 1, "header")


def test_records_header_options_are_the_resolved_options():
    """Records: options are recorded as the engine resolved them."""
    text = record_match("gin", 4, options={"target": "25", "big_gin": "yes"})
    head = json.loads(text.splitlines()[0])
    assert head["options"] == GinState({"target": 25, "big_gin": True}, 4).options


def test_records_replay_command_reads_a_byte_order_mark(gin_text, tmp_path, capsys):
    """Records: a record saved by an editor with a UTF-8 byte-order mark replays."""
    from rummylab.cli import main

    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + gin_text.encode("utf-8"))
    assert main(["replay", "-q", str(path)]) == 0
    assert capsys.readouterr().out.startswith("ok: 1 match,")


# --- the header: its seed, its match number, its fields ----------------------------


def _edit_header(text: str, n: int = 1, **changes: object) -> str:
    head = json.loads(text.splitlines()[n - 1])
    head.update(changes)
    return tamper(text, n, dumps(head))


@pytest.mark.parametrize("game", ["gin", "gin3", "three-thirteen", "manipulation"])
def test_records_header_seed_must_deal_the_match(game):
    """Every game is reproducible from its seed: a header whose seed deals
    other cards than the record's is an error at the first deal it misses."""
    options = {"target": 40} if game in ("gin", "gin3") else (
        {"players": 3, "target": 60} if game == "manipulation" else {"players": 3})
    text = record_match(game, 5, options)
    assert replay_text(text)
    bad = _edit_header(text, seed=6)
    err = assert_error_at(bad, first_line(text, lambda o: o["type"] in ("deal", "cut")),
                          "seed 6 does not deal this match")
    assert "the header's seed gives" in str(err)


def test_records_deck_changed_with_the_seed_kept_is_caught_at_the_deal(gin_text):
    n = first_line(gin_text, lambda o: o["type"] == "deal")
    deal = json.loads(gin_text.splitlines()[n - 1])
    cards = deal["deck"].split()
    cards[-1], cards[-2] = cards[-2], cards[-1]  # two stock cards no one may ever draw
    deal["deck"] = " ".join(cards)
    assert_error_at(tamper(gin_text, n, dumps(deal)), n, "does not deal this match")


def test_records_scripted_deals_are_marked_and_skip_the_seed_check():
    state = gin("Ac 2c 3c 7d 7h 7s 9h Th Jh Kd", "4s 5s 6s Jc Jd Js 2h 3h 4h Tc", "Qh", "",
                {"target": 30})
    stream = io.StringIO()
    RecordWriter(stream).begin(state, ["a", "b"])
    play(state, "take discard", "knock Kd")
    stream.write("".join(dumps(e) + "\n" for e in state.take_events()))
    text = stream.getvalue()
    assert json.loads(text.splitlines()[0])["dealt"] == "given"
    (m,) = replay_text(text)
    assert not m.seed_checked
    # without the mark the seed must deal the cards, and it does not
    head = json.loads(text.splitlines()[0])
    del head["dealt"]
    assert_error_at(tamper(text, 1, dumps(head)), 2, "does not deal this match")


def test_records_matches_are_numbered_in_order():
    stream = io.StringIO()
    writer = RecordWriter(stream)
    record_match("gin", 1, writer=writer, stream=stream)
    record_match("gin", 2, writer=writer, stream=stream)
    text = stream.getvalue()
    assert [m.match for m in replay_text(text)] == [1, 2]
    second = first_line(text, lambda o: o["type"] == "header" and o["match"] == 2)
    assert_error_at(text + text, len(text.splitlines()) + 1, "match 1 where match 3 comes next")
    assert_error_at(_edit_header(text, second, match=7), second, "match 7 where match 2")
    # one match cut out of a run replays alone, under its own number
    alone = "".join(text.splitlines(keepends=True)[second - 1:])
    assert [m.match for m in replay_text(alone)] == [2]


@pytest.mark.parametrize("edit, message", [
    (lambda h: h.pop("seed"), "the header lacks 'seed'"),
    (lambda h: h.update(extra=1), "the header has 'extra', which the engine does not record"),
    (lambda h: h.update(seats=["simple", "strong"]), None),
    (lambda h: h["options"].update(target="40"),
     "the header's options: 'target' is \"40\"; the engine records 40"),
    # the last option: named, not cut off with the rest of the options
    (lambda h: h["options"].pop("shutout_double"), "the header's options lack 'shutout_double'"),
    (lambda h: h.update(dealt="seed"), "'dealt' may only be \"given\", not \"seed\""),
])
def test_records_header_differences_are_named(gin_text, edit, message):
    head = json.loads(gin_text.splitlines()[0])
    edit(head)
    text = tamper(gin_text, 1, dumps(head))
    if message is None:  # the seats are labels: any names replay
        assert replay_text(text)
        return
    assert_error_at(text, 1, re.escape(message))


def test_records_header_spacing_is_told_as_such(gin_text):
    spaced = gin_text.splitlines()[0].replace('"type":"header"', '"type": "header"')
    assert_error_at(tamper(gin_text, 1, spaced), 1, "spacing or escapes differ")


def test_records_fields_out_of_order_are_named(gin_text):
    head = json.loads(gin_text.splitlines()[0])
    reordered = {"format": head.pop("format"), **head}
    assert_error_at(tamper(gin_text, 1, dumps(reordered)), 1, "out of order")


def test_records_a_number_too_long_is_not_json(gin_text):
    text = tamper(gin_text, 1, gin_text.splitlines()[0].replace('"seed":8', '"seed":' + "9" * 5000))
    err = assert_error_at(text, 1, "not JSON")
    assert err.unreadable


@pytest.mark.parametrize("game, given", [
    ("gin", {"first_dealer": 1}),
    ("manipulation", {"first_dealer": 2}),
    ("three-thirteen", {"first_dealer": 1}),
])
def test_records_a_given_first_dealer_is_dealt_as_given(game, given):
    """A match set up with a first dealer of the caller's is not the seed's
    alone: its header says so and it replays."""
    from rummylab.registry import game_class

    options = {"players": 3} if game != "gin" else {"target": 30}
    if game == "manipulation":
        options["target"] = 40
    state = game_class(game)(options, 7, **given)
    assert state.decks_given
    stream = io.StringIO()
    writer = RecordWriter(stream)
    writer.begin(state, ["simple"] * state.num_players)
    bots = [make_bot("simple", game, i) for i in range(state.num_players)]
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(bots[seat].act(state.observation(seat)))
        writer.write_events(state.take_events())
    (m,) = replay_text(stream.getvalue())
    assert not m.seed_checked and json.loads(stream.getvalue().splitlines()[0])["dealt"] == "given"


def test_records_replay_command_counts_matches_not_dealt_from_a_seed(gin_text, tmp_path, capsys):
    from rummylab.cli import main

    rec = tmp_path / "r.jsonl"
    rec.write_text(gin_text, encoding="utf-8")
    assert main(["replay", "-q", str(rec)]) == 0
    assert capsys.readouterr().out.strip().endswith("to the same bytes")
    rec.write_text(_edit_header(gin_text, seed=None), encoding="utf-8")
    assert main(["replay", "-q", str(rec)]) == 0
    assert "1 of them with no seed that deals them" in capsys.readouterr().out


def test_records_version_1_still_replays():
    """Records: a version-1 record (the engine before every Manipulation turn
    ended with its player's own pass) replays as it was played; the same
    lines read as version 2 miss the passes and fail."""
    data = Path(__file__).parent / "data"
    for name, game in (("manipulation-v1.jsonl", "manipulation"), ("gin-v1.jsonl", "gin")):
        text = (data / name).read_text()
        assert json.loads(text.splitlines()[0])["version"] == 1
        matches = replay_text(text)
        assert matches and all(m.game == game and m.state.is_terminal() for m in matches)
    text = (data / "manipulation-v1.jsonl").read_text()
    assert '"action":"pass"' not in text and '"meld ' in text
    v2 = text.replace('"version":1,', '"version":2,')
    with pytest.raises(RecordError, match="acts, but seat"):
        replay_text(v2)



# --- where an error is, in words (issue 45) -------------------------------------


def test_records_a_line_cut_mid_string_names_its_column(gin_text):
    """A record cut in the middle of a line: the message names the line and
    the column the unterminated string starts at, not the reader's dangling
    'starting at'."""
    line = gin_text.splitlines()[3]
    cut = line[:line.index('"action":"') + 12]
    err = assert_error_at(tamper(gin_text, 4, cut), 4, "not JSON")
    assert err.column == line.index('"action":"') + 10  # the opening quote of the value, 1-based
    assert str(err) == f"line 4, column {err.column}: not JSON (Unterminated string)"
    assert err.unreadable


def test_records_every_error_names_a_column(gin_text):
    """Whatever is wrong, the message starts with its line and column."""
    for text in (tamper(gin_text, 3, "[1, 2]"), tamper(gin_text, 5, ""),
                 "".join(lines_of(gin_text)[:5])):
        with pytest.raises(RecordError) as info:
            replay_text(text)
        assert re.match(r"line \d+, column \d+: ", str(info.value))


def test_records_a_tampered_seed_is_told_in_words_at_the_card(gin_text):
    """A header whose seed deals other cards: the message names the first
    card that differs and points at it, with no JSON line in it."""
    head = json.loads(gin_text.splitlines()[0])
    head["seed"] = 9
    n = first_line(gin_text, lambda o: o["type"] == "deal")
    err = assert_error_at(tamper(gin_text, 1, dumps(head)), n, "seed 9 does not deal")
    raw = gin_text.splitlines()[n - 1]
    first = json.loads(raw)["deck"].split()[0]
    assert f"card 1 of the deck is {first} here, the header's seed gives " in str(err)
    assert raw[err.column - 1:err.column + 1] == first
    assert "{" not in str(err) and '"type"' not in str(err)


def test_records_a_swapped_card_is_pointed_at(gin_text):
    n = first_line(gin_text, lambda o: o["type"] == "deal")
    deal = json.loads(gin_text.splitlines()[n - 1])
    cards = deal["deck"].split()
    cards[-1], cards[-2] = cards[-2], cards[-1]
    deal["deck"] = " ".join(cards)
    line = dumps(deal)
    err = assert_error_at(tamper(gin_text, n, line), n,
                          f"card {len(cards) - 1} of the deck is {cards[-2]} here")
    assert line[err.column - 1:err.column + 1] == cards[-2]


@pytest.mark.parametrize("edit, message, key", [
    (lambda o: o.update(points=o["points"] + 1),
     "mismatch: the result line: 'points' is", "points"),
    (lambda o: o["scores"].__setitem__(1, o["scores"][1] + 7),
     "mismatch: the result line: 'scores' entry 2 is", "scores"),
    (lambda o: o.update(extra=1), "the result line has 'extra', which the engine does not",
     "extra"),
])
def test_records_a_changed_line_is_told_field_by_field(gin_text, edit, message, key):
    n = first_line(gin_text, lambda o: o["type"] == "result")
    obj = json.loads(gin_text.splitlines()[n - 1])
    edit(obj)
    line = dumps(obj)
    err = assert_error_at(tamper(gin_text, n, line), n, re.escape(message))
    assert line[err.column - 1:].startswith(f'"{key}":')
    assert "{" not in str(err)


def test_records_no_message_holds_a_raw_json_line(gin_text):
    """Lines moved, doubled, reformatted or dropped: each message says what
    differs in words."""
    lines = gin_text.splitlines()
    n = first_line(gin_text, lambda o: o["type"] == "result")
    a = first_line(gin_text, lambda o: o["type"] == "action")
    texts = [
        "\n".join([*lines[:n], lines[n - 1], *lines[n:]]) + "\n",  # a result twice
        "\n".join(lines[:a - 1] + lines[a:]) + "\n",  # an action dropped
        "\n".join(lines[:n - 1] + lines[n:]) + "\n",  # a result dropped
        tamper(gin_text, n, json.dumps(json.loads(lines[n - 1]))),  # spaced out
    ]
    for text in texts:
        with pytest.raises(RecordError) as info:
            replay_text(text)
        message = str(info.value)
        assert "{" not in message and '":' not in message, message
        assert re.match(r"line \d+, column \d+: ", message)
