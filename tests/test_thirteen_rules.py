"""Three Thirteen, rule by rule (§3.1-§3.11, D-3, D-8 to D-12, D-22), on scripted deals.

A scripted round gives each seat's hand (helpers.thirteen_deck): the deck is
dealt one card at a time starting left of the dealer, r + 2 cards each; the
next card is the first discard, then the stock, top card first. Unless a test
says otherwise seat 0 deals the first round, so seat 1 acts first.
"""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import play, quick_out_deck, thirteen, thirteen_deck, thirteen_snapshot
from rummylab import new_state
from rummylab.cards import card_str, deck, multi_cards, parse_card, parse_cards
from rummylab.errors import CardError, IllegalActionError, OptionError
from rummylab.reference import thirteen_is_combo, thirteen_penalty
from rummylab.three_thirteen.game import (
    DISCARD_BASE,
    DRAW_STOCK,
    GO_OUT_BASE,
    ThirteenState,
)


def texts(state: ThirteenState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def hand(state: ThirteenState, seat: int) -> list[str]:
    return sorted(card_str(c) for c in state.hand_cards(seat))


def cards(text: str) -> list[str]:
    return sorted(card_str(c) for c in parse_cards(text))


def draw_and_throw(state: ThirteenState) -> int:
    """One turn that never goes out: draw the stock's top, discard it. Returns the seat."""
    seat = state.current_player()
    top = state.stock[0]
    state.apply_action(DRAW_STOCK)
    state.apply_action(DISCARD_BASE + top)
    return seat


def go_out_with_drawn(state: ThirteenState) -> int:
    """Draw the stock's top and go out by discarding it. Returns the seat."""
    seat = state.current_player()
    top = state.stock[0]
    state.apply_action(DRAW_STOCK)
    state.apply_action(GO_OUT_BASE + top)
    return seat


def finish_round(state: ThirteenState) -> list[int]:
    """Everyone still to act draws and throws until the round is scored."""
    r = state.round
    seats = []
    while state.round == r and not state.is_terminal():
        seats.append(draw_and_throw(state))
    return seats


def quick_decks(players: int, first_dealer: int, rounds: range, **kw) -> list[list[int]]:
    """Deck orders in which the first player of each round can go out at once."""
    return [quick_out_deck(r, players, (first_dealer + r - 1) % players, **kw) for r in rounds]


def quick_game(players: int, first_dealer: int = 0, **kw) -> ThirteenState:
    return ThirteenState({"players": players}, 0,
                         decks=quick_decks(players, first_dealer, range(1, 12), **kw),
                         first_dealer=first_dealer)


def play_quick_rounds(state: ThirteenState, rounds: int) -> None:
    for _ in range(rounds):
        go_out_with_drawn(state)
        finish_round(state)


def pack_counts(state: ThirteenState) -> Counter[int]:
    held = [c for s in range(state.num_players) for c in state.hand_cards(s)]
    return Counter(held + state.stock + state.discard_pile)


# --- §3.1 Players and deck ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_3_1_two_to_four_players(players):
    """§3.1: 2-4 players, option ``players`` (default 2)."""
    state = ThirteenState({"players": players}, seed=1)
    assert state.num_players == players
    assert ThirteenState(seed=1).num_players == 2


@pytest.mark.parametrize("players", [0, 1, 5, "many", True])
def test_rule_3_1_players_out_of_range_is_an_option_error(players):
    """§3.1, options: a player count outside 2-4 is an OptionError."""
    with pytest.raises(OptionError):
        ThirteenState({"players": players}, seed=1)


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 2), (4, 2)])
def test_rule_3_1_one_deck_for_two_two_decks_for_three_or_four(players, decks):
    """§3.1: one 52-card deck for two players, two (104 cards) for three or four."""
    state = ThirteenState({"players": players}, seed=3)
    assert state.num_decks == decks
    assert pack_counts(state) == Counter(deck(decks))
    event = state.events[0]
    assert len(event["deck"].split()) == 52 * decks


def test_rule_3_1_deck_order_must_be_the_right_pack():
    """§3.1: a scripted deck must be exactly the game's pack (a 52-card order
    for three players, who use two decks, is a CardError)."""
    with pytest.raises(CardError):
        ThirteenState({"players": 3}, 0, decks=[deck(1)])
    with pytest.raises(CardError):
        ThirteenState({"players": 2}, 0, decks=[deck(2)])
    ThirteenState({"players": 3}, 0, decks=[deck(2)])


