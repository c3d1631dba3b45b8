"""The fast Gin meld solver against brute force (§0 Deadwood, §1.5, §1.7, D-3, D-4, D-5).

``rummylab.reference`` gives the brute-force deadwood; the brute-force
arrangements and lay-offs are written here, sharing nothing with the solver.
The sample (a few thousand random and meld-dense hands) is sized for CI; the
sweep script runs the long version.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import fits, layable_subsets, mask, meld_dense_hand, random_hand
from rummylab.cards import CARD_POINTS, CardSet, cards_of, mask_of, mask_points
from rummylab.gin.solver import (
    best_arrangement,
    best_defence,
    best_discards,
    deadwood,
    deadwood_after_discard,
    discard_deadwoods,
    is_meld,
    knock_arrangement,
    layoff_options,
    layoff_surface,
    least_deadwood_arrangements,
    melded_points,
)
from rummylab.reference import gin_deadwood, gin_deadwood_after_discard, gin_melds
from sampling import sampled_counts

FULL = (1 << 52) - 1


def sample(n: int, size: int, seed: str) -> list[CardSet]:
    """Half uniformly random hands, half meld-dense ones."""
    rng = random.Random(f"melds/{seed}/{size}")
    return [(random_hand if i % 2 else meld_dense_hand)(rng, size) for i in range(n)]


# --- brute-force references -------------------------------------------------------


def brute_arrangements(hand: CardSet) -> set[frozenset[CardSet]]:
    """Every least-deadwood arrangement of ``hand``, by trying every
    collection of disjoint melds; runs of one suit that touch are merged into
    maximal blocks (how they are split changes nothing a player can lay off)."""
    cards = cards_of(hand)
    melds = [mask_of(m) for m in gin_melds(cards)]
    best = -1
    found: list[tuple[CardSet, ...]] = []

    def search(i: int, used: CardSet, chosen: tuple[CardSet, ...]) -> None:
        nonlocal best, found
        covered = mask_points(used)
        if covered > best:
            best, found = covered, [chosen]
        elif covered == best:
            found.append(chosen)
        for j in range(i, len(melds)):
            if not melds[j] & used:
                search(j + 1, used | melds[j], (*chosen, melds[j]))

    search(0, 0, ())
    return {normalise(chosen) for chosen in found}


def normalise(melds: Iterable[CardSet]) -> frozenset[CardSet]:
    out = set()
    run_cards = 0
    for m in melds:
        ranks = {c % 13 for c in cards_of(m)}
        if len(ranks) == 1:
            out.add(m)
        else:
            run_cards |= m
    for c in cards_of(run_cards):  # split run cards into maximal blocks
        if c % 13 and run_cards >> (c - 1) & 1:
            continue
        block, top = 0, c
        while top // 13 == c // 13 and run_cards >> top & 1:
            block |= 1 << top
            top += 1
        out.add(block)
    return frozenset(out)


def brute_defence(hand: CardSet, knocker_melds: Iterable[CardSet]) -> int:
    """D-5 by brute force: the least deadwood over every subset of the
    defender's cards that can be laid off (chains included), the rest
    arranged in the defender's own melds."""
    melds = [cards_of(m) for m in knocker_melds]
    subsets = layable_subsets(cards_of(hand), melds)
    return min(gin_deadwood(cards_of(hand & ~mask_of(s))) for s in subsets)


def brute_surface(melds: Iterable[CardSet], live: CardSet) -> int:
    """D-4: points of the live cards that fit directly onto the melds."""
    ms = [frozenset(cards_of(m)) for m in melds]
    return sum(CARD_POINTS[c] for c in cards_of(live) if any(fits(c, m) for m in ms))


def assert_valid_arrangement(hand: CardSet, melds: Iterable[CardSet], dw_mask: CardSet) -> None:
    used = 0
    for m in melds:
        assert is_meld(m), f"not a meld: {cards_of(m)}"
        assert not m & used, "a card in two melds"
        used |= m
    assert used | dw_mask == hand and not used & dw_mask


# --- deadwood (§0, §1.8) -------------------------------------------------------------


@pytest.mark.parametrize("size", [10, 11])
def test_rule_0_deadwood_matches_brute_force(size):
    """§0 Deadwood: the fast solver finds the least deadwood (2,000 hands per size)."""
    for hand in sample(2000, size, "deadwood"):
        assert deadwood(hand) == gin_deadwood(cards_of(hand)), cards_of(hand)
        assert melded_points(hand) == mask_points(hand) - deadwood(hand)


