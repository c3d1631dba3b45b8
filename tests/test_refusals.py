"""State.refusal: why a move is not legal now, in each game's own words,
citing the rule (§) or decision (D-n) that refuses it; the same reason is
the one apply_action and check_legal raise.
"""

from __future__ import annotations

import random

import pytest

from helpers import gin, gin3, play, thirteen
from rummylab import new_state
from rummylab.bots import make_bot
from rummylab.cards import parse_card
from rummylab.errors import IllegalActionError
from rummylab.game import State
from rummylab.gin.game import BIG_GIN, DISCARD_BASE, DRAW_STOCK, KNOCK_BASE, PASS, TAKE_DISCARD
from rummylab.manipulation.game import DRAW, KNOCK, MELD_BEST
from rummylab.manipulation.game import PASS as M_PASS
from rummylab.three_thirteen.game import DISCARD_BASE as T_DISCARD
from rummylab.three_thirteen.game import GO_OUT_BASE
from rummylab.three_thirteen.game import TAKE_DISCARD as T_TAKE

# two hands of ten that meld nothing and hold none of Kh, Qs, As, 2s
FILLER_GIN = ("2c 5c 9c Qc 3d 7d Jd Ah 6h Th", "3s 5s 9s Js 6d Td Kd 4h 8h 2h")
GAMES = [("gin", {}), ("gin3", {}), ("three-thirteen", {"players": 3}),
         ("manipulation", {"players": 3})]
# words of other games that a game's reasons never use
FOREIGN = {"three-thirteen": ("knock", "upcard", "pass"), "gin": ("go out", "round"),
           "gin3": ("go out", "round"), "manipulation": ("upcard", "discard")}


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_move_is_refused_exactly_when_it_is_not_legal(game: str,
                                                        options: dict[str, object]) -> None:
    """At many moments of random matches, every action id of the game is
    refused (with one line, in the game's words) exactly when it is not
    legal, and apply_action refuses it with that reason, changing nothing."""
    rng = random.Random(f"refusals {game}")
    for seed in range(3):
        st = new_state(game, {**options, "target": 30} if game != "three-thirteen"
                       else options, seed)
        for _ in range(120 if game != "manipulation" else 40):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            for a in range(st.num_distinct_actions()):
                reason = st.refusal(a)
                assert (reason is None) == (a in legal), (a, reason)
                if reason is None:
                    continue
                assert reason and "\n" not in reason
                assert not any(w in reason for w in FOREIGN[game]), reason
            refused = [a for a in range(st.num_distinct_actions()) if a not in legal]
            if refused:
                a = rng.choice(refused)
                before = st.clone()
                with pytest.raises(IllegalActionError) as e:
                    st.apply_action(a)
                assert str(e.value) == (f"{st.action_to_string(a)!r} is not legal now: "
                                        f"{st.refusal(a)}")
                assert st.legal_actions() == before.legal_actions()
                assert st.current_player() == before.current_player()
            st.apply_action(rng.choice(legal))


def test_refusal_takes_text_and_a_seat_and_knows_when_the_match_is_over() -> None:
    st = new_state("gin", {"target": 1}, seed=3)
    seat = st.current_player()
    assert st.refusal("pass") is None and st.refusal("take discard", seat) is None
    assert st.refusal("pass", 1 - seat) == (f"it is not seat {1 - seat}'s turn: seat {seat} "
                                            "is to act")
    assert st.refusal("pass", 7) == "no seat 7"
    assert st.refusal("fold").startswith("unknown action 'fold'")  # type: ignore[union-attr]
    assert st.refusal(2.0) == "2.0 is not an action id (an int)"  # type: ignore[arg-type]
    assert st.refusal(9999) == "no gin action has id 9999"
    bot = make_bot("simple", "gin")
    while not st.is_terminal():
        st.apply_action(bot.act(st.observation(st.current_player())))
    assert st.refusal(DRAW_STOCK) == "the match is over"


# --- Gin (§1) and three-player Gin (§2) ---------------------------------------------------