def test_rule_3_1_ace_low_q_k_a_is_no_run_j_q_k_is():
    """§3.1: K high, A low: Q-K-A is not a run, so Qh Kh + Ah cannot go out;
    J-Q-K is."""
    state = thirteen([None, "Qh Kh 9c"], "2d", "Ah 2s Jh")
    play(state, "draw stock")
    assert not any(t.startswith("go out") for t in texts(state))
    play(state, "discard Ah")
    draw_and_throw(state)
    play(state, "draw stock")  # the Jh
    assert [t for t in texts(state) if t.startswith("go out")] == ["go out 9c"]


def test_rule_3_1_a_2_3_is_a_run():
    """§3.1: A-2-3 is a run (round 4: sixes wild, six cards each; no wild used)."""
    fourth = thirteen_deck(["Ah 2h 3h 9c 9d Kc", None], "2d", "9s", dealer=1)
    state = ThirteenState({"players": 2}, 0, first_dealer=0,
                          decks=[*quick_decks(2, 0, range(1, 4)), fourth])
    play_quick_rounds(state, 3)
    assert state.round == 4 and state.current_player() == 0
    play(state, "draw stock")
    assert [t for t in texts(state) if t.startswith("go out")] == ["go out Kc"]


# --- §3.2 Rounds ------------------------------------------------------------------------


def test_rule_3_2_eleven_rounds_sizes_and_wild_ranks():
    """§3.2: eleven rounds; round r deals r + 2 cards each and its wild rank is
    r + 2: 3s ... 10s, then J (round 9), Q (10), K (11)."""
    state = quick_game(3)
    names = []
    for r in range(1, 12):
        assert state.round == r
        assert [len(state.hand_cards(s)) for s in range(3)] == [r + 2] * 3
        assert state.wild_rank == r + 1
        assert state.observation(0).wild_rank == r + 1
        names.append(state.wild_rank_name)
        play_quick_rounds(state, 1)
    assert names == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert state.is_terminal() and len(state.round_results) == 11
    assert [r["round"] for r in state.round_results] == list(range(1, 12))


def test_rule_3_2_wild_card_is_the_rounds_rank():
    """§3.2, §3.7: in round 2 the fours are wild, the threes are not."""
    second = thirteen_deck(["5h 6h 4c 8h", None], "2d", "Kd", dealer=1)
    state = ThirteenState({"players": 2}, 0, decks=[*quick_decks(2, 0, range(1, 2)), second],
                          first_dealer=0)
    play_quick_rounds(state, 1)
    play(state, "draw stock")
    assert "go out Kd" in texts(state)  # 5h 6h 4c=7h 8h
    third = thirteen_deck(["5h 6h 3c 8h", None], "2d", "Kd", dealer=1)
    state = ThirteenState({"players": 2}, 0, decks=[*quick_decks(2, 0, range(1, 2)), third],
                          first_dealer=0)
    play_quick_rounds(state, 1)
    play(state, "draw stock")
    assert not any(t.startswith("go out") for t in texts(state))


# --- §3.3 Deal ----------------------------------------------------------------------------


def test_rule_3_3_first_dealer_at_random():
    """§3.3: the first dealer is drawn at random (from the seed: the same seed
    gives the same dealer, and every seat deals first for some seed)."""
    dealers = {ThirteenState({"players": 4}, seed=s).dealer for s in range(60)}
    assert dealers == {0, 1, 2, 3}
    assert ThirteenState({"players": 4}, seed=9).dealer == ThirteenState(
        {"players": 4}, seed=9).dealer
    state = ThirteenState({"players": 3}, seed=5)
    assert state.events[0]["type"] == "deal" and state.events[0]["dealer"] == state.dealer


def test_rule_3_3_deal_one_at_a_time_from_the_left_of_the_dealer():
    """§3.3: r + 2 cards each, one at a time starting left of the dealer; the
    next card starts the discard pile; the rest is the stock, top first."""
    order = [c for _ in range(2) for c in range(52)]  # two decks, unshuffled
    state = ThirteenState({"players": 3}, 0, decks=[order], first_dealer=2)
    # seat 0 is left of dealer 2: cards 0, 3, 6; seat 1: 1, 4, 7; seat 2: 2, 5, 8
    assert state.hand_cards(0) == [0, 3, 6]
    assert state.hand_cards(1) == [1, 4, 7]
    assert state.hand_cards(2) == [2, 5, 8]
    assert state.discard_pile == [9]
    assert state.stock[:3] == [10, 11, 12] and len(state.stock) == 104 - 10
    assert state.current_player() == 0


