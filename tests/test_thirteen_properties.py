"""Three Thirteen under hypothesis: random 2-, 3- and 4-player games, simple and
random bots, random rule options. At every step:

- every card is in exactly one place: hands + stock + discard pile = the pack
  (one deck for two players, two for three or four, §3.1);
- no observation holds another seat's hidden cards: a seat sees its own hand,
  the discard pile, and the cards it saw another seat take from the pile and
  still held (tracked here from public actions alone);
- the legal actions are §3.4, §3.5 and D-3 exactly (going out checked with
  the solver, no going out in the final turns);
- illegal actions raise IllegalActionError and change nothing;
- clone() is independent of its original, both ways;

and at every round's end and the game's end:

- the deal passes left, round r deals r + 2 cards, the wild rank is r + 2 (§3.2, §3.3);
- the one who went out scores 0, every other seat its least penalty (§3.9, D-10);
- the totals are the sums of the rounds; after round 11 the lowest total
  wins, ties shared (D-11); returns are zero-sum;
- the record replays byte for byte (records), complete games with
  ``records.replay``, partial ones line by line the same way.

Random players rarely go out after the first rounds, so their rounds can run
for thousands of turns through D-12 reshuffles: most games here are partial
(a few rounds, a bounded number of steps); a few complete games are played by
simple bots with a random seat at most.
"""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any

from hypothesis import strategies as st

from helpers import thirteen_reference, thirteen_snapshot
from rummylab.bots import Bot, make_bot
from rummylab.cards import deck, multi_add, multi_cards, multi_count, multi_remove, parse_cards
from rummylab.errors import IllegalActionError
from rummylab.records import RecordWriter, dumps, header, replay
from rummylab.three_thirteen.game import (
    DISCARD_BASE,
    DRAW_STOCK,
    GO_OUT_BASE,
    NUM_ACTIONS,
    TAKE_DISCARD,
    ThirteenObservation,
    ThirteenState,
)
from rummylab.three_thirteen.solver import penalty
from sampling import given_sampled

LINE_UPS = {
    2: [("simple", "simple"), ("simple", "random"), ("random", "simple"), ("random", "random")],
    3: [("simple", "simple", "simple"), ("simple", "random", "simple"),
        ("random", "simple", "simple"), ("simple", "simple", "random"),
        ("random", "random", "simple")],
    4: [("simple", "simple", "simple", "simple"), ("simple", "random", "simple", "simple"),
        ("random", "simple", "random", "simple"), ("simple", "simple", "simple", "random")],
}

OBS_FIELDS = {
    "game", "seat", "num_players", "phase", "to_act", "round", "wild_rank", "hand",
    "discard_pile", "stock_size", "hand_sizes", "known", "taken_card", "went_out",
    "laid_down", "final_turn", "legal_actions", "dealer", "scores", "actions", "action_ids",
    "last_result", "options",
}


@st.composite
def games(draw: Any, players: int, complete: bool = False) -> dict[str, Any]:
    line_up = draw(st.sampled_from(LINE_UPS[players][:3] if complete else LINE_UPS[players]))
    options = {
        "players": players,
        "natural_wild_sets": draw(st.booleans()),
        "allow_discard_of_taken_card": draw(st.booleans()),
    }
    return {
        "seed": draw(st.integers(0, 2**40)),
        "line_up": line_up,
        "options": options,
        # partial games: a few rounds and a bounded number of steps
        "rounds": 11 if complete else draw(st.integers(1, 3)),
        "max_steps": 100_000 if complete else draw(st.integers(20, 400)),
    }


