"""Whole matches under hypothesis: random and simple bots, both games, random
rule options. At every step:

- every card is in exactly one place (hands + stock + discard pile = 52, §0, §1.2);
- no observation holds a card its seat may not see (own hand, or the captain's
  for the sitter (§2.2), the discard pile, and the opponent's cards that seat
  saw taken from the pile);
- the legal actions are §1.3-§1.5 and D-3 exactly (knocks checked against deadwood);
- illegal actions raise IllegalActionError and change nothing;
- clone() is independent of its original, both ways;

and at the end of every hand and match:

- deals alternate (D-2) or rotate (§2.6), the sitter never acts nor scores (§2.5);
- the totals are the sums of the hand results; returns are zero-sum (§1.8, §1.10);
- the record replays byte for byte (records).
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from helpers import snapshot
from rummylab.bots import make_bot
from rummylab.cards import CARD_POINTS, cards_of, parse_cards, rank_of, suit_of
from rummylab.errors import IllegalActionError
from rummylab.gin.game import (
    BIG_GIN,
    DISCARD_BASE,
    DRAW_STOCK,
    KNOCK_BASE,
    NUM_ACTIONS,
    PASS,
    TAKE_DISCARD,
    GinState,
)
from rummylab.gin.solver import deadwood
from rummylab.gin.three_player import Gin3State
from rummylab.records import RecordWriter, replay
from sampling import given_sampled

FULL = (1 << 52) - 1


# seat line-ups: mostly mixed; all-random matches are rare because random bots
# seldom knock (most of their hands are drawn) and their matches run long
LINE_UPS = {
    "gin": [("random", "simple"), ("simple", "random"), ("simple", "simple")] * 3
    + [("random", "random")],
    "gin3": [("random", "simple", "simple"), ("simple", "random", "random"),
             ("simple", "simple", "simple"), ("random", "simple", "random"),
             ("simple", "simple", "random")] * 2 + [("random", "random", "random")],
}


@st.composite
def matches(draw: Any, game: str) -> dict[str, Any]:
    levels = list(draw(st.sampled_from(LINE_UPS[game])))
    randoms = levels.count("random")
    top = 100 if randoms == 0 else 3 if randoms == len(levels) else 25
    options = {
        "target": draw(st.one_of(st.integers(1, top), st.just(top))),
        # two random players rarely knock under a low limit: give them a high one
        "knock_limit": draw(st.sampled_from([10, 10, 0, 5, 15, 30] if randoms < 2
                                            else [10, 30, 99])),
        "allow_discard_of_taken_card": draw(st.booleans()),
        "first_draw_after_both_pass": draw(st.sampled_from(["dealer", "non_dealer"])),
        "big_gin": draw(st.booleans()),
        "oklahoma": draw(st.booleans()) if randoms < 2 else False,
        "game_bonus": draw(st.sampled_from([0, 100])),
        "line_bonus": draw(st.sampled_from([0, 20, 25])),
        "shutout_double": draw(st.booleans()),
        "gin_bonus": draw(st.sampled_from([25, 20])),
        "undercut_bonus": draw(st.sampled_from([10, 0, 25])),
        "hollywood": draw(st.sampled_from([False, False, False, True])),
    }
    if options["oklahoma"]:  # the upcard sets the limit: another value is refused
        options["knock_limit"] = 10
    return {"game": game, "seed": draw(st.integers(0, 2**40)), "levels": levels,
            "options": options}


@dataclass
class Checker:
    state: GinState
    rng: random.Random
    taken: list[int] = field(default_factory=list)  # per seat: cards seen taken from the pile
    upcard: int = -1
    limit: int = 10
    clones: list[tuple[GinState, dict[str, Any]]] = field(default_factory=list)

    # -- each hand --------------------------------------------------------------
    def on_deal(self, event: dict[str, Any]) -> None:
        deck = parse_cards(event["deck"])
        self.upcard = deck[20]
        self.taken = [0] * self.state.num_players
        opts = self.state.options
        self.limit = int(opts["knock_limit"])
        if opts["oklahoma"]:
            self.limit = 0 if rank_of(self.upcard) == 0 else CARD_POINTS[self.upcard]

    # -- every step -------------------------------------------------------------
    def check_cards(self) -> None:
        """§0/§1.2: every card exactly once."""
        s = self.state
        seen = 0
        count = 0
        for seat in range(s.num_players):
            hand = s.hand_of(seat)
            assert not hand & seen
            seen |= hand
            count += hand.bit_count()
        for c in s.stock + s.discard_pile:
            assert not seen >> c & 1, "a card in two places"
            seen |= 1 << c
            count += 1
        assert seen == FULL and count == 52

    def check_observations(self) -> None:
        """Each seat sees its own hand (the sitter: the captain's, §2.2), the
        pile, and the opponent's cards it saw taken from the pile; nothing else."""
        s = self.state
        to_act = s.current_player()
        for seat in range(s.num_players):
            obs = s.observation(seat)
            sitter = isinstance(s, Gin3State) and seat == s.sitter_seat
            hand_seat = s.non_dealer if sitter else seat
            opp = s.dealer if hand_seat == s.non_dealer else s.non_dealer
            assert obs.hand_seat == hand_seat
            assert obs.hand == s.hand_of(hand_seat)
            if isinstance(s, Gin3State):
                assert not obs.hand & s.hand_of(s.dealer) or seat == s.dealer
            assert obs.discard_pile == tuple(s.discard_pile)
            assert obs.stock_size == len(s.stock)
            assert obs.opponent_known == self.taken[opp] & s.hand_of(opp)
            assert obs.opponent_hand_size == s.hand_of(opp).bit_count()
            acting = to_act == hand_seat
            assert obs.legal_actions == (tuple(s.legal_actions()) if acting else ())
            if obs.taken_card is not None:
                assert acting and obs.hand >> obs.taken_card & 1
            assert obs.knock_limit == self.limit

    def check_legal(self) -> None:
        """§1.3-§1.5, D-3 and the big gin option: the legal actions exactly."""
        s = self.state
        legal = s.legal_actions()
        phase = s.phase
        if phase == "offer":
            assert legal == [TAKE_DISCARD, PASS]
            return
        if phase == "draw":
            assert legal in ([DRAW_STOCK], [DRAW_STOCK, TAKE_DISCARD])
            return
        assert phase == "discard"
        hand = s.hand_of(s.current_player())
        assert hand.bit_count() == 11
        taken = s.observation(s.current_player()).taken_card
        forbidden = 0
        if taken is not None and not s.options["allow_discard_of_taken_card"]:
            forbidden = 1 << taken
        playable = cards_of(hand & ~forbidden)
        expected = [DISCARD_BASE + c for c in playable]
        expected += [KNOCK_BASE + c for c in playable
                     if deadwood(hand & ~(1 << c)) <= self.limit]
        if s.options["big_gin"] and deadwood(hand) == 0:
            expected.append(BIG_GIN)
        assert legal == expected

    def check_illegal(self) -> None:
        """An illegal action raises IllegalActionError and changes nothing."""
        s = self.state
        legal = set(s.legal_actions())
        bad = [a for a in range(NUM_ACTIONS) if a not in legal]
        before, quick = snapshot(s), _fingerprint(s)
        for a in [*self.rng.sample(bad, min(3, len(bad))), -1, NUM_ACTIONS, 10**6]:
            try:
                s.apply_action(a)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"illegal action {a} was applied")
            assert _fingerprint(s) == quick
        assert snapshot(s) == before

    def check_clone(self, action: int) -> None:
        """A clone is independent: playing on it leaves the original alone;
        the same action on both gives the same state."""
        s = self.state
        before = snapshot(s)
        c = s.clone()
        assert _without_events(snapshot(c)) == _without_events(before)
        c.apply_action(action)
        for _ in range(self.rng.randrange(4)):
            if c.is_terminal():
                break
            c.apply_action(self.rng.choice(c.legal_actions()))
        assert snapshot(s) == before
        # kept to the end: playing on the original must leave it alone
        keep = s.clone()
        self.clones.append((keep, snapshot(keep)))

    def same_action_same_state(self, action: int) -> GinState:
        twin = self.state.clone()
        twin.apply_action(action)
        return twin


