"""The Manipulation table solver and move check (§4.5-4.9, D-15, D-16, D-24, D-25).

The solver is compared with two references that share no code with it:

- ``brute_best``: every sub-multiset of the hand, every set of table jokers
  that change identity, and a search that puts the lowest card left into
  every legal meld it can join (tiny positions);
- ``ilp_best``: an integer programme over every group and every sequence of
  3-5 cards (a longer sequence splits into those), solved by HiGHS
  (``highspy``, test extra) to proven optimality (full tables).

The position generators and both references are also used by
``scripts/sweep_manipulation.py`` (the long agreement sweep) and
``benchmarks/bench_manipulation.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations, product
from typing import Any

import pytest

from rummylab.cards import CARD_POINTS, JOKER, Card, parse_cards
from rummylab.manipulation.solver import Play, arrange, arrange_with, best_play
from rummylab.manipulation.table import (
    Table,
    TableError,
    check_meld,
    check_move,
    check_table,
    hand_points,
    meld_str,
    parse_meld,
    parse_table,
    table_str,
)

# --- position generators -------------------------------------------------------------


def _identity(pos: int, suit: int) -> Card:
    """Position 1..14 (ace low .. ace high) of a suit."""
    return suit * 13 + (pos - 1) % 13


def random_table(
    rng: random.Random, decks: int, size: int, jokers: int = 0, *, aces_high: bool = True,
    tries: int = 200,
) -> tuple[Table, Counter[Card]]:
    """A legal table of exactly ``size`` cards (groups and sequences drawn at
    random, up to ``jokers`` jokers declared in them) and the pack left."""
    for _ in range(tries):
        got = _try_table(rng, decks, size, jokers, aces_high)
        if got is not None:
            return got
    raise RuntimeError(f"no table of {size} cards")


def _try_table(
    rng: random.Random, decks: int, size: int, jokers: int, aces_high: bool
) -> tuple[Table, Counter[Card]] | None:
    pack: Counter[Card] = Counter({c: decks for c in range(52)})
    pack[JOKER] = decks
    ident: Counter[Card] = Counter()
    melds: list[list[tuple[Card, Card]]] = []
    jokers_left = min(jokers, decks)
    total = 0
    top = 14 if aces_high else 13
    fails = 0
    while total < size:
        need = size - total
        if fails > 60:
            return None
        if need < 3:
            if not _extend(rng, melds, pack, ident, decks, top):
                fails += 1
                if fails > 60:
                    return None
                continue
            total += 1
            continue
        length = need if need <= 5 else rng.choice((3, 3, 4, 4, 5, 6, 7))
        if need - length in (1, 2) and rng.random() < 0.5:
            length = min(need, 5)
        if length <= 4 and rng.random() < 0.45:
            rank = rng.randrange(13)
            suits = [s for s in range(4) if ident[s * 13 + rank] < decks]
            if len(suits) < length:
                fails += 1
                continue
            ids = [s * 13 + rank for s in sorted(rng.sample(suits, length))]
        else:
            suit = rng.randrange(4)
            if length > top:
                fails += 1
                continue
            start = rng.randint(1, top - length + 1)
            ids = [_identity(p, suit) for p in range(start, start + length)]
            if any(ident[x] >= decks for x in ids):
                fails += 1
                continue
        meld: list[tuple[Card, Card]] = []
        want_jokers = jokers_left and rng.random() < 0.5 + 0.5 * (length / max(need, 1))
        for x in ids:
            if want_jokers and jokers_left and pack[JOKER] and rng.random() < 0.4:
                meld.append((JOKER, x))
                pack[JOKER] -= 1
                jokers_left -= 1
            elif pack[x]:
                meld.append((x, x))
                pack[x] -= 1
            elif pack[JOKER] and jokers_left:
                meld.append((JOKER, x))
                pack[JOKER] -= 1
                jokers_left -= 1
            else:
                break
        if len(meld) < len(ids):
            for card, _f in meld:
                pack[card] += 1
                if card == JOKER:
                    jokers_left += 1
            fails += 1
            continue
        for x in ids:
            ident[x] += 1
        melds.append(meld)
        total += length
    rng.shuffle(melds)
    return tuple(tuple(m) for m in melds), +pack


def _extend(
    rng: random.Random, melds: list[list[tuple[Card, Card]]], pack: Counter[Card],
    ident: Counter[Card], decks: int, top: int,
) -> bool:
    """Add one real card to a meld: a fourth suit to a group of three, or
    either end of a sequence."""
    order = list(range(len(melds)))
    rng.shuffle(order)
    for i in order:
        m = melds[i]
        ranks = {f % 13 for _, f in m}
        if len(ranks) == 1:
            if len(m) == 3:
                rank = m[0][1] % 13
                have = {f // 13 for _, f in m}
                for s in range(4):
                    x = s * 13 + rank
                    if s not in have and pack[x] and ident[x] < decks:
                        m.append((x, x))
                        pack[x] -= 1
                        ident[x] += 1
                        return True
            continue
        suit = m[0][1] // 13
        high = 0 in ranks and 12 in ranks
        pos = sorted((13 if r == 0 and high else r) + 1 for r in ranks)
        for p in (pos[0] - 1, pos[-1] + 1):
            if 1 <= p <= top and len(m) < 13:
                x = _identity(p, suit)
                if pack[x] and ident[x] < decks and not (p == 14 and 0 in ranks):
                    if p == 1 and high:
                        continue
                    m.append((x, x))
                    pack[x] -= 1
                    ident[x] += 1
                    return True
    return False


def random_hand(
    rng: random.Random, table: Table, pack: Counter[Card], size: int, jokers: int = 0,
    near: float = 0.5,
) -> list[Card]:
    """``size`` cards from the pack: up to ``jokers`` jokers, then a share
    ``near`` of cards that touch the table (same rank, or the same suit one
    or two ranks away, or the real card of a table joker), the rest uniform."""
    pack = Counter(pack)
    hand: list[Card] = []
    for _ in range(min(jokers, pack[JOKER], size)):
        hand.append(JOKER)
        pack[JOKER] -= 1
    pack[JOKER] = 0
    ids = {f for m in table for _, f in m}
    touching = set()
    for x in ids:
        r, s = x % 13, x // 13
        touching.update(t * 13 + r for t in range(4))
        touching.update(s * 13 + (r + d) % 13 for d in (-2, -1, 1, 2))
    touching.update(f for m in table for c, f in m if c == JOKER)
    while len(hand) < size:
        pool = [c for c in pack.elements()]
        if not pool:
            break
        if rng.random() < near:
            close = [c for c in pool if c in touching]
            if close:
                pool = close
        c = rng.choice(pool)
        hand.append(c)
        pack[c] -= 1
    return sorted(hand)


def random_position(
    rng: random.Random, decks: int, table_size: int, hand_size: int, *,
    table_jokers: int = 0, hand_jokers: int = 0, aces_high: bool = True, near: float = 0.5,
) -> tuple[Table, list[Card]]:
    table, pack = random_table(rng, decks, table_size, table_jokers, aces_high=aces_high)
    return table, random_hand(rng, table, pack, hand_size, hand_jokers, near)


# --- reference 1: brute force ---------------------------------------------------------


def _value(cards: Sequence[Card], objective: str) -> tuple[int, int]:
    pts = sum(CARD_POINTS[c] for c in cards)
    return (pts, len(cards)) if objective == "points" else (len(cards), pts)


@cache
def _melds_with(x: Card, aces_high: bool) -> tuple[tuple[Card, ...], ...]:
    """Every legal meld (as identities other than ``x``) that contains ``x``."""
    rank, suit = x % 13, x // 13
    out: list[tuple[Card, ...]] = []
    others = [s for s in range(4) if s != suit]
    for k in (2, 3):
        for chosen in combinations(others, k):
            out.append(tuple(s * 13 + rank for s in chosen))
    positions = [rank + 1] + ([14] if rank == 0 and aces_high else [])
    top = 14 if aces_high else 13
    for px in positions:
        for a in range(max(1, px - 12), px + 1):
            for b in range(max(px, a + 2), min(top, a + 12) + 1):
                out.append(tuple(_identity(p, suit) for p in range(a, b + 1) if p != px))
    return tuple(out)


def _partition(fixed: Counter[Card], free: int, room: dict[Card, int], aces_high: bool) -> bool:
    """Can the fixed identities and ``free`` jokers (each declared as a card
    with ``room`` left, D-24) be split into legal melds, using every one?"""

    @cache
    def go(items: tuple[Card, ...], free: int, declared: tuple[Card, ...]) -> bool:
        if not items:
            return free == 0
        x = items[0]
        rest = Counter(items[1:])
        used = Counter(declared)
        for others in _melds_with(x, aces_high):
            for k in range(min(free, len(others)) + 1):
                for as_joker in combinations(others, k):
                    if any(used[y] + 1 > room[y] for y in as_joker):
                        continue
                    real = [y for y in others if y not in as_joker]
                    if any(rest[y] < 1 for y in real):
                        continue
                    left = rest - Counter(real)
                    if go(tuple(sorted(left.elements())), free - k,
                          tuple(sorted(declared + as_joker))):
                        return True
        return False

    return go(tuple(sorted(fixed.elements())), free, ())


def brute_best(
    table: Table, hand: Sequence[Card], decks: int, *, first_meld_from_hand_only: bool = False,
    objective: str = "points", aces_high: bool = True,
) -> tuple[int, int] | None:
    """The best (points, cards) — or (cards, points) — a play can shed, by
    trying every sub-multiset of the hand, best first."""
    table_real = Counter(c for m in table for c, _ in m if c != JOKER)
    table_jokers = [f for m in table for c, f in m if c == JOKER]
    table_ids = Counter(f for m in table for _, f in m)
    counts = Counter(hand)
    keys = sorted(counts)
    subsets = []
    for pick in product(*(range(counts[c] + 1) for c in keys)):
        sub = [c for c, n in zip(keys, pick, strict=True) for _ in range(n)]
        if sub:
            subsets.append(sub)
    subsets.sort(key=lambda s: _value(s, objective), reverse=True)
    for sub in subsets:
        if _feasible(table_real, table_jokers, table_ids, sub, decks,
                     first_meld_from_hand_only, aces_high):
            return _value(sub, objective)
    return None


def _feasible(
    table_real: Counter[Card], table_jokers: list[Card], table_ids: Counter[Card],
    sub: list[Card], decks: int, first_only: bool, aces_high: bool,
) -> bool:
    sub_real = Counter(c for c in sub if c != JOKER)
    sub_jokers = sum(1 for c in sub if c == JOKER)
    if first_only:
        room = {x: decks - table_ids[x] - sub_real[x] for x in range(52)}
        if any(v < 0 for v in room.values()):
            return False
        return _partition(sub_real, sub_jokers, room, aces_high)
    real = table_real + sub_real
    for k in range(len(table_jokers) + 1):
        for changed in combinations(range(len(table_jokers)), k):
            moved = Counter(table_jokers[j] for j in changed)
            if any(n > real[x] for x, n in moved.items()):  # D-16
                continue
            fixed = real + Counter(x for j, x in enumerate(table_jokers) if j not in changed)
            room = {x: decks - fixed[x] for x in range(52)}
            if any(v < 0 for v in room.values()):  # D-24
                continue
            if _partition(fixed, k + sub_jokers, room, aces_high):
                return True
    return False


def brute_arrangeable(cards: Sequence[Card], free: int, fixed_jokers: Sequence[Card],
                      decks: int, aces_high: bool = True) -> bool:
    fixed = Counter(cards) + Counter(fixed_jokers)
    room = {x: decks - fixed[x] for x in range(52)}
    if any(v < 0 for v in room.values()):
        return False
    return _partition(fixed, free, room, aces_high)


# --- reference 2: an integer programme (HiGHS) ------------------------------------------


def _ilp_melds(aces_high: bool) -> list[tuple[Card, ...]]:
    melds: list[tuple[Card, ...]] = []
    for rank in range(13):
        for k in (3, 4):
            for suits in combinations(range(4), k):
                melds.append(tuple(s * 13 + rank for s in suits))
    top = 14 if aces_high else 13
    for suit in range(4):
        for length in (3, 4, 5):
            for a in range(1, top - length + 2):
                melds.append(tuple(_identity(p, suit) for p in range(a, a + length)))
    return melds


def ilp_best(
    table: Table, hand: Sequence[Card], decks: int, *, first_meld_from_hand_only: bool = False,
    objective: str = "points", aces_high: bool = True, require_all: bool = False,
) -> tuple[int, int] | None:
    """The best (points, cards) a play sheds, by integer programming; with
    ``require_all`` every hand card must be played (arrange_with)."""
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 1e-6)
    if first_meld_from_hand_only:
        table_ids = Counter(f for m in table for _, f in m)
        table_real: Counter[Card] = Counter()
        table_jokers: list[Card] = []
        cap = {x: decks - table_ids[x] for x in range(52)}
    else:
        table_real = Counter(c for m in table for c, _ in m if c != JOKER)
        table_jokers = [f for m in table for c, f in m if c == JOKER]
        cap = {x: decks for x in range(52)}
    hand_real = Counter(c for c in hand if c != JOKER)
    hj = sum(1 for c in hand if c == JOKER)
    big, small = (256, 1) if objective == "points" else (1, 4096)

    def unit(c: Card) -> float:
        pts = CARD_POINTS[c]
        return pts * 256 + 1 if objective == "points" else 4096 + pts

    del big, small
    integer = highspy.HighsVarType.kInteger
    melds = _ilp_melds(aces_high)
    y = [h.addVariable(0, decks, 0, type=integer) for _ in melds]
    x = {c: h.addVariable(hand_real[c] if require_all else 0, hand_real[c], unit(c), type=integer)
         for c in hand_real}
    z = h.addVariable(hj if require_all else 0, hj, unit(JOKER), type=integer)
    keep = [h.addVariable(0, 1, 0, type=integer) for _ in table_jokers]
    v = {c: h.addVariable(0, decks, 0, type=integer) for c in range(52)}
    cover: dict[Card, list[Any]] = {c: [] for c in range(52)}
    for var, meld in zip(y, melds, strict=True):
        for c in meld:
            cover[c].append(var)
    for c in range(52):
        present: Any = table_real[c] + v[c]
        if c in x:
            present = present + x[c]
        for j, f in enumerate(table_jokers):
            if f == c:
                present = present + keep[j]
        h.addConstr(sum(cover[c], 0 * v[c]) == present)
        h.addConstr(present <= cap[c])
        changed = [1 - keep[j] for j, f in enumerate(table_jokers) if f == c]
        if changed:
            real: Any = table_real[c] + (x[c] if c in x else 0 * v[c])
            h.addConstr(sum(changed, 0 * v[c]) <= real)
    h.addConstr(sum(v.values(), 0 * z) == z + sum((1 - k for k in keep), 0 * z))
    h.maximize()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        return None
    sol = h.getSolution().col_value
    played = [c for c, var in x.items() for _ in range(round(sol[var.index]))]
    played += [JOKER] * round(sol[z.index])
    if not played and not require_all:
        return None
    return _value(played, objective)


# --- helpers -------------------------------------------------------------------------


def T(text: str, decks: int = 1) -> Table:
    return parse_table(text, decks)


def C(text: str) -> list[Card]:
    return parse_cards(text, jokers=True)


def shed(play: Play | None) -> tuple[int, int] | None:
    return None if play is None else (play.points_shed, play.cards_shed)


def assert_legal(table: Table, play: Play, hand: Sequence[Card], decks: int,
                 first_only: bool = False) -> None:
    """The play is a legal move (checked by ``check_move``, not the solver)
    and uses cards the hand holds."""
    check_move(table, play.table, play.play, decks, first_meld_from_hand_only=first_only)
    assert not Counter(play.play) - Counter(hand)
    assert play.points_shed == hand_points(play.play)
    assert play.cards_shed == len(play.play)


# --- §4.5 melds --------------------------------------------------------------------


def test_rule_4_5_QKA_accepted_KA2_refused() -> None:
    check_meld(parse_meld("Qs Ks As"))
    check_meld(parse_meld("As 2s 3s"))
    with pytest.raises(TableError, match="turns the corner"):
        check_meld(parse_meld("Ks As 2s"))
    with pytest.raises(TableError, match="turns the corner"):
        check_meld(parse_meld("Js Qs Ks As 2s"))
    # the solver uses Q-K-A and never K-A-2
    assert table_str(arrange(C("Qs Ks As 2c 3c Ac"), 0, [], 1) or ()) == "Ac 2c 3c | Qs Ks As"
    assert arrange(C("Ks As 2s"), 0, [], 1) is None


def test_rule_4_5_D15_group_with_two_identical_cards_refused() -> None:
    with pytest.raises(TableError, match="two 8s in a group"):
        check_meld(parse_meld("8s 8h 8s"))
    with pytest.raises(TableError, match="two 8s in a group"):
        check_meld(parse_meld("8s 8h Jk=8s"))
    check_meld(parse_meld("8s 8h 8d 8c"))
    # two decks: three 8s with two of spades cannot be a group
    assert arrange(C("8s 8s 8h"), 0, [], 2) is None


def test_rule_4_5_D15_sequence_is_one_suit() -> None:
    with pytest.raises(TableError, match="mixed suits"):
        check_meld(parse_meld("7h 8s 9h"))
    with pytest.raises(TableError, match="neither a group"):
        check_meld(parse_meld("7h 7s 8h"))


def test_rule_4_5_meld_too_short_and_gap_refused() -> None:
    with pytest.raises(TableError, match="too short"):
        check_meld(parse_meld("7h 8h"))
    with pytest.raises(TableError, match="gap: 6h missing between 5h and 7h"):
        check_meld(parse_meld("4h 5h 7h"))
    with pytest.raises(TableError, match="gap: Kh missing between Qh and Ah"):
        check_meld(parse_meld("Jh Qh Ah"))


def test_rule_4_5_sequence_A_to_A_refused_split_instead() -> None:
    """A-2-...-K-A (two decks) repeats the ace: refused (§4.5: low or high, not both); it
    always splits into two legal sequences, which is what the solver lays."""
    whole = parse_meld("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah")
    with pytest.raises(TableError, match="Ah twice in a sequence"):
        check_meld(whole)
    got = arrange([f for _, f in whole], 0, [], 2)
    assert got is not None and all(len(m) <= 13 for m in got)
    check_table(got, 2)


def test_rule_4_5_order_within_a_meld_does_not_matter() -> None:
    check_meld(parse_meld("As Qs Ks"))
    check_meld(parse_meld("9h Jk=7h 8h"))


# --- notation (D-1 for Manipulation) -------------------------------------------------


def test_D1_table_notation_round_trip_and_errors() -> None:
    text = "7h 8h Jk=9h | Qs Qd Qc"
    assert table_str(T(text)) == text
    assert table_str(T("10h jh qh")) == "Th Jh Qh"
    with pytest.raises(TableError, match="declares the card it stands for"):
        T("7h 8h Jk")
    with pytest.raises(TableError, match="only a joker declares"):
        T("7h=8h 9h Th")
    with pytest.raises(TableError, match="2 copies of 7h"):
        T("7h 8h 9h | 7h 7c 7d")
    with pytest.raises(TableError, match="3 copies of 7h"):
        T("7h 8h 9h | 7h 7c 7d | 7h 7s 7c", 2)
    assert meld_str(parse_meld("Jk=Ac 2c 3c")) == "Jk=Ac 2c 3c"


# --- §4.6 a move ---------------------------------------------------------------------


def test_rule_4_6_no_card_from_hand_refused() -> None:
    t = T("7h 8h 9h")
    with pytest.raises(TableError, match="no card added from hand"):
        check_move(t, t, [], 1)
    with pytest.raises(TableError, match="no card added from hand"):
        arrange_with(t, [], 1)


def test_rule_4_6_no_card_leaves_the_table() -> None:
    old = T("7h 8h 9h Th")
    with pytest.raises(TableError, match="card Th left the table"):
        check_move(old, T("7h 8h 9h | 7c 7d 7s"), C("7c 7d 7s"), 1)
    with pytest.raises(TableError, match="appeared from nowhere"):
        check_move(old, T("7h 8h 9h Th Jh Qh"), C("Jh"), 1)
    with pytest.raises(TableError, match="added from the hand but is not on the table"):
        check_move(old, T("7h 8h 9h Th Jh"), C("Jh Qh"), 1)


def test_rule_4_6_every_meld_legal_at_the_end() -> None:
    old = T("7h 8h 9h Th")
    with pytest.raises(TableError, match="meld 2 is illegal"):
        check_move(old, T("7h 8h 9h | Th Jh"), C("Jh"), 1)


def test_rule_4_6_rearrangement_splits_a_sequence_and_forms_a_group() -> None:
    old = T("4h 5h 6h 7h 8h 9h Th")
    new = T("4h 5h 6h | 7c 7d 7h | 8h 9h Th")
    check_move(old, new, C("7c 7d"), 1)
    play = best_play(old, C("7c 7d Ks"), 1)
    assert play is not None and sorted(play.play) == sorted(C("7c 7d"))
    assert_legal(old, play, C("7c 7d Ks"), 1)


def test_rule_4_6_best_play_none_when_nothing_fits() -> None:
    assert best_play(T("7h 8h 9h"), C("2c 5d Ks"), 1) is None
    assert best_play((), C("2c 5d Ks"), 1) is None


def test_rule_4_6_first_meld_on_an_empty_table() -> None:
    play = best_play((), C("5c 5d 5h 9s Ts"), 1)
    assert play is not None and shed(play) == (15, 3)
    assert table_str(play.table) == "5c 5d 5h"


# --- §4.7 jokers, D-16 and D-24 --------------------------------------------------------


def test_rule_4_7_D16_joker_moved_without_changing_identity_accepted() -> None:
    old = T("Jk=7h 8h 9h Th Jh")
    new = T("4h 5h 6h Jk=7h | 8h 9h Th Jh")
    check_move(old, new, C("4h 5h 6h"), 1)


def test_rule_4_7_D16_illegal_identity_change_refused() -> None:
    old = T("5h 6h Jk=7h")
    with pytest.raises(TableError, match="changed identity from 7h with no real 7h"):
        check_move(old, T("Jk=3h 4h 5h 6h"), C("4h"), 1)
    # the solver does not free the joker without the real 7h
    assert best_play(old, C("2c 2d"), 1) is None


def test_rule_4_7_D16_replaced_joker_reused_in_the_same_turn() -> None:
    old = T("5h 6h Jk=7h")
    new = T("5h 6h 7h | 7c 7d Jk=7s")
    check_move(old, new, C("7h 7c 7d"), 1)
    play = best_play(old, C("7h 7c 7d"), 1)
    assert shed(play) == (21, 3)
    assert play is not None
    assert_legal(old, play, C("7h 7c 7d"), 1)


def test_rule_4_7_D16_real_card_from_another_meld_frees_a_joker() -> None:
    """Two decks: a real 7h elsewhere on the table lets Jk=7h change (D-16)."""
    old = T("5h 6h Jk=7h | 7h 8h 9h", 2)
    play = best_play(old, C("2c 2d"), 2)
    assert play is not None and shed(play) == (4, 2)
    assert_legal(old, play, C("2c 2d"), 2)


def test_rule_4_7_D24_joker_never_represents_a_card_beyond_the_decks() -> None:
    with pytest.raises(TableError, match="7h is represented 2 times"):
        check_move(T("5h 6h 7h"), T("5h 6h 7h | 7c 7d Jk=7h"), C("7c 7d Jk"), 1)
    # every club is on the table: the joker has no club left to be (one deck)
    clubs = C("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc")
    assert arrange(clubs, 1, [], 1) is None
    got = arrange(clubs, 1, [], 2)
    assert got is not None
    check_table(got, 2)


def test_rule_4_7_hand_joker_takes_any_identity() -> None:
    play = best_play(T("9c 9d 9h"), C("Jk 4s 5s"), 1)
    assert play is not None and shed(play) == (34, 3)


def test_rule_4_7_two_hand_jokers_on_an_empty_table() -> None:
    """Three to five players hold two jokers between them: both may go down
    with one real card, as a group or a sequence, each joker declared (D-24)."""
    hand = C("Jk Jk 5c")
    play = best_play((), hand, 2)
    assert play is not None and shed(play) == (55, 3)
    assert_legal((), play, hand, 2)
    faces = sorted(f for m in play.table for c, f in m if c == JOKER)
    assert len(faces) == 2 and all(f != JOKER for f in faces)
    got = arrange_with((), hand, 2)
    assert got is not None
    check_move((), got, hand, 2)
    # one deck holds one joker: two in one hand is bad input
    with pytest.raises(TableError):
        best_play((), hand, 1)


def test_rule_4_7_D16_D24_two_hand_jokers_agree_with_brute_force() -> None:
    rng = random.Random("brute/two-jokers")
    for _ in range(40):
        table, hand = random_position(rng, 2, rng.choice((0, 3, 4, 5, 6)),
                                      2 + rng.randint(0, 3), hand_jokers=2)
        assert hand.count(JOKER) == 2
        want = brute_best(table, hand, 2)
        play = best_play(table, hand, 2)
        assert shed(play) == want, (table_str(table), hand)
        if play is not None:
            assert_legal(table, play, hand, 2)


def test_D25_first_meld_from_hand_only() -> None:
    old = T("5h 6h 7h")
    hand = C("8h 9c 9d 9s")
    assert shed(best_play(old, hand, 1)) == (35, 4)
    play = best_play(old, hand, 1, first_meld_from_hand_only=True)
    assert play is not None and shed(play) == (27, 3)
    assert play.table[0] == old[0]
    assert_legal(old, play, hand, 1, first_only=True)
    with pytest.raises(TableError, match="initial_meld_from_hand"):
        check_move(old, T("5h 6h 7h 8h | 9c 9d 9s"), C("8h 9c 9d 9s"), 1,
                   first_meld_from_hand_only=True)
    got = arrange_with(old, C("9c 9d 9s"), 1, first_meld_from_hand_only=True)
    assert got is not None and table_str(got) == "5h 6h 7h | 9c 9d 9s"
    assert arrange_with(old, C("8h"), 1, first_meld_from_hand_only=True) is None


def test_rule_4_8_knock_limit_is_hand_points() -> None:
    assert hand_points(C("As 4d")) == 5
    assert hand_points(C("Jk")) == 25
    assert hand_points(C("Kc Qd Js Th")) == 40


def test_rule_4_9_best_play_most_points_then_most_cards() -> None:
    t = T("Jh Qh Kh | 5c 6c 7c")
    hand = C("Ah 2c 3c 4c")
    play = best_play(t, hand, 1)
    assert play is not None and shed(play) == (10, 4)
    cards = best_play(t, hand, 1, objective="cards")
    assert cards is not None and cards.cards_shed == 4
    # equal points: the play with more cards wins
    t2 = T("8c 9c Tc | 4d 5d 6d")
    play2 = best_play(t2, C("Jc 3d 7d"), 1)
    assert play2 is not None and shed(play2) == (20, 3)


def test_rule_4_6_arrange_with_adds_the_given_cards() -> None:
    t = T("5h 6h Jk=7h")
    got = arrange_with(t, C("7h 7c 7d"), 1)
    assert got is not None
    check_move(t, got, C("7h 7c 7d"), 1)
    assert arrange_with(t, C("2c"), 1) is None


@pytest.mark.parametrize("seed, caps", [(3, {"node_cap": 1}), (3, {"state_cap": 32})])
def test_rule_4_6_capped_search_reports_inexact_play(seed: int, caps: dict[str, int]) -> None:
    """A search cut short by a cap still returns a legal play, no better than
    the exact one, and says it may not be the best."""
    rng = random.Random(seed)
    table, hand = random_position(rng, 2, 60, 12)
    exact = best_play(table, hand, 2)
    capped = best_play(table, hand, 2, **caps)
    assert exact is not None and exact.exact
    assert capped is not None and not capped.exact
    assert_legal(table, capped, hand, 2)
    assert capped.points_shed <= exact.points_shed


def test_rule_4_1_D24_bad_input_refused() -> None:
    with pytest.raises(TableError, match="decks must be 1 or 2"):
        best_play((), C("5c"), 3)
    with pytest.raises(TableError, match="2 copies of 7h on the table and in the hand"):
        best_play(T("7h 8h 9h"), C("7h"), 1)
    with pytest.raises(TableError, match="meld 1"):
        best_play(((( 32, 32), (33, 33)),), C("5c"), 1)


# --- agreement with the references ------------------------------------------------------


def _tiny_positions(seed: str, n: int) -> list[tuple[int, Table, list[Card], bool]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        decks = rng.choice((1, 2))
        table, hand = random_position(
            rng, decks, rng.choice((0, 3, 4, 5, 6, 7, 8, 9)), rng.randint(1, 5),
            table_jokers=rng.choice((0, 0, 1, 2)), hand_jokers=rng.choice((0, 0, 0, 1)),
        )
        out.append((decks, table, hand, rng.random() < 0.15))
    return out


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_rule_4_6_D16_D24_best_play_agrees_with_brute_force(seed: str) -> None:
    for decks, table, hand, first_only in _tiny_positions(f"brute/{seed}", 120):
        want = brute_best(table, hand, decks, first_meld_from_hand_only=first_only)
        play = best_play(table, hand, decks, first_meld_from_hand_only=first_only)
        assert shed(play) == want, (table_str(table), hand, first_only)
        if play is not None:
            assert play.exact
            assert_legal(table, play, hand, decks, first_only)


def test_rule_4_5_aces_low_only_agrees_with_brute_force() -> None:
    rng = random.Random("brute/low")
    for _ in range(80):
        decks = rng.choice((1, 2))
        table, hand = random_position(rng, decks, rng.choice((3, 6, 9)), rng.randint(1, 5),
                                      aces_high=False)
        want = brute_best(table, hand, decks, aces_high=False, objective="cards")
        play = best_play(table, hand, decks, aces_high=False, objective="cards")
        assert (None if play is None else (play.cards_shed, play.points_shed)) == want


def test_rule_4_5_D24_arrange_agrees_with_brute_force() -> None:
    rng = random.Random("brute/arrange")
    for _ in range(150):
        decks = rng.choice((1, 2))
        pool = [c for c in range(52) for _ in range(decks)]
        cards = rng.sample(pool, rng.randint(3, 9))
        fixed = [rng.randrange(52)] if rng.random() < 0.2 else []
        if fixed and Counter(cards)[fixed[0]] >= decks:
            fixed = []
        free = rng.randint(0, decks - len(fixed))
        got = arrange(cards, free, fixed, decks)
        want = brute_arrangeable(cards, free, fixed, decks)
        assert (got is not None) == want, (cards, free, fixed, decks)
        if got is not None:
            check_table(got, decks)
            ids = Counter(f for m in got for c, f in m if c != JOKER)
            assert ids == Counter(cards)
            jokers = Counter(f for m in got for c, f in m if c == JOKER)
            assert sum(jokers.values()) == free + len(fixed)
            assert not Counter(fixed) - jokers


def _need_highspy() -> None:
    """The integer-programming reference needs ``highspy`` (test extra)."""
    pytest.importorskip("highspy")


@pytest.mark.parametrize("size", [10, 30, 60, 90])
def test_rule_4_6_D16_D24_best_play_agrees_with_ilp_on_full_tables(size: int) -> None:
    _need_highspy()
    rng = random.Random(f"ilp/{size}")
    for i in range(14):
        decks = 2 if size > 40 or i % 2 else 1
        table, hand = random_position(
            rng, decks, size, rng.randint(5, 20),
            table_jokers=rng.choice((0, 1, 2)) if i % 3 else 0,
            hand_jokers=rng.choice((0, 1)) if i % 4 == 1 else 0,
        )
        first_only = i % 7 == 3
        want = ilp_best(table, hand, decks, first_meld_from_hand_only=first_only)
        play = best_play(table, hand, decks, first_meld_from_hand_only=first_only,
                         node_cap=10**6)
        assert shed(play) == want, (table_str(table), hand)
        if play is not None:
            assert play.exact
            assert_legal(table, play, hand, decks, first_only)


def test_rule_4_6_arrange_with_agrees_with_ilp() -> None:
    _need_highspy()
    rng = random.Random("ilp/arrange_with")
    for _i in range(30):
        decks = rng.choice((1, 2))
        table, hand = random_position(rng, decks, rng.choice((10, 20, 40)), rng.randint(1, 4),
                                      table_jokers=rng.choice((0, 1)),
                                      hand_jokers=rng.choice((0, 0, 1)))
        got = arrange_with(table, hand, decks)
        want = ilp_best(table, hand, decks, require_all=True)
        assert (got is not None) == (want is not None), (table_str(table), hand)
        if got is not None:
            check_move(table, got, hand, decks)


def test_table_ok_is_the_quick_yes_of_the_input_checks() -> None:
    """``table_ok`` (the solver's one-pass input check) says yes exactly when
    ``check_table`` and ``check_pack`` with the hand both pass."""
    from rummylab.manipulation.table import check_pack, table_ok

    rng = random.Random("table_ok")
    for _ in range(300):
        decks = rng.choice((1, 2))
        table, hand = random_position(rng, decks, rng.choice((0, 6, 20, 40)), rng.randint(0, 8),
                                      table_jokers=rng.choice((0, 1)))
        melds = [list(m) for m in table]
        change = rng.randrange(6)
        if change == 1 and melds:  # a meld too short, or with a card from elsewhere
            m = rng.choice(melds)
            if rng.random() < 0.5:
                del m[2:]
            else:
                c = rng.randrange(52)
                m[0] = (c, c)
        elif change == 2 and melds:  # a card repeated beyond the pack
            m = rng.choice(melds)
            hand = [*hand, m[0][0], m[0][0]]
        elif change == 3:  # a bad hand card, or a natural standing for another card
            if rng.random() < 0.5:
                hand = [*hand, 99]
            elif melds:
                m = rng.choice(melds)
                m[0] = (m[0][0], (m[0][1] + 1) % 52)
        elif change == 4:
            decks = 3
        bad = tuple(tuple(m) for m in melds)
        try:
            check_table(bad, decks)
            check_pack(bad, decks, hand)
            ok = True
        except (TableError, ValueError):
            ok = False
        assert table_ok(bad, decks, hand) is ok


def test_table_ok_judges_melds_as_check_meld() -> None:
    """Random melds of 3-6 cards, many near-sequences and near-groups: the
    bit-mask test of ``table_ok`` agrees with ``check_meld``."""
    from rummylab.manipulation.table import table_ok

    rng = random.Random("table_ok/melds")
    for _ in range(3000):
        n = rng.randint(3, 6)
        kind = rng.randrange(3)
        if kind == 0:  # around a sequence (ace low or high), maybe a gap or another suit
            suit, start = rng.randrange(4), rng.randint(1, 14)
            ids = [_identity(min(14, start + i + (i >= 2 and rng.random() < 0.1)), suit)
                   for i in range(n)]
            if rng.random() < 0.1:
                ids[-1] = (ids[-1] + 13) % 52
        elif kind == 1:  # around a group, maybe a repeated suit or another rank
            rank = rng.randrange(13)
            ids = [rng.randrange(4) * 13 + rank for _ in range(min(n, 4))]
            if rng.random() < 0.1:
                ids[0] = (ids[0] + 1) % 52
        else:
            ids = [rng.randrange(52) for _ in range(n)]
        meld = tuple((JOKER, f) if rng.random() < 0.1 else (f, f) for f in ids)
        try:
            check_meld(meld)
            legal = True
        except TableError:
            legal = False
        if legal:  # within the pack of two decks
            legal = max(Counter(ids).values()) <= 2 and sum(c == JOKER for c, _ in meld) <= 2
        assert table_ok((meld,), 2) is legal, meld
