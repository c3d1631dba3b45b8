"""Three-player Gin "in the box" (§2, D-6, D-7) on scripted deals and cuts.

By default the scripted cut (helpers.gin3) makes seat 0 the box, seat 1 the
captain and seat 2 the sitter. A deck order is written captain's hand (the
non-dealer) first, then the box's (the dealer, §2.3).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import deck_order, draw_and_throw, gin3, mask, play, snapshot
from rummylab.cards import parse_card, rank_of
from rummylab.errors import CardError, IllegalActionError, TurnError
from rummylab.gin.game import DRAW_STOCK, PASS, TAKE_DISCARD
from rummylab.gin.three_player import Gin3State

BOX, CAPTAIN, SITTER = 0, 1, 2

GIN = "Ac 2c 3c 7d 7h 7s 9h Th Jh Kd"  # takes the Qh upcard, knocks Kd: gin
DEAD_10 = "4s 5s 6s Jc Jd Js 2h 3h 4h Tc"
KNOCK_5 = "Ac 2c 3c 7d 7h 7s 9h Th Jh 5c"  # draws Kd, knocks it: 5 deadwood
FIVE = "4s 5s 6s Jc Jd Js 2h 3h 4h 5d"  # 5 deadwood: undercuts KNOCK_5

BOX_GIN = deck_order(DEAD_10, GIN, "Qh")  # actions: pass, take discard, knock Kd
CAPTAIN_GIN = deck_order(GIN, DEAD_10, "Qh")  # actions: take discard, knock Kd
BOX_UNDERCUT = deck_order(FIVE, KNOCK_5, "2s", "Kd")  # pass, pass, draw stock, knock Kd
BOX_KNOCKS = deck_order(DEAD_10, KNOCK_5, "2s", "Kd")  # pass, pass, draw stock, knock Kd


def roles(state: Gin3State) -> tuple[int, int, int]:
    """(box, captain, sitter) seats."""
    return state.dealer, state.non_dealer, state.sitter_seat


def new(deck, options=None) -> Gin3State:
    """A match whose first hand is ``deck``; seat 0 box, 1 captain, 2 sitter."""
    return Gin3State(options, 0, decks=[deck], cut=[{0: "Kc", 1: "Qc", 2: "Jc"}])


# --- §2.1 Roles and D-6 the cut ---------------------------------------------------------


@pytest.mark.parametrize(
    ("cut", "expected"),
    [
        ([{0: "Kc", 1: "5d", 2: "As"}], (0, 1, 2)),
        ([{0: "Ah", 1: "Kh", 2: "Qh"}], (1, 2, 0)),  # K high, A low
        ([{0: "2c", 1: "Ad", 2: "3s"}], (2, 0, 1)),
        ([{0: "Jc", 1: "Qd", 2: "Ts"}], (1, 0, 2)),  # Q above J above T
    ],
)
def test_rule_2_1_D6_cut_highest_box_middle_captain_lowest_sitter(cut, expected):
    """§2.1 / D-6: highest card in the box, middle captain, lowest sits out;
    K high, A low."""
    state = Gin3State(seed=1, cut=cut)
    assert roles(state) == expected
    assert [state.role_of(s) for s in expected] == ["box", "captain", "sitter"]


def test_D6_tie_for_highest_redrawn_among_the_tied():
    """D-6: two tied for highest redraw between themselves; the third is sitter."""
    state = Gin3State(seed=1, cut=[{0: "7c", 1: "7d", 2: "2s"}, {0: "3h", 1: "Jc"}])
    assert roles(state) == (1, 0, 2)
    cut = state.events[0]
    assert cut["type"] == "cut"
    assert cut["rounds"] == [{"0": "7c", "1": "7d", "2": "2s"}, {"0": "3h", "1": "Jc"}]
    assert (cut["box"], cut["captain"], cut["sitter"]) == (1, 0, 2)


def test_D6_tie_for_lowest_redrawn_among_the_tied():
    """D-6: a tie for lowest is redrawn by the tied players only."""
    state = Gin3State(seed=1, cut=[{0: "Kc", 1: "4d", 2: "4s"}, {1: "Ah", 2: "2h"}])
    assert roles(state) == (0, 2, 1)


def test_D6_three_way_tie_and_repeated_ties():
    """D-6: all three tie and redraw; a tie again among two is redrawn again."""
    rounds = [{0: "9c", 1: "9d", 2: "9h"}, {0: "Qs", 1: "Qh", 2: "3c"},
              {0: "Kd", 1: "Kc"}, {0: "5c", 1: "8c"}]
    state = Gin3State(seed=1, cut=rounds)
    assert roles(state) == (1, 0, 2)
    assert len(state.events[0]["rounds"]) == 4


def test_D6_suits_do_not_break_ties():
    """D-6: only ranks count: Ks and Kc tie and are redrawn."""
    state = Gin3State(seed=1, cut=[{0: "Ks", 1: "Kc", 2: "Qs"}, {0: "2d", 1: "6d"}])
    assert roles(state) == (1, 0, 2)


def test_D6_cut_round_must_give_one_distinct_card_per_seat():
    """D-6: a scripted cut round names each drawing seat once, with distinct cards."""
    with pytest.raises(CardError):
        Gin3State(seed=1, cut=[{0: "Kc", 1: "Qc"}])
    with pytest.raises(CardError):
        Gin3State(seed=1, cut=[{0: "Kc", 1: "Kc", 2: "2d"}])
    with pytest.raises(CardError):
        Gin3State(seed=1, cut=[{0: "7c", 1: "7d", 2: "2s"}, {0: "3h", 2: "Jc"}])


def reference_order(seats: list[int], rounds: list[dict[int, int]]) -> list[int]:
    """D-6 by the book: order by rank (K high), tied groups redraw in turn."""
    if len(seats) == 1:
        return seats
    draw = rounds.pop(0)
    assert sorted(draw) == sorted(seats)
    out = []
    for r in sorted({rank_of(draw[s]) for s in seats}, reverse=True):
        tied = [s for s in seats if rank_of(draw[s]) == r]
        out += reference_order(tied, rounds) if len(tied) > 1 else tied
    return out


@settings(max_examples=150)
@given(st.integers(0, 10**9))
def test_D6_random_cut_orders_by_rank_and_redraws_ties(seed):
    """D-6: every seeded cut, its recorded draws replayed by the book, gives
    the same box, captain and sitter; the same seed, the same cut."""
    state = Gin3State(seed=seed)
    cut = state.events[0]
    rounds = [{int(s): parse_card(c) for s, c in r.items()} for r in cut["rounds"]]
    assert reference_order([0, 1, 2], rounds) == list(roles(state))
    assert rounds == []  # every draw was used
    assert roles(Gin3State(seed=seed)) == roles(state)


# --- §2.3 Deal, §2.4 / D-7 Opening ------------------------------------------------------


def test_rule_2_3_box_deals_captain_is_non_dealer():
    """§2.3: the box deals every hand; the captain is the non-dealer and is
    offered the upcard first."""
    state = gin3(DEAD_10, GIN, "Qh")  # the captain's hand, then the box's
    assert state.dealer == BOX and state.non_dealer == CAPTAIN
    assert state.hand_of(CAPTAIN) == mask(DEAD_10)
    assert state.hand_of(BOX) == mask(GIN)
    assert state.hand_of(SITTER) == 0
    assert state.current_player() == CAPTAIN
    assert state.legal_actions() == [TAKE_DISCARD, PASS]
    deal = state.events[1]
    assert (deal["dealer"], deal["captain"], deal["sitter"]) == (BOX, CAPTAIN, SITTER)


def test_rule_2_4_D7_both_pass_box_draws_first_by_default():
    """§2.4 / D-7: if both decline the upcard the dealer (the box) draws first."""
    state = new(BOX_KNOCKS)
    assert state.options["first_draw_after_both_pass"] == "dealer"
    play(state, "pass")
    assert state.current_player() == BOX
    play(state, "pass")
    assert state.current_player() == BOX
    assert state.legal_actions() == [DRAW_STOCK]
    play(state, "draw stock")
    assert state.hand_of(BOX) & mask("Kd")


def test_D7_option_non_dealer_makes_the_captain_draw():
    """D-7 option `first_draw_after_both_pass` = non_dealer: as in §1.3."""
    state = new(BOX_KNOCKS, {"first_draw_after_both_pass": "non_dealer"})
    play(state, "pass", "pass")
    assert state.current_player() == CAPTAIN
    assert state.legal_actions() == [DRAW_STOCK]


# --- §2.2 Teams: the sitter -------------------------------------------------------------


def test_rule_2_2_sitter_sees_captains_hand_never_the_box():
    """§2.2: the sitter's observation holds the captain's cards, never the box's."""
    state = new(CAPTAIN_GIN)
    play(state, "take discard", "discard Kd")  # the box now knows the captain's Qh
    for _ in range(10):
        obs = state.observation(SITTER)
        assert obs.role == "sitter" and obs.hand_seat == CAPTAIN
        assert obs.hand == state.hand_of(CAPTAIN)
        assert not obs.hand & state.hand_of(BOX)
        assert obs.opponent_hand_size == 10
        assert obs.opponent_known == 0  # the box took nothing from the pile
        assert state.observation(BOX).hand == state.hand_of(BOX)
        assert state.observation(BOX).opponent_known == mask("Qh")
        assert state.observation(CAPTAIN).hand == state.hand_of(CAPTAIN)
        draw_and_throw(state)


