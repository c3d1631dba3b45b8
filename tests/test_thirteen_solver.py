"""The Three Thirteen solver (§3.6-§3.9, D-8 to D-10, D-22) against brute force.

``penalty``, ``penalty_after_discard`` and ``solve`` (with and without
``discard=True``, ``natural_wild_sets`` off and on) must agree with
``reference.thirteen_penalty`` (every partition of the hand, up to 10 cards
here) and, for the full hand sizes of the late rounds, with
``helpers.thirteen_reference`` (the same search with wilds counted rather than
picked; it shares no code with the solver and is itself checked against the
brute force below). ``solve``'s combinations must be legal
(``reference.thirteen_is_combo``), use exactly the hand's cards (less the
discard), give each wild a card to stand for that fits the combination, and
leave unmatched cards worth exactly the penalty.

Round r (1-11) deals r + 2 cards and its wild rank is that number (§3.2): rank
index r + 1. The full sweep is ``scripts/sweep_thirteen.py``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import strategies as st

from helpers import HAND_KINDS13, thirteen_hand, thirteen_reference, thirteen_solution_problems
from rummylab.analysis import analyze_thirteen
from rummylab.cards import (
    CARD_POINTS,
    card_str,
    multi_add,
    multi_cards,
    multi_of,
    multi_remove,
    parse_cards,
)
from rummylab.errors import CardError
from rummylab.reference import thirteen_is_combo, thirteen_penalty
from rummylab.three_thirteen.solver import combo_str, penalty, penalty_after_discard, solve
from sampling import given_sampled

ROUNDS = range(1, 12)
BRUTE_MAX = 10  # the brute force is exponential: hands it checks have at most 10 cards


def wild_of(round_: int) -> int:
    """§3.2: round r's wild rank is r + 2 (3s in round 1 ... Kings in round 11)."""
    return round_ + 1


def pen(text: str, round_: int, **kw) -> int:
    return penalty(multi_of(parse_cards(text)), wild_of(round_), **kw)


def sol(text: str, round_: int, **kw):
    return solve(multi_of(parse_cards(text)), wild_of(round_), **kw)


def check_hand(cards: list[int], wild_rank: int, reference) -> None:
    """Every entry point, both discard modes and both option values, against
    ``reference(cards, wild_rank, all_wild, discard)``."""
    hand = multi_of(cards)
    for all_wild in (False, True):
        for discard in (False, True):
            want = reference(cards, wild_rank, all_wild, discard)
            fn = penalty_after_discard if discard else penalty
            got = fn(hand, wild_rank, natural_wild_sets=all_wild)
            label = (f"{' '.join(sorted(card_str(c) for c in cards))} wild={wild_rank} "
                     f"natural_wild_sets={all_wild} discard={discard}")
            assert got == want, f"{fn.__name__}: {label}: got {got}, reference {want}"
            s = solve(hand, wild_rank, natural_wild_sets=all_wild, discard=discard)
            problems = thirteen_solution_problems(cards, wild_rank, all_wild, discard, s, want)
            assert problems == [], f"solve: {label}: {problems}"


def sample(round_: int, decks: int, per_kind: int, sizes: list[int]) -> list[list[int]]:
    """Seeded hands of every kind (random, wild-heavy, duplicate-heavy, dense)."""
    rng = random.Random(f"thirteen-solver/{round_}/{decks}")
    return [thirteen_hand(rng, kind, size, wild_of(round_), decks)
            for kind in HAND_KINDS13 for size in sizes for _ in range(per_kind)]


