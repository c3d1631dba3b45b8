"""The strong Gin bot's shortcuts equal the searches they replace."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummylab import new_state
from rummylab.bots.strong_gin import History, _reach, first_upcard
from rummylab.cards import CARD_POINTS, cards_of
from rummylab.gin.melds import deadwood, deadwood_after_discard, is_meld


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
