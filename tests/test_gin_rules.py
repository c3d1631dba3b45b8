"""Gin Rummy, rule by rule (§1, D-2 to D-5) and every rule option, on scripted deals.

In every script seat 0 deals first, so seat 1 is the non-dealer (helpers.gin).
"""

from __future__ import annotations

import pytest

from helpers import deck_order, draw_and_throw, gin, mask, play, play_to_drawn_hand, snapshot
from rummylab.cards import mask_str, parse_card
from rummylab.errors import CardError, IllegalActionError
from rummylab.gin.game import BIG_GIN, DRAW_STOCK, KNOCK_BASE, PASS, TAKE_DISCARD, GinState

ND, DL = 1, 0  # non-dealer and dealer seats of the first hand

# the non-dealer goes gin by taking the Qh upcard and knocking the Kd
GIN_ND = "Ac 2c 3c 7d 7h 7s 9h Th Jh Kd"
GIN_UP = "Qh"
# the dealer: three melds and the Tc, 10 deadwood; nothing lays off on GIN_ND's melds
DEAD_10 = "4s 5s 6s Jc Jd Js 2h 3h 4h Tc"
# already gin with ten cards (the Kh would make all eleven meld)
BIG_GIN_ND = "Ac 2c 3c 7d 7h 7s 9h Th Jh Qh"


def gin_hand(options=None, **kw) -> GinState:
    """Non-dealer gin against 10 deadwood, played through."""
    state = gin(GIN_ND, DEAD_10, GIN_UP, "", options, **kw)
    play(state, "take discard", "knock Kd")
    return state


def result(state: GinState) -> dict:
    return state.hand_results[-1]