def test_rule_3_3_the_deal_passes_left_after_every_round():
    """§3.3: the deal passes left (to the next seat) after every round, and the
    player left of the dealer always starts (§3.4)."""
    state = quick_game(4, first_dealer=2)
    seen = []
    for _ in range(11):
        seen.append((state.dealer, state.current_player()))
        play_quick_rounds(state, 1)
    assert seen == [((2 + r) % 4, (3 + r) % 4) for r in range(11)]
    deals = [e for e in state.events if e["type"] == "deal"]
    assert [e["dealer"] for e in deals] == [(2 + r) % 4 for r in range(11)]


# --- §3.4 Turn ------------------------------------------------------------------------------


def test_rule_3_4_draw_from_stock_or_discard_then_discard():
    """§3.4: draw the top of the stock or of the discard pile, then discard one card."""
    state = thirteen([None, "9c Td 4s"], "Qd", "Kh")
    assert texts(state) == ["draw stock", "take discard"]
    play(state, "draw stock")
    assert "Kh" in hand(state, 1) and len(hand(state, 1)) == 4
    assert texts(state) == ["discard 9c", "discard Td", "discard Kh", "discard 4s"]
    play(state, "discard 9c")
    assert state.discard_pile[-1] == parse_card("9c") and len(hand(state, 1)) == 3
    assert state.current_player() == 0
    play(state, "take discard")
    assert "9c" in hand(state, 0) and state.discard_pile == [parse_card("Qd")]


def test_rule_3_4_play_goes_clockwise_from_the_left_of_the_dealer():
    """§3.4: starting left of the dealer and going clockwise (seat + 1)."""
    state = ThirteenState({"players": 4}, seed=11, first_dealer=1)
    order = [draw_and_throw(state) for _ in range(9)]
    assert order == [2, 3, 0, 1, 2, 3, 0, 1, 2]


def test_rule_3_4_illegal_actions_raise_and_change_nothing():
    """§3.4: only a draw, then only a discard (or going out); anything else is
    an IllegalActionError that leaves the state as it was."""
    state = thirteen([None, "9c Td 4s"], "Qd", "Kh")
    before = thirteen_snapshot(state)
    for action in (DISCARD_BASE + parse_card("9c"), GO_OUT_BASE, -1, 10**6):
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
    for text in ("discard 9c", "fold", "discard Xx", "go out"):
        with pytest.raises(IllegalActionError):
            state.apply(text)
    assert thirteen_snapshot(state) == before
    play(state, "draw stock")
    before = thirteen_snapshot(state)
    for text in ("draw stock", "take discard", "discard 5s", "go out 9c"):
        with pytest.raises(IllegalActionError):
            state.apply(text)
    assert thirteen_snapshot(state) == before


# --- §3.5 Going out ---------------------------------------------------------------------------


def test_rule_3_5_going_out_on_the_first_turn():
    """§3.5: going out on one's first turn is allowed."""
    state = thirteen([None, "5h 6h 7h"], "Qd", "Kd")
    play(state, "draw stock")
    assert [t for t in texts(state) if t.startswith("go out")] == ["go out Kd"]
    play(state, "go out Kd")
    assert state.went_out == 1 and state.round == 1
    assert state.current_player() == 0 and state.observation(0).final_turn


def test_rule_3_5_go_out_only_when_all_but_one_card_combine():
    """§3.5: "go out X" is offered exactly for the X whose removal leaves cards
    that all form combinations (round 2: fours wild)."""
    second = thirteen_deck(["5h 6h 7h 8h", None], "2d", "9h", dealer=1)
    state = ThirteenState({"players": 2}, 0, decks=[*quick_decks(2, 0, range(1, 2)), second],
                          first_dealer=0)
    play_quick_rounds(state, 1)
    play(state, "draw stock")
    assert [t for t in texts(state) if t.startswith("go out")] == ["go out 5h", "go out 9h"]
    with pytest.raises(IllegalActionError):
        play(state, "go out 7h")


