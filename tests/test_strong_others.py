"""The strong Three Thirteen and Manipulation bots: legal over whole games,
blind to hidden cards, deterministic under a seed, with hints that explain."""

from __future__ import annotations

import doctest
import io
import math
import random
import subprocess
import sys
from typing import Any, TypeVar

import pytest

from helpers import SCRIPTS, refused_before_playing, run_the_pile_out, script_module
from rummylab.bots import BOT_LEVELS, make_bot
from rummylab.bots.manipulation.strong import StrongManipulationBot, last_tables
from rummylab.bots.three_thirteen import strong as strong13
from rummylab.bots.three_thirteen.strong import _P_MIN, StrongThirteenBot, _can_add, win_chances
from rummylab.cards import multi_add, multi_cards, multi_count, multi_remove, parse_cards
from rummylab.errors import OptionError
from rummylab.game import State
from rummylab.manipulation.game import KNOCK, MELD_BEST, PASS, ManipulationState
from rummylab.manipulation.solver import best_play
from rummylab.manipulation.table import check_move, hand_points, parse_table
from rummylab.match import apply_move, play_match
from rummylab.records import RecordWriter, replay
from rummylab.registry import new_state
from rummylab.three_thirteen.game import ThirteenState


def _play(game: str, specs: list[str], seed: int, options: dict[str, object]) -> Any:
    state = new_state(game, options, seed)
    bots = [make_bot(s, game, seed=seed + i) for i, s in enumerate(specs)]
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].act(state.observation(seat))
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def test_registered_as_strong() -> None:
    assert {"three-thirteen", "manipulation"} <= BOT_LEVELS["strong"].keys()
    assert isinstance(make_bot("strong:budget=3", "three-thirteen"), StrongThirteenBot)
    assert isinstance(make_bot("strong:budget=0", "manipulation"), StrongManipulationBot)
    with pytest.raises(OptionError):
        make_bot("strong:budget=x", "three-thirteen")
    with pytest.raises(OptionError):
        make_bot("strong:depth=2", "manipulation")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_thirteen_whole_games_legal(players: int) -> None:
    strong = "strong:budget=4" if players % 2 == 0 else "strong:budget=4,deep=2"
    specs = [strong] + ["simple"] * (players - 1)
    state = _play("three-thirteen", specs, 10 + players, {"players": players})
    assert state.round == 11 and state.is_terminal()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_manipulation_whole_games_legal(players: int) -> None:
    specs = ["strong:budget=2"] + ["simple"] * (players - 1)
    state = _play("manipulation", specs, 20 + players, {"players": players, "target": 40})
    assert state.is_terminal()


# --- hidden information: re-deal what the seat cannot see ------------------------


S = TypeVar("S", bound=State)


def _midgame(state: S, game: str, steps: int) -> S:
    """``state`` after ``steps`` moves of simple bots."""
    bots = [make_bot("simple", game) for _ in range(state.num_players)]
    for _ in range(steps):
        seat = state.current_player()
        state.apply_action(bots[seat].act(state.observation(seat)))
    return state


def _hidden_thirteen(state: ThirteenState, seat: int) -> list[int]:
    """The cards ``seat`` cannot see: the stock, then the other hands less
    the cards seen taken from the pile (a hand laid face up by a seat that
    went out is seen)."""
    hidden = list(state._stock)
    for s in range(state.num_players):
        if s not in (seat, state.went_out):
            free = state._hands[s]
            for c in multi_cards(state._known[s]):
                free = multi_remove(free, c)
            hidden += multi_cards(free)
    return hidden


def _redeal_thirteen(state: ThirteenState, seat: int, rng: random.Random) -> ThirteenState:
    """The same position for ``seat``: the other hands (less the cards seen
    taken from the pile; a hand laid face up by a seat that went out stays
    as it is) and the stock hold the same cards, shuffled."""
    other = state.clone()
    others = [s for s in range(state.num_players) if s not in (seat, state.went_out)]
    hidden = _hidden_thirteen(other, seat)
    rng.shuffle(hidden)
    for s in others:
        n = multi_count(other._hands[s]) - multi_count(other._known[s])
        hand = other._known[s]
        for c in hidden[:n]:
            hand = multi_add(hand, c)
        other._hands[s] = hand
        hidden = hidden[n:]
    other._stock = hidden
    other._legal = None
    return other