def _fingerprint(s: GinState) -> tuple[Any, ...]:
    return (s.phase, s.current_player(), s.legal_actions(), s.stock, s.discard_pile, s.scores,
            [s.hand_of(x) for x in range(s.num_players)], len(s.events), s.hand_number)


def _without_events(snap: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snap.items() if k != "events"}


def play_checked(setup: dict[str, Any]) -> None:
    game, seed = setup["game"], setup["seed"]
    cls = GinState if game == "gin" else Gin3State
    state = cls(setup["options"], seed)
    rng = random.Random(seed)
    bots = [make_bot(level, game, seed + i) for i, level in enumerate(setup["levels"])]
    adviser = make_bot("random", game, seed + 7)
    checker = Checker(state, rng)
    stream = io.StringIO()
    writer = RecordWriter(stream)
    results: list[dict[str, Any]] = []
    hand = {"roles": (-1, -1, None), "scores": [0] * state.num_players, "number": 0}

    def flush(events: list[dict[str, Any]]) -> None:
        for e in events:
            if e["type"] == "result":
                results.append(e)
                check_hand_end(state, e, checker, **hand)
            elif e["type"] == "deal":
                checker.on_deal(e)

    first = list(state.events)
    writer.begin(state, setup["levels"])  # the header, the cut and the first deal
    flush(first)

    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < 200_000
        seat = state.current_player()
        checker.check_cards()
        checker.check_observations()
        checker.check_legal()
        if isinstance(state, Gin3State):
            assert seat != state.sitter_seat  # §2.2: the sitter never acts
            if seat == state.non_dealer and rng.random() < 0.15:
                # §2.2: advice is recorded and changes nothing else
                before = _fingerprint(state)
                state.advise(adviser.act(state.observation(state.sitter_seat)))
                after = _fingerprint(state)
                assert after[:-2] == before[:-2] and after[-2] == before[-2] + 1
        action = bots[seat].act(state.observation(seat))
        assert action in state.legal_actions()
        if steps % 23 == 1:
            checker.check_illegal()
        twin = None
        if steps % 37 == 2:
            checker.check_clone(action)
            twin = checker.same_action_same_state(action)
        if action == TAKE_DISCARD:
            checker.taken[seat] |= 1 << state.discard_pile[-1]
        hand["roles"] = (state.dealer, state.non_dealer, getattr(state, "sitter_seat", None))
        hand["scores"] = state.scores
        hand["number"] = state.hand_number
        state.apply_action(action)
        if twin is not None:
            assert _without_events(snapshot(twin)) == _without_events(snapshot(state))
        events = state.take_events()
        writer.write_events(events)
        flush(events)

    # §1.10 / §2.7 and the totals
    assert state.winners
    for s in range(state.num_players):
        assert state.scores[s] == sum(r["points"] for r in results if r["winner"] == s)
    assert state.hand_results == results
    assert abs(sum(state.returns())) < 1e-9
    if state.options["hollywood"]:
        check_hollywood(state, results)
    else:
        target = int(state.options["target"])
        assert all(state.scores[w] >= target for w in state.winners)
        assert max(state.scores) == state.scores[state.winners[0]]
        check_final(state, results)
    for clone, snap in checker.clones:
        assert snapshot(clone) == snap

    # the record replays byte for byte
    stream.seek(0)
    (replayed,) = list(replay(stream))
    assert replayed.winners == state.winners
    assert replayed.final_scores == state.final_scores
    assert replayed.hands == len(results)