def test_rule_3_5_each_other_player_has_exactly_one_more_turn():
    """§3.5: after a player goes out every other player has exactly one more
    turn (draw, discard: no going out), then the round is scored."""
    # seat 3 could go out too, but in its final turn it only discards
    state = thirteen(["9c Td 4s", "Ah 2h 3h", "Kd Qc 6s", "7c 7d 7h"], "Jd", "Kh Ks 8d 8s",
                     dealer=0)
    assert go_out_with_drawn(state) == 1
    turns = []
    for _ in range(3):
        seat = state.current_player()
        obs = state.observation(seat)
        assert obs.final_turn and obs.went_out == 1
        assert state.round == 1
        drawn = state.stock[0]
        play(state, "draw stock")
        assert not any(t.startswith("go out") for t in texts(state))
        turns.append(seat)
        play(state, "discard " + card_str(drawn))
    assert turns == [2, 3, 0]
    assert state.round == 2  # scored after the last of them
    result = state.round_results[0]
    assert result["ended"] == "out" and result["went_out"] == 1
    assert result["penalties"][1] == 0 and result["penalties"][3] == 0


def test_rule_3_5_going_out_later_in_the_round():
    """§3.5: a player who goes out after earlier turns: the others (including
    those who already played this lap) each get one more turn."""
    state = thirteen(["5h 6h 9d", "9c Td 4s", "2d 8s Qc"], "Qd", "2c Jd 7h Kc 8c", dealer=0)
    assert draw_and_throw(state) == 1  # 2c
    assert draw_and_throw(state) == 2  # Jd
    play(state, "draw stock", "go out 9d")  # seat 0: the 7h makes 5h 6h 7h
    assert state.went_out == 0 and state.current_player() == 1
    assert draw_and_throw(state) == 1
    assert state.round == 1 and state.current_player() == 2
    assert draw_and_throw(state) == 2
    assert state.round == 2
    assert state.round_results[0]["penalties"] == [0, 9 + 10 + 4, 2 + 8 + 10]


def test_rule_3_5_the_one_who_goes_out_lays_down_and_discards():
    """§3.5: going out discards the last card and lays the combinations down
    (shown in the round's result)."""
    state = thirteen([None, "5h 3c 7h"], "Qd", "Kd")
    go_out_with_drawn(state)
    assert state.discard_pile[-1] == parse_card("Kd")
    finish_round(state)
    shown = state.round_results[0]["hands"][1]
    assert shown == {"melds": ["5h 3c=6h 7h"], "unmatched": "", "penalty": 0}


# --- §3.6 Combinations ------------------------------------------------------------------------


def test_rule_3_6_sets_and_runs_longer_than_three():
    """§3.6: a set is 3+ cards of a rank, a run 3+ of a suit in sequence;
    combinations may be longer (round 3: fives wild, five cards)."""
    decks = [*quick_decks(2, 0, range(1, 3)),
             thirteen_deck(["Jc Jd Jh Js 2d", "6c 7c 8c 9c Tc"], "2s", "Kh Ks", dealer=0)]
    state = ThirteenState({"players": 2}, 0, decks=decks, first_dealer=0)
    play_quick_rounds(state, 2)
    assert state.round == 3 and state.current_player() == 1
    play(state, "draw stock")
    assert "go out Kh" in texts(state)
    play(state, "go out Kh")
    finish_round(state)
    result = state.round_results[2]
    assert result["hands"][1]["melds"] == ["6c 7c 8c 9c Tc"]
    assert result["hands"][0]["melds"] == ["Jc Jd Jh Js"] and result["penalties"] == [2, 0]


def test_rule_3_6_a_card_counts_in_one_combination_only():
    """§3.6: the 7h makes 5h 6h 7h or 7c 7d 7h, not both (round 2: fours wild)."""
    decks = [*quick_decks(2, 0, range(1, 2)),
             thirteen_deck(["5h 6h 7h 7c", "Kc Kd 2s Qh"], "2d", "7d", dealer=1)]
    state = ThirteenState({"players": 2}, 0, decks=decks, first_dealer=0)
    play_quick_rounds(state, 1)
    # seat 0 draws the 7d: going out would need the 7h twice
    play(state, "draw stock")
    assert not any(t.startswith("go out") for t in texts(state))


def test_rule_3_6_nobody_adds_cards_to_another_players_combinations():
    """§3.6: the 4h and 8h fit the winner's 5h 6h 7h, but their holder may not
    lay them off: they count as penalty."""
    state = thirteen(["4h 8h Kc", "5h 6h 7h"], "Qd", "2s 9d", options={"players": 2})
    go_out_with_drawn(state)
    draw_and_throw(state)
    result = state.round_results[0]
    assert result["penalties"] == [4 + 8 + 10, 0]


