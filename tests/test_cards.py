"""§0 common ground: cards, the D-1 notation, points, decks, melds and deadwood."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummylab.cards import (
    CARD_POINTS,
    JOKER,
    RANKS,
    SUITS,
    card_str,
    cards_of,
    cards_str,
    check_deck_order,
    deck,
    make_card,
    mask_of,
    mask_points,
    mask_str,
    parse_card,
    parse_cards,
    parse_mask,
    points,
    rank_of,
    shuffled_deck,
    suit_of,
)
from rummylab.errors import CardError
from rummylab.gin.solver import deadwood, is_meld
from rummylab.reference import gin_deadwood

# --- §0 Cards -----------------------------------------------------------------


def test_rule_0_cards_four_suits_thirteen_ranks():
    """§0 Cards: suits c d h s, ranks A..K, 52 distinct cards."""
    assert SUITS == "cdhs"
    assert RANKS == "A23456789TJQK"
    names = {card_str(c) for c in range(52)}
    assert len(names) == 52
    for c in range(52):
        assert make_card(rank_of(c), suit_of(c)) == c


# --- D-1 notation ----------------------------------------------------------------


def test_D1_every_card_round_trips_in_canonical_notation():
    """D-1: rank then suit, output canonical (As, Td, Qh)."""
    for c in range(52):
        text = card_str(c)
        assert len(text) == 2
        assert text[0] in RANKS and text[1] in SUITS
        assert parse_card(text) == c
    assert card_str(parse_card("as")) == "As"
    assert card_str(parse_card("td")) == "Td"
    assert card_str(parse_card("QH")) == "Qh"


@pytest.mark.parametrize("text", ["as", "AS", "aS", "As", " as "])
def test_D1_input_is_case_insensitive(text):
    """D-1: input is case-insensitive."""
    assert card_str(parse_card(text)) == "As"


@pytest.mark.parametrize("suit", list(SUITS))
def test_D1_ten_accepted_as_10_on_input(suit):
    """D-1: `10` is accepted on input for T; output is always T."""
    assert parse_card("10" + suit) == parse_card("T" + suit)
    assert card_str(parse_card("10" + suit.upper())) == "T" + suit


@pytest.mark.parametrize("bad", ["1x", "1h", "11h", "Tx", "Zs", "A", "s", "", "As2", "0c", "10"])
def test_D1_unknown_card_raises_card_error(bad):
    """D-1: an unknown card is a clear CardError naming the notation."""
    with pytest.raises(CardError, match="unknown card"):
        parse_card(bad)


def test_D1_joker_written_Jk_only_where_jokers_exist():
    """D-1: a joker is `Jk`; jokers exist only in Manipulation (§0)."""
    assert parse_card("jk", jokers=True) == JOKER
    assert card_str(JOKER) == "Jk"
    with pytest.raises(CardError, match="joker"):
        parse_card("Jk")


def test_D1_hand_is_cards_separated_by_spaces():
    """D-1: a hand or pile is cards separated by spaces (canonical output)."""
    cards = parse_cards("7h 10d as  QS")
    assert cards_str(cards) == "7h Td As Qs"
    assert mask_str(parse_mask("qs 7h as 10d")) == "Td 7h As Qs"  # sorted by suit, then rank


def test_D1_duplicate_card_in_one_deck_raises_card_error():
    """D-1 / §0: one deck holds one of each card; a duplicate is a CardError."""
    with pytest.raises(CardError, match="duplicate card 7h"):
        parse_mask("7h 8h 7H")
    with pytest.raises(CardError, match="duplicate card Td"):
        parse_mask("10d Td")
    # a plain list keeps duplicates (two decks: identical cards exist, §0)
    assert parse_cards("7h 7h") == [parse_card("7h")] * 2


def test_D1_card_str_rejects_non_cards():
    """D-1: only card indices have a notation."""
    for bad in (-1, 53, 100):
        with pytest.raises(CardError):
            card_str(bad)


@given(st.lists(st.integers(0, 51), unique=True, max_size=52))
def test_D1_mask_notation_round_trips(cards):
    """D-1: any card set prints canonically and parses back to itself."""
    m = mask_of(cards)
    assert parse_mask(mask_str(m)) == m
    assert parse_mask(mask_str(m).lower()) == m
    assert parse_mask(mask_str(m).upper()) == m
    assert sorted(cards_of(m)) == sorted(cards)


# --- §0 Points ---------------------------------------------------------------------


def test_rule_0_points_ace_one_pips_face_tens_joker_25():
    """§0 Points: A = 1, 2-10 face value, J/Q/K = 10, joker = 25."""
    expected = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                "T": 10, "J": 10, "Q": 10, "K": 10}
    for rank, value in expected.items():
        for suit in SUITS:
            assert points(parse_card(rank + suit)) == value
    assert points(JOKER) == 25
    assert CARD_POINTS[JOKER] == 25
    assert sum(points(c) for c in range(52)) == 4 * 85


@given(st.lists(st.integers(0, 51), unique=True))
def test_rule_0_mask_points_is_the_sum_of_card_points(cards):
    """§0 Points: a set's points are the sum of its cards'."""
    assert mask_points(mask_of(cards)) == sum(points(c) for c in cards)


# --- deck sizes -----------------------------------------------------------------


@pytest.mark.parametrize(("decks", "jokers", "size"), [(1, 0, 52), (2, 0, 104), (1, 1, 53),
                                                       (2, 2, 106)])
def test_rule_0_deck_sizes(decks, jokers, size):
    """§0 / table: 52 for Gin, 104 two decks, 53 and 106 with jokers."""
    pack = deck(decks, jokers)
    assert len(pack) == size
    assert pack.count(JOKER) == jokers
    for c in range(52):
        assert pack.count(c) == decks  # with two decks, identical cards exist
    shuffled = shuffled_deck(random.Random(1), decks, jokers)
    assert sorted(shuffled) == sorted(pack)
    check_deck_order(shuffled, decks, jokers)


def test_rule_0_deck_order_must_be_one_full_pack():
    """§0: a deck order holds each card of the pack exactly once."""
    order = list(range(52))
    check_deck_order(order)
    with pytest.raises(CardError):
        check_deck_order(order[:-1])
    with pytest.raises(CardError):
        check_deck_order([*order[:-1], 0])


# --- §0 Melds, ace, deadwood ----------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "meld"),
    [
        ("7c 7d 7h", True),  # set of three
        ("7c 7d 7h 7s", True),  # set of four
        ("7c 7d", False),  # too short
        ("4h 5h 6h", True),  # run of three
        ("4h 5h 6h 7h 8h 9h Th Jh Qh Kh", True),  # long run
        ("4h 5h 7h", False),  # gap
        ("4h 5h 6d", False),  # mixed suits
        ("7c 7d 8h", False),
        ("Ac 2c 3c", True),  # ace low
        ("Qc Kc Ac", False),  # ace is never high in Gin
        ("Kc Ac 2c", False),  # never turns the corner
    ],
)
def test_rule_0_melds_sets_and_runs_ace_low(cards, meld):
    """§0 Melds and Ace: a set is 3+ of a rank, a run 3+ consecutive of a
    suit; in Gin the ace is low only (A-2-3 a run, Q-K-A not)."""
    assert is_meld(parse_mask(cards)) is meld


def test_rule_0_card_belongs_to_at_most_one_meld():
    """§0 Melds: a card belongs to at most one meld; 7c cannot serve both the
    run 5c-6c-7c and the set 7c-7d-7h."""
    hand = parse_mask("5c 6c 7c 7d 7h")
    # run: 7d 7h left (14); set: 5c 6c left (11); both at once would be 0
    assert deadwood(hand) == 11
    assert gin_deadwood(cards_of(hand)) == 11


def test_rule_0_deadwood_is_least_over_arrangements():
    """§0 Deadwood: counted on the arrangement with the least deadwood."""
    hand = parse_mask("7c 8c 9c 4d 4h 4s 2c Kd Qs 3h")
    assert deadwood(hand) == 2 + 3 + 10 + 10
    assert deadwood(parse_mask("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc")) == 0
    assert deadwood(parse_mask("Kc Kd Ks Qh Jh Th 9h 2s 3s 4s")) == 0
    assert deadwood(parse_mask("Kc Qd Js Th 9c 8d 7s 6h 5c 4d")) == 79  # nothing melds
