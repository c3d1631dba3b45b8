"""A strong Three Thirteen strategy: one-draw lookahead over the unseen cards.

The seat knows its hand, the discard pile, the cards each other seat took
from the pile and still holds, and on the last turn the hand laid face up by
the seat that went out; every other card is *unseen* (in a hidden hand or in
the stock) and, from the seat's point of view, equally likely to be the next
card drawn from the stock. The bot values a hand held between turns by
its *lookahead*: the least penalty after the next turn's draw and best
discard, averaged over a sample of the unseen cards (``budget`` of them; all
of them when there are fewer kinds), where a draw that lets the seat go out
counts as a bonus below zero. That turn opens on an upcard, the card the
player before has just thrown, and takes it when it beats the stock's
average: with the upcard one more unseen card, a hand whose draws are worth
``v(c)`` on average ``s`` is worth the average of ``min(v(c), s)`` (option
``upcard``, the weight of that choice: 1 by default, 0 counts the stock
alone). So a hand that a few cards would help much is worth more than one
that many cards help a little. Then:

- **discard**: the card whose remaining hand has the best lookahead, plus the
  help the card gives the next player, the only one who can take it: the
  points it would save with the cards they took from the pile and still
  hold, which show what they collect (sampling the rest of their hand
  uniformly from the unseen cards measured worse: it charges every card
  for the chance pairs of a random hand);
- **draw**: take the discard when the best hand it makes has a better
  lookahead than the expected best hand after a draw from the stock (a
  sample of stock cards, each followed by its best discards);
- **go out** whenever possible, throwing the card least useful to the next
  player; once another seat has gone out, only the penalty counts: the draw
  and the discard that minimise it (the stock averaged over every unseen card).

With the option ``stakes`` (0, the default: off, to 1) a round's penalty is valued by
what it does to the seat's chance of the lowest total after round 11, from
the scores so far (:func:`win_chances`: every seat scoring about its mean a
round, normally spread), mixed with the points in that proportion: far
ahead late in a game it avoids big penalties, behind it plays for going out.

Every random choice comes from a generator seeded by the bot's seed and the
observation, so a decision depends on what the seat saw, never on the hidden
cards, and is the same every time.

>>> from rummylab import new_state
>>> state = new_state("three-thirteen", {"players": 3}, seed=2)
>>> bot = StrongThirteenBot({"budget": "8"}, seed=1)
>>> bot.act(state.observation(state.current_player())) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rummylab.bots.base import Bot, to_act
from rummylab.cards import CARD_POINTS, Card, card_str, multi_add, multi_cards, multi_remove
from rummylab.errors import OptionError
from rummylab.three_thirteen.game import (
    DISCARD_BASE,
    DRAW_STOCK,
    GO_OUT_BASE,
    TAKE_DISCARD,
    ThirteenObservation,
)
from rummylab.three_thirteen.solver import penalty, penalty_after_discard

_CACHE_MAX = 1 << 17


def _sum(values: Iterable[float]) -> float:
    """Floats added left to right, the same on every Python: ``sum`` adds
    floats with compensation from Python 3.12 on, which moves a near-tie
    between two decisions, so a seed would play another game there."""
    total = 0.0
    for v in values:
        total += v
    return total


# mean penalty a round (rounds 1-11) of the strong and the simple bots in
# four-player games (benchmarks/README.md); the spread of a round's penalty
# is taken as its mean (many rounds score 0, a few score far more)
_STRONG_ROUND = (9.0, 5.8, 3.6, 7.6, 7.4, 4.9, 10.4, 8.1, 5.6, 12.4, 8.3)
_SIMPLE_ROUND = (10.2, 7.4, 5.7, 10.2, 9.4, 6.6, 12.3, 10.5, 8.0, 15.6, 10.7)
_P_MIN, _P_MAX = -40, 200  # round penalties the stake table covers
_Z = [(-3.0 + 0.25 * i) for i in range(25)]  # a normal on a grid, weights below
_ZW = [math.exp(-z * z / 2) for z in _Z]
_ZW = [w / _sum(_ZW) for w in _ZW]


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def win_chances(round_: int, seat: int, scores: Sequence[int], went_out: int | None,
                mine: Sequence[float] = _STRONG_ROUND,
                theirs: Sequence[float] = _SIMPLE_ROUND) -> list[float]:
    """P(lowest total after round 11) for each penalty ``p`` the seat may
    score this round (index ``p - _P_MIN``): every other seat scores this
    round and each later one about its mean (``theirs``; 0 this round for a
    seat that went out), the seat itself ``mine`` in the later rounds, each
    round's spread its mean, all independent and normal.

    >>> w = win_chances(11, 0, (60, 90, 90, 90), None)
    >>> w[0 - _P_MIN] > w[20 - _P_MIN] > w[40 - _P_MIN]
    True
    """
    r = round_ - 1
    later = range(r + 1, len(mine))
    me_mu = _sum(mine[i] for i in later)
    me_sd = math.sqrt(_sum(mine[i] ** 2 for i in later))
    opp = []
    for s, score in enumerate(scores):
        if s == seat:
            continue
        now = 0.0 if s == went_out else theirs[r]
        mu = score - scores[seat] + now + _sum(theirs[i] for i in later)
        var = (0.0 if s == went_out else theirs[r] ** 2) + _sum(theirs[i] ** 2 for i in later)
        opp.append((mu, max(1.0, math.sqrt(var))))
    zs = [(me_mu + me_sd * z, w) for z, w in zip(_Z, _ZW, strict=True)] if me_sd else [(me_mu, 1.0)]
    out = []
    for p in range(_P_MIN, _P_MAX + 1):
        total = 0.0
        for z, w in zs:
            prod = w
            for mu, sd in opp:
                prod *= 1.0 - _phi((p + z - mu) / sd)
            total += prod
        out.append(total)
    return out


def _can_add(multi: int, card: Card) -> bool:
    return not multi >> (52 + card) & 1


def _less_one(draws: Sequence[tuple[Card, float]], card: Card,
              share: float) -> list[tuple[Card, float]]:
    """``draws`` with one copy of ``card`` (``share`` of the pool) gone: the
    card drawn before them cannot be drawn again."""
    return [(d, w - share if d == card else w) for d, w in draws
            if d != card or w - share > 1e-12]


def _outlook13(what: str, points: float, out: float) -> str:
    return (f"{what} leaves {points:.1f} points expected after my next draw, "
            f"{out:.0%} to go out by then")


class StrongThirteenBot(Bot):
    """Options: ``budget`` (unseen cards sampled per lookahead, default 48),
    ``seed``, ``out_bonus`` (points a going-out draw is worth below zero,
    default 8), ``feed`` (weight of the help a discard gives the next
    player, default 0.5), ``deep`` (how many of the best discards to value
    over two draws with :meth:`lookahead2`, at least 2; 0, the default, values
    them over one) and ``hazard`` (the chance the round ends between two of the seat's
    turns, used by :meth:`lookahead2`, default 0.3) and ``stakes`` (0 to
    1, default 0: how much a round penalty is valued by the seat's chance
    of winning the game, from the scores so far, instead of by its points;
    see :meth:`value`) and ``upcard`` (0 to 1, default 1: how much of the
    next turn's choice of the upcard over the stock counts in
    :meth:`lookahead`)."""

    name = "strong"
    accepted_options = ("budget", "seed", "out_bonus", "feed", "deep", "hazard", "stakes",
                        "upcard")

    def __init__(self, options: Mapping[str, str] | None = None, seed: int | None = None):
        super().__init__(options, seed)
        self.budget = self.int_option("budget", 48, 1)
        self._seed = self.seed_option(-(1 << 62)) or 0
        self.out_bonus = self.float_option("out_bonus", 8.0, 0.0)
        self.feed = self.float_option("feed", 0.5, 0.0)
        # deep weighs at most the 6 best discards of the one-draw value
        self.deep = self.int_option("deep", 0, 0, 6)
        if self.deep == 1:  # one discard over two draws has nothing to be weighed against
            raise OptionError("bot option deep must be 0 (off) or 2 to 6")
        self.hazard = self.float_option("hazard", 0.3, 0.0, 1.0)
        self.requires("hazard", "deep is 2 or more", self.deep >= 2)
        self.stakes = self.float_option("stakes", 0.0, 0.0, 1.0)
        if self.stakes > 0 and self.out_bonus > -_P_MIN:
            raise OptionError(f"bot option out_bonus must be at most {-_P_MIN} with stakes "
                              f"above 0 (the stake table starts at {_P_MIN} points)")
        self.upcard = self.float_option("upcard", 1.0, 0.0, 1.0)
        self._stake_key: tuple[Any, ...] | None = None
        self._u: list[float] | None = None
        self._pad: dict[int, int] = {}
        self._pen: dict[int, int] = {}
        self._round_key: tuple[int, bool] | None = None
        # per decision
        self._wr = 0
        self._aw = False

    # -- exact penalties, memoized for the round ---------------------------
    def _setup(self, obs: ThirteenObservation) -> None:
        key = (obs.wild_rank, bool(obs.options["natural_wild_sets"]))
        if key != self._round_key or len(self._pad) + len(self._pen) > _CACHE_MAX:
            self._pad.clear()
            self._pen.clear()
            self._round_key = key
        self._wr, self._aw = key
        self._stake_table(obs)

    # -- what a round's penalty is worth in the game ---------------------------
    def _stake_table(self, obs: ThirteenObservation) -> None:
        """With ``stakes`` > 0, a penalty ``p`` is valued ``(1 - stakes) * p +
        stakes * k * (1 - P(win | p))`` (:func:`win_chances`), ``k`` making
        ten points around this round's mean worth ten; else ``p``."""
        if self.stakes <= 0 or obs.round > len(_STRONG_ROUND):
            self._u = None
            return
        key = (obs.round, obs.seat, obs.scores, obs.went_out)
        if key == self._stake_key:
            return
        self._stake_key = key
        win = win_chances(obs.round, obs.seat, obs.scores, obs.went_out)
        m = round(_STRONG_ROUND[obs.round - 1]) - _P_MIN
        k = 10.0 / max(win[m] - win[m + 10], 0.02)
        lam = min(1.0, self.stakes)
        self._u = [(1 - lam) * (i + _P_MIN) + lam * k * (1.0 - w) for i, w in enumerate(win)]

    def value(self, p: float) -> float:
        """What a round penalty of ``p`` points is worth (see ``stakes``)."""
        if self._u is None:
            return float(p)
        return self._u[min(max(round(p) - _P_MIN, 0), _P_MAX - _P_MIN)]

    def penalty(self, hand: int) -> int:
        v = self._pen.get(hand)
        if v is None:
            v = penalty(hand, self._wr, natural_wild_sets=self._aw)
            self._pen[hand] = v
        return v

    def after_discard(self, hand: int) -> int:
        v = self._pad.get(hand)
        if v is None:
            v = penalty_after_discard(hand, self._wr, natural_wild_sets=self._aw)
            self._pad[hand] = v
        return v

    # -- what the seat knows -------------------------------------------------
    @staticmethod
    def unseen(obs: ThirteenObservation) -> list[Card]:
        """The cards the seat has not seen, with multiplicity, in card order:
        not in its hand, the discard pile, the cards other seats were seen
        taking and still hold, or the hand laid face up by a seat that went
        out (§3.5).

        >>> from rummylab.three_thirteen.game import ThirteenState
        >>> obs = ThirteenState({"players": 4}, seed=3).observation(1)
        >>> len(StrongThirteenBot.unseen(obs)) == 104 - 3 - 1
        True
        """
        decks = 1 if obs.num_players == 2 else 2
        counts = [decks] * 52
        for c in multi_cards(obs.hand):
            counts[c] -= 1
        for c in obs.discard_pile:
            counts[c] -= 1
        for s, k in enumerate(obs.known):
            if s != obs.seat:
                # the seat that went out shows its whole hand, taken cards and all
                shown = obs.laid_down if s == obs.went_out and obs.laid_down else k
                for c in multi_cards(shown):
                    counts[c] -= 1
        return [c for c in range(52) for _ in range(max(0, counts[c]))]

    def _rng(self, obs: ThirteenObservation) -> random.Random:
        return random.Random(f"strong13 {self._seed} {obs.seat} {obs.round} {obs.phase} "
                             f"{len(obs.actions)} {obs.hand} {obs.stock_size}")

    def _samples(self, pool: Sequence[Card], rng: random.Random,
                 k: int) -> list[tuple[Card, float]]:
        """Cards with weights summing to 1: every kind when there are at most
        ``k`` kinds, else ``k`` cards drawn without replacement."""
        if not pool:
            return []
        kinds: dict[Card, int] = {}
        for c in pool:
            kinds[c] = kinds.get(c, 0) + 1
        if len(kinds) <= k:
            return [(c, n / len(pool)) for c, n in kinds.items()]
        picked: dict[Card, int] = {}
        for c in rng.sample(list(pool), k):
            picked[c] = picked.get(c, 0) + 1
        return [(c, n / k) for c, n in picked.items()]

    # -- values ----------------------------------------------------------------
    def lookahead(self, hand: int, draws: Sequence[tuple[Card, float]]) -> float:
        """Expected least penalty after the next draw and the best discard; a
        draw that makes a hand with nothing left over (going out) counts
        ``-out_bonus``. The draw is from the stock (``draws``), or the
        upcard when that is better, the upcard drawn from ``draws`` too
        (weighted by ``upcard``).

        >>> from rummylab.three_thirteen.game import ThirteenState
        >>> obs = ThirteenState({"players": 4}, seed=3).observation(1)
        >>> bot, stock_only = StrongThirteenBot(), StrongThirteenBot({"upcard": "0"})
        >>> bot._setup(obs); stock_only._setup(obs)
        >>> draws = [(c, 1 / 52) for c in range(52)]
        >>> bot.lookahead(obs.hand, draws) < stock_only.lookahead(obs.hand, draws)
        True
        """
        values = []
        for c, w in draws:
            if _can_add(hand, c):
                v = self.after_discard(multi_add(hand, c))
                values.append((w, self.value(v if v else -self.out_bonus)))
        weight = _sum(w for w, _ in values)
        if not weight:
            return self.value(self.penalty(hand))
        stock = _sum(w * x for w, x in values) / weight
        if not self.upcard:
            return stock
        # the upcard is taken only when it beats the stock's average
        either = _sum(w * min(x, stock) for w, x in values) / weight
        return stock + self.upcard * (either - stock)

    def outlook(self, hand: int, draws: Sequence[tuple[Card, float]]) -> tuple[float, float]:
        """What :meth:`lookahead` weighs, in a player's terms, for a draw
        from the stock: the expected least penalty after it and the best
        discard (0 where it goes out), and the chance that it goes out."""
        total = outs = weight = 0.0
        for c, w in draws:
            if _can_add(hand, c):
                v = self.after_discard(multi_add(hand, c))
                total += w * v
                outs += w * (v == 0)
                weight += w
        if not weight:
            return float(self.penalty(hand)), 0.0
        return total / weight, outs / weight

    def lookahead2(self, hand: int, outer: Sequence[tuple[Card, float]],
                   draws: Sequence[tuple[Card, float]], obs: ThirteenObservation,
                   hazard: float | None = None,
                   kept: list[tuple[float, float, float]] | None = None,
                   pool_size: int = 0) -> float:
        """Expected penalty over two draws: after the first (from ``outer``:
        the stock only; the upcard's choice counts in the :meth:`lookahead`
        of the second),
        the round has ended with probability ``hazard`` (default the option;
        another seat went out before this turn: the penalty after the best
        discard counts), else the best discard is followed by
        :meth:`lookahead` over ``draws``, less the first draw's card where
        ``pool_size`` (the unseen cards ``draws`` stand for) is given. ``kept``,
        if given, collects each first draw's weight and the :meth:`outlook`
        of the hand kept after it (0 points and a certain out where it goes
        out)."""
        if hazard is None:
            hazard = self.hazard
        total = 0.0
        weight = 0.0
        for c, w in outer:
            if not _can_add(hand, c):
                continue
            drawn = multi_add(hand, c)
            now = self.after_discard(drawn)
            if now == 0:
                v = self.value(-self.out_bonus)
                if kept is not None:
                    kept.append((w, 0.0, 1.0))
            else:
                inner = _less_one(draws, c, 1 / pool_size) if pool_size else draws
                later, card = self._best_keeps(drawn, self.discards(drawn, None, obs), inner,
                                               2)[0]
                v = hazard * self.value(now) + (1 - hazard) * later
                if kept is not None:
                    kept.append((w, *self.outlook(multi_remove(drawn, card), inner)))
            total += w * v
            weight += w
        return total / weight if weight else self.value(self.penalty(hand))

    @staticmethod
    def discards(hand: int, taken: Card | None, obs: ThirteenObservation) -> list[Card]:
        """Cards that may be discarded from ``hand`` (D-3: not the card just
        taken, unless a second copy is held or the option allows it)."""
        cards = sorted(set(multi_cards(hand)))
        if (taken is not None and not obs.options["allow_discard_of_taken_card"]
                and not hand >> (52 + taken) & 1):
            cards.remove(taken)
        return cards

    def _best_keeps(self, hand: int, cards: Sequence[Card], draws: Sequence[tuple[Card, float]],
                    width: int) -> list[tuple[float, Card]]:
        """(lookahead, discard) for the ``width`` most promising discards."""
        pens = sorted((self.penalty(multi_remove(hand, c)), -CARD_POINTS[c], c) for c in cards)
        # the discards that keep the hand's structure: at most ``width`` of the
        # best by immediate penalty, and never a wild unless nothing else is left
        wild = [c for c in cards if c % 13 == self._wr]
        chosen = [c for _, _, c in pens if c not in wild][:width] or [c for _, _, c in pens][:1]
        return sorted((self.lookahead(multi_remove(hand, c), draws), c) for c in chosen)

    def _next_player_help(self, obs: ThirteenObservation,
                          cards: Sequence[Card]) -> dict[Card, float]:
        """Points each card would save the next player (the only one who can
        take it) with the cards they are known to hold: the ones they took
        from the pile and kept, which show what they collect."""
        nxt = (obs.seat + 1) % obs.num_players
        known = obs.known[nxt]
        if not known or obs.went_out is not None:
            return dict.fromkeys(cards, 0.0)
        base = self.penalty(known)
        return {c: float(base + CARD_POINTS[c] - self.penalty(multi_add(known, c)))
                if _can_add(known, c) else 0.0 for c in cards}

    # -- decisions -------------------------------------------------------------
    def act(self, observation: Any) -> int:
        return self.hint(observation)[0]

    def hint(self, observation: Any) -> tuple[int, str]:
        obs: ThirteenObservation = observation
        legal = to_act(obs)
        if len(legal) == 1:
            return legal[0], "the only legal move"
        self._setup(obs)
        rng = self._rng(obs)
        pool = self.unseen(obs)
        if DRAW_STOCK in legal:
            return self._draw(obs, pool, rng)
        return self._discard(obs, pool, rng)

    def _draw(self, obs: ThirteenObservation, pool: list[Card],
              rng: random.Random) -> tuple[int, str]:
        hand = obs.hand
        top = obs.discard_pile[-1]
        taken = multi_add(hand, top)
        keep = self.discards(taken, top, obs)
        take_pen = min(self.penalty(multi_remove(taken, c)) for c in keep)
        if obs.went_out is not None:
            # the last turn: the penalty alone, the stock over every unseen card
            draws = self._samples(pool, rng, 52)
            pens = [(w, self.after_discard(multi_add(hand, c))) for c, w in draws]
            stock = _sum(w * p for w, p in pens)
            # compared by value (the points themselves unless ``stakes``)
            if self.value(take_pen) < _sum(w * self.value(p) for w, p in pens):
                return TAKE_DISCARD, (f"last turn: {card_str(top)} leaves {take_pen} points, "
                                      f"the stock {stock:.1f} on average")
            return DRAW_STOCK, (f"last turn: the stock leaves {stock:.1f} points on average, "
                                f"{card_str(top)} {take_pen}")
        if take_pen == 0:
            return TAKE_DISCARD, f"{card_str(top)} lets me go out"
        draws = self._samples(pool, rng, self.budget)
        take_v, thrown = self._best_keeps(taken, keep, draws, 3)[0]
        # the stock: a draw, the best discard, then the next draw's outlook
        outer = self._samples(pool, rng, max(2, self.budget // 2))
        stock_kept: list[tuple[float, float, float]] = []
        stock_v = self.lookahead2(hand, outer, draws, obs, hazard=0.0, kept=stock_kept,
                                  pool_size=len(pool))
        # the reason in a player's terms: points and the chance to go out by the next draw
        take_pts, take_out = self.outlook(multi_remove(taken, thrown), draws)
        weight = _sum(w for w, _, _ in stock_kept)
        stock_pts, stock_out = float(self.penalty(hand)), 0.0
        if weight:
            stock_pts = _sum(w * pts for w, pts, _ in stock_kept) / weight
            stock_out = _sum(w * goes for w, _, goes in stock_kept) / weight
        taking = f"taking {card_str(top)} (and throwing {card_str(thrown)})"
        take = take_v < stock_v
        # the values also count the upcard each kept hand could take next turn
        shown = take_pts - self.out_bonus * take_out < stock_pts - self.out_bonus * stock_out
        note = "; the upcards each could take next turn decide it" if shown != take else ""
        if take:
            return TAKE_DISCARD, (f"take {card_str(top)}: "
                                  f"{_outlook13(taking, take_pts, take_out)}; a stock draw "
                                  f"{stock_pts:.1f}, {stock_out:.0%}{note}")
        return DRAW_STOCK, (f"draw from the stock: "
                            f"{_outlook13('a stock draw', stock_pts, stock_out)}; {taking} "
                            f"{take_pts:.1f}, {take_out:.0%}{note}")

    def _discard(self, obs: ThirteenObservation, pool: list[Card],
                 rng: random.Random) -> tuple[int, str]:
        hand = obs.hand
        legal = obs.legal_actions
        outs = [a - GO_OUT_BASE for a in legal if a >= GO_OUT_BASE]
        cards = [a - DISCARD_BASE for a in legal if a < GO_OUT_BASE]
        if outs:
            help_ = self._next_player_help(obs, outs)
            # a wild helps whoever takes it, known cards or not: it goes last
            card = min(outs, key=lambda c: (help_[c], c % 13 == self._wr, -CARD_POINTS[c], c))
            return GO_OUT_BASE + card, f"go out, throwing {card_str(card)}"
        if obs.went_out is not None:
            pen, _, _, card = min((self.penalty(multi_remove(hand, c)), c % 13 == self._wr,
                                   -CARD_POINTS[c], c) for c in cards)
            return DISCARD_BASE + card, f"last turn: {card_str(card)} leaves the least ({pen})"
        draws = self._samples(pool, rng, self.budget)
        scored = self._best_keeps(hand, cards, draws, 6)  # deep's limit
        if self.deep > 1 and len(scored) > 1:
            outer = self._samples(pool, rng, max(2, self.budget // 2))
            scored = sorted((self.lookahead2(multi_remove(hand, c), outer, draws, obs,
                                             pool_size=len(pool)), c)
                            for _, c in scored[:self.deep])
        help_ = self._next_player_help(obs, [c for _, c in scored])
        _, card = min((v + self.feed * help_[c], c) for v, c in scored)
        kept = multi_remove(hand, card)
        expected, out = self.outlook(kept, draws)
        left = self.penalty(kept)
        reason = (f"keeps {left} point{'' if left == 1 else 's'}; after my next draw "
                  f"{expected:.1f} expected, {out:.0%} to go out (the best of "
                  f"{len(set(cards))} discards)")
        if help_[card]:
            reason += f"; the next player gains {help_[card]:.1f} from it"
        return DISCARD_BASE + card, reason
