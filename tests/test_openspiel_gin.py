"""Our Gin bots on OpenSpiel's gin_rummy: the translation hides what it must,
every action maps to a legal OpenSpiel action, and hands against OpenSpiel's
simple bot run and come out close to even for our simple bot."""

from __future__ import annotations

import doctest
import json
import random
import subprocess
import sys
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from helpers import SCRIPTS, refused_before_playing, script_module  # noqa: E402
from rummylab.bots import SimpleGinBot, make_bot  # noqa: E402
from rummylab.bots.base import Bot  # noqa: E402
from rummylab.cards import parse_mask  # noqa: E402
from rummylab.gin.game import (  # noqa: E402
    BIG_GIN,
    DISCARD,
    DRAW,
    KNOCK_BASE,
    PASS,
    TAKE_DISCARD,
    GinObservation,
)
from rummylab.gin.solver import best_defence, deadwood  # noqa: E402
from rummylab.rl.openspiel_gin import (  # noqa: E402
    OS_KNOCK,
    LayDown,
    SpielGinSeat,
    card_to_os,
    load_game,
    observation,
    os_layoff_plan,
    os_pieces,
    os_to_card,
    play_hands,
)
from rummylab.stats import paired_difference  # noqa: E402


class NoKnockBot(SimpleGinBot):
    """The simple bot that never knocks while it can discard: hands reach
    OpenSpiel's wall, where it takes the upcard and knocks when it may."""

    def act(self, observation: Any) -> int:
        obs: GinObservation = observation
        if obs.legal_actions == (TAKE_DISCARD, PASS) and obs.phase == DRAW:
            return TAKE_DISCARD  # the wall: take the upcard to knock
        plain = tuple(a for a in obs.legal_actions if a < KNOCK_BASE)
        if obs.phase == DISCARD and plain:
            obs = GinObservation(**{**obs.__dict__, "legal_actions": plain})
        return super().act(obs)