def test_rule_0_deadwood_matches_brute_force_any_size():
    """§0 Deadwood: hands of every size from 0 to 14 cards."""
    for size in range(15):
        for hand in sample(60, size, "sizes"):
            assert deadwood(hand) == gin_deadwood(cards_of(hand))


@pytest.mark.parametrize("n", sampled_counts(1500, 300))
def test_rule_1_5_deadwood_after_discard_matches_brute_force(n):
    """§1.5: deadwood after the best discard, on 11-card hands."""
    for hand in sample(n, 11, "after-discard"):
        expected = gin_deadwood_after_discard(cards_of(hand))
        assert deadwood_after_discard(hand) == expected, cards_of(hand)
        assert min(discard_deadwoods(hand).values()) == expected


@pytest.mark.parametrize("n", sampled_counts(150, 30))
def test_rule_1_5_deadwood_after_discard_any_hand_size(n):
    """§1.5: the after-discard deadwood is exact for hands of any size, also
    when every card is melded in three-card melds and a discard must break
    one (Ac 2c 3c 5d 5h 5s: discarding 3c leaves 3, not 0)."""
    assert deadwood_after_discard(mask("Ac 2c 3c")) == 3
    assert deadwood_after_discard(mask("Ac 2c 3c 5d 5h 5s 9h Th Jh")) == 3
    assert deadwood_after_discard(mask("9c 9d 9h 9s Ts Js")) == 10  # four 9s, Ts or Js left
    assert deadwood_after_discard(mask("4c 4d 4h")) == 8
    for size in range(1, 16):
        for hand in sample(n, size, "after-discard-sizes"):
            assert deadwood_after_discard(hand) == min(
                gin_deadwood([x for x in cards_of(hand) if x != c]) for c in cards_of(hand)
            ), cards_of(hand)


@pytest.mark.parametrize("n", sampled_counts(800, 160))
def test_rule_1_5_best_discards_match_brute_force_with_D3_forbidden_card(n):
    """§1.5 and D-3: every discard reaching the least deadwood, with and
    without a forbidden (just taken) card; highest card listed first."""
    rng = random.Random("best-discards")
    for hand in sample(n, 11, "best-discards"):
        cards = cards_of(hand)
        for forbidden in (0, 1 << rng.choice(cards)):
            after = {c: gin_deadwood([x for x in cards if x != c])
                     for c in cards if not forbidden >> c & 1}
            best = min(after.values())
            got_best, got = best_discards(hand, forbidden)
            assert got_best == best
            assert set(got) == {c for c, d in after.items() if d == best}
            assert not any(forbidden >> c & 1 for c in got)
            pts = [CARD_POINTS[c] for c in got]
            assert pts == sorted(pts, reverse=True)


def test_rule_0_best_arrangement_is_valid_and_least():
    """§0 Deadwood: the arrangement the engine lays down is made of legal,
    disjoint melds and has the least deadwood."""
    for size in (10, 11):
        for hand in sample(1500, size, "best-arrangement"):
            arr = best_arrangement(hand)
            assert_valid_arrangement(hand, arr.melds, arr.deadwood_mask)
            assert arr.deadwood == gin_deadwood(cards_of(hand))
            assert arr.melded == hand & ~arr.deadwood_mask


def test_D4_least_deadwood_arrangements_match_brute_force():
    """D-4: the engine enumerates every least-deadwood arrangement (runs in
    maximal blocks) exactly as brute force does."""
    for size in (10, 11):
        for hand in sample(400, size, "arrangements"):
            fast = least_deadwood_arrangements(hand)
            for arr in fast:
                assert_valid_arrangement(hand, arr.melds, arr.deadwood_mask)
            got = {normalise(a.melds) for a in fast}
            assert len(got) == len(fast), "an arrangement listed twice"
            assert got == brute_arrangements(hand), cards_of(hand)


def test_D4_knock_arrangement_least_deadwood_then_least_live_surface():
    """D-4: among least-deadwood arrangements, the knocker's leaves the least
    live lay-off surface."""
    rng = random.Random("knock-arrangement")
    for hand in sample(500, 10, "knock-arrangement"):
        live = FULL & ~hand & ~random_hand(rng, rng.randrange(0, 20))
        arr = knock_arrangement(hand, live)
        assert arr.deadwood == gin_deadwood(cards_of(hand))
        surface = brute_surface(arr.melds, live)
        assert surface == layoff_surface(arr.melds, live)
        assert surface == min(brute_surface(a, live) for a in brute_arrangements(hand))