def legal_texts(state: GinState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


# --- §1.1 Goal and target ---------------------------------------------------------


def test_rule_1_1_target_defaults_to_100():
    """§1.1: the target is option `target`, default 100."""
    assert GinState(seed=1).options["target"] == 100
    assert GinState({"target": 250}, seed=1).options["target"] == 250


def test_rule_1_1_match_is_scored_over_several_hands():
    """§1.1: points accumulate over several hands until the target."""
    state = gin_hand({"target": 70}, more=[_gin_deck()])
    assert state.scores == [0, 35] and not state.is_terminal()
    # hand 2: seat 0 is now the non-dealer (D-2) and goes gin the same way
    play(state, "take discard", "knock Kd")
    assert state.scores == [35, 35] and state.hand_number == 3
    assert not state.is_terminal()


def _gin_deck():
    """The gin hand's deck order, for later hands (whoever is the non-dealer)."""
    return deck_order(GIN_ND, DEAD_10, GIN_UP)


# --- §1.2 Deal ---------------------------------------------------------------------


def test_rule_1_2_deal_ten_each_upcard_then_stock():
    """§1.2: ten cards each, dealt alternately from the non-dealer; the next
    card is the upcard; the rest is the stock, card 22 on top."""
    state = gin(GIN_ND, DEAD_10, GIN_UP, "Kh 2d")
    assert state.hand_of(ND) == mask(GIN_ND)
    assert state.hand_of(DL) == mask(DEAD_10)
    assert state.discard_pile == [parse_card(GIN_UP)]
    assert len(state.stock) == 31
    assert state.stock[:2] == [parse_card("Kh"), parse_card("2d")]
    assert state.dealer == DL and state.non_dealer == ND
    event = state.events[0]
    assert event["type"] == "deal" and event["dealer"] == DL
    assert event["deck"].split()[:4] == ["Ac", "4s", "2c", "5s"]


def test_rule_1_2_scripted_deck_must_be_a_full_pack():
    """§1.2: a scripted deck order is the 52 cards, each once."""
    order = _gin_deck()
    with pytest.raises(CardError):
        GinState(seed=1, decks=[order[:-1]])
    with pytest.raises(CardError):
        GinState(seed=1, decks=[[*order[:-1], order[0]]])


def test_rule_1_2_deal_from_a_seeded_shuffle():
    """§1.2: an unscripted deal is a full shuffled deck; the same seed deals
    the same cards."""
    a, b = GinState(seed=11), GinState(seed=11)
    for state in (a, b):
        assert [state.hand_of(s).bit_count() for s in (0, 1)] == [10, 10]
        assert len(state.discard_pile) == 1 and len(state.stock) == 31
    assert snapshot(a) == snapshot(b)
    assert snapshot(GinState(seed=12)) != snapshot(a)


def test_D2_first_dealer_chosen_at_random():
    """§1.2 / D-2: the first dealer is chosen at random (from the seed)."""
    dealers = {GinState(seed=s).dealer for s in range(40)}
    assert dealers == {0, 1}
    assert all(GinState(seed=s).dealer == GinState(seed=s).dealer for s in range(10))
    with pytest.raises(IllegalActionError):
        GinState(seed=1, first_dealer=2)


def test_D2_deal_alternates_and_same_dealer_after_drawn_hand():
    """D-2: after a scored hand the deal alternates; after a drawn hand
    (§1.9) the same dealer deals again."""
    state = gin_hand(more=[_gin_deck(), _gin_deck(), _gin_deck()])
    assert state.hand_number == 2 and state.dealer == 1  # alternated
    play_to_drawn_hand(state)
    assert result(state)["outcome"] == "drawn"
    assert state.hand_number == 3 and state.dealer == 1  # drawn: same dealer
    play(state, "take discard", "knock Kd")  # seat 0, the non-dealer, gins
    assert result(state)["winner"] == 0
    assert state.hand_number == 4 and state.dealer == 0  # alternated again
    assert [e["dealer"] for e in state.events if e["type"] == "deal"] == [0, 1, 1, 0]


# --- §1.3 Opening ----------------------------------------------------------------------


def test_rule_1_3_non_dealer_is_offered_the_upcard_first():
    """§1.3: the non-dealer may take the upcard or pass; nothing else."""
    state = gin(GIN_ND, DEAD_10, GIN_UP)
    assert state.current_player() == ND
    assert state.legal_actions() == [TAKE_DISCARD, PASS]


def test_rule_1_3_dealer_offered_after_non_dealer_passes():
    """§1.3: if the non-dealer passes, the dealer may take the upcard."""
    state = gin(GIN_ND, DEAD_10, GIN_UP)
    play(state, "pass")
    assert state.current_player() == DL
    assert state.legal_actions() == [TAKE_DISCARD, PASS]


def test_rule_1_3_both_pass_non_dealer_must_draw_from_stock():
    """§1.3: if both pass, the non-dealer begins by drawing the top of the
    stock; the upcard may not be taken now."""
    state = gin(GIN_ND, DEAD_10, GIN_UP, "5d")
    play(state, "pass", "pass")
    assert state.current_player() == ND
    assert state.legal_actions() == [DRAW_STOCK]
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(TAKE_DISCARD)
    assert snapshot(state) == before
    play(state, "draw stock")
    assert state.hand_of(ND) == mask(GIN_ND + " 5d")
    assert state.discard_pile == [parse_card(GIN_UP)]


def test_rule_1_3_non_dealer_takes_upcard_discards_then_dealer_plays():
    """§1.3: whoever takes the upcard discards; play continues with the other."""
    state = gin(GIN_ND, DEAD_10, GIN_UP)
    play(state, "take discard")
    assert state.current_player() == ND
    assert state.hand_of(ND) == mask(GIN_ND + " " + GIN_UP)
    assert state.discard_pile == []
    play(state, "discard Kd")
    assert state.current_player() == DL
    assert state.legal_actions() == [DRAW_STOCK, TAKE_DISCARD]
    assert state.discard_pile == [parse_card("Kd")]


def test_rule_1_3_dealer_takes_upcard_discards_then_non_dealer_plays():
    """§1.3: the dealer takes the passed upcard, discards, then the non-dealer plays."""
    state = gin(DEAD_10, GIN_ND, GIN_UP)
    play(state, "pass", "take discard")
    assert state.current_player() == DL
    play(state, "discard Kd")
    assert state.current_player() == ND
    assert state.legal_actions() == [DRAW_STOCK, TAKE_DISCARD]


# --- §1.4 Turn and D-3 ------------------------------------------------------------------


def test_rule_1_4_turn_draw_stock_or_discard_pile_then_discard():
    """§1.4: draw the top of the stock or of the discard pile, then discard one."""
    state = gin(GIN_ND, DEAD_10, GIN_UP, "5d 8c")
    play(state, "take discard", "discard Kd")
    # the dealer takes the Kd just discarded
    play(state, "take discard")
    assert state.hand_of(DL) & mask("Kd")
    assert state.legal_actions() == sorted(state.legal_actions())
    assert all(a >= 3 for a in state.legal_actions())  # only discards/knocks now
    play(state, "discard Tc")
    assert state.discard_pile == [parse_card("Tc")]
    # the non-dealer draws the stock's top card
    play(state, "draw stock")
    assert state.hand_of(ND) & mask("5d")
    assert state.stock[0] == parse_card("8c")
    play(state, "discard 5d")
    assert state.current_player() == DL


def test_D3_taken_card_cannot_be_discarded():
    """D-3: a card taken from the discard pile may not be discarded (nor
    knocked with) in the same turn; the state is left unchanged."""
    state = gin(GIN_ND, DEAD_10, GIN_UP)
    play(state, "take discard")
    assert "discard Qh" not in legal_texts(state)
    assert "knock Qh" not in legal_texts(state)
    before = snapshot(state)
    for text in ("discard Qh", "knock Qh"):
        with pytest.raises(IllegalActionError):
            state.apply(text)
        assert snapshot(state) == before
    assert state.observation(ND).taken_card == parse_card("Qh")


def test_D3_applies_to_later_turns_too():
    """D-3: the same holds for a discard taken in the middle of the hand."""
    state = gin(GIN_ND, DEAD_10, GIN_UP)
    play(state, "take discard", "discard Kd", "take discard")
    assert "discard Kd" not in legal_texts(state)
    play(state, "discard Tc", "take discard")
    assert "discard Tc" not in legal_texts(state)


def test_D3_option_allows_discarding_the_taken_card():
    """D-3 option `allow_discard_of_taken_card`: then it may be discarded."""
    state = gin(GIN_ND, DEAD_10, GIN_UP, "", {"allow_discard_of_taken_card": True})
    play(state, "take discard")
    assert "discard Qh" in legal_texts(state)
    play(state, "discard Qh")
    assert state.discard_pile == [parse_card("Qh")]


def test_D3_card_drawn_from_stock_may_be_discarded():
    """D-3: a card drawn from the stock may be discarded at once."""
    state = gin(GIN_ND, DEAD_10, GIN_UP, "5d")
    play(state, "pass", "pass", "draw stock")
    assert "discard 5d" in legal_texts(state)
    play(state, "discard 5d")
    assert state.discard_pile[-1] == parse_card("5d")


# --- §1.5 Knock -------------------------------------------------------------------------

# melds 2c-5c and 9s-Qs, plus two small cards; the Kd drawn from the stock goes
KNOCK_10 = "2c 3c 4c 5c 9s Ts Js Qs 4d 6h"  # 4 + 6 = 10 after discarding Kd
KNOCK_11 = "2c 3c 4c 5c 9s Ts Js Qs 5d 6h"  # 5 + 6 = 11
OTHER_10 = "6d 7d 8d Jc Jd Jh 2h 3h 4h Tc"  # the dealer against them: 10 deadwood


def test_rule_1_5_knock_with_exactly_the_limit():
    """§1.5: deadwood of exactly 10 after the discard may knock."""
    state = gin(KNOCK_10, OTHER_10, "2s", "Kd")
    play(state, "pass", "pass", "draw stock")
    assert "knock Kd" in legal_texts(state)
    play(state, "knock Kd")
    r = result(state)
    assert r["knocker"] == ND and r["knocker_deadwood"] == 10
    assert r["outcome"] == "undercut"  # the dealer holds 10 too (§1.8)


def test_rule_1_5_no_knock_above_the_limit():
    """§1.5: deadwood of 11 after any discard may not knock."""
    state = gin(KNOCK_11, OTHER_10, "2s", "Kd")
    play(state, "pass", "pass", "draw stock")
    assert not [t for t in legal_texts(state) if t.startswith("knock")]
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply("knock Kd")
    assert snapshot(state) == before


def test_rule_1_5_knock_only_with_discards_that_reach_the_limit():
    """§1.5: each knock action names a discard after which deadwood <= limit."""
    state = gin(KNOCK_10, OTHER_10, "2s", "Kd")
    play(state, "pass", "pass", "draw stock")
    knocks = {t.split()[1] for t in legal_texts(state) if t.startswith("knock")}
    assert knocks == {"Kd"}  # any other discard leaves Kd: 14 or more


def test_rule_1_5_option_knock_limit():
    """§1.5 option `knock_limit`: 11 lets 11 knock; 9 stops 10."""
    state = gin(KNOCK_11, OTHER_10, "2s", "Kd", {"knock_limit": 11})
    play(state, "pass", "pass", "draw stock")
    assert "knock Kd" in legal_texts(state)
    state = gin(KNOCK_10, OTHER_10, "2s", "Kd", {"knock_limit": 9})
    play(state, "pass", "pass", "draw stock")
    assert "knock Kd" not in legal_texts(state)
    assert state.observation(ND).knock_limit == 9


def test_rule_1_5_option_knock_limit_zero_is_gin_only():
    """§1.5 option `knock_limit` 0: only gin may knock."""
    state = gin(GIN_ND, DEAD_10, GIN_UP, "", {"knock_limit": 0})
    play(state, "take discard")
    assert {t for t in legal_texts(state) if t.startswith("knock")} == {"knock Kd"}


def test_rule_1_5_knocking_is_never_compulsory():
    """§1.5: a player who could knock (even go gin) may discard instead;
    play goes on."""
    state = gin(GIN_ND, DEAD_10, GIN_UP)
    play(state, "take discard")
    assert "knock Kd" in legal_texts(state)
    discards = [t for t in legal_texts(state) if t.startswith("discard")]
    assert len(discards) == 10  # all eleven cards but the taken Qh
    play(state, "discard Kd")
    assert state.hand_results == [] and state.current_player() == DL


def test_rule_1_5_knocker_discards_then_lays_down_ten_cards():
    """§1.5: the knocker discards, then lays all ten cards down in melds and deadwood."""
    state = gin(KNOCK_10, OTHER_10, "2s", "Kd")
    play(state, "pass", "pass", "draw stock", "knock Kd")
    r = result(state)
    laid = mask(r["knocker_deadwood_cards"])
    for meld in r["knocker_melds"]:
        laid |= mask(meld)
    assert laid == mask(KNOCK_10)
    assert r["knocker_melds"] == ["2c 3c 4c 5c", "9s Ts Js Qs"]
    assert r["knocker_deadwood_cards"] == "4d 6h"


# --- D-4 the knocker's arrangement ------------------------------------------------------

D4_KNOCKER = "2c 3c 4c 3d 3h 9s Ts Js Qs Ks"  # run 2c-4c or set of 3s: 6 deadwood either way


def test_D4_knocker_arrangement_least_deadwood_then_least_live_lay_off():
    """D-4: among least-deadwood arrangements the engine picks the one that
    leaves the least to lay off: the set 3c 3d 3h (only 3s fits) rather than
    the run 2c 3c 4c (Ac and 5c fit) — so the defender's Ac and 5c stay."""
    state = gin(D4_KNOCKER, "Ac 5c 8d 8h 8s Jc Jd Jh 2s 6d", "7d", "Kd")
    play(state, "pass", "pass", "draw stock", "knock Kd")
    r = result(state)
    assert r["knocker_melds"] == ["3c 3d 3h", "9s Ts Js Qs Ks"]
    assert r["knocker_deadwood"] == 6
    assert r["layoffs"] == []
    assert r["defender_deadwood"] == 1 + 5 + 2 + 6


def test_D4_the_defenders_own_lay_offs_decide_first():
    """D-4: the arrangement leaves *the opponent* the least to lay off. The
    defender holds 3s (fits the set) but neither Ac nor 5c (they fit the run,
    and lie in the stock): the run goes down and nothing is laid off, where
    the unseen cards alone would have chosen the set (3 live points against 6)."""
    state = gin(D4_KNOCKER, "3s 8d 8h 8s Jc Jd Jh 2s 6d 7c", "7d", "Kd Ac 5c")
    play(state, "pass", "pass", "draw stock", "knock Kd")
    r = result(state)
    assert r["knocker_melds"] == ["2c 3c 4c", "9s Ts Js Qs Ks"]
    assert r["knocker_deadwood"] == 6 and r["layoffs"] == []
    assert r["defender_deadwood"] == 3 + 2 + 6 + 7
    assert r["points"] == 18 - 6


def test_D4_dead_cards_do_not_count_as_lay_off_surface():
    """D-4: only live cards count: with Ac (the upcard) and 5c (discarded)
    dead, the run leaves nothing live and is chosen over the set (3s live)."""
    state = gin(D4_KNOCKER, "3s 5c 8d 8h 8s Jc Jd Jh 2s 6d", "Ac", "Kd 8c Qd")
    play(state, "pass", "pass", "draw stock", "discard Kd", "draw stock", "discard 5c",
         "draw stock", "knock Qd")
    r = result(state)
    assert r["knocker_melds"] == ["2c 3c 4c", "9s Ts Js Qs Ks"]
    assert r["knocker_deadwood"] == 6


# --- §1.6 Gin and §1.8 scoring ----------------------------------------------------------


def test_rule_1_8_gin_against_10_deadwood_scores_35():
    """§1.8 worked example (seed 001): gin against 10 points of deadwood scores 35."""
    state = gin_hand()
    r = result(state)
    assert r["outcome"] == "gin"
    assert r["knocker"] == ND and r["winner"] == ND
    assert r["knocker_deadwood"] == 0 and r["defender_deadwood"] == 10
    assert r["points"] == 35
    assert state.scores == [0, 35]


def test_rule_1_6_gin_is_knocking_with_zero_deadwood():
    """§1.6: knocking with zero deadwood is going gin."""
    state = gin(GIN_ND, DEAD_10, GIN_UP)
    play(state, "take discard")
    assert state.string_to_action("gin Kd") == state.string_to_action("knock Kd")
    state.apply("gin Kd")
    assert result(state)["outcome"] == "gin"


def test_rule_1_6_no_lay_off_against_gin():
    """§1.6 / §1.7: against gin the opponent may not lay off: 4c, 7c and 8h
    would fit the knocker's melds but all count as deadwood."""
    state = gin(GIN_ND, "4s 5s 6s Jc Jd Js 4c 8h 7c 2d", GIN_UP)
    play(state, "take discard", "knock Kd")
    r = result(state)
    assert r["outcome"] == "gin" and r["layoffs"] == []
    assert r["defender_deadwood"] == 4 + 8 + 7 + 2
    assert r["points"] == 25 + 21


def test_rule_1_8_gin_opponent_cannot_score_even_with_no_deadwood():
    """§1.8: against gin the opponent cannot score, even with no deadwood
    (no undercut of a gin)."""
    state = gin(GIN_ND, "4s 5s 6s Jc Jd Js 2h 3h 4h 5h", GIN_UP)
    play(state, "take discard", "knock Kd")
    r = result(state)
    assert r["outcome"] == "gin" and r["winner"] == ND
    assert r["defender_deadwood"] == 0
    assert r["points"] == 25
    assert state.scores == [0, 25]


def test_rule_1_8_option_gin_bonus():
    """§1.8 option `gin_bonus` (seed 000: some play 20): 20 + 10 = 30."""
    assert result(gin_hand({"gin_bonus": 20}))["points"] == 30


# knocker (non-dealer): melds A-3c, 7s, 9h-Jh and 5c; draws Kd and knocks it: 5 deadwood
KNOCK_5 = "Ac 2c 3c 7d 7h 7s 9h Th Jh 5c"


def knock_5_against(defender: str, options=None) -> dict:
    state = gin(KNOCK_5, defender, "2s", "Kd", options)
    play(state, "pass", "pass", "draw stock", "knock Kd")
    assert result(state)["knocker_deadwood"] == 5
    return result(state)


def test_rule_1_8_knocker_lower_scores_the_difference():
    """§1.8: knocker lower: the knocker scores the difference (10 - 5)."""
    r = knock_5_against(DEAD_10)
    assert r["outcome"] == "knock" and r["winner"] == ND and r["points"] == 5


def test_rule_1_8_undercut_on_equal_counts():
    """§1.8: not gin, and the opponent's count equal: undercut, the opponent
    scores the difference (0) plus the undercut bonus (10)."""
    r = knock_5_against("4s 5s 6s Jc Jd Js 2h 3h 4h 5d")
    assert r["defender_deadwood"] == 5
    assert r["outcome"] == "undercut" and r["winner"] == DL and r["points"] == 10


def test_rule_1_8_undercut_on_lower_count():
    """§1.8: opponent lower: difference (5 - 3) plus the bonus."""
    r = knock_5_against("4s 5s 6s Jc Jd Js 2h 3h 4h 3d")
    assert r["outcome"] == "undercut" and r["winner"] == DL and r["points"] == 2 + 10


def test_rule_1_8_undercut_thanks_to_lay_offs():
    """§1.7 + §1.8: lay-offs count: 4c (onto A-3c) and 8h (onto 9h-Jh) go,
    leaving the opponent 2 against the knocker's 5."""
    r = knock_5_against("4s 5s 6s Jc Jd Js 4c 8h 2d Qs")
    assert sorted(c for c, _ in r["layoffs"]) == ["4c", "8h"]
    assert r["defender_deadwood"] == 2 + 10
    r = knock_5_against("4s 5s 6s Jc Jd Js 4c 8h 2d 3d")
    assert r["defender_deadwood"] == 5
    assert r["outcome"] == "undercut" and r["points"] == 10


def test_rule_1_8_option_undercut_bonus():
    """§1.8 option `undercut_bonus`: 25 on equal counts."""
    r = knock_5_against("4s 5s 6s Jc Jd Js 2h 3h 4h 5d", {"undercut_bonus": 25})
    assert r["outcome"] == "undercut" and r["points"] == 25


# --- §1.7 Lay-off -----------------------------------------------------------------------

# knocker: 4h-6h, three 9s, three kings and 2c; draws Qd and knocks it (2 deadwood)
CHAIN_KNOCKER = "4h 5h 6h 9c 9d 9s Kc Kd Ks 2c"


def test_rule_1_7_chained_lay_off():
    """§1.7: 8h fits only after 7h is laid off; both go, after the
    defender's own melds (5s, Th-Qh)."""
    state = gin(CHAIN_KNOCKER, "7h 8h 5c 5d 5s Th Jh Qh 3d Qc", "2s", "Qd")
    play(state, "pass", "pass", "draw stock", "knock Qd")
    r = result(state)
    assert r["defender_melds"] == ["5c 5d 5s", "Th Jh Qh"]
    assert r["layoffs"] == [["7h", 0], ["8h", 0]]
    assert r["defender_deadwood"] == 13
    assert r["points"] == 13 - 2


def test_rule_1_7_card_that_would_only_chain_stays_without_its_link():
    """§1.7: without 7h the 8h cannot be laid off."""
    state = gin(CHAIN_KNOCKER, "8h 5c 5d 5s Th Jh Qh 3d Qc 2d", "2s", "Qd")
    play(state, "pass", "pass", "draw stock", "knock Qd")
    r = result(state)
    assert r["layoffs"] == []
    assert r["defender_deadwood"] == 8 + 3 + 10 + 2


def test_rule_1_7_fourth_card_to_a_set_and_run_below():
    """§1.7: Kh is the fourth king; 3h and 2h go below 4h-6h (a chain down)."""
    state = gin(CHAIN_KNOCKER, "Kh 3h 2h 5c 5d 5s 7c 8c Th Jd", "2s", "Qd")
    play(state, "pass", "pass", "draw stock", "knock Qd")
    r = result(state)
    assert sorted(c for c, _ in r["layoffs"]) == ["2h", "3h", "Kh"]
    assert r["defender_deadwood"] == 7 + 8 + 10 + 10


def test_D5_defender_best_combination_of_own_melds_and_lay_offs():
    """D-5: the engine finds the defender's best combination: 7c 7d 7h as
    a set beats laying 7h (and then 8h) off; the 8h then stays."""
    state = gin(CHAIN_KNOCKER, "7c 7d 7h 8h 5c 5d 5s 2d 3d As", "2s", "Qd")
    play(state, "pass", "pass", "draw stock", "knock Qd")
    r = result(state)
    assert "7c 7d 7h" in r["defender_melds"]
    assert r["layoffs"] == []
    assert r["defender_deadwood"] == 8 + 2 + 3 + 1


# --- §1.9 Drawn hand --------------------------------------------------------------------


def test_rule_1_9_drawn_hand_at_two_stock_cards_same_dealer_deals_again():
    """§1.9: when a discard without a knock leaves two cards in the stock,
    the hand ends with no score and the same dealer deals again (D-2)."""
    state = gin(GIN_ND, DEAD_10, GIN_UP)
    play(state, "pass", "pass")
    while len(state.stock) > 3:
        draw_and_throw(state)
    assert state.hand_number == 1
    draw_and_throw(state)  # draws the third-last card: two remain
    r = result(state)
    assert r["outcome"] == "drawn" and r["winner"] is None and r["points"] == 0
    assert len(state.hand_results) == 1
    assert state.scores == [0, 0]
    assert state.hand_number == 2 and state.dealer == DL
    assert state.current_player() == ND


def test_rule_1_9_knock_still_allowed_on_the_last_draw():
    """§1.9: the hand is drawn only after a discard without knocking; the
    player who draws the third-last card may still knock (here: gin)."""
    state = gin(BIG_GIN_ND, DEAD_10, "2s")
    play(state, "pass", "pass")
    while len(state.stock) > 3:
        draw_and_throw(state)
    play(state, "draw stock")
    assert len(state.stock) == 2 and state.current_player() == ND
    drawn = mask_str(state.hand_of(ND) & ~mask(BIG_GIN_ND))
    assert "knock " + drawn in legal_texts(state)
    play(state, "knock " + drawn)
    assert result(state)["outcome"] == "gin"
    assert state.scores[ND] > 0


# --- §1.10 End of game ------------------------------------------------------------------


def test_rule_1_10_match_ends_when_a_total_reaches_the_target():
    """§1.10: a hand that brings a total to the target (or more) ends the
    match; that player wins."""
    state = gin_hand({"target": 35})
    assert state.is_terminal()
    assert state.winners == [ND]
    assert state.final_scores == [0, 35]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply_action(DRAW_STOCK)
    assert state.events[-1]["type"] == "end"
    assert state.returns() == [-35.0, 35.0]


def test_rule_1_10_match_goes_on_below_the_target():
    """§1.10: one point short of the target, another hand is dealt."""
    state = gin_hand({"target": 36})
    assert not state.is_terminal()
    assert state.hand_number == 2 and state.winners == []
    assert state.returns() == [0.0, 0.0]


# --- named options beyond the seeds -----------------------------------------------------



def test_option_big_gin_off_by_default():
    """§1 option `big_gin` (default off): eleven melded cards are plain gin."""
    state = gin(BIG_GIN_ND, DEAD_10, "2s", "Kh")
    play(state, "pass", "pass", "draw stock")
    assert BIG_GIN not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply("big gin")
    play(state, "knock Kh")
    assert result(state)["outcome"] == "gin" and result(state)["points"] == 35


def test_option_big_gin_scores_31_plus_deadwood():
    """§1 option `big_gin`: all eleven cards melded after the draw; bonus 31
    (option `big_gin_bonus`) plus the opponent's deadwood, no lay-off, no discard."""
    state = gin(BIG_GIN_ND, "4s 5s 6s Jc Jd Js 2h 3h 4h 8h", "2s", "Kh", {"big_gin": True})
    play(state, "pass", "pass", "draw stock")
    assert BIG_GIN in state.legal_actions()
    play(state, "big gin")
    r = result(state)
    assert r["outcome"] == "big_gin" and r["winner"] == ND
    assert r["layoffs"] == []  # 8h would fit 9h-Kh
    assert r["points"] == 31 + 8
    assert r["knocker_melds"] == ["Ac 2c 3c", "7d 7h 7s", "9h Th Jh Qh Kh"]  # all eleven
    state = gin(BIG_GIN_ND, DEAD_10, "2s", "Kh", {"big_gin": True, "big_gin_bonus": 50})
    play(state, "pass", "pass", "draw stock", "big gin")
    assert result(state)["points"] == 60


def test_option_big_gin_needs_all_eleven_melded():
    """§1 option `big_gin`: not offered while a card is unmatched."""
    state = gin(GIN_ND, DEAD_10, "2s", "Qh", {"big_gin": True})
    play(state, "pass", "pass", "draw stock")  # Kd unmatched
    assert BIG_GIN not in state.legal_actions()


def test_option_oklahoma_upcard_sets_knock_limit():
    """§1 option `oklahoma`: the upcard's points set the knock limit (a 7: 7)."""
    state = gin(KNOCK_10, OTHER_10, "7c", "Kd", {"oklahoma": True})
    assert state.observation(ND).knock_limit == 7
    play(state, "pass", "pass", "draw stock")
    assert "knock Kd" not in legal_texts(state)  # 10 > 7
    state = gin("2c 3c 4c 5c 9s Ts Js Qs 4d 3s", OTHER_10, "7c", "Kd", {"oklahoma": True})
    play(state, "pass", "pass", "draw stock")
    assert "knock Kd" in legal_texts(state)  # 7 <= 7
    play(state, "knock Kd")
    assert result(state)["points"] == 10 - 7  # a club upcard: not doubled


def test_option_oklahoma_face_card_upcard_limit_10():
    """§1 option `oklahoma`: a face card upcard is worth 10."""
    state = gin(KNOCK_10, OTHER_10, "Qh", "Kd", {"oklahoma": True})
    assert state.observation(ND).knock_limit == 10


def test_option_oklahoma_ace_upcard_means_gin_only():
    """§1 option `oklahoma`: an ace upcard allows gin only."""
    one = "2c 3c 4c 7d 7h 7s 9h Th Jh Ad"  # 1 deadwood after discarding the Kd
    state = gin(one, DEAD_10, "Ah", "Kd", {"oklahoma": True})
    assert state.observation(ND).knock_limit == 0
    play(state, "pass", "pass", "draw stock")
    assert not [t for t in legal_texts(state) if t.startswith("knock")]
    # without Oklahoma the same hand knocks
    state = gin(one, DEAD_10, "Ah", "Kd")
    play(state, "pass", "pass", "draw stock")
    assert "knock Kd" in legal_texts(state)
    # gin is still allowed under an ace
    state = gin("2c 3c 4c 7d 7h 7s 9h Th Jh Kd", DEAD_10, "Ad", "Qh", {"oklahoma": True})
    play(state, "pass", "pass", "draw stock", "knock Kd")
    assert result(state)["outcome"] == "gin" and result(state)["points"] == 35


def test_option_oklahoma_spade_upcard_doubles_the_hand():
    """§1 option `oklahoma`: a spade upcard doubles the hand's score."""
    spades_gin, other = "Ac 2c 3c 7d 7h 7c 9s Ts Js Kd", "4s 5s 6s Jc Jd Jh 2h 3h 4h Tc"
    state = gin(spades_gin, other, "Qs", "", {"oklahoma": True})
    play(state, "take discard", "knock Kd")
    assert result(state)["outcome"] == "gin"
    assert result(state)["points"] == 2 * (25 + 10)
    assert state.scores == [0, 70]
    # without Oklahoma, no doubling
    state = gin(spades_gin, other, "Qs", "")
    play(state, "take discard", "knock Kd")
    assert result(state)["points"] == 35


def test_option_game_bonus_added_to_the_winner_at_the_end():
    """§1 option `game_bonus` (classic 100): added to the winner's final score."""
    state = gin_hand({"target": 30, "game_bonus": 100})
    assert state.scores == [0, 35]
    assert state.final_scores == [0, 135]


def test_option_line_bonus_per_hand_won():
    """§1 option `line_bonus` (classic 20 or 25): per hand won, at the end."""
    deck = _gin_deck()
    state = gin_hand({"target": 70, "line_bonus": 25}, more=[deck, deck])
    play(state, "take discard", "knock Kd")  # seat 0 wins hand 2
    play(state, "take discard", "knock Kd")  # seat 1 wins hand 3: 70
    assert state.is_terminal() and state.winners == [ND]
    assert state.scores == [35, 70]
    assert state.final_scores == [35 + 25, 70 + 50]


def test_option_shutout_double_when_loser_won_no_hand():
    """§1 option `shutout_double`: the winner's score doubles when the loser
    won no hand, and not otherwise."""
    assert gin_hand({"target": 30, "shutout_double": True}).final_scores == [0, 70]
    deck = _gin_deck()
    state = gin_hand({"target": 70, "shutout_double": True}, more=[deck, deck])
    play(state, "take discard", "knock Kd", "take discard", "knock Kd")
    assert state.final_scores == [35, 70]


def test_option_first_draw_after_both_pass_dealer_in_gin():
    """§1.3 / D-7 option `first_draw_after_both_pass`: `dealer` makes the
    dealer draw first in two-player Gin too."""
    state = gin(GIN_ND, DEAD_10, GIN_UP, "", {"first_draw_after_both_pass": "dealer"})
    play(state, "pass", "pass")
    assert state.current_player() == DL and state.legal_actions() == [DRAW_STOCK]


# --- action text ------------------------------------------------------------------------


def test_actions_have_stable_text_forms():
    """Actions: a fixed id space with a text form that parses back (any case)."""
    state = GinState(seed=1)
    for a in range(state.num_distinct_actions()):
        assert state.string_to_action(state.action_to_string(a)) == a
        assert state.string_to_action(state.action_to_string(a).upper()) == a
    assert state.string_to_action("discard 10h") == state.string_to_action("discard Th")
    assert state.string_to_action("knock 7h") == KNOCK_BASE + parse_card("7h")
    for bad in ("fly", "discard 1x", "knock", ""):
        with pytest.raises(IllegalActionError):
            state.string_to_action(bad)
    with pytest.raises(IllegalActionError):
        state.action_to_string(999)


def test_observation_shows_own_hand_and_known_opponent_cards():
    """§1.4: the upcard taken from the pile is known to the opponent; the
    rest of each hand stays hidden."""
    state = gin(GIN_ND, DEAD_10, GIN_UP)
    play(state, "take discard", "discard Kd")
    obs = state.observation(DL)
    assert obs.hand == mask(DEAD_10)
    assert mask_str(obs.opponent_known) == "Qh"
    assert obs.opponent_hand_size == 10
    assert obs.discard_pile == (parse_card("Kd"),)
    assert state.observation(ND).opponent_known == 0