# --- §3.7 Wild cards, D-8 ----------------------------------------------------------------------


def test_rule_3_7_wilds_substitute_in_sets_and_runs():
    """§3.7: a wild fills a run's gap (5h 3c=6h 7h) or completes a set."""
    state = thirteen(["5h 3c 7h", "9c 9d 3d"], "Qd", "Kd 2s")
    go_out_with_drawn(state)
    draw_and_throw(state)
    result = state.round_results[0]
    assert result["penalties"] == [0, 0]
    assert result["hands"][1]["melds"][0].startswith("9c 9d 3d=9")
    assert result["hands"][0]["melds"] == ["5h 3c=6h 7h"]


def test_rule_3_7_d8_all_wild_combination_needs_the_option():
    """§3.7, D-8: a combination needs a card that is not wild; three 3s in
    round 1 are no set unless ``natural_wild_sets`` allows it."""
    state = thirteen([None, "3c 3d 3h"], "Qd", "3s")
    play(state, "draw stock")
    assert not any(t.startswith("go out") for t in texts(state))
    state = thirteen([None, "3c 3d 3h"], "Qd", "3s", options={"natural_wild_sets": True})
    play(state, "draw stock")
    assert [t for t in texts(state) if t.startswith("go out")] == [
        "go out 3c", "go out 3d", "go out 3h", "go out 3s"]


def test_rule_3_7_d8_three_wilds_left_score_unless_the_option():
    """D-8 at scoring: three 3s left in a hand in round 1 cost 9, or 0 under
    ``natural_wild_sets``."""
    for option, owed in ((False, 9), (True, 0)):
        state = thirteen(["3c 3d 3h", "5h 6h 7h"], "Qd", "Kd 2s",
                         options={"natural_wild_sets": option})
        go_out_with_drawn(state)
        draw_and_throw(state)
        assert state.round_results[0]["penalties"] == [owed, 0]


# --- §3.8 Duplicates (D-9), size (D-22) --------------------------------------------------------


def test_rule_3_8_d9_identical_cards_form_a_set():
    """D-9: with two decks a set may hold identical cards (6s 6s 6h)."""
    state = thirteen([None, "6s 6s 6h", None], "Qd", "Kc")
    play(state, "draw stock")
    assert "go out Kc" in texts(state)
    play(state, "go out Kc")
    finish_round(state)
    assert state.round_results[0]["hands"][1]["melds"] == ["6h 6s 6s"]


def test_rule_3_8_d22_set_of_any_size():
    """D-22: a set may hold any number of cards, wilds included (round 3:
    fives wild; five 7s, two of them identical)."""
    decks = [*quick_decks(3, 0, range(1, 3)),
             thirteen_deck(["7c 7c 7d 7h 5s", None, None], "2s", "Kh", dealer=2)]
    state = ThirteenState({"players": 3}, 0, decks=decks, first_dealer=0)
    play_quick_rounds(state, 2)
    assert state.round == 3 and state.current_player() == 0
    play(state, "draw stock", "go out Kh")
    finish_round(state)
    melds = state.round_results[2]["hands"][0]["melds"]
    assert len(melds) == 1 and len(melds[0].split()) == 5


def test_rule_3_8_d22_wilds_extend_a_run_either_end():
    """D-22: wilds fill any gap or extend either end: Q-K takes a wild below
    (there is nothing above the K)."""
    state = thirteen([None, "Qd Kd 9c"], "2s", "3s")
    play(state, "draw stock", "go out 9c")
    finish_round(state)
    assert state.round_results[0]["hands"][1]["melds"] == ["3s=Jd Qd Kd"]