@dataclass
class Checker:
    state: ThirteenState
    rng: random.Random
    pack: Counter[int]
    known: list[int] = field(default_factory=list)  # per seat, from public actions only
    taken: int | None = None  # the card taken from the pile this turn
    scores: list[int] = field(default_factory=list)
    dealer: int = -1
    round: int = 0
    clones: list[tuple[ThirteenState, dict[str, Any]]] = field(default_factory=list)

    # -- every step ------------------------------------------------------------------
    def check_cards(self) -> None:
        """§3.1: every card of the pack exactly once."""
        s = self.state
        held = [c for seat in range(s.num_players) for c in s.hand_cards(seat)]
        assert Counter(held + s.stock + s.discard_pile) == self.pack
        # the pile is empty only while its one card, just taken, is in a hand
        assert s.discard_pile or s.phase == "discard"

    def check_observations(self, deep: bool = True) -> None:
        """Each seat sees its own hand, the pile, the cards it saw taken and
        the hand laid face up by a seat that went out (§3.5); nothing else
        (``deep``: its plain-data form too)."""
        s = self.state
        to_act = s.current_player()
        for seat in range(s.num_players):
            obs = s.observation(seat)
            assert {f.name for f in fields(ThirteenObservation)} == OBS_FIELDS
            assert obs.seat == seat and obs.hand == s.hand_of(seat)
            assert obs.discard_pile == tuple(s.discard_pile)
            assert obs.stock_size == len(s.stock)
            assert obs.hand_sizes == tuple(multi_count(s.hand_of(x))
                                           for x in range(s.num_players))
            assert obs.known == tuple(self.known)
            for other in range(s.num_players):
                # what is shown of another seat is held by it
                assert not Counter(multi_cards(obs.known[other])) - Counter(
                    s.hand_cards(other))
            acting = seat == to_act
            assert obs.legal_actions == (tuple(s.legal_actions()) if acting else ())
            assert obs.taken_card is None or acting
            out = s.went_out
            assert obs.laid_down == (s.hand_of(out) if out is not None else 0)
            assert out is None or obs.laid_down  # the combinations, not the discard
            assert obs.round == s.round and obs.wild_rank == s.round + 1
            assert obs.scores == tuple(s.scores) and obs.dealer == s.dealer
            if deep:
                d = obs.to_dict()
                assert set(d) == OBS_FIELDS - {"options", "action_ids"}  # ids: what "actions" says
                json.dumps(d)  # plain data only

    def check_legal(self) -> None:
        """§3.4, §3.5, D-3: the legal actions exactly."""
        s = self.state
        legal = s.legal_actions()
        if s.phase == "draw":
            assert legal == [DRAW_STOCK, TAKE_DISCARD]
            assert s.stock
            return
        assert s.phase == "discard"
        seat = s.current_player()
        hand = s.hand_of(seat)
        assert multi_count(hand) == s.round + 3
        taken = s.observation(seat).taken_card
        forbidden = -1
        if (taken is not None and not s.options["allow_discard_of_taken_card"]
                and multi_cards(hand).count(taken) == 1):
            forbidden = taken
        playable = sorted({c for c in multi_cards(hand) if c != forbidden})
        expected = [DISCARD_BASE + c for c in playable]
        if s.went_out is None:
            aw = bool(s.options["natural_wild_sets"])
            expected += [GO_OUT_BASE + c for c in playable
                         if penalty(multi_remove(hand, c), s.wild_rank,
                                    natural_wild_sets=aw) == 0]
        assert legal == expected

    def check_illegal(self) -> None:
        """An illegal action raises IllegalActionError and changes nothing."""
        s = self.state
        legal = set(s.legal_actions())
        bad = [a for a in range(NUM_ACTIONS) if a not in legal]
        before = thirteen_snapshot(s)
        for a in [*self.rng.sample(bad, min(4, len(bad))), -1, NUM_ACTIONS, 10**6]:
            try:
                s.apply_action(a)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"illegal action {a} was applied")
        assert thirteen_snapshot(s) == before

    def check_clone(self, action: int) -> ThirteenState:
        """A clone is independent: playing on it leaves the original alone; the
        same action on a clone gives the same state as on the original."""
        s = self.state
        before = thirteen_snapshot(s)
        c = s.clone()
        assert _without_events(thirteen_snapshot(c)) == _without_events(before)
        c.apply_action(action)
        for _ in range(self.rng.randrange(6)):
            if c.is_terminal():
                break
            c.apply_action(self.rng.choice(c.legal_actions()))
        assert thirteen_snapshot(s) == before
        keep = s.clone()
        self.clones.append((keep, thirteen_snapshot(keep)))
        twin = s.clone()
        twin.apply_action(action)
        return twin

    # -- public knowledge --------------------------------------------------------------
    def on_action(self, seat: int, action: int) -> None:
        """Track the cards each seat was seen taking from the pile (public)."""
        s = self.state
        if action == TAKE_DISCARD:
            self.taken = s.discard_pile[-1]
            self.known[seat] = multi_add(self.known[seat], self.taken)
        elif action >= DISCARD_BASE:
            card = action - (GO_OUT_BASE if action >= GO_OUT_BASE else DISCARD_BASE)
            copies = (self.known[seat] >> card & 1) + (self.known[seat] >> (52 + card) & 1)
            # D-3: a copy of the card just taken that goes back is the other copy
            other = card == self.taken and not s.options["allow_discard_of_taken_card"]
            if copies and not (other and copies == 1):
                self.known[seat] = multi_remove(self.known[seat], card)
        if action != TAKE_DISCARD:
            self.taken = None

    # -- rounds --------------------------------------------------------------------------
    def on_deal(self, event: dict[str, Any]) -> None:
        """§3.2, §3.3: the round's number, the dealer (passing left), the deal."""
        s = self.state
        n = s.num_players
        self.round += 1
        assert event["round"] == self.round
        if self.round > 1:
            assert event["dealer"] == (self.dealer + 1) % n
        self.dealer = event["dealer"]
        order = parse_cards(event["deck"])
        assert Counter(order) == self.pack
        size = self.round + 2
        self.known = [0] * n
        if s.round == self.round:  # the deal is what the state holds now
            for seat in range(n):
                mine = [order[i] for i in range(size * n) if (self.dealer + 1 + i) % n == seat]
                assert sorted(mine) == s.hand_cards(seat)
            assert s.wild_rank == self.round + 1

    def on_result(self, event: dict[str, Any], hands: list[int]) -> None:
        """§3.9, D-10: the one who went out 0, the others their least penalty."""
        s = self.state
        aw = bool(s.options["natural_wild_sets"])
        wr = event["round"] + 1
        out = event["went_out"]
        assert event["ended"] == ("stock" if out is None else "out")
        want = [0 if seat == out else penalty(h, wr, natural_wild_sets=aw)
                for seat, h in enumerate(hands)]
        assert out is None or penalty(hands[out], wr, natural_wild_sets=aw) == 0
        assert event["penalties"] == want
        for seat, h in enumerate(hands):
            assert event["hands"][seat]["penalty"] == want[seat]
            cards = multi_cards(h)
            if len(cards) <= 9 and self.rng.random() < 0.3 and seat != out:
                assert thirteen_reference(cards, wr, aw) == want[seat]
        self.scores = [a + b for a, b in zip(self.scores, want, strict=True)]
        assert event["scores"] == self.scores