# --- the generated sample: all eleven rounds, one and two decks ------------------------


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("round_", ROUNDS)
def test_solver_agrees_with_brute_force(round_, decks):
    """§3.6-§3.9, D-8, D-9, D-10, D-22: the solver equals the brute force on
    seeded random, wild-heavy, duplicate-heavy and dense hands of the round's
    wild rank (hands before and after the draw, at most 10 cards)."""
    size = round_ + 2
    sizes = sorted({min(size, BRUTE_MAX - 1), min(size + 1, BRUTE_MAX), 4})
    for cards in sample(round_, decks, 2, sizes):
        check_hand(cards, wild_of(round_), thirteen_penalty)


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("round_", ROUNDS)
def test_solver_agrees_with_reference_at_full_size(round_, decks):
    """§3.2, §3.6-§3.9: at the round's own hand sizes (r + 2, and r + 3 after
    the draw: up to 14 cards) the solver equals the independent reference."""
    for cards in sample(round_, decks, 2, [round_ + 2, round_ + 3]):
        check_hand(cards, wild_of(round_), thirteen_reference)


def test_reference_agrees_with_brute_force():
    """The fast reference the full-size checks rely on equals the brute force."""
    rng = random.Random("thirteen-reference")
    for _ in range(120):
        round_ = rng.randrange(1, 12)
        decks = rng.choice((1, 2))
        cards = thirteen_hand(rng, rng.choice(HAND_KINDS13), rng.randrange(1, 10),
                              wild_of(round_), decks)
        for all_wild in (False, True):
            for discard in (False, True):
                args = (cards, wild_of(round_), all_wild, discard)
                assert thirteen_reference(*args) == thirteen_penalty(*args), args


def test_wild_heavy_hands_every_wild_count():
    """§3.7, D-8, D-10: zero to eight wilds (two decks) with zero to three
    naturals, the hands where a wild may have nowhere to go."""
    rng = random.Random("wild-counts")
    pack = [c for c in range(52) for _ in range(2)]
    for round_ in ROUNDS:
        wr = wild_of(round_)
        wilds = [13 * s + wr for s in range(4) for _ in range(2)]
        naturals = [c for c in pack if c % 13 != wr]
        for n_wild in range(9):
            for n_nat in range(4):
                cards = rng.sample(naturals, n_nat) + rng.sample(wilds, n_wild)
                if cards:
                    ref = thirteen_penalty if len(cards) <= 8 else thirteen_reference
                    check_hand(cards, wr, ref)


# --- named cases ----------------------------------------------------------------------


def test_d9_set_of_identical_cards():
    """D-9: with two decks a set may hold identical cards: 6s 6s 6h is a set."""
    assert pen("6s 6s 6h", 1) == 0
    assert thirteen_is_combo(parse_cards("6s 6s 6h"), wild_of(1))
    s = sol("6s 6s 6h 9c", 1)
    assert s.penalty == 9 and [c.kind for c in s.combos] == ["set"]
    assert sorted(combo_str(s.combos[0]).split()) == ["6h", "6s", "6s"]
    # two identical cards and a wild make a set too
    assert pen("6s 6s 3d", 1) == 0


def test_3_7_run_bridged_by_wilds():
    """§3.7: wilds fill the gaps of a run: 5h 3c=6h 7h, and two gaps 5h 3c 3d 8h."""
    s = sol("5h 3c 7h", 1)
    assert s.penalty == 0 and [combo_str(c) for c in s.combos] == ["5h 3c=6h 7h"]
    s = sol("5h 3c 3d 8h", 1)
    assert s.penalty == 0
    (run,) = s.combos
    assert run.kind == "run" and [f for _, f in run.cards] == parse_cards("5h 6h 7h 8h")
    # a gap of two needs two wilds: one is not enough
    assert pen("5h 3c 8h", 1) == 16