def test_rule_3_8_d22_run_spans_at_most_a_to_k():
    """D-22: round 11 (kings wild, 13 cards): Ac-Qc and a king make a run of
    thirteen, A to K; after the draw the player goes out."""
    last = thirteen_deck([None, "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kd"], "2s", "Ks",
                         dealer=0)
    state = ThirteenState({"players": 2}, 0, decks=[*quick_decks(2, 0, range(1, 11)), last],
                          first_dealer=0)
    play_quick_rounds(state, 10)
    assert state.round == 11 and state.current_player() == 1
    play(state, "draw stock", "go out Ks")
    finish_round(state)
    shown = state.round_results[10]["hands"][1]
    assert shown["penalty"] == 0 and shown["unmatched"] == ""
    laid = [w.split("=")[0] for meld in shown["melds"] for w in meld.split()]
    assert sorted(laid) == cards("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kd")
    for meld in shown["melds"]:
        assert thirteen_is_combo(parse_cards(" ".join(w.split("=")[0] for w in meld.split())),
                                 12)
    # the whole thirteen is one legal run, A to K; a fourteenth card is not
    thirteen_cards = parse_cards("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kd")
    assert thirteen_is_combo(thirteen_cards, 12)
    assert not thirteen_is_combo([*thirteen_cards, parse_card("Ks")], 12)
    assert state.is_terminal()


# --- §3.9 Scoring, D-10, D-11 -------------------------------------------------------------------


def test_rule_3_9_out_scores_zero_others_their_best_arrangement():
    """§3.9: the player who went out scores 0; every other player lays down
    what they can and counts the rest at face value (the least penalty)."""
    hands = ["9c 9d Kh", "Ah 2h 3h", "4h 5h 3d", "Qs 8c 8s"]
    state = thirteen(hands, "Jd", "Kc Kd Ks 2s", dealer=0)
    go_out_with_drawn(state)
    finish_round(state)
    result = state.round_results[0]
    want = [thirteen_penalty(parse_cards(hands[s]), 2) for s in range(4)]
    assert want == [28, 0, 0, 26]
    assert result["penalties"] == want
    assert result["scores"] == want and state.scores == want
    assert result["hands"][3] == {"melds": [], "unmatched": "8c 8s Qs", "penalty": 26}
    assert result["hands"][2]["penalty"] == 0 and result["hands"][2]["melds"]


def test_rule_3_9_d10_leftover_wild_counts_its_face_value():
    """D-10: a wild left over counts its face value (a 3 in round 1)."""
    state = thirteen(["3c 8d Ks", "5h 6h 7h"], "Qd", "Kd 2s", options={"players": 2})
    go_out_with_drawn(state)
    draw_and_throw(state)
    assert state.round_results[0]["penalties"] == [3 + 8 + 10, 0]
    assert state.round_results[0]["hands"][0]["unmatched"] == "3c 8d Ks"


def test_rule_3_9_totals_accumulate():
    """§3.9: totals accumulate round by round; each result carries the totals."""
    first = thirteen_deck(["3c 8d Ks", "5h 6h 7h"], "Qd", "Kd 2s", dealer=0)
    second = thirteen_deck(["Ac Ad Ah As", "5h 6h 7h Qc"], "Qd", "Kd 2s", dealer=1)
    state = ThirteenState({"players": 2}, 0, decks=[first, second], first_dealer=0)
    go_out_with_drawn(state)
    draw_and_throw(state)
    assert state.scores == [21, 0]
    go_out_with_drawn(state)  # seat 0, left of dealer 1: four aces, the Kd goes
    draw_and_throw(state)
    r1, r2 = state.round_results
    assert r2["went_out"] == 0 and r2["penalties"] == [0, 10]
    assert r1["scores"] == [21, 0] and r2["scores"] == [21, 10] == state.scores
    assert sum(r["penalties"][0] for r in state.round_results) == state.scores[0]


def test_rule_3_9_lowest_total_wins_after_round_11():
    """§3.9: after round 11 the lowest total wins; returns are zero-sum, the
    winner's the highest."""
    state = quick_game(3, first_dealer=0)
    play_quick_rounds(state, 11)
    assert state.is_terminal() and state.legal_actions() == []
    totals = state.scores
    assert totals == [sum(r["penalties"][s] for r in state.round_results) for s in range(3)]
    low = min(totals)
    assert state.winners == [s for s in range(3) if totals[s] == low]
    assert len(state.winners) == 1
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9
    assert max(returns) == returns[state.winners[0]]
    end = state.events[-1]
    assert end["type"] == "end" and end["winners"] == state.winners and end["totals"] == totals
    with pytest.raises(IllegalActionError):
        state.apply_action(DRAW_STOCK)