def test_D4_knock_arrangement_leaves_the_defender_the_least_to_lay_off():
    """D-4 with the defender's hand known (the engine's lay-down): among the
    least-deadwood arrangements (brute force), the one chosen leaves the
    defender's best defence (brute force) the most deadwood; ties go to the
    least live surface."""
    rng = random.Random("knock-against")
    checked = differ = 0
    for hand in sample(2500, 10, "knock-against"):
        brute = brute_arrangements(hand)
        if len(brute) < 2:
            continue
        rest = cards_of(FULL & ~hand)
        # a few cards that fit some arrangement's melds, so that the choice matters
        fitting = [c for c in rest if any(fits(c, frozenset(cards_of(m)))
                                          for a in brute for m in a)]
        picked = rng.sample(fitting, min(len(fitting), rng.randint(1, 3)))
        defender = mask_of(picked + rng.sample([c for c in rest if c not in picked],
                                               10 - len(picked)))
        live = FULL & ~hand & ~mask_of(rng.sample(rest, rng.randrange(0, 12)))
        arr = knock_arrangement(hand, live, defender)
        assert arr.deadwood == gin_deadwood(cards_of(hand))
        values = [brute_defence(defender, a) for a in brute]
        best = max(values)
        assert brute_defence(defender, arr.melds) == best, (cards_of(hand), cards_of(defender))
        tied = [a for a, v in zip(brute, values, strict=True) if v == best]
        assert brute_surface(arr.melds, live) == min(brute_surface(a, live) for a in tied)
        checked += 1
        differ += len(set(values)) > 1
    assert checked >= 100 and differ >= 20, (checked, differ)


def test_D4_knock_arrangement_prefers_set_over_run_when_it_leaves_less():
    """D-4 example: 2c 3c 4c 3d 3h melds as the run (deadwood 3d 3h = 6) or
    as the set (deadwood 2c 4c = 6). The run leaves Ac and 5c (6 points) to
    lay off, the set only 3s (3): the set is chosen while all are live; with
    Ac and 5c dead the run leaves nothing and is chosen."""
    hand = mask("2c 3c 4c 3d 3h 9s Ts Js Qs Ks")
    assert deadwood(hand) == 6
    assert len(least_deadwood_arrangements(hand)) == 2
    arr = knock_arrangement(hand, FULL & ~hand)
    assert mask("3c 3d 3h") in arr.melds
    assert arr.deadwood_mask == mask("2c 4c")
    arr = knock_arrangement(hand, FULL & ~hand & ~mask("Ac 5c"))
    assert mask("2c 3c 4c") in arr.melds
    assert arr.deadwood_mask == mask("3d 3h")


# --- lay-offs (§1.7, D-5) --------------------------------------------------------------


def defence_cases(n: int, seed: str) -> list[tuple[CardSet, tuple[CardSet, ...]]]:
    """(defender hand, knocker melds): the knocker's melds from a meld-dense
    hand, the defender's ten cards mostly touching them (lay-offs, chains)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        knocker = meld_dense_hand(rng, 10)
        melds = best_arrangement(knocker).melds
        if not melds:
            continue
        defender = 0
        while defender.bit_count() < 10:
            near = 0
            for m in melds:
                cards = cards_of(m)
                lo, hi = cards[0], cards[-1]
                if lo % 13 == hi % 13:
                    near |= sum(1 << (13 * s + lo % 13) for s in range(4))
                else:
                    for k in range(1, 4):
                        if lo % 13 - k >= 0:
                            near |= 1 << (lo - k)
                        if hi % 13 + k <= 12:
                            near |= 1 << (hi + k)
            pool = near & ~knocker & ~defender
            if not pool or rng.random() < 0.4:
                pool = FULL & ~knocker & ~defender
            defender |= 1 << rng.choice(cards_of(pool))
        out.append((defender, melds))
    return out


@pytest.mark.parametrize("n", sampled_counts(1200, 240))
def test_D5_best_defence_matches_brute_force_lay_offs(n):
    """§1.7 and D-5: own melds plus lay-offs (chains included) — the engine's
    least deadwood equals brute force over every layable subset."""
    for defender, melds in defence_cases(n, "defence"):
        d = best_defence(defender, melds)
        assert d.deadwood == brute_defence(defender, melds), (cards_of(defender), melds)
        check_defence(defender, melds, d)


def check_defence(defender: CardSet, melds: tuple[CardSet, ...], d) -> None:
    """The defence is real: lay-offs apply in the listed order, own melds
    are legal, every card is accounted for once."""
    current = [frozenset(cards_of(m)) for m in melds]
    laid = 0
    for card, i in d.layoffs:
        assert defender >> card & 1
        assert fits(card, current[i]), f"card {card} does not fit meld {i} as it stands"
        current[i] = current[i] | {card}
        laid |= 1 << card
    assert laid == d.laid_off
    assert_valid_arrangement(defender & ~laid, d.melds, d.deadwood_mask)


def test_rule_1_7_chained_lay_off_card_fits_only_after_another():
    """§1.7: 8h fits the knocker's 4h-5h-6h only after 7h is laid off."""
    run = mask("4h 5h 6h")
    assert best_defence(mask("7h 8h Kc"), [run]).deadwood == 10
    assert best_defence(mask("8h Kc"), [run]).deadwood == 18  # no 7h: no chain
    assert sorted(map(len, layoff_options(mask("7h 8h 3h 2h Kc"), run))) == [
        0, 1, 1, 2, 2, 2, 3, 3, 4]


