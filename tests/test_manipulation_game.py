"""Manipulation's game rules (§4, D-13…D-25) on scripted deals, and properties
over random games: every card accounted for, the table legal after every
turn, records that replay."""

from __future__ import annotations

import io
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import run_the_pile_out
from rummylab.bots import make_bot
from rummylab.cards import JOKER, parse_card, parse_cards
from rummylab.errors import IllegalActionError, OptionError
from rummylab.manipulation.game import (
    AFTER_MELD,
    DRAW,
    FINAL,
    KNOCK,
    MELD_BEST,
    PASS,
    ManipulationState,
)
from rummylab.manipulation.table import check_table, parse_table
from rummylab.match import play_match
from rummylab.records import RecordWriter, replay


def deck_for(hands: list[str], pile: str, players: int) -> list[int]:
    """A deck order: ``hands`` in seat order starting left of the dealer
    (dealer 0: seats 1, 2, ..., 0), then the pile's top cards; the rest of the
    pack follows in a fixed order."""
    decks = 1 if players == 2 else 2
    pack = [c for _ in range(decks) for c in range(52)] + [JOKER] * decks
    dealt = [parse_cards(h, jokers=True) for h in hands]
    top = parse_cards(pile, jokers=True)
    rest = list(pack)
    for c in [c for h in dealt for c in h] + top:
        rest.remove(c)
    order: list[int] = []
    for i in range(10):
        for h in dealt:
            order.append(h[i])
    return order + top + rest


def game(hands: list[str], pile: str = "", players: int = 2,
         **options: object) -> ManipulationState:
    deck = deck_for(hands, pile, players)
    return ManipulationState({"players": players, **options}, seed=1, decks=[deck],
                             first_dealer=0)


FILLER = [  # ten cards each that meld with nothing, and share no card
    "2c 5c 9c Qc 3d 7d Jd Ah 6h Th",
    "2s 5s 9s Qs 6d Td Kd 4h 8h Kh",
]


def end_turn(s: ManipulationState) -> None:
    """The player's own pass that closes a turn with nothing else to do."""
    assert s.legal_actions() == [PASS]
    s.apply_action(PASS)


def test_rule_4_1_two_players_one_deck_and_a_joker_three_to_five_two_decks() -> None:
    for players, size in ((2, 53), (3, 106), (5, 106)):
        s = ManipulationState({"players": players}, seed=3)
        held = sum(len(s.hand_of(p)) for p in range(players))
        assert held + len(s.pile) + sum(len(m) for m in s.table) == size


def test_rule_4_3_ten_cards_each_and_first_player_left_of_dealer_draws() -> None:
    s = game(FILLER, pile="7s 3s Js")
    # seat 1 (left of dealer 0) has drawn its first card
    assert s.current_player() == 1
    assert len(s.hand_of(1)) == 11 and len(s.hand_of(0)) == 10
    assert parse_card("7s") in s.hand_of(1)


def test_D13_deal_passes_left_each_round() -> None:
    s = ManipulationState({"players": 3}, seed=5, first_dealer=2)
    s._knocker = s.current_player()
    s._end_round("knock")
    assert s.dealer == 0 and s.round == 2


def test_rule_4_4_three_draws_then_no_meld_and_the_turn_passes() -> None:
    s = game(FILLER, pile="7s 3s Js 5h 4d")
    assert DRAW in s.legal_actions()
    s.apply_action(DRAW)  # second card
    assert DRAW in s.legal_actions()
    s.apply_action(DRAW)  # third card: no melding, no knocking with this hand
    # the only move left is to pass, which the player makes: the turn is not
    # ended for it, so no one can tell from that whether it could have knocked
    assert s.current_player() == 1 and s.legal_actions() == [PASS]
    end_turn(s)
    assert s.current_player() == 0
    assert len(s.hand_of(1)) == 13


def test_rule_4_4_third_card_forbids_melding_even_when_a_meld_exists() -> None:
    # seat 1 holds 5h 6h; the third card 7h would make a sequence
    hands = ["5h 6h 2c 9c Qc 3d 7d Jd Ah Ks", FILLER[1]]
    s = game(hands, pile="3s Js 7h")
    s.apply_action(DRAW)
    s.apply_action(DRAW)
    assert s.legal_actions() == [PASS]  # no meld after the third draw
    end_turn(s)
    assert s.current_player() == 0
    assert parse_card("7h") in s.hand_of(1)