def test_thirteen_decisions_ignore_hidden_cards() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        for steps in (0, 7, 30):
            state = _midgame(ThirteenState({"players": 2 + seed % 3}, seed=seed),
                             "three-thirteen", steps)
            seat = state.current_player()
            other = _redeal_thirteen(state, seat, rng)
            assert other._hands != state._hands or other._stock != state._stock
            a, b = state.observation(seat), other.observation(seat)
            assert a.to_dict() == b.to_dict()
            for opts in ({"budget": "6"}, {"budget": "6", "deep": "3"},
                         {"budget": "6", "stakes": "1"}, {"budget": "6", "upcard": "0.5"}):
                bot_a = StrongThirteenBot(opts, seed=9)
                bot_b = StrongThirteenBot(opts, seed=9)
                assert bot_a.hint(a) == bot_b.hint(b)
            checked += 1
    assert checked == 18


def _draw_values(bot: StrongThirteenBot, hand: int,
                 draws: list[tuple[int, float]]) -> list[tuple[float, float]]:
    """(weight, value) of each draw the lookahead counts: the least penalty
    after it and the best discard, going out worth ``-out_bonus``; a third
    copy of a card cannot come."""
    return [(w, bot.value(v if (v := bot.after_discard(multi_add(hand, c))) else -bot.out_bonus))
            for c, w in draws if _can_add(hand, c)]


def test_thirteen_lookahead_takes_the_upcard_when_it_beats_the_stock() -> None:
    """The next turn draws the better of the upcard and the stock: the
    value is the average of each draw's value capped at the stock's
    average, mixed in by ``upcard``; never worse than the stock alone."""
    state = _midgame(ThirteenState({"players": 4}, seed=3), "three-thirteen", 9)
    obs = state.observation(state.current_player())
    bots = {u: StrongThirteenBot({"upcard": str(u)}, seed=1) for u in (0, 0.5, 1)}
    for bot in bots.values():
        bot._setup(obs)
    draws = [(c, 1 / 52) for c in range(52)]
    base = bots[0]
    values = [x for _, x in _draw_values(base, obs.hand, draws)]  # uniform weights
    stock = sum(values) / len(values)
    either = sum(min(v, stock) for v in values) / len(values)
    assert base.lookahead(obs.hand, draws) == pytest.approx(stock)
    assert bots[1].lookahead(obs.hand, draws) == pytest.approx(either)
    assert bots[0.5].lookahead(obs.hand, draws) == pytest.approx((stock + either) / 2)
    assert either < stock  # some card helps more than the average


def test_thirteen_lookahead_adds_left_to_right_on_every_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's float sums add left to right: ``sum`` of floats compensates
    from Python 3.12 on, and a near-tie decided by the last bit would make
    the same seed play another game there. The cases are ones where the
    order of the additions shows in the result; a ``sum`` in the module
    rounds like 3.12's here (exactly), so one put back fails on 3.11 too."""
    assert strong13._sum([1e16, 1.0, -1e16]) == 0.0  # 3.12's sum: 1.0
    monkeypatch.setattr(strong13, "sum", math.fsum, raising=False)
    rng = random.Random(5)
    sensitive = 0
    for seed in range(6):
        state = _midgame(ThirteenState({"players": 4}, seed=seed), "three-thirteen", 9)
        obs = state.observation(state.current_player())
        bot = StrongThirteenBot({"upcard": "0"}, seed=1)
        bot._setup(obs)
        draws = bot._samples(bot.unseen(obs), rng, 30)
        rng.shuffle(draws)
        terms = _draw_values(bot, obs.hand, draws)
        weight = total = 0.0
        for w, x in terms:
            weight += w
            total += w * x
        assert bot.lookahead(obs.hand, draws) == total / weight
        sensitive += math.fsum(w * x for w, x in terms) != total
    assert sensitive  # some case where compensated sums round otherwise


def test_thirteen_going_out_never_throws_a_wild_to_the_next_player() -> None:
    """§3.5: a seat that goes out throws one card, which the next player
    may take for their last turn. A wild melds with anything, so among
    throws that help the next player equally (here: nothing is known of
    their hand) the bot keeps the wild melded and throws a natural card,
    though the wild (Kc, kings wild in round 11) is worth the most points."""
    import dataclasses

    from rummylab.cards import multi_of
    from rummylab.three_thirteen.game import DISCARD_BASE, GO_OUT_BASE
    from rummylab.three_thirteen.solver import penalty

    state = ThirteenState({"players": 4}, seed=1)
    obs = state.observation(state.current_player())
    hand = multi_of(parse_cards("4h 5h 6h 7h Kc 9d 9s 9c 2c 3c 4c 5d 5s 5c"))
    cards = sorted(set(multi_cards(hand)))
    outs = [c for c in cards if penalty(multi_remove(hand, c), 12) == 0]
    assert parse_cards("Kc")[0] in outs and len(outs) > 2  # the wild could go
    legal = (tuple(DISCARD_BASE + c for c in cards) + tuple(GO_OUT_BASE + c for c in outs))
    view = dataclasses.replace(obs, phase="discard", round=11, wild_rank=12, hand=hand,
                               legal_actions=legal, known=(0,) * 4, went_out=None,
                               laid_down=0, to_act=obs.seat)
    action, reason = StrongThirteenBot(seed=1).hint(view)
    assert action >= GO_OUT_BASE, reason
    assert (action - GO_OUT_BASE) % 13 != 12, reason


