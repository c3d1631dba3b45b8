"""The strong Gin bot's shortcuts equal the searches they replace."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummylab import new_state
from rummylab.bots.gin.strong import History, _reach, first_upcard
from rummylab.cards import CARD_POINTS, cards_of
from rummylab.gin.solver import deadwood, deadwood_after_discard, is_meld


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)))
def test_a_card_out_of_reach_only_replaces_the_worst_card(order: list[int]) -> None:
    hand = sum(1 << c for c in order[:10])
    reach = _reach(hand)
    now, best9 = deadwood(hand), deadwood_after_discard(hand)
    for u in order[10:30]:
        # in reach <=> u and two cards of the hand make a meld (every longer
        # meld holding u holds such a three)
        melds_u = any(is_meld(1 << u | 1 << a | 1 << b)
                      for a, b in combinations(cards_of(hand), 2))
        assert bool(reach >> u & 1) == melds_u
        if not reach >> u & 1:
            assert deadwood_after_discard(hand | 1 << u) == min(now, best9 + CARD_POINTS[u])


def test_the_history_does_not_mistake_a_later_discard_for_a_taken_upcard() -> None:
    """The opponent passed the first upcard and this seat took it: the pile's
    bottom is now this seat's own discard, which the opponent never saw."""
    state = new_state("gin", seed=5)
    opponent = state.current_player()
    up = state.observation(opponent).discard_pile[0]
    assert first_upcard(state.observation(opponent)) == up
    state.apply("pass")
    me = state.current_player()
    assert me != opponent
    state.apply("take discard")
    state.apply_action(state.legal_actions()[0])  # D-3: never the card just taken
    obs = state.observation(me)
    assert first_upcard(obs) is None
    assert History(obs).unwanted == []  # was: the seat's own discard
    mine = obs.discard_pile[-1]
    state.apply("draw stock")  # the opponent declines it
    state.apply_action(state.legal_actions()[0])
    theirs = state.observation(me).discard_pile[-1]
    assert History(state.observation(me)).unwanted == [mine, theirs]


def test_a_dealt_gin_is_not_broken_for_the_upcard() -> None:
    """D-3: the card taken may not go back, so an upcard cannot 'complete' a
    hand that is gin already; the bot keeps its gin and draws."""
    from helpers import gin
    from rummylab.bots import make_bot
    from rummylab.gin.game import TAKE_DISCARD

    state = gin("As 2s 3s 4s 5h 6h 7h 9c 9d 9h", "Kc Qh Jd 8s 7c 6d 5c 4h 3d 2c", "Kd", "Th")
    seat = state.current_player()
    action, reason = make_bot("strong", "gin", seed=1).hint(state.observation(seat))
    assert action != TAKE_DISCARD, reason


def test_options_at_their_limits_play_whole_matches() -> None:
    """``tight=0`` rules out every sample that holds deadwood above the last
    throw (all of them, at times: they are then kept evenly, not divided by
    zero); ``knock=1`` still knocks when every sampled defence loses (the
    weights sum to 1 only up to rounding); a negative seed is a seed."""
    from rummylab.bots import make_bot
    from rummylab.bots.gin.strong import StrongGinBot

    for seed in range(3):
        state = new_state("gin", {"target": 30}, seed=seed)
        bots = [make_bot("strong:tight=0:seed=-5", "gin", seed=0), make_bot("simple", "gin")]
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(bots[seat].act(state.observation(seat)))
    bot = StrongGinBot({"knock": "1"})
    assert bot._should_knock(None, 5, 3.0, 1.0 - 1e-15)  # type: ignore[arg-type]


def test_only_knocks_left_means_a_knock() -> None:
    """At OpenSpiel's wall, after taking the upcard, the only moves are
    knocks: a bot that would rather not knock (``knock=1``) still picks one."""
    from dataclasses import replace

    from rummylab.bots import make_bot
    from rummylab.gin.game import BIG_GIN, KNOCK_BASE

    for seed in range(200):
        state = new_state("gin", seed=seed)
        bot = make_bot("simple", "gin")
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            knocks = tuple(a for a in obs.legal_actions if KNOCK_BASE <= a < BIG_GIN)
            if knocks:
                forced = replace(obs, legal_actions=knocks)
                action = make_bot("strong:knock=1", "gin", seed=1).act(forced)
                assert action in knocks
                return
            state.apply_action(bot.act(obs))
    raise AssertionError("no knock in 200 deals")


