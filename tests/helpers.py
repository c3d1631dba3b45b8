"""Shared test helpers: scripted deals, snapshots, hand generators, the
brute-force lay-off reference and the scripts as modules.

A scripted deal is written from the two hands, the upcard and the first stock
cards; the rest of the deck is filled in a fixed order. The deck order it
builds is the engine's (§1.2): top card first, dealt alternately to the
non-dealer then the dealer, card 21 the upcard, card 22 the top of the stock.
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rummylab.cards import Card, CardSet, cards_of, parse_card, parse_cards, parse_mask
from rummylab.gin.game import DISCARD_BASE, DRAW_STOCK, GinState
from rummylab.gin.three_player import Gin3State
from rummylab.manipulation.game import KNOCK, MELD_BEST, ManipulationState

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def refused_before_playing(run: list[str], cases: list[tuple[list[str], str]],
                           folder: Path, kept: Path) -> None:
    """Each case (extra arguments, start of the message) run after ``run``
    is one line on stderr, exit code 2, nothing on stdout; the file ``kept``
    keeps its text and nothing else appears in ``folder``."""
    text = kept.read_text()
    for args, message in cases:
        r = subprocess.run([*run, *args], capture_output=True, text=True)
        assert r.returncode == 2 and "Traceback" not in r.stderr, (args, r.stderr)
        assert r.stderr.strip().startswith(message) and len(r.stderr.strip().splitlines()) == 1
        assert r.stdout == ""
    assert kept.read_text() == text
    assert sorted(p.name for p in folder.iterdir()) == [kept.name]


def script_module(name: str) -> Any:
    """``scripts/NAME`` loaded as a module (the scripts are not a package,
    and their doctests are outside pytest's doctest paths)."""
    spec = importlib.util.spec_from_file_location(name.removesuffix(".py"), SCRIPTS / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# a fixed, well-mixed order for the cards a script does not name
_FILL = list(range(52))
random.Random("rummylab-tests-fill").shuffle(_FILL)


def deck_order(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> list[Card]:
    """A 52-card deck order (top first) that deals these hands.

    >>> order = deck_order("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc", "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td",
    ...                    "Kh", "Qs Js")
    >>> from rummylab.cards import cards_str
    >>> len(order), cards_str(order[:4]), cards_str(order[20:23])
    (52, 'Ac Ad 2c 2d', 'Kh Qs Js')
    """
    nd, dl = parse_cards(non_dealer), parse_cards(dealer)
    if len(nd) != 10 or len(dl) != 10:
        raise ValueError("each hand is ten cards")
    top = [parse_card(upcard), *parse_cards(stock)]
    named = [c for pair in zip(nd, dl, strict=True) for c in pair] + top
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    rest = [c for c in _FILL if c not in set(named)]
    return named + rest


def gin(
    non_dealer: str,
    dealer: str,
    upcard: str,
    stock: str = "",
    options: dict[str, object] | None = None,
    *,
    more: Sequence[Sequence[Card]] = (),
    seed: int = 0,
) -> GinState:
    """A Gin match whose first hand is scripted; seat 0 deals first, so the
    non-dealer is seat 1."""
    decks = [deck_order(non_dealer, dealer, upcard, stock), *more]
    return GinState(options, seed, decks=decks, first_dealer=0)


def gin3(
    captain: str,
    box: str,
    upcard: str,
    stock: str = "",
    options: dict[str, object] | None = None,
    *,
    cut: Sequence[dict[int, str]] | None = None,
    more: Sequence[Sequence[Card]] = (),
    seed: int = 0,
) -> Gin3State:
    """A three-player match: by default the cut makes seat 0 the box, seat 1
    the captain, seat 2 the sitter (D-6); the first hand is scripted."""
    cut = cut or [{0: "Kc", 1: "Qc", 2: "Jc"}]
    decks = [deck_order(captain, box, upcard, stock), *more]
    return Gin3State(options, seed, decks=decks, cut=cut)


def play(state: GinState, *actions: str) -> None:
    """Apply actions given as text, in order."""
    for text in actions:
        state.apply(text)


def mask(text: str) -> CardSet:
    return parse_mask(text)


def draw_and_throw(state: GinState) -> None:
    """One turn that never knocks: draw from the stock (taking the
    upcard is never needed), discard the card just drawn."""
    seat = state.current_player()
    before = state.hand_of(seat)
    state.apply_action(DRAW_STOCK)
    (drawn,) = cards_of(state.hand_of(seat) & ~before)
    state.apply_action(DISCARD_BASE + drawn)


def play_to_drawn_hand(state: GinState) -> None:
    """From the opening, both pass, then nobody knocks until the hand is
    drawn (§1.9)."""
    hand = state.hand_number
    play(state, "pass", "pass")
    while state.hand_number == hand and not state.is_terminal():
        draw_and_throw(state)


def snapshot(state: GinState) -> dict[str, Any]:
    """Everything observable about a state, for "nothing changed" checks."""
    snap: dict[str, Any] = {
        "phase": state.phase,
        "to_act": state.current_player(),
        "legal": state.legal_actions(),
        "hands": [state.hand_of(s) for s in range(state.num_players)],
        "stock": state.stock,
        "discard": state.discard_pile,
        "scores": state.scores,
        "hand_number": state.hand_number,
        "results": [dict(r) for r in state.hand_results],
        "winners": state.winners,
        "final": state.final_scores,
        "dealer": state.dealer,
        "non_dealer": state.non_dealer,
        "events": len(state.events),
        "obs": [state.observation(s).to_dict() for s in range(state.num_players)],
    }
    if isinstance(state, Gin3State):
        snap["sitter"] = state.sitter_seat
        snap["advice"] = state.advice
    return snap


# --- hand generators --------------------------------------------------------


def random_hand(rng: random.Random, size: int) -> CardSet:
    """``size`` distinct cards drawn uniformly."""
    return sum(1 << c for c in rng.sample(range(52), size))


def random_meld(rng: random.Random) -> CardSet:
    """A random set (3 or 4 of a rank) or run (3 to 6 of a suit, ace low)."""
    if rng.random() < 0.5:
        rank = rng.randrange(13)
        return sum(1 << (13 * s + rank) for s in rng.sample(range(4), rng.choice((3, 3, 4))))
    length = rng.choice((3, 3, 4, 5, 6))
    suit = rng.randrange(4)
    start = rng.randrange(14 - length)
    return ((1 << length) - 1) << (13 * suit + start)


def touching(hand: CardSet) -> CardSet:
    """Cards not in ``hand`` of a held rank or next to a held card in its suit."""
    ranks = 0
    for s in range(4):
        ranks |= (hand >> (13 * s)) & 0x1FFF
    near = 0
    for s in range(4):
        bits = (hand >> (13 * s)) & 0x1FFF
        near |= ((((bits << 1) | (bits >> 1)) & 0x1FFF) | ranks) << (13 * s)
    return near & ~hand & ((1 << 52) - 1)


def meld_dense_hand(rng: random.Random, size: int, avoid: CardSet = 0) -> CardSet:
    """Overlapping random melds (sets and runs compete for cards), topped
    up with cards that touch the hand; never a card of ``avoid``."""
    hand = 0
    for _ in range(40):
        if hand.bit_count() >= size - 3:
            break
        meld = random_meld(rng)
        if meld & avoid:
            continue
        if (hand | meld).bit_count() <= size:
            hand |= meld
    while hand.bit_count() < size:
        pool = touching(hand) & ~avoid if rng.random() < 0.85 else 0
        if not pool:
            pool = ((1 << 52) - 1) & ~hand & ~avoid
        hand |= 1 << rng.choice(cards_of(pool))
    return hand


# --- brute-force lay-offs (§1.7, D-5) -------------------------------------------


def fits(card: Card, meld: frozenset[Card]) -> bool:
    """Whether ``card`` can be laid off onto ``meld`` as it stands: the
    missing card of a set, or the card beyond either end of a run."""
    ranks = {c % 13 for c in meld}
    if len(ranks) == 1:
        return card % 13 in ranks and card not in meld
    suit = min(meld) // 13
    lo, hi = min(meld) % 13, max(meld) % 13
    return card // 13 == suit and card % 13 in (lo - 1, hi + 1)


def layable_subsets(hand: Iterable[Card], melds: Iterable[Iterable[Card]]) -> set[frozenset[Card]]:
    """Every subset of ``hand`` that can be laid off onto ``melds`` in some
    order, one card at a time, each onto a meld as already extended."""
    cards = frozenset(hand)
    start = tuple(frozenset(m) for m in melds)
    seen: set[tuple[frozenset[Card], ...]] = set()
    out: set[frozenset[Card]] = set()

    def go(current: tuple[frozenset[Card], ...], laid: frozenset[Card]) -> None:
        if current in seen:
            return
        seen.add(current)
        out.add(laid)
        for c in cards - laid:
            for i, m in enumerate(current):
                if fits(c, m):
                    go((*current[:i], m | {c}, *current[i + 1:]), laid | {c})

    go(start, frozenset())
    return out


# --- Three Thirteen (§3): scripted deals, hand generators, an independent reference ---

from collections import Counter  # noqa: E402
from functools import cache  # noqa: E402
from itertools import pairwise  # noqa: E402

from rummylab.cards import CARD_POINTS, deck  # noqa: E402
from rummylab.reference import thirteen_is_combo  # noqa: E402
from rummylab.three_thirteen.game import ThirteenState  # noqa: E402

# a fixed, well-mixed two-deck order for the cards a Three Thirteen script does not name
_FILL13 = deck(2)
random.Random("rummylab-tests-fill-13").shuffle(_FILL13)


def thirteen_deck(hands: Sequence[str | None], upcard: str, stock: str = "", *,
                  dealer: int = 0, decks: int | None = None) -> list[Card]:
    """A deck order (top first) that deals ``hands[seat]`` to each seat (§3.3):
    one card at a time starting left of ``dealer``; then ``upcard`` starts the
    discard pile and ``stock`` is the top of the stock. A hand given as None is
    filled from a fixed order; so is the rest of the stock. Two players use
    one deck, three or four two decks (§3.1) unless ``decks`` says otherwise.

    >>> from rummylab.cards import cards_str
    >>> order = thirteen_deck(["Ac 2c 3c", "Ad 2d 3d"], "Kh", "Qs", dealer=1)
    >>> len(order), cards_str(order[:7]), cards_str(order[7:8])
    (52, 'Ac Ad 2c 2d 3c 3d Kh', 'Qs')
    """
    n = len(hands)
    decks = decks or (1 if n == 2 else 2)
    given = {seat: parse_cards(h) for seat, h in enumerate(hands) if h is not None}
    sizes = {len(h) for h in given.values()}
    if len(sizes) > 1:
        raise ValueError("every hand has the same number of cards")
    named = [c for h in given.values() for c in h] + [parse_card(upcard), *parse_cards(stock)]
    left = Counter(deck(decks)) - Counter(named)
    if Counter(named) - Counter(deck(decks)):
        raise ValueError("a card is named more often than the pack holds it")
    fill = []
    for c in _FILL13:
        if left[c] > 0:
            left[c] -= 1
            fill.append(c)
    size = sizes.pop() if sizes else 3
    cards = {}
    for seat in range(n):
        if seat in given:
            cards[seat] = given[seat]
        else:
            cards[seat], fill = fill[:size], fill[size:]
    order = [cards[(dealer + 1 + i) % n][i // n] for i in range(size * n)]
    return [*order, parse_card(upcard), *parse_cards(stock), *fill]


def thirteen(hands: Sequence[str | None], upcard: str, stock: str = "",
             options: dict[str, object] | None = None, *, dealer: int = 0,
             more: Sequence[Sequence[Card]] = (), seed: int = 0,
             reshuffles: Sequence[Sequence[Card]] | None = None) -> ThirteenState:
    """A Three Thirteen match (``len(hands)`` players) whose first round is
    scripted; ``more`` are the deck orders of the next rounds."""
    opts = {"players": len(hands), **(options or {})}
    decks = [thirteen_deck(hands, upcard, stock, dealer=dealer), *more]
    return ThirteenState(opts, seed, decks=decks, first_dealer=dealer, reshuffles=reshuffles)


def quick_out_deck(round_: int, players: int, dealer: int, out: str = "",
                   others: Sequence[str | None] = (), upcard: str = "Qd",
                   stock: str = "Kh") -> list[Card]:
    """A round-``round_`` deck order in which the seat left of the dealer holds
    ``out`` (default: the spade run from the ace, ``round_ + 2`` cards, which
    combines whole), so it can draw ``stock``'s top and go out by discarding it;
    the other seats hold ``others`` (in seat order after the first player) or
    cards from the fixed fill."""
    size = round_ + 2
    first = (dealer + 1) % players
    run = " ".join(RANKS13[r] + "s" for r in range(size))
    hands: list[str | None] = [None] * players
    hands[first] = out or run
    for i, h in enumerate(others):
        hands[(first + 1 + i) % players] = h
    return thirteen_deck(hands, upcard, stock, dealer=dealer)


RANKS13 = "A23456789TJQK"


def thirteen_snapshot(state: ThirteenState) -> dict[str, Any]:
    """Everything observable about a Three Thirteen state."""
    n = state.num_players
    return {
        "phase": state.phase, "to_act": state.current_player(), "legal": state.legal_actions(),
        "hands": [state.hand_of(s) for s in range(n)], "stock": state.stock,
        "discard": state.discard_pile, "scores": state.scores, "round": state.round,
        "dealer": state.dealer, "went_out": state.went_out,
        "results": [dict(r) for r in state.round_results], "winners": state.winners,
        "final": state.final_scores, "events": len(state.events),
        "obs": [state.observation(s).to_dict() for s in range(n)],
    }


HAND_KINDS13 = ("random", "wild", "dup", "dense")


def thirteen_hand(rng: random.Random, kind: str, size: int, wild_rank: int,
                  decks: int) -> list[Card]:
    """``size`` cards from a one- or two-deck pack:

    - ``random``: uniform;
    - ``wild``: two to all of the pack's wild cards (4 a deck), the rest uniform;
    - ``dup``: two decks: both copies of cards in a window of two suits and a
      few ranks, so identical cards compete for sets and runs (one deck: dense);
    - ``dense``: overlapping sets and runs with wilds in them, topped up with
      cards of held ranks or next to held cards.

    >>> rng = random.Random(1)
    >>> [len(thirteen_hand(rng, k, 14, 12, 2)) for k in HAND_KINDS13]
    [14, 14, 14, 14]
    """
    left = Counter(deck(decks))

    def take(c: Card) -> bool:
        if left[c] <= 0:
            return False
        left[c] -= 1
        hand.append(c)
        return True

    hand: list[Card] = []
    wilds = [13 * s + wild_rank for s in range(4) for _ in range(decks)]
    if kind == "dup" and decks == 1:
        kind = "dense"
    if kind == "wild":
        for c in rng.sample(wilds, rng.randint(min(2, size), min(len(wilds), size))):
            take(c)
    elif kind == "dup":
        width = max(3, (size + 3) // 4 + rng.randrange(3))
        lo = rng.randrange(14 - width)
        suits = rng.sample(range(4), 2)
        pool = [13 * s + r for s in suits for r in range(lo, lo + width) for _ in range(2)]
        pool += [w for w in wilds if w % 13 not in range(lo, lo + width)][: rng.randrange(3)]
        for c in rng.sample(pool, min(size, len(pool))):
            take(c)
    elif kind == "dense":
        for _ in range(30):
            if len(hand) >= size - 2:
                break
            if rng.random() < 0.45:  # a set, identical cards allowed
                r = rng.randrange(13)
                combo = [13 * rng.randrange(4) + r for _ in range(rng.choice((2, 3, 3, 4, 5)))]
            else:  # a run, some of it wild
                length = rng.choice((3, 3, 4, 5, 6, 7))
                s, start = rng.randrange(4), rng.randrange(14 - length)
                combo = [13 * s + r for r in range(start, start + length)]
            combo = [rng.choice(wilds) if rng.random() < 0.15 else c for c in combo]
            if len(hand) + len(combo) <= size and not Counter(combo) - left:
                for c in combo:
                    take(c)
        while len(hand) < size:
            ranks = {c % 13 for c in hand}
            near = [c for c in left.elements() if left[c] and hand and (
                c % 13 in ranks or any(h // 13 == c // 13 and abs(h % 13 - c % 13) == 1
                                       for h in hand))]
            take(rng.choice(near) if near and rng.random() < 0.85
                 else rng.choice(list(left.elements())))
    while len(hand) < size:
        take(rng.choice(list(left.elements())))
    rng.shuffle(hand)
    return hand


def thirteen_reference(cards: Sequence[Card], wild_rank: int, all_wild: bool = False,
                       discard: bool = False) -> int:
    """Least penalty (§3.6-3.9, D-8 to D-10, D-22) by exhaustive search, fast
    enough for 14-card hands with eight wilds; shares no code with the solver.

    Like ``reference.thirteen_penalty`` it tries every way to put the lowest
    card left in a combination (checked by ``reference.thirteen_is_combo``) or
    leave it, but it exploits two facts: wild cards are interchangeable, so it
    counts them (and tries every number of them in each combination) rather
    than picking which; and the naturals of a combination share the lowest
    card's rank (a set) or its suit with distinct ranks (a run), so only those
    are tried. Identical cards collapse too: a state is the sorted tuple of the
    naturals left and the number of wilds left. All-wild combinations
    (``natural_wild_sets``) use the wilds left over at the end, three or more.
    """
    naturals = tuple(sorted(c for c in cards if c % 13 != wild_rank))
    w0 = len(cards) - len(naturals)
    wild_pts = CARD_POINTS[wild_rank]
    one_wild = wild_rank  # any card of the wild rank is wild (D-8)

    def remove(nat: tuple[Card, ...], gone: Sequence[Card]) -> tuple[Card, ...]:
        out = list(nat)
        for c in gone:
            out.remove(c)
        return tuple(out)

    def cores(c: Card, rest: tuple[Card, ...], w: int) -> set[tuple[Card, ...]]:
        """Naturals that could join ``c`` in a combination."""
        out: set[tuple[Card, ...]] = set()
        same_rank = [x for x in rest if x % 13 == c % 13]
        for mask in range(1 << len(same_rank)):
            out.add(tuple(x for i, x in enumerate(same_rank) if mask >> i & 1))
        # runs: distinct higher ranks of c's suit (c is the lowest card left);
        # the wilds a run needs (its span less its naturals) never fall as it
        # takes higher ranks, so a branch needing more than w is cut
        higher = sorted({x for x in rest if x // 13 == c // 13 and x % 13 > c % 13})

        def grow(i: int, chosen: tuple[Card, ...]) -> None:
            out.add(chosen)
            for j in range(i, len(higher)):
                nxt = (*chosen, higher[j])
                if (nxt[-1] % 13 - c % 13 + 1) - (len(nxt) + 1) <= w:
                    grow(j + 1, nxt)

        grow(0, ())
        return out

    @cache
    def best(nat: tuple[Card, ...], w: int) -> int:
        if not nat:
            return 0 if all_wild and w >= 3 else w * wild_pts
        c, rest = nat[0], nat[1:]
        value = CARD_POINTS[c] + best(rest, w)
        for core in cores(c, rest, w):
            left = remove(rest, core)
            for k in range(w + 1):
                if thirteen_is_combo([c, *core] + [one_wild] * k, wild_rank, all_wild):
                    value = min(value, best(left, w - k))
        return value

    if not discard:
        return best(naturals, w0)
    options = [best(remove(naturals, [c]), w0) for c in set(naturals)]
    if w0:
        options.append(best(naturals, w0 - 1))
    if not options:
        raise ValueError("no card to discard")
    return min(options)


def thirteen_solution_problems(cards: Sequence[Card], wild_rank: int, all_wild: bool,
                               discard: bool, sol: Any, want: int) -> list[str]:
    """What is wrong with ``solve``'s answer (a ``Solution``) for ``cards``,
    given the least penalty ``want`` from a reference; [] if nothing is."""
    problems: list[str] = []
    if sol.penalty != want:
        problems.append(f"penalty {sol.penalty}, reference {want}")
    if discard != (sol.discard is not None):
        problems.append(f"discard {sol.discard!r} with discard={discard}")
    laid = [c for combo in sol.combos for c, _ in combo.cards]
    used = Counter(laid) + Counter(sol.unmatched) + Counter(
        [sol.discard] if sol.discard is not None else [])
    if used != Counter(cards):
        problems.append("combinations + unmatched + discard are not the hand")
    if sum(CARD_POINTS[c] for c in sol.unmatched) != sol.penalty:
        problems.append("unmatched points differ from the penalty")
    for combo in sol.combos:
        shown = " ".join(f"{c}={f}" for c, f in combo.cards)
        if not thirteen_is_combo([c for c, _ in combo.cards], wild_rank, all_wild):
            problems.append(f"not a combination: {shown}")
        stands = [f for _, f in combo.cards]
        if any(not 0 <= f < 52 for f in stands):
            problems.append(f"stands for no card: {shown}")
            continue
        if any(c != f for c, f in combo.cards if c % 13 != wild_rank):
            problems.append(f"a natural stands for another card: {shown}")
        if combo.kind == "set":
            if len({f % 13 for f in stands}) != 1:
                problems.append(f"set of several ranks: {shown}")
        elif combo.kind == "run":
            ok = len(stands) <= 13 and all(
                b == a + 1 and b // 13 == a // 13 for a, b in pairwise(stands))
            if not ok:
                problems.append(f"run not consecutive in one suit within A..K: {shown}")
        else:
            problems.append(f"unknown kind {combo.kind!r}")
    return problems


def run_the_pile_out(players: int, seed: int, rounds: int = 1,
                     options: dict[str, object] | None = None) -> list[ManipulationState]:
    """The states of the first ``rounds`` rounds, seat to act, with few
    melds and no knock, so that the pile runs out and the meld-only turns
    (§4.10, D-23) come."""
    state = ManipulationState({"players": players, **(options or {})}, seed=seed)
    rng = random.Random(seed)
    states = []
    while state.round <= rounds and not state.is_terminal():
        states.append(state.clone())
        legal = state.legal_actions()
        choices = [a for a in legal if a != KNOCK] or legal
        if MELD_BEST in choices and rng.random() < 0.9:
            choices = [a for a in choices if a != MELD_BEST] or choices
        state.apply_action(rng.choice(choices))
    return states