def play_ours(game: Any, bots: list[Bot], seed: int) -> tuple[Any, list[SpielGinSeat]]:
    """A hand with our bots on both seats; every decision recorded."""
    seats = [SpielGinSeat(bots[p], p, record=True) for p in (0, 1)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            p = state.current_player()
            action = seats[p].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state, seats


def test_card_maps() -> None:
    assert sorted(os_to_card(c) for c in range(52)) == list(range(52))
    assert all(card_to_os(os_to_card(c)) == c for c in range(52))
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    assert utils.card_string(card_to_os(parse_mask("7h").bit_length() - 1)) == "7h"


def test_pieces_and_layoff_plan() -> None:
    run7 = parse_mask("2c 3c 4c 5c 6c 7c 8c")
    pieces = os_pieces([run7, parse_mask("9d 9h 9s")])
    assert [p.bit_count() for p in pieces] == [4, 3, 3]
    assert pieces[0] | pieces[1] == run7
    # three cards below a run: OpenSpiel takes at most two; the third stays
    hand = parse_mask("2d 3d 4d Kc Ks")
    run = parse_mask("5d 6d 7d")
    plan = os_layoff_plan(hand, [run])
    assert deadwood(hand & ~sum(1 << c for c in plan)) == 20
    assert best_defence(hand, [run]).deadwood == 20  # melding 2d-4d is as good


def _hidden_swaps(state: Any, viewer: int) -> list[Any]:
    """States with the same public moves and ``viewer``'s cards as ``state``,
    one card of the opponent's unseen hand swapped with a stock card."""
    opp = 1 - viewer
    hands = state.hands()
    known = set(state.known_cards()[opp])
    hidden = [c for c in hands[opp] if c not in known]
    seen = set(hands[0]) | set(hands[1]) | set(state.discard_pile())
    if state.upcard() is not None:
        seen.add(state.upcard())
    stock = [c for c in range(52) if c not in seen]
    game = state.get_game()
    twins = []
    for h, s in [(hidden[0], stock[0]), (hidden[-1], stock[-1])]:
        twin = game.new_initial_state()
        for step in state.full_history():
            a = step.action
            if step.player < 0:
                a = s if a == h else h if a == s else a
            twin.apply_action(a)
        assert sorted(twin.hands()[opp]) != sorted(hands[opp])
        assert sorted(twin.hands()[viewer]) == sorted(hands[viewer])
        twins.append(twin)
    return twins


def test_translation_never_shows_the_opponents_hidden_cards() -> None:
    game = load_game()
    checked = known = 0
    for seed in range(3):
        bots: list[Bot] = [make_bot("random", "gin", seed), NoKnockBot()]
        final, _ = play_ours(game, bots, seed)
        history = final.full_history()
        state = game.new_initial_state()
        for i, step in enumerate(history):
            state.apply_action(step.action)
            phase = str(state.current_phase()).rsplit(".", 1)[-1]
            if phase not in ("FIRST_UPCARD", "DRAW", "DISCARD", "WALL") or i % 4:
                continue
            for viewer in (0, 1):
                mine = observation(state, viewer)
                # the opponent's cards known from its picks, replayed from the
                # public moves, agree with OpenSpiel's own record
                theirs = sum(1 << os_to_card(c) for c in state.known_cards()[1 - viewer])
                assert mine.opponent_known == theirs
                known += theirs != 0
                acting = state.current_player() == viewer
                for twin in _hidden_swaps(state, viewer):
                    assert observation(twin, viewer) == mine
                    if acting:  # and the same decision follows
                        assert (SpielGinSeat(SimpleGinBot(), viewer).step(twin)
                                == SpielGinSeat(SimpleGinBot(), viewer).step(state))
                    checked += 1
    assert checked > 50 and known > 5


def test_every_action_maps_to_a_legal_openspiel_action() -> None:
    game = load_game()
    decisions = walls = knocks = 0
    for seed in range(12):
        pairs: list[list[Bot]] = [
            [make_bot("simple", "gin"), make_bot("random", "gin", seed)],
            [make_bot("random", "gin", seed + 100), make_bot("simple", "gin")],
            [NoKnockBot(), NoKnockBot()],
        ]
        for bots in pairs:
            state, seats = play_ours(game, bots, seed)
            assert state.is_terminal()
            for seat in seats:
                for obs, action, os_action in seat.decisions:
                    decisions += 1
                    assert action in obs.legal_actions
                    assert BIG_GIN not in obs.legal_actions
                    assert obs.hand.bit_count() == (11 if obs.phase == DISCARD else 10)
                    walls += os_action == -1
                    knocks += os_action == OS_KNOCK
            assert sum(state.returns()) == 0
            if any(state.knocked()):  # whoever knocked laid down within the knock card
                assert state.deadwood()[list(state.knocked()).index(True)] <= 10
    assert decisions > 1000 and walls > 0 and knocks > 10
    assert LayDown.fallbacks == 0


def test_against_openspiel_simple_bot_small_sample() -> None:
    result = play_hands("random", 40, seed=3)
    s = result.summary()
    assert s["hands"] == 40
    assert [h.player for h in result.hands[:4]] == [0, 1, 0, 1]
    assert s["wins"] + s["losses"] + s["drawn"] + s["ties"] == 40
    assert s["points_per_hand"] < -20  # random is far weaker
    assert s["layout_fallbacks"] == 0


def test_hands_played_in_slices_are_the_same_hands() -> None:
    # the script's --workers plays slices of a run in other processes
    whole = play_hands("simple", 12, seed=5).hands
    parts = (play_hands("simple", 12, seed=5, last=5).hands
             + play_hands("simple", 12, seed=5, first=5).hands)
    assert parts == whole
    assert [h.player for h in parts] == [i % 2 for i in range(12)]
    assert len({(h.ours, h.moves) for h in whole}) > 3  # the hands differ


def test_simple_bot_close_to_even_with_openspiel_simple_bot() -> None:
    # measured: +0.15 per hand [-0.79, +1.10] over 2,000 hands (seed 1); one
    # hand's standard deviation is about 21 points, so 400 hands give about +-2
    s = play_hands("simple", 400, seed=7).summary()
    assert -8 < s["points_per_hand"] < 8
    assert 0.35 < s["win_rate"] < 0.65
    assert s["layout_fallbacks"] == 0


def test_strength_script_pairs_two_bots_on_the_same_hands(tmp_path: Any) -> None:
    """``scripts/strength_openspiel.py --save`` then ``--against``: the paired
    line is the hand-by-hand difference of the two saved runs; a bad file,
    or hands of another seed, is a one-line error with exit code 2."""
    script = SCRIPTS / "strength_openspiel.py"
    base, mine = tmp_path / "random.jsonl", tmp_path / "simple.jsonl"
    run = [sys.executable, str(script), "--hands", "8", "--seed", "3", "--no-progress"]
    subprocess.run([*run, "--bot", "random", "--save", str(base)], capture_output=True,
                   text=True, check=True)
    out = subprocess.run([*run, "--bot", "simple", "--save", str(mine), "--against", str(base)],
                         capture_output=True, text=True, check=True).stdout
    rows = [json.loads(line) for line in mine.read_text().splitlines()]
    assert [r["hand"] for r in rows] == list(range(8))
    assert [r["player"] for r in rows] == [i % 2 for i in range(8)]
    theirs = [json.loads(line)["points"] for line in base.read_text().splitlines()]
    ours = [r["points"] for r in rows]
    assert ours != theirs
    m, se = paired_difference([float(x > 0) for x in ours], [float(x > 0) for x in theirs])
    p, p_se = paired_difference(ours, theirs)
    changed = sum((a > 0) - (a < 0) != (b > 0) - (b < 0) for a, b in zip(ours, theirs, strict=True))
    assert (f"paired over 8 hands: won {m:+.3f} (se {se:.3f}), points {p:+.2f} "
            f"(se {p_se:.2f}), {changed} changed result") in out
    # two worker processes save the same hands, in the same order
    split = tmp_path / "split.jsonl"
    subprocess.run([*run, "--bot", "simple", "--workers", "2", "--save", str(split)],
                   capture_output=True, text=True, check=True)
    assert split.read_text() == mine.read_text()
    # the script's own doctest (scripts are outside the doctest paths)
    tested = doctest.testmod(script_module("strength_openspiel.py"))
    assert tested.attempted > 0 and tested.failed == 0
    garbled, empty, unseeded = (tmp_path / f"{n}.jsonl" for n in ("garbled", "empty", "old"))
    garbled.write_text("not json\n")
    empty.write_text("")
    unseeded.write_text('{"hand": 0, "points": 3.0}\n')
    other_seed = [sys.executable, str(script), "--hands", "8", "--seed", "4", "--no-progress"]
    for args, message in (
        ([*run, "--against", str(tmp_path / "none.jsonl")], "error: cannot read hands from"),
        ([*run, "--against", str(garbled)], "error: cannot read hands from"),
        ([*run, "--against", str(unseeded)],
         f"error: cannot read hands from {unseeded}: a line has no 'seed' field"),
        ([*run, "--against", str(empty)], f"error: {empty} holds fewer than two of these"),
        ([*other_seed, "--against", str(base)],
         f"error: {base} holds hands of seed 3, not of seed 4"),
    ):
        r = subprocess.run([*args, "--bot", "simple"], capture_output=True, text=True)
        assert r.returncode == 2 and "Traceback" not in r.stderr
        assert r.stderr.strip().startswith(message)
        assert len(r.stderr.strip().splitlines()) == 1


def test_strength_script_refuses_bad_input_before_playing(tmp_path: Any) -> None:
    """Counts below one, an unknown bot and a file that cannot be written are
    one-line errors with exit code 2, before any hand is played; no file is
    created or emptied."""
    script = SCRIPTS / "strength_openspiel.py"
    kept = tmp_path / "kept.jsonl"
    kept.write_text("an older run\n")
    run = [sys.executable, str(script), "--seed", "3", "--no-progress"]
    refused_before_playing(run, [
        (["--hands", "0"], "error: --hands must be at least 1"),
        (["--hands", "-5"], "error: --hands must be at least 1"),
        (["--hands", "4", "--workers", "0"], "error: --workers must be at least 1"),
        (["--hands", "4", "--bot", "nosuchbot", "--save", str(kept)], "error: "),
        (["--hands", "4", "--bot", "nosuchbot", "--save", str(tmp_path / "new.jsonl")],
         "error: "),
        (["--hands", "4", "--json", str(tmp_path / "no" / "x.json")],
         f"error: cannot write {tmp_path / 'no' / 'x.json'}: no directory"),
        (["--hands", "4", "--save", str(tmp_path)], "error: cannot write"),
    ], tmp_path, kept)


class _Watching:
    """OpenSpiel's simple bot for the player other than ``ours``, noting the
    cards it holds when our knock begins."""

    def __init__(self, game: Any, ours: int) -> None:
        self.ours = ours
        self.bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - ours)
        self.held: list[int] = []

    def restart(self) -> None:
        self.bot.restart()

    def step(self, state: Any) -> int:
        if state.knocked()[self.ours] and not self.held:
            self.held = [int(c) for c in state.hands()[1 - self.ours]]
        return int(self.bot.step(state))


