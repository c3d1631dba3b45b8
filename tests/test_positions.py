"""Positions (issue 44, docs/positions.md): one line names a moment of any of
the four games, and a state started from it plays on as the original.

Over random moments (random legal moves from random seeds, stopped anywhere):

- the full position round-trips: ``from_position(p).position() == p``, with the
  same seat to act and the same legal moves; started with the original's seed
  it plays the same random continuation exactly as the original, to the end
  of the current hand and of the next: same positions, observations (but the
  previous hand's result, which a position does not hold), results and scores;
- every seat's position round-trips through ``from_position`` with any seed,
  and the seat to act keeps its legal moves in its own position;
- a seat's position writes no card the seat may not know (its observation).

And bad positions, at least 20 per game, are refused with a one-line
PositionError naming what is wrong.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylab import PositionError, from_position, new_state
from rummylab.bots import make_bot
from rummylab.cards import JOKER, cards_of, multi_cards, parse_card
from rummylab.game import State
from rummylab.gin.three_player import Gin3State
from rummylab.position import split

DOCS = Path(__file__).resolve().parent.parent / "docs" / "positions.md"

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "gin": [{}, {"target": 25}, {"oklahoma": True, "target": 40},
            {"hollywood": True, "target": 30}, {"big_gin": True, "line_bonus": 5, "target": 30},
            {"allow_discard_of_taken_card": True, "first_draw_after_both_pass": "dealer"}],
    "gin3": [{}, {"target": 25}, {"oklahoma": True, "target": 30},
             {"hollywood": True, "target": 25}],
    "three-thirteen": [{}, {"players": 3}, {"players": 4, "natural_wild_sets": True},
                       {"allow_discard_of_taken_card": True}],
    "manipulation": [{"players": 2, "target": 30}, {"players": 3},
                     {"players": 4, "initial_meld_from_hand": True, "target": 60}],
}
# Manipulation's moves are solved (meld best): shorter moments
MAX_STEPS = {"gin": 300, "gin3": 300, "three-thirteen": 400, "manipulation": 120}


def hand_number(state: State) -> int:
    return int(getattr(state, "hand_number", getattr(state, "round", 0)))


def results(state: State) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = getattr(state, "hand_results", None) or getattr(
        state, "round_results", [])
    return found


SIMPLE = {game: make_bot("simple", game, 0) for game in OPTIONS}


def step(state: State, rng: random.Random, bots: float = 0.6) -> None:
    """One legal move, the simple bot's or a random one, so that hands end
    (random players seldom go out) and take odd turns (in three-player Gin
    the sitter sometimes advises first)."""
    seat = state.current_player()
    if isinstance(state, Gin3State) and seat == state.non_dealer and rng.random() < 0.3:
        state.advise(rng.choice(state.legal_actions()))
        if rng.random() < 0.5:
            return  # a moment with the advice given and the captain still to move
    if rng.random() < bots:
        state.apply_action(SIMPLE[state.game_name].act(state.observation(seat)))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def moment(game: str, options: dict[str, Any], seed: int, steps: int) -> State:
    state = new_state(game, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        step(state, rng)
    return state


def view(obs: Any) -> Any:
    """An observation less the previous hand's result (not in a position)."""
    return dataclasses.replace(obs, last_result=None)


def moments(game: str) -> Any:
    return st.tuples(st.sampled_from(OPTIONS[game]), st.integers(0, 10**6),
                     st.integers(0, MAX_STEPS[game]))


# -- the full position -------------------------------------------------------------


@pytest.mark.parametrize("game", list(OPTIONS))
@settings(max_examples=40)
@given(data=st.data())
def test_full_position_plays_on_as_the_original(game: str, data: st.DataObject) -> None:
    options, seed, steps = data.draw(moments(game))
    play_seed = data.draw(st.integers(0, 2**32))
    original = moment(game, options, seed, steps)
    text = original.position()
    assert "\n" not in text and text.startswith(f"{game}/1 ")
    copy = from_position(text, seed=seed)
    assert copy.position() == text
    assert from_position(text).position() == text  # any seed: the moment is the same
    assert copy.current_player() == original.current_player()
    assert copy.legal_actions() == original.legal_actions()
    # the same continuation: to the end of this hand and of the next
    rng = random.Random(play_seed)
    start = hand_number(original)
    original.take_events()
    while not original.is_terminal() and hand_number(original) <= start + 1:
        assert copy.position() == original.position()
        for seat in range(original.num_players):
            assert view(copy.observation(seat)) == view(original.observation(seat))
        assert copy.legal_actions() == original.legal_actions()
        step(original, rng)
        _same_move(original, copy)
    assert copy.is_terminal() == original.is_terminal()
    assert copy.scores == original.scores
    assert copy.final_scores == original.final_scores
    assert copy.winners == original.winners
    assert copy.returns() == original.returns()
    done = results(copy)
    assert done == results(original)[len(results(original)) - len(done):]