def test_3_7_combination_needs_a_natural_d8():
    """§3.7, D-8: a card of the wild rank is always wild, so three 3s in round 1
    are not a set (9 points) unless ``natural_wild_sets`` allows all-wild
    combinations."""
    assert pen("3c 3d 3h", 1) == 9
    assert pen("3c 3d 3h", 1, natural_wild_sets=True) == 0
    assert not thirteen_is_combo(parse_cards("3c 3d 3h"), wild_of(1))
    assert thirteen_is_combo(parse_cards("3c 3d 3h"), wild_of(1), all_wild=True)
    s = sol("3c 3d 3h 3s", 1, natural_wild_sets=True)
    assert s.penalty == 0 and len(s.combos) == 1 and len(s.combos[0].cards) == 4
    # after a discard: 9s goes, the three 3s stay (D-8 default: 9 points)
    assert penalty_after_discard(multi_of(parse_cards("3c 3d 3h 9s")), 2) == 0  # 9s 3c 3d set
    assert penalty_after_discard(multi_of(parse_cards("3c 3d 3h 3s")), 2) == 9
    assert penalty_after_discard(multi_of(parse_cards("3c 3d 3h 3s")), 2,
                                 natural_wild_sets=True) == 0
    # eight kings in round 11 (two decks): all wild
    assert pen("Kc Kc Kd Kd Kh Kh Ks Ks", 11) == 80
    assert pen("Kc Kc Kd Kd Kh Kh Ks Ks", 11, natural_wild_sets=True) == 0


def test_d8_wild_rank_card_in_its_own_place():
    """D-8: a card of the wild rank is wild even where it would fit as itself
    (2h 3h 4h in round 1: the 3h is a wild standing for the 3h)."""
    s = sol("2h 3h 4h", 1)
    assert s.penalty == 0 and combo_str(s.combos[0]) == "2h 3h 4h"
    # one natural and two wilds is a combination
    assert pen("Kd 3h 3s", 1) == 0


def test_3_1_ace_low_q_k_a_is_not_a_run():
    """§3.1, §0: A-2-3 is a run, Q-K-A is not, and a run never turns the corner."""
    assert pen("Ah 2h 3h", 2) == 0  # round 2: fours are wild
    assert pen("Qh Kh Ah", 1) == 21
    assert pen("Kh Ah 2h", 1) == 13
    assert not thirteen_is_combo(parse_cards("Qh Kh Ah"), wild_of(1))
    # a wild makes Q-K a run only downwards: J-Q-K
    s = sol("Qh Kh 3c", 1)
    assert s.penalty == 0 and combo_str(s.combos[0]) == "3c=Jh Qh Kh"
    # Q K A and a wild: the ace is left over
    assert pen("Qh Kh Ah 3c", 1) == 1


def test_d10_leftover_wild_counts_its_face_value():
    """D-10: a wild left over counts its face value: 3 in round 1, 10 for the
    jacks of round 9 and the kings of round 11."""
    assert pen("3c 8d Ks", 1) == 3 + 8 + 10
    assert pen("Jc 2d 7s", 9) == 10 + 2 + 7
    assert pen("Kc 4d 9s", 11) == 10 + 4 + 9
    assert pen("Tc 2d 7s", 8) == 10 + 2 + 7
    s = sol("3c 8d Ks", 1)
    assert s.combos == () and sorted(s.unmatched) == sorted(parse_cards("3c 8d Ks"))


def test_d22_run_at_most_a_to_k_wilds_extend_either_end():
    """D-22: a run spans at most A to K; wilds fill gaps or extend either end."""
    wr = wild_of(1)
    fourteen = parse_cards("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 3d")
    assert not thirteen_is_combo(fourteen, wr)
    assert thirteen_is_combo(fourteen[:13], wr)
    # Q K and a wild extend downwards (there is no card above the K)
    assert combo_str(sol("Qd Kd 3s", 1).combos[0]) == "3s=Jd Qd Kd"
    # A 2 and a wild extend upwards
    assert combo_str(sol("Ad 2d 4s", 2).combos[0]) == "Ad 2d 4s=3d"
    # twelve naturals of a suit and two wilds: a run of 14 is not allowed, the
    # solver still lays everything down within A..K
    s = sol("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kd Ks", 11)
    assert s.penalty == 0
    for combo in s.combos:
        assert len(combo.cards) <= 13
        assert thirteen_is_combo([c for c, _ in combo.cards], wild_of(11))