def test_thirteen_discard_reasons_speak_of_points_and_going_out() -> None:
    """A discard's reason is for a player: the points the hand keeps (the
    true count), what it expects after the next draw and the chance to go
    out then, which is 0% only where no stock card lets it go out."""
    import re

    from rummylab.three_thirteen.game import DISCARD_BASE, GO_OUT_BASE
    from rummylab.three_thirteen.solver import penalty, penalty_after_discard

    seen = 0
    for seed in range(3):
        state = ThirteenState({"players": 3}, seed=seed)
        bots = [StrongThirteenBot({"budget": "52"}, seed=s) for s in range(3)]
        while not state.is_terminal() and seen < 60:
            seat = state.current_player()
            obs = state.observation(seat)
            action, reason = bots[seat].hint(obs)
            if DISCARD_BASE <= action < GO_OUT_BASE and reason.startswith("keeps"):
                found = re.match(r"keeps (\d+) points?; after my next draw (\d+\.\d) expected, "
                                 r"(\d+)% to go out \(the best of \d+ discards\)", reason)
                assert found, reason
                kept = multi_remove(obs.hand, action - DISCARD_BASE)
                assert int(found[1]) == penalty(kept, obs.wild_rank)
                pool = bots[seat].unseen(obs)
                outs = [c for c in set(pool) if _can_add(kept, c)
                        and penalty_after_discard(multi_add(kept, c), obs.wild_rank) == 0]
                # budget 52: every kind of unseen card is weighed, so any out shows
                assert (found[3] != "0") == bool(outs), reason
                seen += 1
            state.apply_action(action)
    assert seen >= 30


def test_thirteen_draw_reasons_name_both_choices() -> None:
    """A draw's reason names, for the upcard and the stock, the points
    expected after the next draw and the chance to go out by then; where
    those numbers favour the other choice, the reason says what decides."""
    import re

    from rummylab.three_thirteen.game import DRAW_STOCK, TAKE_DISCARD

    both = re.compile(r"^(take \w+|draw from the stock): .+ leaves (\d+\.\d) points expected "
                      r"after my next draw, (\d+)% to go out by then; .+ (\d+\.\d), (\d+)%"
                      r"(; the upcards each could take next turn decide it)?$")
    seen = 0
    for seed in range(3):
        state = ThirteenState({"players": 4}, seed=seed)
        bots = [StrongThirteenBot(seed=s) for s in range(4)]
        while not state.is_terminal() and seen < 25 * (seed + 1):
            seat = state.current_player()
            obs = state.observation(seat)
            action, reason = bots[seat].hint(obs)
            if action in (TAKE_DISCARD, DRAW_STOCK) and obs.went_out is None and (
                    reason.startswith(("take ", "draw from"))):
                found = both.match(reason)
                assert found, reason
                assert found[1].startswith("take") == (action == TAKE_DISCARD)
                bonus = bots[seat].out_bonus
                chosen = float(found[2]) - bonus * int(found[3]) / 100
                other = float(found[4]) - bonus * int(found[5]) / 100
                assert found[6] or chosen <= other + 0.2, reason  # rounding
                seen += 1
            state.apply_action(action)
    assert seen == 75


def test_thirteen_a_card_drawn_is_not_drawn_again() -> None:
    """Two draws ahead, the second comes from the pool less the first: in a
    one-deck game (two players) the card drawn first is out of the second
    draw's cards, as if it had never been unseen."""
    state = _midgame(ThirteenState({"players": 2}, seed=5), "three-thirteen", 6)
    obs = state.observation(state.current_player())
    bot = StrongThirteenBot(seed=1)
    bot._setup(obs)
    pool = bot.unseen(obs)
    assert len(set(pool)) == len(pool)  # one deck: one copy of each unseen card
    draws = [(c, 1 / len(pool)) for c in pool]
    for c in pool[:8]:
        with_pool = bot.lookahead2(obs.hand, [(c, 1.0)], draws, obs, hazard=0.0,
                                   pool_size=len(pool))
        without_c = bot.lookahead2(obs.hand, [(c, 1.0)], [d for d in draws if d[0] != c],
                                   obs, hazard=0.0)
        assert with_pool == pytest.approx(without_c)
    assert strong13._less_one(draws, pool[0], 1 / len(pool)) == draws[1:]