def check_hand_end(state: GinState, r: dict[str, Any], checker: Checker, roles: tuple,
                   scores: list[int], number: int) -> None:
    """§1.8 scoring (with the options), §2.5, D-2 deal alternation and §2.6 rotation.
    Called on the result event, before the next deal's event is seen."""
    opts = state.options
    box, captain, sitter = roles
    winner = r["winner"]
    assert r["hand"] == number
    if r["outcome"] == "drawn":
        assert winner is None and r["points"] == 0
    else:
        assert winner in (box, captain)
        kdw, ddw = r["knocker_deadwood"], r["defender_deadwood"]
        assert kdw <= checker.limit or r["outcome"] == "big_gin"
        mult = 2 if opts["oklahoma"] and suit_of(checker.upcard) == 3 else 1
        if r["outcome"] == "knock":
            assert winner == r["knocker"] and 0 < kdw < ddw
            points = ddw - kdw
        elif r["outcome"] == "undercut":
            assert winner == r["defender"] and kdw > 0 and ddw <= kdw
            points = kdw - ddw + int(opts["undercut_bonus"])
        elif r["outcome"] == "gin":
            assert winner == r["knocker"] and kdw == 0 and r["layoffs"] == []
            points = int(opts["gin_bonus"]) + ddw
        else:
            assert r["outcome"] == "big_gin" and opts["big_gin"]
            assert winner == r["knocker"] and kdw == 0 and r["layoffs"] == []
            points = int(opts["big_gin_bonus"]) + ddw
        assert r["points"] == points * mult
    expected = list(scores)
    if winner is not None:
        expected[winner] += r["points"]
    assert r["scores"] == expected == state.scores
    if sitter is not None:
        assert state.scores[sitter] == scores[sitter]  # §2.5
    if state.is_terminal():
        return
    if isinstance(state, Gin3State):  # §2.6
        if winner is None:
            now = (box, captain, sitter)
        elif winner == box:
            now = (box, sitter, captain)
        else:
            now = (captain, sitter, box)
        assert (state.dealer, state.non_dealer, state.sitter_seat) == now
    else:  # D-2
        assert state.dealer == (box if winner is None else captain)