def test_d22_set_of_any_size():
    """D-22: a set may hold any number of cards, wilds included (two decks)."""
    s = sol("7c 7c 7d 7d 7h 7h 7s 3c 3d", 1)
    assert s.penalty == 0
    assert thirteen_is_combo(parse_cards("7c 7c 7d 7d 7h 7h 7s 3c 3d"), wild_of(1))
    assert all(c.kind == "set" for c in s.combos)


def test_3_6_a_card_counts_in_one_combination_only():
    """§3.6: the 7h cannot be both in 5h 6h 7h and in 7c 7d 7h."""
    assert pen("5h 6h 7h 7c 7d", 2) == 11  # 7c 7d 7h, 5h 6h left
    assert pen("5h 6h 7h 7c 7d 7s", 2) == 0  # 7c 7d 7s and 5h 6h 7h


def test_3_6_combinations_longer_than_three():
    """§3.6: combinations may be longer than three cards."""
    assert pen("4s 5s 6s 7s 8s 9s Ts", 1) == 0
    assert pen("9c 9d 9h 9s", 1) == 0


def test_3_9_points_face_values():
    """§3.9, §0: A 1, 2-10 face value, J/Q/K 10."""
    assert pen("Ac 5d Ts", 1) == 16
    assert pen("Jc Qd Ks", 1) == 30
    assert pen("Ac 5d Ts Jc Qd Ks", 1) == 46


def test_3_5_solve_with_discard_names_a_card_of_the_hand():
    """§3.5: after the draw a player discards one card; ``solve(discard=True)``
    names one whose removal leaves the least penalty."""
    hand = multi_of(parse_cards("5h 6h 8h 3c 9d 9s 9c Kc"))
    s = solve(hand, 2, discard=True)
    assert s.discard is not None and s.penalty == 0
    assert penalty(multi_remove(hand, s.discard), 2) == 0
    assert s.discard == parse_cards("Kc")[0]
    # a spare wild may be the discard
    s = solve(multi_of(parse_cards("5h 6h 7h 3c")), 2, discard=True)
    assert s.penalty == 0 and s.discard is not None
    assert solve(hand, 2).discard is None


def test_empty_hand_and_discard_from_nothing():
    """An empty hand has no penalty; there is nothing to discard from it."""
    assert penalty(0, 2) == 0
    assert solve(0, 2).penalty == 0
    with pytest.raises(ValueError):
        penalty_after_discard(0, 2)
    with pytest.raises(ValueError):
        solve(0, 2, discard=True)
    # one card: discard it, nothing is left
    assert penalty_after_discard(multi_of(parse_cards("Kd")), 2) == 0


def test_combo_str_writes_each_wild_with_the_card_it_stands_for():
    """D-1 notation: a wild is written with the card it stands for (3c=7h)."""
    s = sol("5h 6h 8h 3c 9d 9s 9c", 1)
    assert sorted(combo_str(c) for c in s.combos) == ["5h 6h 3c=7h 8h", "9c 9d 9s"]


def test_analyze_thirteen_reports_the_solver():
    """§3.5, §3.9: ``analysis.analyze_thirteen`` (the CLI's analyze) gives the
    least penalty and its combinations for r + 2 cards, and after the draw
    (r + 3) the best discard and whether the player can go out."""
    out = analyze_thirteen("5h 6h 3c 8h 9d", 3)  # round 3: fives wild
    assert out["penalty"] == pen("5h 6h 3c 8h 9d", 3) == 3 + 9
    assert out["melds"] == ["6h 5h=7h 8h"] and "discard" not in out
    after = analyze_thirteen("5h 6h 7h 8h 9d 9s 9c Kc", 5)  # round 5: sevens wild
    assert after["discard"] == "Kc" and after["can_go_out"] is True and after["penalty"] == 0
    assert after["unmatched"] == ""
    with pytest.raises(CardError):
        analyze_thirteen("5h 6h 7h", 2)  # round 2 hands hold 4 or 5 cards
    with pytest.raises(CardError):
        analyze_thirteen("5h 6h 7h", 12)