def test_thirteen_unseen_cards_are_exactly_the_stock_and_the_hidden_hands() -> None:
    """What the seat has not seen is the stock plus the other hands less
    the cards seen taken; once a seat has gone out (§3.5), its hand lies
    face up and is seen too, so on the last turn it never counts as a card
    the stock may hold."""
    last_turns = 0
    for seed in range(12):
        state = ThirteenState({"players": 4}, seed=seed)
        bots = [make_bot("simple", "three-thirteen") for _ in range(4)]
        while not state.is_terminal() and state.round == 1:
            seat = state.current_player()
            obs = state.observation(seat)
            assert StrongThirteenBot.unseen(obs) == sorted(_hidden_thirteen(state, seat))
            last_turns += obs.went_out is not None and obs.laid_down != obs.known[obs.went_out]
            state.apply_action(bots[seat].act(obs))
    assert last_turns  # some last turn where the laid-down hand shows more than was known


def test_thirteen_stakes_value_penalties_by_the_standings() -> None:
    state = _midgame(ThirteenState({"players": 4}, seed=3), "three-thirteen", 5)
    obs = state.observation(state.current_player())
    plain = StrongThirteenBot({"budget": "6", "stakes": "0"}, seed=1)
    plain._setup(obs)
    assert [plain.value(p) for p in (0, 7, 30)] == [0, 7, 30]
    bot = StrongThirteenBot({"budget": "6", "stakes": "1"}, seed=1)
    bot._setup(obs)
    values = [bot.value(p) for p in range(-8, 60)]
    assert values == sorted(values) and values[0] < values[-1]
    assert bot.hint(obs)[0] in state.legal_actions()
    # far ahead in the last round: a big penalty costs more than its points
    ahead = win_chances(11, 0, (40, 80, 85, 90), None)
    assert ahead[0 - _P_MIN] - ahead[10 - _P_MIN] < ahead[40 - _P_MIN] - ahead[50 - _P_MIN]


def _redeal_manipulation(state: ManipulationState, seat: int,
                         rng: random.Random) -> ManipulationState:
    other = state.clone()
    others = [s for s in range(state.num_players) if s != seat]
    hidden = list(other._pile) + [c for s in others for c in other._hands[s]]
    rng.shuffle(hidden)
    for s in others:
        n = len(other._hands[s])
        other._hands[s] = sorted(hidden[:n])
        hidden = hidden[n:]
    other._pile = hidden
    return other


def test_manipulation_decisions_ignore_hidden_cards() -> None:
    rng = random.Random(6)
    for seed, steps in ((1, 0), (2, 6), (3, 14)):
        state = _midgame(ManipulationState({"players": 3}, seed=seed), "manipulation", steps)
        seat = state.current_player()
        other = _redeal_manipulation(state, seat, rng)
        assert other._pile != state._pile
        a, b = state.observation(seat), other.observation(seat)
        assert a.to_dict() == b.to_dict()
        bot_a = StrongManipulationBot({"budget": "2"}, seed=4)
        bot_b = StrongManipulationBot({"budget": "2"}, seed=4)
        assert bot_a.hint(a) == bot_b.hint(b)
        assert bot_a.move_hint(a) == bot_b.move_hint(b)


@pytest.mark.parametrize("spec", ["strong:reserve=9:budget=2:guard=0",
                                  "strong:alts=3:budget=2:guard=0", "strong:budget=2",
                                  "strong:budget=2:read=2"])
def test_manipulation_text_melds_ignore_hidden_cards(spec: str) -> None:
    """The text moves (melds that keep a reserve, or another play than the
    best) too: the first four such decisions of a game are made again, the
    same, with the hidden cards re-dealt."""
    rng = random.Random(8)
    state = ManipulationState({"players": 3, "target": 150}, seed=5)
    specs = [spec] + ["simple"] * 2
    bots = [make_bot(s, "manipulation", seed=i) for i, s in enumerate(specs)]
    checked = 0
    while not state.is_terminal() and checked < 4:
        seat = state.current_player()
        obs = state.observation(seat)
        move = bots[seat].move(obs)
        if seat == 0 and isinstance(move, str):
            other = _redeal_manipulation(state, seat, rng)
            assert other._pile != state._pile
            fresh = make_bot(specs[0], "manipulation", seed=0)
            assert fresh.move(other.observation(seat)) == move
            checked += 1
        apply_move(state, move)
    assert checked >= (2 if "reserve" in spec else 1)


# --- the reserve ------------------------------------------------------------------


def _position(hand: str, table: str) -> ManipulationState:
    """A three-player state after the first draw, with the seat to act given
    this hand and the table."""
    state = ManipulationState({"players": 3}, seed=1)
    seat = state.current_player()
    state._hands[seat] = sorted(parse_cards(hand, jokers=True))
    state._table = parse_table(table, 2)
    state._invalidate()
    return state