def test_a_card_named_more_often_than_held_is_refused_by_count() -> None:
    hands = ["7s 7h 7d 2c 9c Qc 3d Jd Ah Kc", "2s 5s 9s Qs 6d Td Kd 4h 8h Kh",
             "5c 7c Jc Ad 4d 9d 4c 6h Th Js"]
    s = game(hands, pile="3s 4s 5h", players=3)
    with pytest.raises(IllegalActionError, match="7s is named 3 times; your hand holds one"):
        s.apply("meld 7s 7s 7s")
    with pytest.raises(IllegalActionError, match="8c is not in your hand"):
        s.apply("meld 8c 7h 7d")
    assert s.table == () and len(s.hand_of(1)) == 11


def test_D14_a_meld_ends_the_turn() -> None:
    hands = ["5h 6h 7h 9c Qc 3d 7d Jd Ah Kc", FILLER[1]]
    s = game(hands, pile="3s")
    s.apply("meld 5h 6h 7h")
    # no more melds or draws: the turn waits only for its player's pass
    assert s.current_player() == 1 and s.phase == AFTER_MELD
    assert s.legal_actions() == [PASS]
    end_turn(s)
    assert s.current_player() == 0
    assert len(s.table) == 1


def test_rule_4_6_first_meld_on_empty_table_must_be_a_legal_meld() -> None:
    hands = ["5h 6h 9h 9c Qc 3d 7d Jd Ah Kc", FILLER[1]]
    s = game(hands, pile="3s")
    with pytest.raises(IllegalActionError):
        s.apply("meld 5h 6h => 5h 6h")
    with pytest.raises(IllegalActionError):
        s.apply("meld 5h 6h 9h")  # no legal arrangement
    assert s.table == () and len(s.hand_of(1)) == 11  # nothing changed


def test_rule_4_6_rearrangement_splits_a_sequence_and_forms_a_group() -> None:
    hands = ["2h 3h 4h 5h 6h 7h 8h Qc 7d Jd", "5c 5s 2c 9c 6d Td 9h Qh 4s 9s"]
    s = game(hands, pile="2s 3s")
    s.apply("meld 2h 3h 4h 5h 6h 7h 8h")
    end_turn(s)
    s.apply("meld 5c 5s => 2h 3h 4h | 5c 5h 5s | 6h 7h 8h")
    assert len(s.table) == 3


def test_rule_4_6_illegal_split_is_refused_and_changes_nothing() -> None:
    hands = ["5h 6h 7h 8h 9h Qc 3d 7d Jd Kc", "7c 7s 2c 4c 6d Td 3h Qh 5s 9s"]
    s = game(hands, pile="2s 3s")
    s.apply("meld 5h 6h 7h 8h 9h")
    end_turn(s)
    table, hand = s.table, s.hand_of(0)
    with pytest.raises(IllegalActionError):
        s.apply("meld 7c 7s => 7c 7h 7s | 5h 6h | 8h 9h")
    assert s.table == table and s.hand_of(0) == hand


def test_rule_4_6_no_card_leaves_the_table() -> None:
    hands = ["5h 6h 7h 9h Qc 3d 7d Jd Kc 9c", FILLER[1]]
    s = game(hands, pile="3s 4s")
    s.apply("meld 5h 6h 7h")
    end_turn(s)
    with pytest.raises(IllegalActionError, match="left the table"):
        s.apply("meld 4h => 4h 5h 6h")


def test_D16_joker_keeps_identity_when_moved() -> None:
    hands = ["5h 6h Jk 9c Qc 3d 7d Jd Ah Kc", "7c 7s 4h 2c 6d Td 3c Qh 5s 9s"]
    s = game(hands, pile="2s 3s")
    s.apply("meld 5h 6h Jk => 5h 6h Jk=7h")
    end_turn(s)
    s.apply("meld 7c 7s 4h => 7c 7s Jk=7h | 4h 5h 6h")
    assert any(card == JOKER and f == parse_card("7h") for m in s.table for card, f in m)


def test_D16_illegal_identity_change_refused() -> None:
    hands = ["5h 6h Jk 9c Qc 3d 7d Jd Ah Kc", "4h 2c 4c 6d Td 3c Qh 5s 9s Ks"]
    s = game(hands, pile="2s 3s")
    s.apply("meld 5h 6h Jk => 5h 6h Jk=7h")
    end_turn(s)
    with pytest.raises(IllegalActionError, match="D-16"):
        s.apply("meld 4h => Jk=3h 4h 5h 6h")