def test_the_simple_bots_gin_defence_is_corrected_apart() -> None:
    """Against our gin, OpenSpiel's simple bot ends the hand without laying
    its melds, so OpenSpiel counts its whole hand. ``corrected`` counts what
    its best melds leave (OpenSpiel's own min_deadwood of the cards it held),
    only in those hands; the summary reports both figures."""
    from rummylab.rl.openspiel_gin import _hand_seeds, bot_seed, play_hand

    result = play_hands("strong", 60, seed=8)
    gins = [i for i, h in enumerate(result.hands) if h.outcome == "gin" and h.knocker == "ours"]
    assert gins
    for i, h in enumerate(result.hands):
        if i not in gins:
            assert h.corrected is None and h.fair == h.ours
    game = load_game()
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    hs = _hand_seeds(8, 60)
    for i in gins:
        player = i % 2
        watching = _Watching(game, player)
        bot = make_bot("strong", "gin", bot_seed(hs[i]))
        again = play_hand(game, bot, player, hs[i], opponent=watching)
        assert again == result.hands[i]
        best = utils.min_deadwood(watching.held)
        counted = sum(min(10, os_to_card(c) % 13 + 1) for c in watching.held)
        assert again.ours == 25 + counted  # its whole hand counted: no melds laid
        assert again.corrected == 25 + best < again.ours
    s = result.summary()
    assert s["gins_corrected"] == len(gins)
    assert s["points_per_hand_corrected"] == pytest.approx(
        s["points_per_hand"] - sum(result.hands[i].ours - result.hands[i].fair
                                   for i in gins) / 60)


def test_our_bots_seed_is_not_the_deals() -> None:
    """A bot seeded like the deal would draw from the stream that dealt the
    cards it cannot see: the random bot's first take or pass was then a
    function of the opponent's first card. With its own seed it is not."""
    from collections import Counter

    from rummylab.rl.openspiel_gin import OS_PASS, _hand_seeds, bot_seed, spiel_options

    game = load_game()
    seeds = _hand_seeds(1, 400)
    seen: Counter[tuple[bool, int]] = Counter()
    for i in range(1, 400, 2):  # ours is player 1; player 0 passes the upcard
        rng = random.Random(seeds[i])
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        low = state.full_history()[0].action < 16  # the opponent's first card
        state.apply_action(OS_PASS)
        seat = SpielGinSeat(make_bot("random", "gin", bot_seed(seeds[i])), 1,
                            options=spiel_options())
        seen[low, seat.step(state)] += 1
    takes = {a for (low, a) in seen if low}
    assert len(takes) == 2, seen  # both moves follow a low first card