def _same_move(original: State, copy: State) -> None:
    """Apply to ``copy`` the move (and advice) just applied to ``original``."""
    events = original.take_events()
    for e in events:
        if e.get("type") == "advice":
            copy.advise(e["action"])  # type: ignore[attr-defined]
        elif e.get("type") == "action":
            assert copy.current_player() == e["seat"]
            copy.apply(e["action"])
    assert [e for e in copy.take_events() if e.get("type") in ("action", "advice", "result")] \
        == [e for e in events if e.get("type") in ("action", "advice", "result")]


# -- a seat's position -------------------------------------------------------------

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][cdhs]|Jk)(?![a-z0-9])")


def shown(obs: Any, seat: int) -> list[int]:
    """The cards of ``seat``'s hand that ``obs`` shows (with repeats)."""
    if hasattr(obs, "hand_seat"):  # Gin and three-player Gin
        if seat == obs.hand_seat:
            return cards_of(obs.hand)
        if obs.roles[seat] != "sitter" and obs.phase != "over":
            return cards_of(obs.opponent_known)
        return []
    if hasattr(obs, "laid_down"):  # Three Thirteen
        if seat == obs.seat:
            return multi_cards(obs.hand)
        if seat == obs.went_out:
            return multi_cards(obs.laid_down)
        return multi_cards(obs.known[seat])
    return list(obs.hand) if seat == obs.seat else []


def fields(text: str) -> dict[str, str]:
    return split(text).values


def written(value: str) -> list[int]:
    return [parse_card(c, jokers=True) for c in CARD.findall(value)]


@pytest.mark.parametrize("game", list(OPTIONS))
@settings(max_examples=40)
@given(data=st.data())
def test_seat_positions_round_trip_and_hold_only_what_the_seat_knows(
        game: str, data: st.DataObject) -> None:
    options, seed, steps = data.draw(moments(game))
    other_seed = data.draw(st.integers(0, 2**32))
    state = moment(game, options, seed, steps)
    for seat in range(state.num_players):
        text = state.position(seat)
        assert f" seat={seat} " in text
        for s in (seed, other_seed, None):
            again = from_position(text, seed=s)
            assert again.position(seat) == text
            assert again.current_player() == state.current_player()
            if state.current_player() == seat:
                assert again.legal_actions() == state.legal_actions()
        # no card the seat may not know: each hand holds what the observation shows
        obs = state.observation(seat)
        f = fields(text)
        if "hands" in f:
            for s, part in enumerate(f["hands"].split("/")):
                assert sorted(written(part)) == sorted(shown(obs, s)), (seat, s, text)
        assert written(f.get("stock", "")) == []
        pile = list(getattr(obs, "discard_pile", ()))
        assert written(f.get("pile", "-")) == pile
        if "table" in f:
            on_table = sorted(c for meld in obs.table for c, _ in meld)
            assert sorted(written(f["table"].replace("Jk=", "Jk "))[::1]) == sorted(
                on_table + [t for meld in obs.table for c, t in meld if c == JOKER])
        if "taken" in f and f["taken"] != "?":
            assert written(f["taken"]) == [obs.taken_card]
        if "drawn" in f:
            assert written(f["drawn"]) == [obs.drawn]
        # the moves are the observation's own (a match over has no hand in play)
        if f["turn"] != "over":
            assert len(f.get("moves", "").split(",")) == len(obs.actions) or (
                not obs.actions and "moves" not in f)