def test_rule_1_7_fourth_card_of_set_and_both_ends_of_run():
    """§1.7: a fourth card to a set, further cards at either end of a run."""
    assert best_defence(mask("9s 2d"), [mask("9c 9d 9h")]).deadwood == 2
    assert best_defence(mask("3h 7h 2d"), [mask("4h 5h 6h")]).deadwood == 2
    # a four-card set takes nothing; Kc is not below Ac (ace low)
    assert best_defence(mask("9s"), [mask("9c 9d 9h")]).laid_off == mask("9s")
    assert best_defence(mask("Kc"), [mask("Ac 2c 3c")]).deadwood == 10
    assert layoff_options(mask("9s"), mask("9c 9d 9h 9s")) == [[]]


def test_D5_defender_combines_own_meld_and_lay_offs():
    """D-5: the best combination of own melds and lay-offs. 7s 8s 9s go onto
    4s-5s-6s (or make a run) and Ks onto the kings; but with 7c 7d 7s the set
    is worth more than laying off 7s and 8s, though 8s then stays."""
    melds = [mask("4s 5s 6s"), mask("Kc Kd Kh")]
    d = best_defence(mask("7s 8s 9s Ks 2d"), melds)
    assert d.deadwood == 2
    assert mask("Ks") & d.laid_off
    d = best_defence(mask("7c 7d 7s 8s 2d"), melds)
    assert d.deadwood == 8 + 2
    assert mask("7c 7d 7s") in d.melds
    assert d.deadwood == brute_defence(mask("7c 7d 7s 8s 2d"), melds)


# --- hypothesis properties --------------------------------------------------------------

hands = st.lists(st.integers(0, 51), min_size=0, max_size=12, unique=True).map(mask_of)
eleven = st.lists(st.integers(0, 51), min_size=11, max_size=11, unique=True).map(mask_of)


@st.composite
def dense_hands(draw, size=11):
    seed = draw(st.integers(0, 2**32))
    return meld_dense_hand(random.Random(seed), size)


@settings(max_examples=300)
@given(st.one_of(hands, dense_hands()))
def test_rule_0_deadwood_property_equals_reference(hand):
    """§0 Deadwood: fast deadwood equals brute force; bounded by the points."""
    dw = deadwood(hand)
    assert 0 <= dw <= mask_points(hand)
    assert dw == gin_deadwood(cards_of(hand))
    arr = best_arrangement(hand)
    assert arr.deadwood == dw
    assert_valid_arrangement(hand, arr.melds, arr.deadwood_mask)


@settings(max_examples=200)
@given(st.one_of(eleven, dense_hands()))
def test_rule_1_5_deadwood_after_discard_property(hand):
    """§1.5: the one-pass after-discard deadwood is the minimum over discards."""
    assert deadwood_after_discard(hand) == min(
        deadwood(hand & ~(1 << c)) for c in cards_of(hand))


@settings(max_examples=200)
@given(st.integers(0, 2**32))
def test_D5_lay_offs_never_hurt_and_replay_in_order(seed):
    """D-5: the best defence never has more deadwood than the defender's
    own best arrangement, and its lay-offs replay one by one."""
    ((defender, melds),) = defence_cases(1, f"prop/{seed}")
    d = best_defence(defender, melds)
    assert d.deadwood <= deadwood(defender)
    check_defence(defender, melds, d)
    for meld in melds:
        for option in layoff_options(defender, meld):
            current = frozenset(cards_of(meld))
            for card in option:
                assert fits(card, current)
                current |= {card}