def test_gin_opening_and_draw_reasons_cite_1_3_and_1_4() -> None:
    st = gin(*FILLER_GIN, "Kh")
    assert st.refusal(DRAW_STOCK) == "the upcard is offered first: take it or pass (§1.3)"
    held = next(c for c in range(52) if st.hand_of(1) >> c & 1)
    assert st.refusal(DISCARD_BASE + held) == "draw first: take the upcard or pass (§1.3)"
    play(st, "pass", "pass")  # both decline: the non-dealer draws first, from the stock
    assert st.refusal(TAKE_DISCARD) == ("both declined the upcard: the first draw is from "
                                        "the stock (§1.3, D-7)")
    assert st.refusal(PASS) == ("a pass declines the upcard at the opening only (§1.3): "
                                "draw from the stock")
    play(st, "draw stock")
    assert st.refusal(PASS) == "you have drawn this turn: discard a card, or knock (§1.4)"


def test_gin_d3_the_taken_card_and_the_option_that_allows_it() -> None:
    st = gin(*FILLER_GIN, "Kh")
    play(st, "take discard")
    kh = parse_card("Kh")
    assert st.refusal(DISCARD_BASE + kh) == ("Kh was taken from the discard pile: it cannot "
                                             "be discarded this turn (D-3)")
    allowed = gin(*FILLER_GIN, "Kh", options={"allow_discard_of_taken_card": True})
    play(allowed, "take discard")
    assert allowed.refusal(DISCARD_BASE + kh) is None


def test_gin_knock_limit_and_oklahoma_gin_only() -> None:
    knocker, other = "Ac 2c 3c 4d 5d 6d 7h 8h 9h Kc", "3s 5s 9s Js 7d Td Kd 4h Jh 2h"
    st = gin(knocker, other, "Qs", "2s")
    play(st, "pass", "pass", "draw stock")  # melds A-3c, 4-6d, 7-9h; Kc and 2s loose
    assert st.refusal(KNOCK_BASE + parse_card("Kc")) is None  # 2 deadwood
    assert st.refusal(KNOCK_BASE + parse_card("2s")) is None  # 10: the limit is inclusive
    assert st.refusal(KNOCK_BASE + parse_card("Ac")) == (
        "discarding Ac leaves 17 deadwood, over the knock limit of 10 (§1.5)")
    ok = gin(knocker, other, "As", "2s", options={"oklahoma": True})
    play(ok, "pass", "pass", "draw stock")  # an ace upcard: gin only
    assert ok.refusal(KNOCK_BASE + parse_card("Kc")) == (
        "discarding Kc leaves 2 deadwood, over the knock limit of 0: gin only (§1 options)")


def test_gin_big_gin_off_and_on() -> None:
    st = gin(*FILLER_GIN, "Kh")
    play(st, "take discard")
    assert st.refusal(BIG_GIN) == "big gin is not in these rules (option big_gin, §1 options)"
    on = gin(*FILLER_GIN, "Kh", options={"big_gin": True})
    play(on, "take discard")
    assert on.refusal(BIG_GIN) == ("big gin needs all eleven cards melded after the draw "
                                   "(§1 options)")


def test_three_player_gin_the_box_draws_first_by_d7_and_advice_gets_the_reason() -> None:
    st = gin3(*FILLER_GIN, "Kh")
    play(st, "pass", "pass")
    assert st.current_player() == st.dealer  # the box (§2.4, D-7)
    assert st.refusal(TAKE_DISCARD) == ("both declined the upcard: the first draw is from "
                                        "the stock (§2.4, D-7)")
    fresh = gin3(*FILLER_GIN, "Kh")
    with pytest.raises(IllegalActionError, match=r"'draw stock' is not legal now: the upcard "
                                                 r"is offered first: take it or pass \(§1.3\)"):
        fresh.advise("draw stock")


# --- Three Thirteen (§3) -------------------------------------------------------------------

def test_three_thirteen_draw_then_discard_or_go_out() -> None:
    st = thirteen(["Ac 2c 3c", "Ad 5d 9d"], "Kh", "7s")  # seat 1 acts first
    assert st.refusal(T_DISCARD + parse_card("Ad")) == ("draw first: from the stock or the "
                                                       "discard pile (§3.4)")
    play(st, "take discard")
    assert st.refusal("draw stock") == ("you have drawn this turn: discard a card or go out "
                                        "(§3.4)")
    assert st.refusal("discard Kh") == ("Kh was taken from the discard pile: it cannot be "
                                        "discarded this turn (D-3, §3.11)")
    assert st.refusal("go out Qs") == "you do not hold Qs"
    assert st.refusal("go out Ad") == ("going out needs every card but the discard in "
                                       "combinations: without Ad the rest leaves 24 penalty "
                                       "points (§3.5)")