WHOLE = [("gin", {"target": 40}), ("gin", {"oklahoma": True, "target": 30}),
         ("gin", {"hollywood": True, "target": 25}), ("gin3", {"target": 30}),
         ("three-thirteen", {"players": 2}), ("three-thirteen", {"players": 4}),
         ("manipulation", {"players": 2, "target": 40}),
         # no knocking: the rounds run the pile out (§4.10, D-23)
         ("manipulation", {"players": 2, "knock_limit": 0, "target": 40}),
         ("manipulation", {"players": 3, "initial_meld_from_hand": True, "target": 40})]


@pytest.mark.parametrize(("game", "options"), WHOLE)
def test_every_moment_of_a_whole_match_round_trips(game: str, options: dict[str, Any]) -> None:
    """Every moment from the deal to the end, the end too (turn=over), the
    last turns of a round and the reshuffles (D-12) among them."""
    seed = 3 if options.get("knock_limit") == 0 else 17  # 3: the pile runs out
    state = new_state(game, options, seed=seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    while True:
        text = state.position()
        assert from_position(text, seed=5).position() == text
        for seat in range(state.num_players):
            mine = state.position(seat)
            assert from_position(mine, seed=seat).position(seat) == mine
        seen.update(f.split("=")[0] for f in text.split()[1:])
        seen.update(f for f in text.split() if f.startswith("turn="))
        if state.is_terminal():
            break
        step(state, rng, 0.0 if options.get("knock_limit") == 0 else 0.6)
    assert "turn=over" in seen
    assert "moves" in seen and ("taken" in seen or game == "manipulation")
    if options.get("knock_limit") == 0:
        assert "last" in seen
    if game == "gin3":
        assert "advice" in seen


@pytest.mark.parametrize("options", [{"oklahoma": True, "target": 80},
                                     {"hollywood": True, "target": 25}])
@pytest.mark.parametrize("game", ["gin", "gin3"])
def test_a_gin_seat_position_carries_the_public_scores(game: str,
                                                       options: dict[str, Any]) -> None:
    """§1 (Oklahoma, Hollywood): the hands won, Hollywood's three games and
    Oklahoma's doubling are public at the table, so every seat's position
    writes them as the full position does, and a state started from it keeps
    them: the line bonus and the games go on as in the original."""
    state = new_state(game, options, seed=11)
    rng = random.Random(11)
    checked = 0
    while not state.is_terminal():
        full = fields(state.position())
        for seat in range(state.num_players):
            mine = fields(state.position(seat))
            for key in ("won", "games", "double"):
                assert mine.get(key) == full.get(key), (key, seat)
            again = from_position(state.position(seat), seed=seat)
            assert again._wins == state._wins  # type: ignore[attr-defined]
            assert again._multiplier == state._multiplier  # type: ignore[attr-defined]
            if options.get("hollywood"):
                assert again._hw_cols == state._hw_cols  # type: ignore[attr-defined]
                assert again._hw_wins == state._hw_wins  # type: ignore[attr-defined]
        checked += int(max(state.scores) > 0)
        step(state, rng)
    assert checked  # moments after a hand was scored


def test_a_seat_position_hides_the_other_hands_and_the_stock() -> None:
    state = new_state("gin", seed=5)
    text = state.position(0)
    hands = fields(text)["hands"].split("/")
    assert hands[1] == "?10" and fields(text)["stock"] == "?31"
    mine = written(hands[0])
    assert sorted(mine) == cards_of(state.hand_of(0))
    # two seeds deal the hidden cards differently, the seat's position stays
    a, b = from_position(text, seed=1), from_position(text, seed=2)
    assert a.position() != b.position()
    assert a.position(0) == b.position(0) == text


def test_after_both_decline_the_upcard_the_first_draw_is_from_the_stock() -> None:
    """§1.3: the step ``stock`` is written and read back, in every seat's position."""
    state = new_state("gin", seed=2)
    state.apply("pass")
    state.apply("pass")
    text = state.position()
    assert f"turn={state.current_player()}:stock" in text
    again = from_position(text)
    assert again.legal_actions() == state.legal_actions() == [0]
    for seat in range(2):
        mine = state.position(seat)
        assert ":stock" in mine and from_position(mine, seed=9).legal_actions() == [0]


def test_cards_seen_taken_stay_in_the_takers_hand() -> None:
    """A seat's position writes the cards it saw the other take from the pile
    (still held); every state started from it deals them to that hand."""
    state = new_state("gin", seed=11)
    state.apply("take discard")
    taken = state.discard_pile  # empty: the upcard is in the taker's hand
    assert taken == []
    taker = state.current_player()
    other = 1 - taker
    text = state.position(other)
    assert "taken=?" in text
    for seed in range(5):
        again = from_position(text, seed=seed)
        assert again.hand_of(taker) & again.observation(other).opponent_known
        assert again.position(other) == text


# -- bad positions -----------------------------------------------------------------


def sub(text: str, key: str, value: str | None) -> str:
    """``text`` with field ``key`` set to ``value`` (None: removed; added if absent)."""
    tokens = text.split()
    out = [t for t in tokens if not t.startswith(f"{key}=")]
    if value is not None:
        out.insert(1 if key not in fields(text) else tokens.index(
            next(t for t in tokens if t.startswith(f"{key}="))), f"{key}={value}")
    return " ".join(out)


def base(game: str, options: dict[str, Any] | None = None, seed: int = 1,
         steps: int = 0) -> str:
    return moment(game, options or ({"players": 3} if game == "manipulation" else {}),
                  seed, steps).position()


def common(game: str) -> list[tuple[str, str]]:
    """Bad lines any game refuses."""
    p = base(game)
    first_option = "players" if "players" in new_state(game).options else "target"
    return [
        ("", "empty position"),
        (f"{game}", "starts with the game's name"),
        (p.replace(f"{game}/1", f"{game}/7", 1), "unknown position version '7'"),
        (p.replace(f"{game}/1", "chess/1", 1), "unknown game 'chess'"),
        (p[: len(p) // 2].rsplit(" ", 1)[0], "is missing"),
        (p[: len(p) - 3], ""),
        (p + " hello", "'hello' is not a field"),
        (p + " colour=red", "unknown field or option 'colour'"),
        (p + f" {first_option}=abc", f"option {first_option}"),
        (sub(p, "turn", None), "field turn= is missing"),
        (sub(p, "turn", "9:" + fields(p)["turn"].split(":")[1]), "turn= seat must be from 0"),
        (sub(p, "turn", "0:fly"), "turn= step 'fly' is not one of"),
        (sub(p, "turn", "draw"), "turn= is SEAT:STEP"),
        (sub(p, "scores", "0"), "scores= has 1 values"),
        (sub(p, "scores", ",".join("x" * len(fields(p)["scores"].split(",")))),
         "scores= must be"),
        (p.replace(" hands=", "\nhands=", 1), "one line"),
        (p + " " + p.split()[1], "is written twice"),
    ]


def stock_first(text: str) -> str:
    return fields(text)["stock"].split(",")[0]


def hand_first(text: str, seat: int = 0) -> str:
    return fields(text)["hands"].split("/")[seat].split(",")[0]


def gin_cases() -> list[tuple[str, str]]:
    p = base("gin", seed=3)  # the upcard offered to the non-dealer
    f = fields(p)
    a = moment("gin", {}, 3, 4).position()  # a later turn
    hands = f["hands"].split("/")
    return [
        *common("gin"),
        (sub(p, "pile", hand_first(p)), "written more often than the pack holds it"),
        (sub(p, "stock", f["stock"].split(",", 1)[1]), "the cards do not add up"),
        (sub(p, "hands", f"{hands[0]},{f['pile']}/{hands[1]}") .replace(
            f" pile={f['pile']}", " pile=" + stock_first(p)).replace(
            f" stock={stock_first(p)},", " stock="), "holds 11 cards"),
        (sub(p, "hand", "0"), "hand= must be"),
        (sub(p, "dealer", "2"), "dealer= must be"),
        (sub(p, "taken", hand_first(p)), "taken=: a card is taken"),
        (sub(p, "limit", "7"), "Oklahoma's"),
        (sub(sub(p, "scores", "100,0"), "won", "3,0"), "reached the target"),
        (sub(sub(p, "scores", "5,0"), "won", "0,0"), "won no hand"),
        (sub(p, "turn", "over"), "no seat has reached"),
        (sub(p, "known", f"{hands[1].split(',')[0]}/-"), "known=: seat 0 does not hold"),
        (sub(p, "turn", "0:stock"), "after both decline"),
        (sub(a, "turn", a.split("turn=")[1].split()[0].split(":")[0] + ":stock"),
         "only at the start of the hand"),
        (sub(p, "games", "0:0,0:0/0:0,0:0/0:0,0:0"), "unknown field or option 'games'"),
        (sub(sub(p, "oklahoma", "true"), "limit", "1"), "an ace upcard"),
        (sub(p, "seat", "2"), "seat= must be"),
        (sub(p, "moves", "0x9"), "is not a move"),
        (sub(p, "moves", "7p"), "names seat 7"),
        (sub(p, "hands", "?10/?9"), "the cards do not add up"),
        (sub(p, "pile", "-"), "the cards do not add up"),
        (sub(p, "stock", "?31,As"), "unknown cards are written once, last"),
        (42, "a line of text"),  # type: ignore[list-item]
    ]


def gin3_cases() -> list[tuple[str, str]]:
    p = base("gin3", seed=3)
    f = fields(p)
    box, captain, sitter = f["box"], f["captain"], f["sitter"]
    box_view = moment("gin3", {}, 3, 0).position(int(box))
    return [
        *common("gin3"),
        (sub(p, "box", captain), "three different seats"),
        (sub(p, "turn", f"{sitter}:draw"), "holds no cards this hand (the sitter)"),
        (sub(p, "advice", "knock-As"), "is not a legal move of the captain"),
        (sub(box_view, "advice", "pass"), "the box does not see the sitter's advice"),
        (sub(p, "dealer", box), "unknown field or option 'dealer'"),
        (sub(p, "hand", "x"), "hand= must be a whole number"),
        (sub(p, "pile", hand_first(p, int(box))), "written more often"),
        (sub(p, "sitter", None), "field sitter= is missing"),
        (sub(p, "hands", "/".join(
            "?10" if s != int(sitter) else "?1" for s in range(3))), "the cards do not add up"),
        (sub(p, "scores", "0,0"), "scores= has 2 values"),
        (sub(p, "won", "0,0,0,0"), "won= has 4 values"),
        (sub(p, "stock", "?30"), "the cards do not add up"),
        (sub(p, "taken", "?"), "taken=: a card is taken"),
        (sub(p, "first_draw_after_both_pass", "sometimes"), "option first_draw_after_both_pass"),
        (sub(p, "hollywood", "maybe"), "option hollywood"),
    ]


def thirteen_cases() -> list[tuple[str, str]]:
    p = base("three-thirteen", {"players": 3}, seed=4)
    f = fields(p)
    two = base("three-thirteen", {}, seed=4)
    first = hand_first(p)
    hands = f["hands"].split("/")
    drew = new_state("three-thirteen", {"players": 3}, seed=4)
    drew.apply("draw stock")  # a discard step after a draw from the stock
    later = drew.position()
    return [
        *common("three-thirteen"),
        (sub(p, "pile", f"{first},{first},{first}"), "more often than the pack holds it (2)"),
        (sub(two, "pile", hand_first(two)), "more often than the pack holds it (1)"),
        (sub(p, "round", "12"), "round= must be from 1 to 11"),
        (sub(p, "players", "5"), "option players"),
        (sub(p, "hands", "/".join([hands[0] + "," + f["pile"], *hands[1:]])).replace(
            f" pile={f['pile']}", " pile=" + stock_first(p)).replace(
            f" stock={stock_first(p)},", " stock="), "holds 4 cards"),
        (sub(p, "out", p.split("turn=")[1][0]), "went out; the others play"),
        (sub(p, "out", str((int(p.split("turn=")[1][0]) + 1) % 3)), "does not meld"),
        (sub(p, "taken", "?"), "taken=: a card is taken"),
        (sub(later, "taken", "?"), "holds no card seen taken"),
        (sub(p, "turn", "over"), "the game ends after round 11"),
        (sub(p, "known", f"{stock_first(p)}/-/-"), "known=: seat 0 does not hold"),
        (sub(p, "natural_wild_sets", "perhaps"), "option natural_wild_sets"),
        (sub(p, "reshuffles", "-1"), "reshuffles= must be"),
        (sub(p, "moves", "0go"), "is not a move"),
        (sub(p, "hands", "?3/?3/?2"), "the cards do not add up"),
        (sub(p, "pile", "Jk"), "jokers are not used"),
    ]


def manipulation_cases() -> list[tuple[str, str]]:
    p = base("manipulation", {"players": 3}, seed=2)
    f = fields(p)
    first = hand_first(p, 1)
    return [
        *common("manipulation"),
        (sub(p, "table", "7h,8h,Kh"), "table="),
        (sub(p, "table", "7h,8h,Jk"), "declares the card it stands for"),
        (sub(p, "draws", "4"), "draws= must be from 0 to 3"),
        (sub(p, "draws", "0"), "a turn in play has drawn 1 to 3 cards"),
        (sub(p, "last", "1"), "last= names the seat"),
        (sub(p, "turn", "1:final"), "a final (meld-only) turn"),
        (sub(p, "drawn", stock_first(p)), "does not hold"),
        (sub(p, "drawn", None), "drawn= is missing"),
        (sub(p, "melded", "0,0,0"), "melded= is for initial_meld_from_hand=true"),
        (sub(p, "won", "0,3,0"), "won more rounds than"),
        (sub(p, "pile", "Ah"), "unknown field or option 'pile'"),
        (sub(p, "stock", f"{first},{first},{first}," + f["stock"]), "more often than the pack"),
        (sub(p, "hands", "-/" + "/".join(f["hands"].split("/")[1:])), "holds no card"),
        (sub(p, "players", "6"), "option players"),
        (sub(p, "moves", "1m7h8>7h"), "is not a move"),
        (sub(p, "scores", "150,0,0"), "reached the target 150"),
        (sub(p, "round", "0"), "round= must be"),
        (sub(p, "table", "7h,8h,9h|7h,8h,9h|7h,8h,9h"), "table="),
    ]


CASES = {"gin": gin_cases, "gin3": gin3_cases, "three-thirteen": thirteen_cases,
         "manipulation": manipulation_cases}


@pytest.mark.parametrize("game", list(CASES))
def test_bad_positions_are_refused_with_one_line(game: str) -> None:
    cases = CASES[game]()
    assert len(cases) >= 20
    for text, message in cases:
        with pytest.raises(PositionError) as caught:
            from_position(text, seed=1)
        said = str(caught.value)
        assert "\n" not in said and said, (text, said)
        assert message in said, (text, said, message)


@settings(max_examples=150)
@given(data=st.data())
def test_a_garbled_position_is_refused_or_plays_on(data: st.DataObject) -> None:
    """A position with characters dropped, changed or added is either refused
    with a one-line PositionError (never another exception) or names a
    moment that plays on and writes itself back the same."""
    game = data.draw(st.sampled_from(list(OPTIONS)))
    options, seed, steps = data.draw(moments(game))
    state = moment(game, options, seed, min(steps, 60))
    text = state.position(data.draw(st.sampled_from([None, *range(state.num_players)])))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text) - 1))
        char = data.draw(st.sampled_from("0123456789,/:=?-|>AKQJTcdhsxk ;"))
        how = data.draw(st.sampled_from(["drop", "change", "add"]))
        text = text[:at] + ("" if how == "drop" else char) + text[at + (how != "add"):]
    try:
        again = from_position(text, seed=1)
    except PositionError as e:
        assert str(e) and "\n" not in str(e)
        return
    whole = again.position()
    assert from_position(whole, seed=2).position() == whole
    rng = random.Random(seed)
    for _ in range(10):
        if again.is_terminal():
            break
        again.apply_action(rng.choice(again.legal_actions()))


def test_the_bases_of_the_bad_positions_are_good() -> None:
    """Each bad case is one change to a position that is read."""
    for game in CASES:
        text = base(game, {"players": 3} if game != "gin" and game != "gin3" else {},
                    seed={"gin": 3, "gin3": 3, "three-thirteen": 4, "manipulation": 2}[game])
        assert from_position(text).position() == text


# -- the documentation ---------------------------------------------------------------


def test_the_documented_examples_are_read() -> None:
    """docs/positions.md: every example line is a position that round-trips."""
    lines = [line.strip() for line in DOCS.read_text().splitlines()
             if re.match(r"\s*(gin|gin3|three-thirteen|manipulation)/1 ", line)]
    games = {line.split("/")[0] for line in lines}
    assert games == set(OPTIONS), games
    for line in lines:
        f = fields(line)
        state = from_position(line, seed=1)
        seat = int(f["seat"]) if "seat" in f else None
        assert state.position(seat) == line