def test_rule_3_9_d11_ties_share_the_win():
    """D-11: equal lowest totals share the win (here nobody ever scores)."""
    hearts = [" ".join("A23456789TJQK"[r] + "h" for r in range(k + 2)) for k in range(1, 12)]
    decks = [quick_out_deck(r, 2, (r - 1) % 2, others=[hearts[r - 1]], upcard="Qd",
                            stock="Kc Kd") for r in range(1, 12)]
    state = ThirteenState({"players": 2}, 0, decks=decks, first_dealer=0)
    play_quick_rounds(state, 11)
    assert state.is_terminal()
    assert state.scores == [0, 0] and state.winners == [0, 1]
    assert state.returns() == [0.0, 0.0]


# --- §3.10 Empty stock (D-12) -----------------------------------------------------------------


def _exhaust(state: ThirteenState) -> int:
    """Draw and throw until the stock has run out once (and been rebuilt);
    returns the number of turns."""
    turns = 0
    while not any(e["type"] == "reshuffle" for e in state.events):
        draw_and_throw(state)
        turns += 1
        if turns == 1000:
            raise AssertionError("the stock never ran out")
    return turns


def test_rule_3_10_d12_empty_stock_is_rebuilt_from_the_discard_pile():
    """D-12: when the stock runs out, the discard pile less its top card is
    shuffled into a new stock; the top card stays as the discard pile."""
    state = thirteen(["9c Td 4s", "2c 7d Js"], "Qd", options={"players": 2}, seed=4)
    assert len(state.stock) == 45
    turns = 0
    while len(state.stock) > 1:
        draw_and_throw(state)
        turns += 1
    pile = state.discard_pile
    last = state.stock[0]
    draw_and_throw(state)  # takes the last card; the next turn needs a new stock
    assert turns + 1 == 45
    assert state.discard_pile == [last]
    assert sorted(state.stock) == sorted(pile) and len(state.stock) == 45
    event = [e for e in state.events if e["type"] == "reshuffle"][-1]
    assert event["round"] == 1 and parse_cards(event["stock"]) == state.stock
    assert pack_counts(state) == Counter(deck(1))
    # the round goes on: the next player draws from the new stock
    assert state.phase == "draw" and texts(state) == ["draw stock", "take discard"]


def test_rule_3_10_d12_reshuffle_order_from_the_seed_or_the_record():
    """D-12: the new stock's order comes from the seed (the same seed, the same
    order) or, replaying a record, from the recorded reshuffle."""
    orders = []
    for _ in range(2):
        state = thirteen(["9c Td 4s", "2c 7d Js"], "Qd", options={"players": 2}, seed=4)
        _exhaust(state)
        orders.append(state.stock)
    assert orders[0] == orders[1]
    pile = sorted(orders[0])
    scripted = pile[::-1]
    state = thirteen(["9c Td 4s", "2c 7d Js"], "Qd", options={"players": 2}, seed=4,
                     reshuffles=[scripted])
    _exhaust(state)
    assert state.stock == scripted
    wrong = [*scripted[1:], scripted[0] ^ 1]
    state = thirteen(["9c Td 4s", "2c 7d Js"], "Qd", options={"players": 2}, seed=4,
                     reshuffles=[wrong])
    with pytest.raises(CardError):
        _exhaust(state)


def test_rule_3_10_d12_nothing_to_reshuffle_ends_the_round_as_it_stands():
    """D-12: if rebuilding leaves nothing to draw, the round ends and is scored
    as it stands: nobody went out, everyone counts their least penalty.

    Legal play cannot reach it (every turn that draws from the stock adds a
    card to the pile, so an empty stock always finds the cards it dealt out in
    the pile), so this test empties the stock and the pile by hand."""
    state = thirteen(["9c Td 4s", "5h 6h 7h"], "Qd", options={"players": 2})
    state._stock = []  # white box: see the docstring
    state._discard = state._discard[-1:]
    state._begin_turn()
    (result,) = state.round_results
    assert result["ended"] == "stock" and result["went_out"] is None
    assert result["penalties"] == [23, 0] and state.scores == [23, 0]
    assert state.round == 2


# --- §3.11 D-3 ------------------------------------------------------------------------------------