def check_final(state: GinState, results: list[dict[str, Any]]) -> None:
    """§1 options: line, game and shutout bonuses on the final scores."""
    opts = state.options
    wins = [sum(1 for r in results if r["winner"] == s) for s in range(state.num_players)]
    final = [state.scores[s] + int(opts["line_bonus"]) * wins[s]
             for s in range(state.num_players)]
    for w in state.winners:
        final[w] += int(opts["game_bonus"])
        if opts["shutout_double"] and all(wins[o] == 0 for o in range(state.num_players)
                                          if o != w):
            final[w] *= 2
    assert state.final_scores == final


@given_sampled(matches("gin"), full=150, sample=30)
def test_properties_gin_matches(setup):
    """§0, §1, D-2, D-3, records: invariants at every step of Gin matches."""
    play_checked(setup)


@given_sampled(matches("gin3"), full=150, sample=30)
def test_properties_gin3_matches(setup):
    """§0, §2, D-6, D-7, records: invariants at every step of three-player matches."""
    play_checked(setup)


def _game_final(cols: list[int], wins: list[int], winner: int,
                opts: dict[str, Any]) -> list[int]:
    """One game's final scores: the line bonus for every hand won, the game
    bonus to its winner, doubled on a shutout."""
    final = [cols[s] + int(opts["line_bonus"]) * wins[s] for s in range(len(cols))]
    final[winner] += int(opts["game_bonus"])
    if opts["shutout_double"] and all(wins[o] == 0 for o in range(len(cols)) if o != winner):
        final[winner] *= 2
    return final


def check_hollywood(state: GinState, results: list[dict[str, Any]]) -> None:
    """§1 option ``hollywood``: a player's first win counts in game 1, the
    second in games 1 and 2, later ones in every open game (a game already
    over is passed by); each game ends when a score in it reaches the target,
    with its own line, game and shutout bonuses; the match ends when all three
    have, and the most points over the three wins."""
    opts = state.options
    n, target = state.num_players, int(opts["target"])
    cols = [[0] * n for _ in range(3)]
    wins = [[0] * n for _ in range(3)]
    over: dict[int, list[int]] = {}
    for r in results:
        w = r["winner"]
        if w is not None:
            # every open game the player has scored in, and the first open one not yet
            open_games = [g for g in range(3) if g not in over]
            scored_in = [g for g in open_games if wins[g][w]]
            fresh = [g for g in open_games if not wins[g][w]][:1]
            for g in scored_in + fresh:
                cols[g][w] += r["points"]
                wins[g][w] += 1
            for g in scored_in + fresh:
                if cols[g][w] >= target:
                    over[g] = _game_final(cols[g], wins[g], w, opts)
        assert r["games"] == cols
    assert sorted(over) == [0, 1, 2], "the match ended with a game still open"
    final = [sum(over[g][s] for g in range(3)) for s in range(n)]
    assert state.final_scores == final
    assert state.winners == [s for s in range(n) if final[s] == max(final)]