# --- hypothesis ------------------------------------------------------------------------


@st.composite
def hands(draw, max_size: int = 14, min_size: int = 0):
    """A round, a deck count and a hand from that pack: any cards, with the
    round's wilds and identical copies (two decks) over-represented."""
    round_ = draw(st.integers(1, 11))
    decks = draw(st.sampled_from([1, 2]))
    wr = wild_of(round_)
    size = draw(st.integers(min_size, max_size))
    counts: Counter[int] = Counter()
    cards: list[int] = []
    near = draw(st.sampled_from([13, 6, 4]))  # a narrow rank window makes combinations
    lo = draw(st.integers(0, 13 - near))
    for _ in range(size):
        pick = draw(st.one_of(
            st.builds(lambda s: 13 * s + wr, st.integers(0, 3)),  # a wild
            st.builds(lambda s, r: 13 * s + r, st.integers(0, 3), st.integers(lo, lo + near - 1)),
            st.integers(0, 51),
        ))
        if counts[pick] < decks:
            counts[pick] += 1
            cards.append(pick)
    return round_, decks, cards


@given_sampled(hands(max_size=8), full=150, sample=30)
def test_property_solver_equals_brute_force(args):
    """§3.6-§3.9, D-8 to D-10, D-22: any small hand, every entry point."""
    round_, _, cards = args
    if not cards:
        return
    check_hand(cards, wild_of(round_), thirteen_penalty)


@given_sampled(hands(min_size=1), full=100, sample=20)
def test_property_discard_is_the_best_single_removal(args):
    """§3.5: the penalty after the best discard is the least over every card
    of the hand removed once."""
    round_, _, cards = args
    wr = wild_of(round_)
    hand = multi_of(cards)
    best = min(penalty(multi_remove(hand, c), wr) for c in set(cards))
    assert penalty_after_discard(hand, wr) == best


@given_sampled(hands(), st.permutations(range(4)), full=100, sample=20)
def test_property_suits_are_symmetric(args, perm):
    """§3.6: no suit is special: relabelling the suits keeps the penalty."""
    round_, _, cards = args
    wr = wild_of(round_)
    moved = [13 * perm[c // 13] + c % 13 for c in cards]
    assert penalty(multi_of(cards), wr) == penalty(multi_of(moved), wr)
    if cards:
        assert penalty_after_discard(multi_of(cards), wr) == penalty_after_discard(
            multi_of(moved), wr)


@given_sampled(hands(), full=100, sample=20)
def test_property_option_and_bounds(args):
    """D-8: ``natural_wild_sets`` only adds combinations, so it never raises the
    penalty; the penalty is at most the hand's points; a penalty of 0 leaves
    nothing unmatched."""
    round_, _, cards = args
    wr = wild_of(round_)
    hand = multi_of(cards)
    p = penalty(hand, wr)
    assert penalty(hand, wr, natural_wild_sets=True) <= p <= sum(CARD_POINTS[c] for c in cards)
    s = solve(hand, wr)
    assert s.penalty == p and (p != 0 or s.unmatched == ())


@given_sampled(hands(max_size=13), st.integers(0, 3), full=100, sample=20)
def test_property_one_more_wild_never_hurts_after_a_discard(args, suit):
    """§3.7: a wild drawn can always be the discard, so it never raises the
    least penalty after the discard; kept, it costs at most its face value (D-10)."""
    round_, decks, cards = args
    wr = wild_of(round_)
    wild = 13 * suit + wr
    if cards.count(wild) >= decks:
        return
    hand = multi_of(cards)
    more = multi_add(hand, wild)
    assert penalty_after_discard(more, wr) <= penalty(hand, wr)
    assert penalty(more, wr) <= penalty(hand, wr) + CARD_POINTS[wild]
    assert sorted(multi_cards(more)) == sorted([*cards, wild])