def test_D16_replaced_joker_is_reused_in_the_same_turn() -> None:
    hands = ["5h 6h Jk 9c Qc 3d 7d Jd Ah Kc", "7h 9s 9d 2c 6d Td 3c Qh 5s Ks"]
    s = game(hands, pile="2s 3s")
    s.apply("meld 5h 6h Jk => 5h 6h Jk=7h")
    end_turn(s)
    # the real 7h replaces the joker, which then stands for 9c beside 9s 9d
    s.apply("meld 7h 9s 9d => 5h 6h 7h | Jk=9c 9d 9s")
    assert len(s.hand_of(0)) == 10 - 3 + 1


def test_rule_4_5_QKA_accepted_KA2_refused() -> None:
    s = game(["Qh Ah 2h Kh Qc 3d 7d Jd 3h Kc", "2s 5s 9s Qs 6d Td Kd 4c 8c Js"], pile="3s 4s")
    with pytest.raises(IllegalActionError, match="corner"):
        s.apply("meld Kh Ah 2h => Kh Ah 2h")
    s.apply("meld Qh Kh Ah => Qh Kh Ah")
    assert len(s.table) == 1


def test_rule_4_5_group_with_two_identical_cards_refused() -> None:
    hands = ["8s 8s 8h 9c Qc 3d 7d Jd 2h Kc", "8c 2c 4c 6d Td 3c Qh 5s 9s Ks",
             "5c 7c Jc Ad 4d 9d 4h 6h Th Js"]
    s = game(hands, pile="2s 3s 4s", players=3)
    with pytest.raises(IllegalActionError, match="identical"):
        s.apply("meld 8s 8s 8h => 8s 8s 8h")


def test_rule_4_8_knock_with_five_points_or_fewer_after_drawing() -> None:
    hands = ["Ac 2h 5c 6c 7c 8c 9c Tc Jc Qc", FILLER[1]]
    s = game(hands, pile="As")
    assert KNOCK not in s.legal_actions()  # far more than 5 points in hand
    s.apply("meld 5c 6c 7c 8c 9c Tc Jc Qc => 5c 6c 7c 8c 9c Tc Jc Qc")
    # D-17: after melding, 4 points in hand: knocking allowed
    assert s.phase == AFTER_MELD and KNOCK in s.legal_actions()
    s.apply_action(KNOCK)
    res = s.round_results[-1]
    assert res["ended"] == "knock" and res["knocker"] == 1


def test_rule_4_8_knock_limit_is_inclusive_five_yes_six_no() -> None:
    melds = "5c 6c 7c 8c 9c Tc Jc Qc"
    five = game([f"{melds} 2d 2h", FILLER[1]], pile="As")  # 2 + 2 + 1 left after melding
    five.apply(f"meld {melds}")
    assert KNOCK in five.legal_actions()
    six = game([f"{melds} 2d 3h", FILLER[1]], pile="As")  # 2 + 3 + 1
    six.apply(f"meld {melds}")
    # no knock to offer: the turn waits all the same, for the pass alone
    assert six.current_player() == 1 and six.legal_actions() == [PASS]
    end_turn(six)
    assert six.current_player() == 0 and not six.round_results


def test_D17_no_other_seat_can_tell_whether_a_hand_could_knock() -> None:
    """Hidden information: after a meld, the turn waits for its player's
    knock or pass whatever the hand is worth, so the other seat's view is
    the same with 5 points left (knockable) as with 6 (not)."""
    melds = "5c 6c 7c 8c 9c Tc Jc Qc"
    five = game([f"{melds} 2d 2h", FILLER[1]], pile="As")
    six = game([f"{melds} 2d 3h", FILLER[1]], pile="As")
    for s in (five, six):
        s.apply(f"meld {melds}")
    assert KNOCK in five.legal_actions() and six.legal_actions() == [PASS]
    assert five.observation(0) == six.observation(0)
    assert five.observation(0).to_act == 1 and five.observation(0).phase == AFTER_MELD
    for s in (five, six):
        s.apply_action(PASS)
    assert five.observation(0) == six.observation(0)
    assert five.observation(0).actions[-1] == (1, "pass")