def test_reserve_keeps_low_playable_cards_back() -> None:
    state = _position("3c 4c 9c Kd Kh Ks 2h 8h Jd Qs", "5c 6c 7c | 9d 9h 9s")
    seat = state.current_player()
    obs = state.observation(seat)
    assert MELD_BEST in obs.legal_actions
    bot = StrongManipulationBot({"reserve": "9", "budget": "0"}, seed=1)
    move, reason = bot.move_hint(obs)
    assert isinstance(move, str) and move.startswith("meld 9c Kd Kh Ks =>")
    assert "3c 4c" in reason
    state.apply(move)
    assert sorted(state.hand_of(seat)) == sorted(parse_cards("3c 4c 2h 8h Jd Qs"))
    # the kept cards still fit the table the meld left
    again = _position("3c 4c 2h 8h Jd Qs 5h", "")
    again._table = state.table
    again._invalidate()
    play = bot.best(again.observation(again.current_player()), parse_cards("3c 4c 2h 8h Jd Qs"))
    assert play is not None and set(parse_cards("3c 4c")) <= set(play.play)
    # without a reserve, or when another hand is nearly out, the whole play goes down
    assert StrongManipulationBot({"reserve": "0", "budget": "0"}).move(obs) == MELD_BEST
    near = _position("3c 4c 9c Kd Kh Ks 2h 8h Jd Qs", "5c 6c 7c | 9d 9h 9s")
    other = (seat + 1) % 3
    near._hands[other] = near._hands[other][:2]
    assert bot.move(near.observation(seat)) == MELD_BEST


def test_reserve_goes_down_when_the_hand_can_knock() -> None:
    state = _position("Ac 3c 4c Kd Kh Ks", "5c 6c 7c | 9d 9h 9s")
    obs = state.observation(state.current_player())
    bot = StrongManipulationBot({"reserve": "9"})
    play = bot.best(obs, obs.hand)
    assert play is not None and hand_points(obs.hand) - play.points_shed <= 5
    assert bot.move(obs) == MELD_BEST


def test_other_plays_start_with_the_best_and_are_legal() -> None:
    state = _position("3c 4c 9c Kd Kh Ks 2h 8h Jd Qs", "5c 6c 7c | 9d 9h 9s")
    obs = state.observation(state.current_player())
    bot = StrongManipulationBot({"alts": "3"}, seed=1)
    best = bot.best(obs, obs.hand)
    assert best is not None
    plays = bot.candidates(obs, best)
    assert plays[0] == best and 1 < len(plays) <= 4
    assert len({p.play for p in plays}) == len(plays)
    for p in plays:
        check_move(obs.table, p.table, list(p.play), obs.decks)
    # alts 0: always the best play
    assert StrongManipulationBot({"alts": "0", "budget": "0"}).move(obs) == MELD_BEST


def test_guard_weighs_the_other_seats_chances_and_stays_legal() -> None:
    state = _position("3c 4c 9c Kd Kh Ks 2h 8h Jd Qs", "5c 6c 7c | 9d 9h 9s")
    obs = state.observation(state.current_player())
    bot = StrongManipulationBot({"guard": "1", "ghands": "4"}, seed=1)
    pool = bot.unseen(obs)
    hands = bot._their_hands(obs, pool, bot._rng(obs))
    assert len(hands) == 2 and all(len(h) == 4 for h in hands)
    assert all(len(hand) == obs.hand_sizes[(obs.seat + 1) % 3] + 1 for hand in hands[0])
    threat = bot._threat(obs, obs.table, hands)
    assert 0.0 <= threat <= 2.0
    move = bot.move(obs)
    if isinstance(move, str):
        state.apply(move)
    else:
        assert move == MELD_BEST
    with pytest.raises(OptionError):
        StrongManipulationBot({"guard": "-1"})


def test_guard_threat_counts_the_seats_that_would_finish() -> None:
    """Per seat, the share of its sampled hands that go out or get down to
    the knock limit on the table: here one seat's hands all go out (8c 4c on
    the run), the other's half knock (an ace left) and half hold too much."""
    state = _position("3c 4c 9c Kd Kh Ks 2h 8h Jd Qs", "5c 6c 7c | 9d 9h 9s")
    obs = state.observation(state.current_player())
    bot = StrongManipulationBot(seed=1)
    out = parse_cards("8c 4c")
    knock = parse_cards("9c Ad")
    stuck = parse_cards("Kd Qh")
    assert bot._threat(obs, obs.table, [[out, out]]) == 1.0
    assert bot._threat(obs, obs.table, [[knock, stuck]]) == 0.5
    assert bot._threat(obs, obs.table, [[out], [knock, stuck]]) == 1.5
    # on an empty table none of them can play, and none holds 5 points or fewer
    assert bot._threat(obs, (), [[out, knock, stuck]]) == 0.0