def test_rule_2_2_sitter_never_holds_cards_and_never_acts():
    """§2.2: the sitter holds no cards and is never the seat to act."""
    state = new(BOX_KNOCKS)
    play(state, "pass", "pass")
    for _ in range(20):
        assert state.hand_of(SITTER) == 0
        assert state.current_player() in (BOX, CAPTAIN)
        draw_and_throw(state)


def test_rule_2_2_sitter_advice_is_recorded_and_changes_nothing():
    """§2.2: the sitter may advise the captain; the advice is recorded and
    changes nothing else (the captain has the final say)."""
    state = new(CAPTAIN_GIN)
    before = snapshot(state)
    action = state.advise("take discard")
    assert action == TAKE_DISCARD
    after = snapshot(state)
    assert state.advice == [(SITTER, "take discard")]
    assert state.events[-1] == {"type": "advice", "seat": SITTER, "action": "take discard"}
    for key in before:
        if key not in ("events", "advice", "obs"):
            assert after[key] == before[key], key
    assert after["events"] == before["events"] + 1
    # the captain and the sitter see the advice; the box does not (it tells of
    # the captain's cards); nothing else in any view changes
    for seat in range(3):
        view = dict(after["obs"][seat])
        assert view.pop("advice") == ([] if seat == BOX else ["take discard"])
        assert view == {k: v for k, v in before["obs"][seat].items() if k != "advice"}
    # the captain decides otherwise; the advice was for that move only
    play(state, "pass")
    assert state.current_player() == BOX
    assert all(state.observation(s).advice == () for s in range(3))
    assert state.advice == [(SITTER, "take discard")]