def test_three_thirteen_after_going_out_a_last_turn_has_no_going_out() -> None:
    st = thirteen(["Ad 5d 9d", "As 2s 3s"], "Kh", "4s 8c")
    play(st, "draw stock", "go out 4s")  # seat 1: A-2-3 of spades, 4s thrown
    assert st.refusal("draw stock") is None
    play(st, "draw stock")  # seat 0 draws 8c
    assert st.refusal(GO_OUT_BASE + parse_card("8c")) == (
        "seat 1 has gone out: this last turn is a draw and a discard (§3.5)")


def test_three_thirteen_d3_with_two_copies_the_other_may_go() -> None:
    st = thirteen(["Ad 5d 9d", "Kh Ac 2c", "4c 8c Jc"], "Kh", "7s")
    play(st, "take discard")  # seat 1 holds two Kh now, one of them taken
    assert st.refusal(T_DISCARD + parse_card("Kh")) is None
    assert st.refusal(T_TAKE) is not None


# --- Manipulation (§4) -----------------------------------------------------------------------

FILLER_M = [  # ten cards each that meld with nothing, and share no card
    "2c 5c 9c Qc 3d 7d Jd Ah 6h Th",
    "2s 5s 9s Qs 6d Td Kd 4h 8h Kh",
]


def _manipulation(hands: list[str], pile: str, **options: object) -> State:
    from test_manipulation_game import game
    return game(hands, pile, **options)


def test_manipulation_draws_knocks_and_passes() -> None:
    st = _manipulation(FILLER_M, "As 8d 6s 4d")  # seat 1 draws As
    assert st.refusal(M_PASS) == ("the turn goes on: with one card drawn and nothing melded, "
                                  "meld or draw again (§4.4)")
    assert st.refusal(KNOCK) == "a knock needs 5 points in hand or fewer; you hold 64 (§4.8)"
    assert st.refusal(MELD_BEST) == "no card of your hand fits a meld or the table now (§4.6)"
    play(st, "draw", "draw")
    assert st.refusal(DRAW) == "three cards are the most a turn draws (§4.4)"
    assert st.refusal(MELD_BEST) == "a player who draws a third card may not meld that turn (§4.4)"
    assert st.refusal("meld 2s 5s 9s") == ("a player who draws a third card may not meld "
                                           "that turn (§4.4)")


def test_manipulation_a_meld_ends_the_turn_d14() -> None:
    st = _manipulation(["5h 6h 7h Ac 2d 3s 4c Qc Jd Ks", FILLER_M[1]], "As 8d")
    st.apply("meld 5h 6h 7h")
    assert st.refusal(DRAW) == "melding ends the turn: no draw after a meld (D-14)"
    assert st.refusal(MELD_BEST) == "melding ends the turn: one meld a turn (D-14)"


def test_manipulation_a_typed_meld_is_tried_on_a_copy() -> None:
    st = _manipulation(["5h 6h 7h Ac 2d 3s 4c Qc Jd Ks", FILLER_M[1]], "As 8d")
    assert st.refusal("meld 5h 6h 7h") is None
    assert st.refusal("meld 5h 6h") == "no legal table holds 5h 6h with the cards on the table"
    assert st.refusal("meld 9s 10s Js") == "9s is not in your hand"
    assert st.refusal("meld 5h 6h 7h", seat=0) == "it is not seat 0's turn: seat 1 is to act"
    assert st.refusal("meld 5h 6h 7h", seat=1) is None
    assert st.table == () and len(st.hand_of(1)) == 11  # nothing was melded


def test_manipulation_d25_first_meld_from_the_hand_and_d23_no_draw() -> None:
    from test_manipulation_game import _last_cards

    st = _manipulation(FILLER_M, "As 8d 6s 4d", initial_meld_from_hand=True)
    assert st.refusal(MELD_BEST) == ("your first meld this round is a new meld from your own "
                                     "hand (D-25), and no three cards of it make one")
    tail = _manipulation(FILLER_M, "As 8d 6s 4d")
    _last_cards(tail, 1)  # type: ignore[arg-type]
    play(tail, "draw")  # the pile's last card, on the second draw
    assert tail.refusal(DRAW) == ("the draw pile is used up: no more draws this round "
                                  "(§4.10, D-23)")
