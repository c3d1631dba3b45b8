"""A strong Gin bot that searches over the cards it cannot see.

It never reads the state: from the observation it knows its hand, the
discard pile, the cards the opponent took from the pile (and still holds),
and every action of the hand. From these it

* scores every candidate hand by its expected deadwood after the next draw,
  taken over the cards it has not seen (cards in the discard pile or known in
  the opponent's hand cannot be drawn), less a large bonus for the chance
  that the draw makes a hand it may knock with: the hand is a race to the
  first knock, so the hand most likely to get there next wins ties of
  deadwood and more;
* charges a discard for the chance that the opponent would take it (it
  lowers their deadwood) over sampled opponent hands;
* takes the upcard only when the hand it makes is worth more than the
  average blind draw from the stock, each followed by its best discard;
* decides knocking separately: it holds a hand of ``gin`` deadwood or less
  (scaled by the knock limit over 10, where the limit is lower) for gin while
  the stock is long, and otherwise knocks at once (unless
  fewer than ``knock`` of the sampled defences would lose to it).

Opponent hands are sampled from the unseen cards around the cards it knows
they hold, weighted towards low deadwood the longer they have drawn (a
player keeps what melds), away from hands that would have wanted the cards
they just declined or threw, and away from hands whose deadwood holds a card
worth more than the one they just threw (a player throws their worst
deadwood); each sample lays off on the bot's melds.

Options: ``budget`` (opponent samples, 24, at most 1,000), ``gin`` (hold for gin at this
deadwood or less, 4), ``knock`` (least sampled chance of winning a knock,
0: knock whenever allowed), ``look`` (weight of the next draw against the
deadwood now, 1), ``race`` (bonus for the chance to knock after the next
draw, 150), ``deny`` (weight of the chance the opponent takes the discard,
2), ``tight`` (weight of a sampled hand per deadwood card worth more than
the opponent's last throw, 0.1; 1 turns it off), ``feed`` (weight of the
deadwood a discard saves the sampled opponents, 0: measured weaker),
``seed``. The samples serve ``deny``, ``feed`` and ``knock`` only, so with all
three at 0 ``budget``, ``tight`` and ``seed`` are refused. The defaults are the
best of the measured settings (benchmarks/README.md, "Strength").

>>> from rummylab import new_state
>>> state = new_state("gin", seed=2)
>>> bot = StrongGinBot(seed=1)
>>> action, reason = bot.hint(state.observation(state.current_player()))
>>> action in state.legal_actions() and bool(reason)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from rummylab.bots.base import Bot, to_act
from rummylab.cards import CARD_POINTS, card_str, cards_of
from rummylab.gin.game import (
    BIG_GIN,
    DISCARD_BASE,
    DRAW_STOCK,
    KNOCK_BASE,
    PASS,
    TAKE_DISCARD,
    GinObservation,
)
from rummylab.gin.solver import (
    best_arrangement,
    best_defence,
    best_discards,
    deadwood,
    deadwood_after_discard,
    least_deadwood_arrangements,
)

FULL = (1 << 52) - 1
_SUIT = (1 << 13) - 1

# deadwood of the hands a search meets again and again (bounded memo)
_dw = lru_cache(maxsize=1 << 18)(deadwood)
_dwad = lru_cache(maxsize=1 << 18)(deadwood_after_discard)


def _reach(hand: int) -> int:
    """The cards that would make a meld with two cards of ``hand``."""
    a, b = hand & _SUIT, hand >> 13 & _SUIT
    c, d = hand >> 26 & _SUIT, hand >> 39
    pairs = (a & (b | c | d)) | (b & (c | d)) | (c & d)
    reach = pairs | pairs << 13 | pairs << 26 | pairs << 39
    for shift, s in ((0, a), (13, b), (26, c), (39, d)):
        adj = s & s >> 1  # i and i+1 held
        gap = s & s >> 2  # i and i+2 held
        reach |= ((adj << 2 | adj >> 1 | gap << 1) & _SUIT) << shift
    return reach


def first_upcard(obs: GinObservation) -> int | None:
    """The hand's first upcard if the observation still shows it: the bottom
    of the pile, unless someone took it (then None: the pile's bottom is a
    later discard, and the card taken is not recorded)."""
    depth = 1
    for action in obs.action_ids:
        if action == TAKE_DISCARD:
            depth -= 1
            if depth == 0:
                return None
        elif DISCARD_BASE <= action < KNOCK_BASE:
            depth += 1
    return obs.discard_pile[0] if obs.discard_pile else None


class History:
    """What the public record of the hand tells about the opponent."""

    def __init__(self, obs: GinObservation) -> None:
        me = obs.hand_seat
        self.unwanted: list[int] = []  # cards the opponent declined or threw, latest last
        self.opponent_draws = 0
        self.last_thrown: int | None = None  # the opponent's latest discard
        pile: list[int | None] = [first_upcard(obs)]
        for (seat, _), action in zip(obs.actions, obs.action_ids, strict=True):
            top = pile[-1] if pile else None
            if action == TAKE_DISCARD:
                if pile:
                    pile.pop()
            elif DISCARD_BASE <= action < KNOCK_BASE:
                card = action - DISCARD_BASE
                pile.append(card)
                if seat != me:
                    self.unwanted.append(card)
                    self.last_thrown = card
            elif seat != me and action in (PASS, DRAW_STOCK):
                if top is not None:
                    self.unwanted.append(top)
                if action == DRAW_STOCK:
                    self.opponent_draws += 1


class StrongGinBot(Bot):
    name = "strong"
    accepted_options = ("budget", "feed", "knock", "look", "gin", "race", "deny", "tight", "seed")

    def __init__(self, options: Mapping[str, str] | None = None, seed: int | None = None):
        super().__init__(options, seed)
        self.budget = self.int_option("budget", 24, 1, 1000)  # each sample is searched
        self.feed = self.float_option("feed", 0.0, 0.0)
        self.knock = self.float_option("knock", 0.0, 0.0, 1.0)
        self.look = self.float_option("look", 1.0, 0.0, 1.0)
        self.wait_gin = self.int_option("gin", 4, 0)
        self.race = self.float_option("race", 150.0, 0.0)
        self.deny = self.float_option("deny", 2.0, 0.0)
        self.tight = self.float_option("tight", 0.1, 0.0, 1.0)
        self.base_seed = self.seed_option() or 0
        # the sampled opponents (their number, weights and seed) feed only these
        for key in ("budget", "tight", "seed"):
            self.requires(key, "deny, feed or knock is above 0",
                          self.deny > 0 or self.feed > 0 or self.knock > 0)

    # -- the interface --------------------------------------------------
    def act(self, observation: Any) -> int:
        return self.hint(observation)[0]

    def hint(self, observation: Any) -> tuple[int, str]:
        obs: GinObservation = observation
        legal = to_act(obs)
        if len(legal) == 1:
            return legal[0], "the only legal move"
        # decisions depend only on what the seat saw, so the same view gives the same move
        rng = random.Random(hash((self.base_seed, obs.hand, obs.discard_pile,
                                  obs.opponent_known, len(obs.actions))) & 0xFFFFFFFF)
        view = _View(obs, rng, self.budget, self.look, self.race, self.tight)
        if TAKE_DISCARD in legal:
            return self._draw(view, legal)
        return self._discard(view, legal)

    # -- drawing --------------------------------------------------------
    def _draw(self, view: _View, legal: Sequence[int]) -> tuple[int, str]:
        obs = view.obs
        hand, top = obs.hand, obs.discard_pile[-1]
        now = deadwood(hand)
        took = hand | 1 << top
        # the taken card may not go back (D-3): a hand that is gin already stays so by drawing
        if now > 0 and best_discards(took, 1 << top)[0] == 0:
            return TAKE_DISCARD, f"{card_str(top)} completes the hand"
        # after taking, the best discard (the taken card may not go back: D-3)
        take_value, thrown = min((self._discard_value(view, took & ~(1 << c), c), c)
                                 for c in cards_of(took) if c != top)
        take_dw, take_p = view.outlook(took & ~(1 << thrown))
        # drawing blind: the expected value over the unseen cards
        stock_value, stock_dw, stock_p = self._blind_value(view, hand)
        fallback = PASS if PASS in legal else DRAW_STOCK
        # the reason in a player's terms: deadwood and the chance to knock a draw later
        taking = f"taking {card_str(top)} (and throwing {card_str(thrown)})"
        take = take_value < stock_value
        # the values also weigh what each throw gives the opponent (deny, feed)
        looks_better = (take_p, -take_dw) > (stock_p, -stock_dw)
        note = "; what the throws give the opponent decides it" if looks_better != take else ""
        if take:
            return TAKE_DISCARD, (f"take {card_str(top)}: {_outlook_text(taking, take_dw, take_p)}"
                                  f"; a blind draw {stock_dw:.1f}, {stock_p:.0%}{note}")
        verb = "pass" if fallback == PASS else "draw from the stock"
        return fallback, (f"{verb}: {_outlook_text('a blind draw', stock_dw, stock_p)}"
                          f"; {taking} {take_dw:.1f}, {take_p:.0%}{note}")

    def _blind_value(self, view: _View, hand: int) -> tuple[float, float, float]:
        """Expected value of drawing from the stock and discarding well, and
        the kept hand's mean :meth:`_View.outlook`."""
        draws = view.draw_sample
        total = dw_sum = p_sum = 0.0
        for u in draws:
            with_u = hand | 1 << u
            # the greedy discard by deadwood, then the full value of what is kept
            best = None
            for c in cards_of(with_u):
                d = _dw(with_u & ~(1 << c))
                key = (d, -CARD_POINTS[c])
                if best is None or key < best[0]:
                    best = (key, c)
            assert best is not None
            c = best[1]
            total += self._discard_value(view, with_u & ~(1 << c), c)
            dw, p = view.outlook(with_u & ~(1 << c))
            dw_sum += dw
            p_sum += p
        n = len(draws)
        return total / n, dw_sum / n, p_sum / n

    # -- discarding and knocking -------------------------------------------
    def _discard(self, view: _View, legal: Sequence[int]) -> tuple[int, str]:
        obs = view.obs
        hand = obs.hand
        if BIG_GIN in legal:
            return BIG_GIN, "all eleven cards meld: big gin"
        knocks = [a for a in legal if KNOCK_BASE <= a < BIG_GIN]
        discards = [a for a in legal if DISCARD_BASE <= a < KNOCK_BASE]
        declined = ""  # why a legal knock was not made
        if knocks:
            scored = sorted((deadwood(hand & ~(1 << (a - KNOCK_BASE))),
                             -CARD_POINTS[a - KNOCK_BASE], a) for a in knocks)
            dw, _, knock = scored[0]
            if dw == 0:
                return knock, "gin"
            ev, win = self._knock_value(view, hand & ~(1 << (knock - KNOCK_BASE)), dw)
            if not discards:
                return knock, f"knock with {dw} deadwood: the only moves are knocks"
            if self._should_knock(view, dw, ev, win):
                if self.knock <= 0:  # the default: the hand is a race to the first knock
                    return knock, f"knock with {dw} deadwood: the first knock wins most hands"
                return knock, (f"knock with {dw} deadwood: wins {win:.1%} of the sampled "
                               f"hands (at least {self.knock:.0%} wanted), "
                               f"{ev:+.1f} points expected")
            declined = (f"hold for gin with {dw} deadwood while the stock is long; "
                        if self._waits_for_gin(view, dw) else
                        f"no knock with {dw} deadwood (it wins {win:.1%} of the sampled "
                        f"hands, {self.knock:.0%} wanted); ")
        _, action = min((self._discard_value(view, hand & ~(1 << (a - DISCARD_BASE)),
                                             a - DISCARD_BASE), a) for a in discards)
        card = action - DISCARD_BASE
        kept = hand & ~(1 << card)
        expected, p = view.outlook(kept)
        why = (f"keeps {deadwood(kept)} deadwood, {expected:.1f} expected after my next draw, "
               f"{p:.0%} to knock then (the best of {len(discards)} discards)")
        why = declined + why
        if self.deny and (taken := view.pickup_chance(card)) >= 0.2:
            why += f"; the opponent may want it ({taken:.0%} of the hands it may hold)"
        feed = view.feed_cost(card) if self.feed else 0.0
        if feed > 0.05:
            why += f"; gives the opponent {feed:.1f} on average"
        return action, f"discard {card_str(card)}: {why}"

    def _discard_value(self, view: _View, kept: int, thrown: int) -> float:
        """Lower is better: expected deadwood after the next draw, plus what
        the thrown card gives the opponent."""
        v = view.hand_value(kept)
        if self.feed:
            v += self.feed * view.feed_cost(thrown)
        if self.deny:
            v += self.deny * view.pickup_chance(thrown)
        return v

    def _knock_value(self, view: _View, kept: int, dw: int) -> tuple[float, float]:
        obs = view.obs
        undercut = int(obs.options.get("undercut_bonus", 10))
        arrangements = least_deadwood_arrangements(kept)
        total = 0.0
        wins = 0.0
        for opp, w in view.opponents:
            # the engine lays the knock down to leave the hand the opponent holds
            # the most deadwood (D-4, knock_arrangement): that is its deadwood
            their = max(best_defence(opp, a.melds).deadwood for a in arrangements)
            if their > dw:
                total += w * (their - dw)
                wins += w
            else:
                total -= w * (undercut + dw - their)
        return total, wins

    def _waits_for_gin(self, view: _View, dw: int) -> bool:
        """So close to gin, with the stock long, that an early knock wastes
        the bonus. The wait scales with the knock limit (Oklahoma, option
        knock_limit): under a low limit every knockable hand is near gin, and
        waiting would never knock."""
        return (dw <= self.wait_gin and view.obs.stock_size > 8
                and dw <= self.wait_gin * view.obs.knock_limit // 10)

    def _should_knock(self, view: _View, dw: int, ev: float, win: float) -> bool:
        if self._waits_for_gin(view, dw):
            return False
        # otherwise knock at once, unless the sampled defences would too often undercut
        return win >= self.knock - 1e-9  # the weights sum to 1 only up to rounding


def _outlook_text(what: str, dw: float, chance: float) -> str:
    return (f"{what} leaves {dw:.1f} deadwood expected after my next draw, "
            f"{chance:.0%} to knock then")


class _View:
    """The seat's knowledge, with sampled worlds, computed once per decision."""

    def __init__(self, obs: GinObservation, rng: random.Random, budget: int,
                 look: float, race: float, tight: float = 1.0) -> None:
        self.obs = obs
        self.tight = tight
        self.look = look
        self.race = race
        self.rng = rng
        self.history = History(obs)
        seen = obs.hand | obs.opponent_known
        for c in obs.discard_pile:
            seen |= 1 << c
        self.unseen = FULL & ~seen
        self._unseen_list = cards_of(self.unseen)
        self.budget = budget
        self._opponents: list[tuple[int, float]] | None = None
        self._take: dict[int, tuple[float, float]] = {}
        # hand -> (value, expected deadwood after a draw, chance to knock then)
        self._values: dict[int, tuple[float, float, float]] = {}

    @property
    def draw_sample(self) -> list[int]:
        return self._unseen_list

    def hand_value(self, hand: int) -> float:
        """Expected deadwood of a 10-card hand after one more draw, each
        unseen card equally likely; the drawn card may be thrown back."""
        got = self._values.get(hand)
        return (got or self._evaluate(hand))[0]

    def outlook(self, hand: int) -> tuple[float, float]:
        """What :meth:`hand_value` weighs, in a player's terms: the expected
        deadwood of a 10-card hand after one more draw and the chance that it
        may knock then."""
        got = self._values.get(hand) or self._evaluate(hand)
        return got[1], got[2]

    def _evaluate(self, hand: int) -> tuple[float, float, float]:
        now = _dw(hand)
        limit = self.obs.knock_limit
        if now == 0 or not self._unseen_list:
            chance = 1.0 if now <= limit else 0.0
            got = self._values[hand] = (float(now) - self.race * chance, float(now), chance)
            return got
        total = 0
        ready = 0
        # a card that melds with no two cards of the hand can only replace the
        # worst card: its value needs no search
        reach = _reach(hand)
        best9 = _dwad(hand)
        for u in self._unseen_list:
            d = _dwad(hand | 1 << u) if reach >> u & 1 else best9 + CARD_POINTS[u]
            total += d if d < now else now
            ready += d <= limit
        n = len(self._unseen_list)
        v = total / n * self.look + now * (1 - self.look)
        # the race to knock: the chance of being able to knock after the next draw
        chance = 1.0 if now <= limit else ready / n
        v -= self.race * chance
        got = self._values[hand] = (v, total / n, chance)
        return got

    @property
    def opponents(self) -> list[tuple[int, float]]:
        """Sampled opponent hands with their weights (summing to 1)."""
        if self._opponents is None:
            self._opponents = self._sample_opponents()
        return self._opponents

    def _sample_opponents(self) -> list[tuple[int, float]]:
        obs = self.obs
        known = obs.opponent_known
        hidden = max(0, obs.opponent_hand_size - known.bit_count())
        pool = self._unseen_list
        recent = self.history.unwanted[-3:]
        # a player keeps what melds: the more they have drawn, the likelier a
        # low-deadwood hand (weights instead of a uniform fill)
        beta = 0.035 * min(self.history.opponent_draws, 8)
        thrown = self.history.last_thrown
        top = CARD_POINTS[thrown] if thrown is not None else None
        out: list[tuple[int, float]] = []
        total = 0.0
        for _ in range(self.budget):
            hand = known
            for c in self.rng.sample(pool, min(len(pool), hidden)):
                hand |= 1 << c
            now = _dw(hand)
            w = math.exp(-beta * now)
            # they declined or threw these: a hand that wanted them is less likely
            for c in recent:
                if _dwad(hand | 1 << c) < now:
                    w *= 0.25
            # a player throws their worst deadwood: what is left is no worse
            if top is not None and self.tight != 1.0 and now:
                dead = best_arrangement(hand).deadwood_mask
                over = sum(1 for c in cards_of(dead) if CARD_POINTS[c] > top)
                w *= self.tight ** over
            out.append((hand, w))
            total += w
        if total <= 0.0:  # every sample ruled out (tight=0): keep them, evenly
            return [(h, 1.0 / len(out)) for h, _ in out]
        return [(h, w / total) for h, w in out]

    def _taking(self, card: int) -> tuple[float, float]:
        """Over the sampled opponents: the weighted share that would take
        ``card`` because it lowers their deadwood, and their mean drop."""
        v = self._take.get(card)
        if v is not None:
            return v
        share = drop = 0.0
        for opp, w in self.opponents:
            now = _dw(opp)
            after = _dwad(opp | 1 << card)
            if after < now:
                share += w
                drop += w * (now - after)
        v = self._take[card] = (share, drop)
        return v

    def pickup_chance(self, card: int) -> float:
        """Weighted share of the sampled opponents that would take ``card``."""
        return self._taking(card)[0]

    def feed_cost(self, card: int) -> float:
        """Mean drop in the sampled opponents' deadwood if they take ``card``."""
        return self._taking(card)[1]