def test_auto_pass_plays_as_version_1_records_did() -> None:
    """Records version 1: a turn whose only move was pass ended unrecorded
    (``auto_pass``, kept to replay those records)."""
    deck = deck_for(["5c 6c 7c 8c 9c Tc Jc Qc 2d 3h", FILLER[1]], "As", 2)
    s = ManipulationState({"players": 2}, seed=1, decks=[deck], first_dealer=0,
                          auto_pass=True)
    s.apply("meld 5c 6c 7c 8c 9c Tc Jc Qc")
    assert s.current_player() == 0 and s.observation(0).actions[-1][1].startswith("meld")
    assert ManipulationState.record_version_setup(1) == {"auto_pass": True}
    assert ManipulationState.record_version_setup(2) == {}


def test_rule_4_4_no_pass_before_the_third_draw() -> None:
    hands = ["5h 6h 7h 2c 9c Qc 3d Jd Ah Kc", FILLER[1]]
    s = game(hands, pile="3s Js 4d")
    for _ in range(2):  # after the first and the second card: draw or meld, never pass
        assert PASS not in s.legal_actions()
        assert set(s.legal_actions()) == {DRAW, MELD_BEST}
        with pytest.raises(IllegalActionError):
            s.apply_action(PASS)
        assert s.current_player() == 1
        s.apply_action(DRAW)
    # the third card: no meld, so the turn ends with a pass (the 3-card meld stays in hand)
    end_turn(s)
    assert s.current_player() == 0 and s.table == ()
    assert len(s.hand_of(1)) == 13


THREE = [  # seat 1, seat 2, seat 0 (dealer): each holds one meld and nothing to knock with
    "5h 6h 7h 2c 9c Qc 3d Jd Ah Kc",
    "9s 9d 9h 2s 4s Qs 6d Td 4h Kh",
    "3c 4c 5c 8s Ts 7d Ad 2h 8h Jh",
]


def _last_cards(s: ManipulationState, n: int) -> None:
    """Leave ``n`` cards in the draw pile (the rest set aside)."""
    s._pile = s._pile[-n:]
    s._invalidate()


def test_D23_pile_runs_out_on_a_second_draw_meld_still_allowed_then_one_turn_each() -> None:
    s = game(THREE, pile="As 8d 6s", players=3)
    _last_cards(s, 1)
    s.apply_action(DRAW)  # the last card, on seat 1's second draw
    # the turn goes on without drawing; melding is still allowed
    assert s.current_player() == 1 and s.phase == "turn"
    assert set(s.legal_actions()) == {PASS, MELD_BEST}
    s.apply_action(PASS)
    order = []
    while not s.round_results:
        seat = s.current_player()
        assert s.phase == FINAL and DRAW not in s.legal_actions()
        assert MELD_BEST in s.legal_actions()  # each still holds a meld
        order.append(seat)
        if seat == 1:
            s.apply_action(MELD_BEST)
            if not s.round_results:
                end_turn(s)
        else:
            s.apply_action(PASS)
    # the next player, the one after, and last the player who drew the last card
    assert order == [2, 0, 1]
    res = s.round_results[-1]
    assert res["ended"] == "exhausted" and res["knocker"] is None
    assert res["table"] == "5h 6h 7h"  # seat 1's meld in its meld-only turn
    assert s.round == 2 and s.dealer == 1


def test_D23_pile_runs_out_on_a_third_draw_no_meld_that_turn() -> None:
    s = game(THREE, pile="As 8d 6s", players=3)
    _last_cards(s, 2)
    s.apply_action(DRAW)
    s.apply_action(DRAW)  # the third card is the last: no meld this turn (§4.4)
    end_turn(s)
    assert s.current_player() == 2 and s.phase == FINAL and s.table == ()
    s.apply_action(PASS)
    assert s.current_player() == 0
    s.apply_action(PASS)
    # the drawer of the last card has its meld-only turn at the end
    assert s.current_player() == 1 and s.phase == FINAL
    s.meld("5h 6h 7h")
    end_turn(s)  # the last meld-only turn: the round ends with its pass
    assert s.round_results[-1]["ended"] == "exhausted"