def test_guard_and_read_follow_the_first_meld_duty_D25() -> None:
    """With ``initial_meld_from_hand`` (D-25) a seat that has not melded this
    round can lay nothing off: its threat counts only new melds of its own
    cards, and what it kept is not read from the table it left (nor after
    the turn of its first meld, which could lay nothing off); later, both
    count as without the option."""
    from dataclasses import replace

    from rummylab.manipulation.game import MELD_TEXT

    def moves(obs: Any, actions: tuple[tuple[int, str], ...]) -> Any:
        """``obs`` with this history, as text and as ids (a meld: MELD_TEXT)."""
        ids = tuple(MELD_TEXT if t.startswith("meld ") else state.string_to_action(t)
                    for _, t in actions)
        return replace(obs, actions=actions, action_ids=ids)

    table = "5c 6c 7c | 9d 9h 9s"
    lays_off = parse_cards("8c Ad")  # 8c onto the run leaves an ace: a knock
    for duty in (False, True):
        state = ManipulationState({"players": 3, "initial_meld_from_hand": duty}, seed=1)
        seat = state.current_player()
        state._table = parse_table(table, 2)
        state._invalidate()
        obs = state.observation(seat)
        other = (seat + 1) % 3
        bot = StrongManipulationBot(seed=1)
        first = bot._threat(obs, obs.table, [[lays_off]])
        assert first == (0.0 if duty else 1.0)
        melded = moves(obs, ((other, f"meld 5c 6c 7c => {table}"),))
        assert bot._threat(melded, obs.table, [[lays_off]]) == 1.0
        # a seat that drew three on this table (melded by another) without a meld of
        # its own: what it kept is read from the table only where it could lay off
        drew = moves(obs, ((seat, f"meld 5c 6c 7c => {table}"), (other, "draw"),
                           (other, "draw"), (other, "pass")))
        n = obs.hand_sizes[other]
        assert bot._reading(drew, bot.unseen(drew))[0][1] == (0 if duty else n - 1)
        # its first meld (from its own hand, under the duty) and then one more turn
        first = ((other, f"meld 5c 6c 7c => {table}"), (other, "pass"))
        with_meld = moves(obs, first)
        assert bot._reading(with_meld, bot.unseen(with_meld))[0][1] == (0 if duty else n)
        again = moves(obs, (*first, (seat, "draw"), (seat, "draw"), (seat, "pass"),
                            (other, "meld 8c => 5c 6c 7c 8c | 9d 9h 9s"), (other, "pass")))
        assert bot._reading(again, bot.unseen(again))[0][1] == n


def test_last_tables_follow_each_seats_latest_turn() -> None:
    """The table each other seat left at the end of its latest turn, and
    whether it melded then, read from the record, against the state stepped
    turn by turn."""
    state = ManipulationState({"players": 3, "target": 60}, seed=9)
    bots = [make_bot("simple", "manipulation", seed=i) for i in range(3)]
    truth: list[tuple[Any, bool] | None] = [None] * 3
    melded = False
    checked = 0
    start_round = state.round
    while state.round == start_round and not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)
        read = last_tables(obs)
        assert [read[s] for s in range(3) if s != seat] == [
            truth[s] for s in range(3) if s != seat]
        checked += 1
        action = bots[seat].act(obs)
        melded = melded or action == MELD_BEST
        state.apply_action(action)
        if state.round != start_round:
            break
        if state.current_player() != seat:
            truth[seat] = (state.table, melded)
            melded = False
    assert checked > 20 and any(t is not None and t[1] for t in truth)
    assert any(t is not None and t[0] for t in truth)


def test_strong_passes_rather_than_knock_on_the_last_turn() -> None:
    """§4.9, D-20: on the round's last turn the hands are counted anyway, so
    a knock is never better for the round and gives a hand that ties or
    beats the seat's the undercut bonus; on an earlier meld-only turn a
    knock still ends the round before the others meld."""
    bot = StrongManipulationBot({"risk": "100"}, seed=1)  # knock at any risk
    seen = {True: 0, False: 0}
    for seed in range(6):
        for state in run_the_pile_out(3, seed):
            if not state._final_turn:
                continue
            seat = state.current_player()
            state._hands[seat] = parse_cards("Ac 2d")  # a knockable hand
            state._invalidate()
            action = bot.act(state.observation(seat))
            if action == MELD_BEST:  # it melds first; the knock is decided after
                state.apply_action(action)
                if state.round != 1:  # went out
                    continue
                action = bot.act(state.observation(seat))
            obs = state.observation(seat)
            assert KNOCK in obs.legal_actions and PASS in obs.legal_actions
            last = obs.last_turn
            assert action == (PASS if last else KNOCK)
            seen[last] += 1
    assert seen[True] >= 3 and seen[False] >= 3