def test_rule_2_2_advice_only_while_captain_acts_and_only_legal():
    """§2.2: advice is for the captain's decision: refused while the box acts,
    and an illegal action is refused; a refusal records nothing."""
    state = new(CAPTAIN_GIN)
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.advise("draw stock")
    with pytest.raises(IllegalActionError):
        state.advise("fly away")
    assert snapshot(state) == before
    play(state, "pass")
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.advise("pass")  # the box is to act
    assert snapshot(state) == before


def test_rule_2_2_only_the_sitter_advises():
    """§2.2: advice given for a seat is the sitter's alone, refused before
    the move is read (whose error could tell of the captain's cards)."""
    state = new(CAPTAIN_GIN)
    before = snapshot(state)
    for seat in (BOX, CAPTAIN):
        with pytest.raises(TurnError, match="only the sitter"):
            state.advise("take discard", seat)
        with pytest.raises(TurnError, match="only the sitter"):
            state.advise("fly away", seat)
    assert snapshot(state) == before
    assert state.advise("take discard", SITTER) == TAKE_DISCARD


def test_rule_2_2_advice_resets_each_hand():
    """§2.2: the advice list is per hand."""
    state = new(CAPTAIN_GIN)
    state.advise("take discard")
    play(state, "take discard", "knock Kd")
    assert state.advice == []


# --- §2.5 Scoring, §2.6 Rotation --------------------------------------------------------