def test_D23_knocking_allowed_in_a_meld_only_turn() -> None:
    s = game(THREE, pile="As 8d 6s", players=3)
    _last_cards(s, 1)
    s.apply_action(DRAW)
    s.apply_action(PASS)
    s._hands[2] = [parse_card("Ac"), parse_card("2d")]  # seat 2 now holds 3 points
    s._invalidate()
    assert KNOCK in s.legal_actions()
    s.apply_action(KNOCK)
    res = s.round_results[-1]
    assert res["ended"] == "knock" and res["knocker"] == 2 and res["winners"] == [2]


def test_D18_going_out_ends_the_round_at_once() -> None:
    hands = ["5c 6c 7c 8c 9c Tc Jc Qc Kc 2d", FILLER[1]]
    s = game(hands, pile="3d 4d", players=2)
    s.apply_action(DRAW)  # 3d then 4d
    s.apply("meld 5c 6c 7c 8c 9c Tc Jc Qc Kc 2d 3d 4d")
    res = s.round_results[-1]
    assert res["ended"] == "out" and res["went_out"] == 1
    values = res["values"]
    assert values[1] == 0
    assert res["points"][1] == values[0] + 25  # the difference plus the going-out bonus


def _score(values: list[int], knocker: int | None, ended: str = "knock") -> dict:
    """Score a round whose hands are worth ``values`` (kings of clubs, then one
    club for the rest)."""
    s = ManipulationState({"players": len(values), "target": 10_000}, seed=1)
    for seat, v in enumerate(values):
        s._hands[seat] = [12] * (v // 10) + ([v % 10 - 1] if v % 10 else [])
    s._knocker = knocker
    s._end_round(ended)
    return s.round_results[-1]


def test_rule_4_9_two_players_winner_scores_the_difference() -> None:
    res = _score([4, 30], knocker=0)
    assert res["winners"] == [0] and res["points"] == [26, 0]


def test_rule_4_9_three_to_five_winner_scores_sum_of_differences() -> None:
    res = _score([3, 20, 12, 40], knocker=0)
    assert res["winners"] == [0] and res["points"][0] == (20 - 3) + (12 - 3) + (40 - 3)


def test_rule_4_9_winner_who_did_not_knock_scores_undercut_bonus() -> None:
    res = _score([5, 2, 20], knocker=0)
    assert res["winners"] == [1]
    assert res["points"][1] == (5 - 2) + (20 - 2) + 10


def test_rule_4_9_knocker_tied_with_one_other_that_player_wins_with_bonus() -> None:
    res = _score([4, 4, 20], knocker=0)
    assert res["winners"] == [1]
    assert res["points"][1] == 0 + (20 - 4) + 10 and res["points"][0] == 0


def test_rule_4_9_knocker_tied_with_two_others_each_wins_with_bonus() -> None:
    res = _score([4, 4, 4, 20], knocker=0)
    assert res["winners"] == [1, 2]
    assert res["points"][1] == res["points"][2] == (20 - 4) + 10


def test_D19_tie_not_involving_knocker_every_tied_player_wins() -> None:
    res = _score([5, 2, 2, 20], knocker=0)
    assert res["winners"] == [1, 2]
    # zero against each other, the differences against every other hand, the bonus
    assert res["points"][1] == res["points"][2] == (5 - 2) + (20 - 2) + 10


def test_D19_rule_4_11_every_tied_winner_counts_a_round_won() -> None:
    s = ManipulationState({"players": 4, "target": 10_000}, seed=1)
    s._hands = [[12], [1], [1], [12, 12]]  # 10, 2, 2, 20 points
    s._knocker = 0
    s._end_round("knock")
    assert s.round_results[-1]["winners"] == [1, 2]
    assert s.observation(0).rounds_won == (0, 1, 1, 0)


def test_D25_first_meld_duty_starts_again_each_round() -> None:
    s = ManipulationState({"players": 3, "initial_meld_from_hand": True}, seed=2)
    s._melded_round = [True, True, True]
    s._knocker = s.current_player()
    s._end_round("knock")
    assert s.round == 2
    assert s._melded_round == [False, False, False]
    assert all(s._first_only(seat) for seat in range(3))


def test_D20_exhausted_pile_lowest_wins_without_undercut_bonus() -> None:
    res = _score([7, 3, 9], knocker=None, ended="exhausted")
    assert res["winners"] == [1] and res["points"][1] == (7 - 3) + (9 - 3)


def test_rule_4_10_D23_exhausted_pile_gives_everyone_one_meld_only_turn() -> None:
    s = ManipulationState({"players": 3}, seed=11)
    first = s.current_player()
    s._pile = s._pile[-1:]  # one card left to draw
    s._invalidate()
    if DRAW not in s.legal_actions():
        pytest.skip("the seat to act cannot draw here")  # pragma: no cover
    s.apply_action(DRAW)  # the last card: this turn goes on without draws
    assert DRAW not in s.legal_actions() and PASS in s.legal_actions()
    turns = []
    while not s.round_results:
        seat = s.current_player()
        turns.append((seat, s.phase))
        assert DRAW not in s.legal_actions()
        s.apply_action(PASS if PASS in s.legal_actions() else s.legal_actions()[0])
        if s.round_results:
            break
    # the next two players, then the one who drew the last card, each one turn
    final_seats = [seat for seat, phase in turns if phase == FINAL]
    assert final_seats == [(first + 1) % 3, (first + 2) % 3, first][: len(final_seats)]
    res = s.round_results[-1]
    assert res["ended"] in ("exhausted", "knock")


def test_D25_initial_meld_from_hand_option_keeps_the_table() -> None:
    hands = ["5h 6h 7h 9c Qc 3d 7d Jd Ah Kc", "8h 2c 4c 6d Td 3c Qh 5s 9s Ks"]
    s = game(hands, pile="2s 3s", initial_meld_from_hand=True)
    s.apply("meld 5h 6h 7h")
    end_turn(s)
    with pytest.raises(IllegalActionError, match="D-25"):
        s.apply("meld 8h => 5h 6h 7h 8h")
    t = game(hands, pile="2s 3s")
    t.apply("meld 5h 6h 7h")
    end_turn(t)
    t.apply("meld 8h => 5h 6h 7h 8h")  # without the option: manipulation at once


def test_rule_4_11_game_end_bonuses_and_D21_shared_win() -> None:
    s = ManipulationState({"players": 3, "target": 150}, seed=1)
    s._scores = [140, 100, 20]
    s._won = [3, 2, 1]
    s._hands = [[0], [9, 9, 9], [9, 9, 9, 9]]  # seat 0: an ace; the others 30, 40
    s._knocker = 0
    s._end_round("knock")
    assert s.is_terminal()
    pts = (30 - 1) + (40 - 1)
    assert s.final_scores[0] == 140 + pts + 100
    assert s.final_scores[1] == 100 + 25 * 2 and s.final_scores[2] == 20 + 25 * 1
    assert s.winners == [0]


def test_options_validation() -> None:
    with pytest.raises(OptionError):
        ManipulationState({"players": 6})
    with pytest.raises(OptionError):
        ManipulationState({"players": 1})
    with pytest.raises(OptionError):
        ManipulationState({"knock": 3})
    # a bonus past the ceiling would overflow the match's float totals
    for key in ("undercut_bonus", "out_bonus", "game_bonus", "round_bonus"):
        with pytest.raises(OptionError, match=rf"option {key}: .* \(integer 0\.\.100000\)"):
            ManipulationState({key: 10**400})
        assert ManipulationState({key: 100_000}).options[key] == 100_000


# --- properties over random games ------------------------------------------


def _check_invariants(s: ManipulationState) -> None:
    """§4.1: every card of the pack exactly once, in a hand, the pile or on
    the table; §4.6: the table legal; a seat's view its own hand only."""
    decks = 1 if s.num_players == 2 else 2
    pack = Counter({c: decks for c in range(52)})
    pack[JOKER] = decks
    seen: Counter[int] = Counter(s.pile)
    for p in range(s.num_players):
        seen.update(s.hand_of(p))
    seen.update(card for m in s.table for card, _face in m)
    assert seen == pack
    check_table(s.table, s.num_decks)


def _check_scores(s: ManipulationState) -> None:
    """§4.9, §4.11: totals are the rounds' points; the final scores add the
    100-point bonus for 150+ and 25 a round won for the others; D-21."""
    n = s.num_players
    results = s.round_results
    totals = [sum(r["points"][p] for r in results) for p in range(n)]
    assert results[-1]["scores"] == totals
    won = [sum(p in r["winners"] for r in results) for p in range(n)]
    for r in results:
        low = min(r["values"])
        assert all(r["values"][w] == low for w in r["winners"])
        assert all(r["points"][p] == 0 for p in range(n) if p not in r["winners"])
    target = int(s.options["target"])
    assert max(totals) >= target
    assert all(t < target for t in [sum(r["points"][p] for r in results[:-1])
                                    for p in range(n)])
    final = [totals[p] + (100 if totals[p] >= target else 25 * won[p]) for p in range(n)]
    assert s.final_scores == final
    assert s.winners == [p for p in range(n) if final[p] == max(final)]


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_property_cards_accounted_table_legal_and_records_replay(players: int, seed: int) -> None:
    rng = random.Random(seed)
    bots = [make_bot(rng.choice(["simple", "random"]), "manipulation", seed=seed + i)
            for i in range(players)]
    buf = io.StringIO()
    writer = RecordWriter(buf)
    s = ManipulationState({"players": players, "target": 60}, seed=seed)
    writer.begin(s, [b.spec() for b in bots])
    steps = 0
    mover: tuple[int, str] | None = None  # the seat and text of the last action
    while not s.is_terminal() and steps < 600:
        seat = s.current_player()
        obs = s.observation(seat)
        # a seat sees its own hand and nothing of the others'
        assert list(obs.hand) == s.hand_of(seat)
        s.apply_action(bots[seat].act(obs))
        events = s.take_events()
        writer.write_events(events)
        for e in events:
            if e["type"] == "action":
                if mover is not None and mover[0] != e["seat"]:
                    # the turn before was closed by its player's own move (D-14, D-17)
                    assert mover[1] in ("pass", "knock"), mover
                mover = (e["seat"], e["action"])
            elif e["type"] == "result":
                mover = None  # a knock, going out or the last meld-only turn
        if not s.is_terminal():
            _check_invariants(s)
        steps += 1
    if s.is_terminal():
        _check_scores(s)
        buf.seek(0)
        assert [m.final_scores for m in replay(buf)] == [s.final_scores]
        assert abs(sum(s.returns())) < 1e-9


def test_property_illegal_action_changes_nothing_and_clone_is_independent() -> None:
    s = ManipulationState({"players": 3}, seed=9)
    before = (s.table, [s.hand_of(p) for p in range(3)], s.current_player())
    with pytest.raises(IllegalActionError):
        s.apply("meld Jk Jk Jk => Jk=2c Jk=3c Jk=4c")
    assert (s.table, [s.hand_of(p) for p in range(3)], s.current_player()) == before
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert (s.table, [s.hand_of(p) for p in range(3)], s.current_player()) == before


def test_simulated_match_records_replay() -> None:
    buf = io.StringIO()
    writer = RecordWriter(buf)
    bots = [make_bot("simple", "manipulation") for _ in range(3)]
    state = play_match("manipulation", bots, seed=4, options={"players": 3}, writer=writer)
    buf.seek(0)
    assert [m.winners for m in replay(buf)] == [state.winners]


def test_explicit_table_parse_roundtrip() -> None:
    t = parse_table("Jk=9h 7h 8h | Qs Qd Qc", 1)
    assert len(t) == 2


def test_D21_equal_final_scores_share_the_win() -> None:
    s = ManipulationState({"players": 3, "target": 150}, seed=1)
    s._scores = [140, 160, 20]
    s._won = [3, 2, 1]
    # seat 0 knocks with an ace and gains 20: 160 + 100 each, a shared win
    s._hands = [[0], [0, 9], [0, 9]]
    s._knocker = 0
    s._end_round("knock")
    assert s.is_terminal()
    assert s.final_scores[0] == s.final_scores[1] == 260
    assert s.winners == [0, 1]


@pytest.mark.parametrize(("players", "options"), [
    (2, {}), (3, {}), (4, {"initial_meld_from_hand": True}), (5, {})])
def test_observation_shows_the_last_turn(players: int, options: dict[str, object]) -> None:
    """§4.10, D-23: every seat's view shows when the turn in progress is
    the round's last (the meld-only turn of the seat that drew the pile's
    last card): exactly the turns that a pass ends with the round."""
    lasts = 0
    for seed in range(6):
        for state in run_the_pile_out(players, seed, rounds=2, options=options):
            shown = {state.observation(s).last_turn for s in range(players)}
            assert len(shown) == 1  # public
            if PASS in state.legal_actions():
                after = state.clone()
                after.apply_action(PASS)
                ends = after.round != state.round or after.is_terminal()
                assert shown == {ends}
                assert not ends or after.round_results[-1]["ended"] == "exhausted"
            else:
                assert shown == {False}
            lasts += shown == {True}
    assert lasts >= 4