def test_read_draws_kept_cards_from_those_dead_on_the_table_left() -> None:
    """With ``read``, a seat's cards kept from its latest turn are drawn
    from the unseen cards that could not be played alone on the table it
    left; a sample's hands share no card beyond the pack's copies."""
    state = ManipulationState({"players": 3}, seed=4)
    bots = [make_bot("simple", "manipulation", seed=i) for i in range(3)]
    while True:  # play until every seat has had a turn on a table with melds
        seat = state.current_player()
        obs = state.observation(seat)
        last = last_tables(obs)
        if all(t is not None and t[0] for s, t in enumerate(last) if s != seat):
            break
        state.apply_action(bots[seat].act(obs))
    bot = StrongManipulationBot({"ghands": "6", "read": "1"}, seed=2)
    pool = bot.unseen(obs)
    reading = bot._reading(obs, pool)
    others = [s for s in range(3) if s != seat]
    assert [n for n, _, _ in reading] == [obs.hand_sizes[s] for s in others]
    for (n, kept, dead), s in zip(reading, others, strict=True):
        turn = last[s]
        assert turn is not None
        table, did_meld = turn
        assert kept == (n if did_meld else n - 1)
        assert dead == {c for c in set(pool) if best_play(table, [c], obs.decks) is None}
        # the seat's true hand is (almost always) among the dead cards
        assert sum(c in dead for c in state.hand_of(s)) >= kept - 1
    hands = bot._their_hands(obs, pool, bot._rng(obs))
    for j in range(6):
        both = [c for seat_hands in hands for c in seat_hands[j]]
        for c in set(both):
            assert both.count(c) <= pool.count(c)
        for (n, kept, dead), seat_hands in zip(reading, hands, strict=True):
            hand = seat_hands[j]
            assert len(hand) == n + 1
            assert sum(c in dead for c in hand) >= kept
    # without read the sample ignores the record
    plain = StrongManipulationBot({"ghands": "6", "read": "0"}, seed=2)
    assert len(plain._their_hands(obs, pool, plain._rng(obs))) == 2


def test_decisive_rounds_count_only_a_finish() -> None:
    state = _position("3c 4c 9c Kd Kh Ks 2h 8h Jd Qs", "5c 6c 7c | 9d 9h 9s")
    seat = state.current_player()
    calm = StrongManipulationBot({"race": "50", "hold": "1"})
    assert not calm.decisive(state.observation(seat))
    assert calm._value(state.observation(seat), 20, False, 40.0) == -20
    state._scores[(seat + 1) % 3] = 110
    obs = state.observation(seat)
    assert calm.decisive(obs)
    assert calm._value(obs, 20, False, 40.0) == 0
    assert calm._value(obs, 3, False, 40.0) == 40 - 2 * 3
    assert not StrongManipulationBot({"race": "0"}).decisive(obs)


def test_text_moves_are_recorded_and_replay() -> None:
    buf = io.StringIO()
    specs = ["strong:reserve=9:budget=2", "simple", "simple"]
    bots = [make_bot(s, "manipulation", seed=i) for i, s in enumerate(specs)]
    state = play_match("manipulation", bots, seed=3, options={"target": 60},
                       writer=RecordWriter(buf))
    assert state.is_terminal()
    text = buf.getvalue()
    # strong's reserve melds are melds that the best play would have made bigger
    assert sum('"seat":0,"action":"meld' in line for line in text.splitlines()) > 0
    buf.seek(0)
    (m,) = replay(buf)
    assert m.winners == state.winners and m.final_scores == state.final_scores


# --- hints --------------------------------------------------------------------


def test_hints_are_legal_with_a_one_line_reason() -> None:
    for game, spec, options, steps in (
        ("three-thirteen", "strong:budget=4", {"players": 3}, 40),
        ("manipulation", "strong:budget=2", {"players": 3, "target": 40}, 12),
    ):
        state = new_state(game, options, 3)
        bot = make_bot(spec, game, seed=1)
        for _ in range(steps):
            if state.is_terminal():
                break
            seat = state.current_player()
            action, reason = bot.hint(state.observation(seat))
            assert action in state.legal_actions()
            assert reason and "\n" not in reason
            state.apply_action(action)