def test_rule_2_6_rotation_over_a_scripted_series_of_hands():
    """§2.6 over five hands: box wins (captain and sitter swap), box loses
    (box sits out, captain to the box, sitter to captain), drawn (nobody
    moves), box undercut (loses), box wins by a knock. §2.5: only the
    hand's winner scores, the sitter never."""
    decks = [BOX_GIN, CAPTAIN_GIN, BOX_GIN, BOX_UNDERCUT, BOX_KNOCKS]
    state = Gin3State({"target": 500}, 0, decks=decks, cut=[{0: "Kc", 1: "Qc", 2: "Jc"}])
    assert roles(state) == (0, 1, 2)

    def hand(*actions, winner):
        sitter = state.sitter_seat
        box, captain = state.dealer, state.non_dealer
        before = state.scores
        play(state, *actions)
        r = state.hand_results[-1]
        assert r["winner"] == winner
        assert winner in (box, captain, None)
        assert state.scores[sitter] == before[sitter]  # §2.5
        return r

    r = hand("pass", "take discard", "knock Kd", winner=0)  # the box (0) goes gin
    assert r["outcome"] == "gin" and state.scores == [35, 0, 0]
    assert roles(state) == (0, 2, 1)  # box stays; captain and sitter swap

    r = hand("take discard", "knock Kd", winner=2)  # the captain (2) goes gin
    assert state.scores == [35, 0, 35]
    assert roles(state) == (2, 1, 0)  # box sits out; captain boxes; sitter captains

    sitter = state.sitter_seat
    play(state, "pass", "pass")
    while state.hand_number == 3:
        draw_and_throw(state)
    assert state.hand_results[-1]["outcome"] == "drawn"
    assert state.scores == [35, 0, 35] and sitter == 0
    assert roles(state) == (2, 1, 0)  # drawn: nobody moves, the box deals again

    r = hand("pass", "pass", "draw stock", "knock Kd", winner=1)  # the captain undercuts
    assert r["outcome"] == "undercut" and r["knocker"] == 2 and r["points"] == 10
    assert state.scores == [35, 10, 35]
    assert roles(state) == (1, 0, 2)

    r = hand("pass", "pass", "draw stock", "knock Kd", winner=1)  # the box knocks and wins
    assert r["outcome"] == "knock" and r["points"] == 5
    assert state.scores == [35, 15, 35]
    assert roles(state) == (1, 2, 0)

    deals = [(e["dealer"], e["captain"], e["sitter"]) for e in state.events
             if e["type"] == "deal"]
    assert deals == [(0, 1, 2), (0, 2, 1), (2, 1, 0), (2, 1, 0), (1, 0, 2), (1, 2, 0)]


def test_rule_2_5_sitter_scores_nothing_even_at_match_end():
    """§2.5: the sitter scores nothing, bonuses included."""
    state = new(BOX_GIN, {"target": 30, "game_bonus": 100, "line_bonus": 20})
    play(state, "pass", "take discard", "knock Kd")
    assert state.is_terminal()
    assert state.final_scores == [35 + 100 + 20, 0, 0]
    assert sum(state.returns()) == pytest.approx(0)


# --- §2.7 End ---------------------------------------------------------------------------


def test_rule_2_7_first_to_target_wins():
    """§2.7: the first whose total reaches 100 (option `target`) wins."""
    assert Gin3State(seed=4).options["target"] == 100
    state = new(CAPTAIN_GIN, {"target": 35})
    play(state, "take discard", "knock Kd")
    assert state.is_terminal() and state.winners == [CAPTAIN]
    assert state.scores == [0, 35, 0]
    state = new(CAPTAIN_GIN, {"target": 36})
    play(state, "take discard", "knock Kd")
    assert not state.is_terminal()


def test_rule_2_the_hand_is_two_player_gin():
    """§2: the hand is §1's: the gin example scores 35 in the box too, and
    D-3 holds."""
    state = new(CAPTAIN_GIN)
    play(state, "take discard")
    with pytest.raises(IllegalActionError):
        state.apply("discard Qh")
    play(state, "knock Kd")
    r = state.hand_results[-1]
    assert r["outcome"] == "gin" and r["points"] == 35 and r["defender"] == BOX