def _without_events(snap: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snap.items() if k != "events"}


def replay_lines(lines: list[str]) -> None:
    """Replay a record prefix the way ``records.replay`` does a whole match:
    build the state from the header, the deck orders and the reshuffles,
    apply every action, and regenerate every line byte for byte."""
    objs = [json.loads(line) for line in lines]
    head = objs[0]
    decks = [parse_cards(o["deck"]) for o in objs if o["type"] == "deal"]
    kwargs = ThirteenState.replay_setup(objs)
    state = ThirteenState(head["options"], head["seed"], decks=decks, **kwargs)
    state.decks_given = head.get("dealt") == "given"  # as records.replay reads the header
    assert dumps(header(state, head["seats"], head["match"])) == lines[0]
    pending = state.take_events()
    for line, obj in zip(lines[1:], objs[1:], strict=True):
        if obj["type"] == "action":
            assert not pending and obj["seat"] == state.current_player()
            state.apply(obj["action"])
            pending = state.take_events()
        assert dumps(pending.pop(0)) == line
    assert not pending


def play_checked(setup: dict[str, Any], stats: Counter[str] | None = None,
                 bots: list[Bot] | None = None) -> ThirteenState:
    """Play ``setup`` with every check; ``stats`` counts what happened."""
    stats = Counter() if stats is None else stats
    seed = setup["seed"]
    state = ThirteenState(setup["options"], seed)
    n = state.num_players
    rng = random.Random(seed)
    bots = bots or [make_bot(level, "three-thirteen", seed + i)
                    for i, level in enumerate(setup["line_up"])]
    checker = Checker(state, rng, Counter(deck(state.num_decks)), scores=[0] * n)
    stream = io.StringIO()
    writer = RecordWriter(stream)
    results: list[dict[str, Any]] = []

    def flush(events: list[dict[str, Any]], hands: list[int]) -> None:
        for e in events:
            stats[e["type"]] += 1
            if e["type"] == "deal":
                checker.on_deal(e)
            elif e["type"] == "result":
                results.append(e)
                checker.on_result(e, hands)
            elif e["type"] == "reshuffle":
                assert e["round"] == checker.round

    first = list(state.events)
    writer.begin(state, list(setup["line_up"]))
    flush(first, [])

    steps = 0
    while not state.is_terminal():
        if state.round > setup["rounds"] or steps >= setup["max_steps"]:
            break
        steps += 1
        seat = state.current_player()
        checker.check_cards()
        checker.check_observations(deep=steps % 11 == 1)
        checker.check_legal()
        action = bots[seat].act(state.observation(seat))
        assert action in state.legal_actions()
        if steps % 17 == 1:
            checker.check_illegal()
        twin = checker.check_clone(action) if steps % 29 == 2 else None
        checker.on_action(seat, action)
        stats[state.action_to_string(action).split()[0]] += 1
        was_out = state.went_out
        hands = [state.hand_of(x) for x in range(n)]
        if action >= DISCARD_BASE:
            card = action - (GO_OUT_BASE if action >= GO_OUT_BASE else DISCARD_BASE)
            hands[seat] = multi_remove(hands[seat], card)
        round_before = state.round
        state.apply_action(action)
        if twin is not None:
            assert _without_events(thirteen_snapshot(twin)) == _without_events(
                thirteen_snapshot(state))
        events = state.take_events()
        writer.write_events(events)
        flush(events, hands)
        # §3.4, §3.5: whose turn is next
        if state.is_terminal() or state.round != round_before:
            assert was_out is not None or action >= GO_OUT_BASE or any(
                e["type"] == "result" and e["ended"] == "stock" for e in events)
        elif action in (DRAW_STOCK, TAKE_DISCARD):
            assert state.current_player() == seat
        else:
            assert state.current_player() == (seat + 1) % n

    assert state.scores == checker.scores
    assert state.round_results == results
    lines = stream.getvalue().splitlines()
    if state.is_terminal():
        # §3.9, D-11: after round 11 the lowest total wins, ties share it
        assert len(results) == 11
        low = min(state.scores)
        assert state.winners == [s for s in range(n) if state.scores[s] == low]
        assert state.final_scores == state.scores
        assert abs(sum(state.returns())) < 1e-9
        assert all(r == max(state.returns()) for i, r in enumerate(state.returns())
                   if i in state.winners)
        stream.seek(0)
        (replayed,) = list(replay(stream))
        assert replayed.winners == state.winners and replayed.final_scores == state.scores
        assert replayed.hands == 11
    else:
        assert state.returns() == [0.0] * n
        replay_lines(lines)
    for clone, snap in checker.clones:
        assert thirteen_snapshot(clone) == snap
    return state