def test_manipulation_reasons_speak_of_points_and_finishes() -> None:
    """A Manipulation hint's reason is for a player: drawing again names the
    points the best play would leave now (the true count) and, after one more
    card, on average, with the share of draws that knock or go out; another
    play than the best names what it leaves and the chances it gives."""
    import re

    from rummylab.manipulation.game import DRAW

    draws: list[str] = []
    others: list[str] = []
    for seed in range(3):
        state = new_state("manipulation", {"players": 3, "target": 60}, seed)
        bots = [make_bot("strong", "manipulation", seed=s) for s in range(3)]
        while not state.is_terminal() and len(draws) + len(others) < 40:
            seat = state.current_player()
            obs = state.observation(seat)
            move, reason = bots[seat].move_hint(obs)
            assert reason and "\n" not in reason
            if move == DRAW and reason.startswith("draw again"):
                found = re.search(r"leaves (\d+\.\d) points on average and can knock or go out "
                                  r"after (\d+)% of the draws; now it sheds (\d+) points? and "
                                  r"leaves (\d+)$", reason)
                assert found, reason
                best = best_play(obs.table, list(obs.hand), obs.decks)
                assert best is not None
                assert int(found[3]) == best.points_shed
                assert int(found[4]) == hand_points(obs.hand) - best.points_shed
                draws.append(reason)
            elif isinstance(move, str):
                assert re.match(r"meld .+ \(\d+ points?\) rather than the best play "
                                r"\(\d+ points?\): ", reason), reason
                assert "on average" in reason or "finishes expected" in reason, reason
                others.append(reason)
            apply_move(state, move)
    assert draws and others


def test_rounds_script_pairs_two_runs_on_the_same_deals(tmp_path: Any) -> None:
    """``scripts/manipulation_rounds.py --save`` then ``--against``: the same
    spec on the same deals changes no round; a missing file, or rounds of
    another seed, is a one-line error with exit code 2."""
    script = SCRIPTS / "manipulation_rounds.py"
    saved = tmp_path / "base.jsonl"
    run = [sys.executable, str(script), "--bot", "simple", "--deals", "1", "--seed", "3"]
    first = subprocess.run([*run, "--save", str(saved)], capture_output=True, text=True,
                           check=True)
    assert first.stdout.startswith("simple: 3 rounds")
    assert len(saved.read_text().splitlines()) == 3
    again = subprocess.run([*run, "--against", str(saved), "--matches", "200"],
                           capture_output=True, text=True, check=True)
    assert ("paired over 3 rounds: won +0.000 (se 0.000), points +0.00 (se 0.00), "
            "0 changed result") in again.stdout
    # the match estimate: the same rounds give the same share, paired to zero
    line = again.stdout.splitlines()[-1]
    share = line.split("random: ")[1].split(" ")[0]
    assert f"the saved run {share}, paired +0.000 (se 0.000)" in line
    bad = subprocess.run([*run, "--against", str(tmp_path / "none.jsonl")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().startswith("error: cannot read rounds from")
    other = [sys.executable, str(script), "--bot", "simple", "--deals", "1", "--seed", "4"]
    wrong = subprocess.run([*other, "--against", str(saved)], capture_output=True, text=True)
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert wrong.stderr.strip() == f"error: {saved} holds rounds of seed 3, not of seed 4"
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    short = subprocess.run([*run, "--against", str(empty)], capture_output=True, text=True)
    assert short.returncode == 2 and short.stdout == ""  # nothing played
    assert short.stderr.strip() == f"error: {empty} holds fewer than two rounds of these 1 deals"
    # the script's own doctest (scripts are outside the doctest paths)
    tested = doctest.testmod(script_module("manipulation_rounds.py"))
    assert tested.attempted > 0 and tested.failed == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.jsonl", "empty.jsonl"]


def test_rounds_script_refuses_bad_input_before_playing(tmp_path: Any) -> None:
    """No deals, an unknown bot or a file that cannot be written: one line,
    exit code 2, nothing played, and an older ``--save`` file left whole."""
    script = SCRIPTS / "manipulation_rounds.py"
    kept = tmp_path / "kept.jsonl"
    kept.write_text("an older run\n")
    run = [sys.executable, str(script), "--seed", "3"]
    refused_before_playing(run, [
        (["--deals", "0"], "error: --deals must be at least 1"),
        (["--deals", "-2"], "error: --deals must be at least 1"),
        (["--deals", "1", "--bot", "nosuchbot", "--save", str(kept)], "error: "),
        (["--deals", "1", "--bot", "strong:nosuch=1"], "error: "),
        (["--deals", "1", "--save", str(tmp_path / "no" / "r.jsonl")],
         f"error: cannot write {tmp_path / 'no' / 'r.jsonl'}: no directory"),
    ], tmp_path, kept)