def test_reasons_speak_of_deadwood_and_the_chance_to_knock() -> None:
    """A hint's reason is for a player: a draw names both choices' expected
    deadwood a draw later and their chance to knock then; a discard names the
    deadwood it keeps (the true count) and, when a knock was legal, why none
    was made; at the default ``knock`` a knock is not explained by a sampled
    chance the bot does not use."""
    import re

    from rummylab import new_state
    from rummylab.bots import make_bot
    from rummylab.gin.game import DISCARD_BASE, KNOCK_BASE, TAKE_DISCARD

    draws: list[str] = []
    discards: list[tuple[int, str]] = []
    held: list[str] = []
    knocks: list[str] = []
    for seed in range(6):
        state = new_state("gin", {"target": 10}, seed)
        bots = [make_bot("strong:budget=4", "gin", seed=s) for s in range(2)]
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            action, reason = bots[seat].hint(obs)
            if TAKE_DISCARD in obs.legal_actions:
                draws.append(reason)
            elif action >= KNOCK_BASE:
                knocks.append(reason)
            elif action >= DISCARD_BASE and len(obs.legal_actions) > 1:
                kept = obs.hand & ~(1 << (action - DISCARD_BASE))
                discards.append((deadwood(kept), reason))
                if any(a >= KNOCK_BASE for a in obs.legal_actions):
                    held.append(reason)
            state.apply_action(action)
    both = re.compile(r"^(take \w+|pass|draw from the stock): .+ leaves \d+\.\d deadwood "
                      r"expected after my next draw, \d+% to knock then; .+ \d+\.\d, \d+%"
                      r"(; what the throws give the opponent decides it)?$")
    assert draws and all(both.search(r) for r in draws), draws[:3]
    for r in draws:  # without the note, the move made shows the better knock chance
        chosen = int(re.search(r"(\d+)% to knock then", r)[1])  # type: ignore[index]
        other = int(re.search(r"; .+ \d+\.\d, (\d+)%", r)[1])  # type: ignore[index]
        assert "decides it" in r or chosen >= other, r
    assert discards and all(r.split(": ", 1)[1].startswith(f"keeps {dw} deadwood")
                            or "; keeps " + f"{dw} deadwood" in r for dw, r in discards)
    assert held and all("hold for gin" in r for r in held), held[:3]
    assert knocks and all("%" not in r for r in knocks)


def test_a_low_knock_limit_shortens_the_wait_for_gin() -> None:
    """§1.5 option `knock_limit` 3 (as an Oklahoma upcard of 3 would): with
    3 deadwood the hand may knock, and under so low a limit the bot knocks
    instead of holding for gin; at the usual limit of 10 it holds."""
    from helpers import gin
    from rummylab.bots import make_bot
    from rummylab.gin.game import KNOCK_BASE

    # after drawing the Kd: As2s3s 5h6h7h 9c9d9h melded, 3d Kd left; throwing Kd leaves 3
    hand, other = "As 2s 3s 5h 6h 7h 9c 9d 9h 3d", "Kc Qh Jd 8s 7c 6d 5c 4h 2c Tc"
    stock = "Kd 4c 8d Js Ts 8c 2d 4d Qs Jh 7d 6c"
    for limit, knocks in ((3, True), (10, False)):
        state = gin(hand, other, "Th", stock, {"knock_limit": limit})
        seat = state.current_player()
        state.apply("pass")
        state.apply("pass")
        assert state.current_player() == seat
        state.apply("draw stock")
        obs = state.observation(seat)
        assert obs.stock_size > 8
        action, reason = make_bot("strong", "gin", seed=1).hint(obs)
        assert (KNOCK_BASE <= action < KNOCK_BASE + 52) == knocks, (limit, reason)