@given_sampled(games(2), full=110, sample=25)
def test_properties_two_player_games(setup):
    """§3.1-§3.11, D-3, D-8 to D-12, records: invariants at every step, 2 players."""
    play_checked(setup)


@given_sampled(games(3), full=110, sample=25)
def test_properties_three_player_games(setup):
    """§3.1-§3.11, D-3, D-8 to D-12, records: invariants at every step, 3 players."""
    play_checked(setup)


@given_sampled(games(4), full=110, sample=25)
def test_properties_four_player_games(setup):
    """§3.1-§3.11, D-3, D-8 to D-12, records: invariants at every step, 4 players."""
    play_checked(setup)


class NeverOut(Bot):
    """Random, but never goes out: rounds last until the stock has run out."""

    name = "never-out"

    def __init__(self, seed: int) -> None:
        super().__init__({}, seed)
        self._rng = random.Random(seed)

    def act(self, observation: Any) -> int:
        legal = [a for a in observation.legal_actions if a < GO_OUT_BASE]
        if DRAW_STOCK in legal and self._rng.random() < 0.8:
            return DRAW_STOCK  # mostly from the stock, to run it out sooner
        return legal[self._rng.randrange(len(legal))]


@given_sampled(st.sampled_from([2, 3, 4]), st.integers(0, 2**40), st.booleans(), full=8, sample=3)
def test_properties_stock_runs_out(players, seed, allow_taken):
    """D-12: players who never go out exhaust the stock; it is rebuilt from the
    discard pile (less its top) again and again, every step checked."""
    setup = {"seed": seed, "line_up": ("never-out",) * players,
             "options": {"players": players, "allow_discard_of_taken_card": allow_taken},
             "rounds": 1, "max_steps": 450}
    stats: Counter[str] = Counter()
    play_checked(setup, stats, bots=[NeverOut(seed + i) for i in range(players)])
    assert stats["reshuffle"] >= 1


@given_sampled(st.sampled_from([2, 3, 4]).flatmap(lambda n: games(n, complete=True)),
               full=6, sample=2)
def test_properties_complete_games(setup):
    """§3.2, §3.9, D-11, records: whole games of eleven rounds, every step
    checked, the record replayed with records.replay."""
    state = play_checked(setup)
    assert state.is_terminal()