def test_rule_3_11_d3_card_taken_from_the_pile_may_not_be_discarded():
    """§3.11, D-3: a card taken from the discard pile may not be discarded
    (nor be the going-out discard) the same turn."""
    state = thirteen([None, "5h 6h 7h"], "Kd", "2s")
    play(state, "take discard")
    assert "discard Kd" not in texts(state) and "go out Kd" not in texts(state)
    assert state.observation(1).taken_card == parse_card("Kd")
    before = thirteen_snapshot(state)
    with pytest.raises(IllegalActionError):
        play(state, "discard Kd")
    with pytest.raises(IllegalActionError):
        play(state, "go out Kd")
    assert thirteen_snapshot(state) == before
    # 5h 6h 7h Kd: only the Kd could go, so nobody goes out this turn
    assert not any(t.startswith("go out") for t in texts(state))
    play(state, "discard 5h")
    assert state.current_player() == 0


def test_rule_3_11_d3_an_identical_second_copy_may_be_discarded():
    """D-3 with two decks: holding another 9c, the player who took a 9c may
    discard a 9c (the copy already held); one 9c stays."""
    state = thirteen([None, "9c 4d Js", None], "9c", "2s")
    play(state, "take discard")
    assert hand(state, 1).count("9c") == 2
    assert "discard 9c" in texts(state)
    play(state, "discard 9c")
    assert hand(state, 1).count("9c") == 1 and state.discard_pile == [parse_card("9c")]
    # everyone can tell the 9c thrown was the other copy: the taken one is still known
    nine = parse_card("9c")
    assert all(multi_cards(state.observation(s).known[1]) == [nine] for s in range(3))


def test_rule_3_11_d3_known_cards_when_the_taken_card_may_go():
    """With ``allow_discard_of_taken_card`` the 9c thrown may be the one just
    taken, so the table no longer knows of a 9c in that hand."""
    state = thirteen([None, "9c 4d Js", None], "9c", "2s",
                     options={"allow_discard_of_taken_card": True})
    play(state, "take discard", "discard 9c")
    assert hand(state, 1).count("9c") == 1
    assert state.observation(0).known[1] == 0


def test_rule_3_11_d3_a_card_drawn_from_the_stock_may_be_discarded():
    """D-3 is about the discard pile only: a card drawn from the stock may go."""
    state = thirteen([None, "9c 4d Js"], "Qd", "2s")
    play(state, "draw stock", "discard 2s")
    assert state.discard_pile[-1] == parse_card("2s")


def test_rule_3_11_option_allows_discarding_the_taken_card():
    """D-3: option ``allow_discard_of_taken_card`` (default off) lifts the rule."""
    state = thirteen([None, "5h 6h 7h"], "Kd", "2s")
    assert state.options["allow_discard_of_taken_card"] is False
    state = thirteen([None, "5h 6h 7h"], "Kd", "2s",
                     options={"allow_discard_of_taken_card": True})
    play(state, "take discard")
    assert "discard Kd" in texts(state) and "go out Kd" in texts(state)
    play(state, "go out Kd")
    assert state.went_out == 1


# --- options -----------------------------------------------------------------------------------


def test_options_defaults_and_validation():
    """Options: explicit, with defaults; an unknown option or a bad value is an
    OptionError; they are recorded in the state (and so in every record)."""
    state = ThirteenState(seed=1)
    assert state.options == {"players": 2, "natural_wild_sets": False,
                             "allow_discard_of_taken_card": False}
    assert ThirteenState({"players": "3", "natural_wild_sets": "true"}, seed=1).options == {
        "players": 3, "natural_wild_sets": True, "allow_discard_of_taken_card": False}
    for bad in ({"wilds": True}, {"target": 100}, {"natural_wild_sets": "perhaps"},
                {"allow_discard_of_taken_card": 2}, {"players": 1}, {"players": 5}):
        with pytest.raises(OptionError):
            ThirteenState(bad, seed=1)
    with pytest.raises(OptionError):
        new_state("three-thirteen", {"players": 7}, seed=1)


def test_first_dealer_must_be_a_seat():
    """§3.3: a scripted first dealer must be a seat of the game."""
    with pytest.raises(IllegalActionError):
        ThirteenState({"players": 3}, seed=1, first_dealer=3)
    with pytest.raises(IllegalActionError):
        ThirteenState({"players": 2}, seed=1, first_dealer=-1)


def test_hands_and_observation_are_multisets():
    """§0, D-9: with two decks a hand may hold two identical cards; the
    observation shows both."""
    state = thirteen([None, "6s 6s 6h", None], "Qd", "Kc")
    assert multi_cards(state.observation(1).hand) == parse_cards("6h 6s 6s")
    assert state.observation(1).to_dict()["hand"] == "6h 6s 6s"
