"""Fixed-size observation tensors, one encoder per game.

Every encoder reads the engine's ``observation(seat)`` and nothing else, so
a tensor carries exactly what that seat may know (the engine's views are
the information boundary; ``tests/test_rl_hidden.py`` checks it). Values
are float32 in [0, 1]. Seats are *relative*: index 0 is the observing
seat, 1 the next seat, and so on around the table.

``encoder.layout`` lists ``(name, size)`` segments in order; the tables in
``docs/research.md`` are generated from it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np  # type: ignore[import-not-found, import-untyped, unused-ignore]

from rummylab.errors import OptionError
from rummylab.game import Observation
from rummylab.gin.game import GinObservation, GinState
from rummylab.gin.game import parse_action as gin_parse
from rummylab.manipulation.game import ManipulationObservation, ManipulationState
from rummylab.rl.specs import spec_of
from rummylab.three_thirteen.game import ThirteenObservation, ThirteenState
from rummylab.three_thirteen.game import parse_action as thirteen_parse

F32 = np.float32


def _bits(mask: int, nbits: int) -> Any:
    """The low ``nbits`` bits of ``mask`` as a uint8 array."""
    raw = np.frombuffer(mask.to_bytes((nbits + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:nbits]


def _counts(multi: int, scale: float) -> Any:
    """A two-deck card multiset (104 bits: first copies, then second) as 52
    per-card counts times ``scale``."""
    b = _bits(multi, 104)
    return (b[:52] + b[52:]) * scale


class _LogPlanes:
    """Card planes that are a pure function of a hand's action log, kept
    incrementally: the log only grows within a hand, so each call folds in
    the new entries (a log that is not an extension of the cached one is
    folded from scratch; equal logs give equal planes, so this is exact).

    ``fold(value, entries, key)`` returns the new value and never mutates
    the one it is given."""

    def __init__(self, empty: Any, fold: Any) -> None:
        self.empty = empty
        self.fold = fold
        self.cache: dict[Any, tuple[tuple[Any, ...], Any]] = {}

    def planes(self, key: Any, actions: tuple[Any, ...]) -> Any:
        hit = self.cache.get(key)
        if hit is not None:
            done, value = hit
            k = len(done)
            if k <= len(actions) and actions[:k] == done:
                if k == len(actions):
                    return value
                value = self.fold(value, actions[k:], key)
                self.cache[key] = (actions, value)
                return value
        value = self.fold(self.empty(), actions, key) if actions else self.empty()
        self.cache[key] = (actions, value)
        return value


class Encoder:
    """Base: a layout of named segments and ``encode(obs) -> ndarray``."""

    game = ""
    layout: list[tuple[str, int]]

    def __init__(self, num_players: int, options: dict[str, Any]):
        self.n = num_players
        self.options = options
        self.layout = self._layout()
        self.size = sum(s for _, s in self.layout)
        self.offset: dict[str, int] = {}
        at = 0
        for name, size in self.layout:
            self.offset[name] = at
            at += size

    def _layout(self) -> list[tuple[str, int]]:
        raise NotImplementedError

    def encode(self, obs: Any) -> Any:
        raise NotImplementedError

    def describe(self) -> list[tuple[str, int, int]]:
        """``(name, start, size)`` for each segment."""
        return [(name, self.offset[name], size) for name, size in self.layout]


# -- Gin and three-player Gin ------------------------------------------------


def _no_discards() -> tuple[int, int]:
    return (0, 0)


_GIN_PHASES = {"offer": 0, "draw": 1, "discard": 2}
_GIN_ROLES = {"box": 0, "captain": 1, "sitter": 2}
_gin_cards: dict[str, int] = {}  # action text -> discarded card, or -1


def _gin_discard(text: str) -> int:
    card = _gin_cards.get(text)
    if card is None:
        a = gin_parse(text)
        card = (a - 3) if 3 <= a < 55 else (a - 55) if 55 <= a < 107 else -1
        _gin_cards[text] = card
    return card


class GinEncoder(Encoder):
    """Gin (2 players) and three-player Gin (3).

    The *hand seat* is the observing seat, or the captain for the sitter
    (who sees the captain's cards, §2.2); "opponent" is the hand seat's.
    """

    game = GinState.game_name

    def _layout(self) -> list[tuple[str, int]]:
        n = self.n
        return [
            ("hand", 52),  # cards of the hand seat
            ("discard_top", 52),  # the upcard / top of the discard pile
            ("discard_rest", 52),  # the rest of the discard pile
            ("opponent_known", 52),  # taken from the pile by the opponent, still held
            ("own_discards", 52),  # discarded by the hand seat this hand
            ("opponent_discards", 52),  # discarded by the opponent this hand
            ("taken_card", 52),  # taken this turn: may not be discarded (D-3)
            ("phase", 3),  # offer, draw, discard (all 0 when over)
            ("to_act", 1),  # 1 if the observing seat acts now
            ("role", 3 if n == 3 else 1),  # gin: am I the dealer; gin3: box, captain, sitter
            ("stock_size", 1),  # / 31
            ("opponent_hand_size", 1),  # / 11
            ("knock_limit", 1),  # / 25 (capped)
            ("scores", n),  # relative seats, / target (capped at 1)
            ("hand_number", 1),  # / 50 (capped)
        ]

    def __init__(self, num_players: int, options: dict[str, Any]):
        super().__init__(num_players, options)
        # own and opponent discards as two card masks
        self._log = _LogPlanes(_no_discards, self._fold)
        self._bits_len = self.offset["role"] + (3 if num_players == 3 else 1)
        self._nbytes = (self._bits_len + 7) // 8
        self._target = float(options["target"])

    @staticmethod
    def _fold(value: tuple[int, int], entries: tuple[tuple[int, str], ...],
              hand_seat: int) -> tuple[int, int]:
        own, opp = value
        for seat, text in entries:
            if text[0] in "dk" and text != "draw stock":
                card = _gin_discard(text)
                if card >= 0:
                    if seat == hand_seat:
                        own |= 1 << card
                    else:
                        opp |= 1 << card
        return own, opp

    def encode(self, obs: GinObservation) -> Any:
        # the 0/1 part is one big int, unpacked at once
        pile = obs.discard_pile
        big = obs.hand | obs.opponent_known << 156
        if pile:
            big |= 1 << (52 + pile[-1])
            rest = 0
            for c in pile[:-1]:
                rest |= 1 << c
            big |= rest << 104
        if obs.actions:
            own, opp = self._log.planes(obs.hand_seat, obs.actions)
            big |= own << 208 | opp << 260
        if obs.taken_card is not None:
            big |= 1 << (312 + obs.taken_card)
        ph = _GIN_PHASES.get(obs.phase)
        if ph is not None:
            big |= 1 << (364 + ph)
        seat = obs.seat
        if obs.to_act == seat:
            big |= 1 << 367
        if self.n == 3:
            big |= 1 << (368 + _GIN_ROLES[obs.role])
        elif obs.dealer == seat:
            big |= 1 << 368
        o = np.empty(self.size, F32)
        nb = self._bits_len
        o[:nb] = np.unpackbits(np.frombuffer(big.to_bytes(self._nbytes, "little"), np.uint8),
                               bitorder="little")[:nb]
        n, target, scores = self.n, self._target, obs.scores
        o[nb:] = [obs.stock_size / 31.0, obs.opponent_hand_size / 11.0,
                  min(obs.knock_limit, 25) / 25.0,
                  *[min(scores[(seat + k) % n] / target, 1.0) for k in range(n)],
                  min(obs.hand_number, 50) / 50.0]
        return o


# -- Three Thirteen ------------------------------------------------------------

_thirteen_cards: dict[str, int] = {}


def _thirteen_discard(text: str) -> int:
    card = _thirteen_cards.get(text)
    if card is None:
        a = thirteen_parse(text)
        card = (a - 2) if 2 <= a < 54 else (a - 54) if a >= 54 else -1
        _thirteen_cards[text] = card
    return card


class ThirteenEncoder(Encoder):
    """Three Thirteen, 2-4 players (one deck for two, two decks otherwise).

    Card counts are divided by the number of decks, so a plane holds 0, 0.5
    or 1 with two decks and 0 or 1 with one.
    """

    game = ThirteenState.game_name

    def _layout(self) -> list[tuple[str, int]]:
        n = self.n
        return [
            ("hand", 52),  # own cards, count / decks
            ("discard_top", 52),
            ("discard_rest", 52),  # count / decks
            ("known", 52 * (n - 1)),  # per other seat (relative 1..n-1): taken from the pile, held
            # per seat (relative 0..n-1): discarded this round, count / decks, capped at 1
            ("discards", 52 * n),
            ("taken_card", 52),
            ("wild_rank", 13),  # one-hot rank of the round's wild cards
            ("round", 1),  # / 11
            ("phase", 2),  # draw, discard
            ("to_act", 1),
            ("went_out", n),  # relative seat that went out (final turns)
            ("laid_down", 52),  # the hand that seat laid face up, count / decks
            ("dealer", n),  # relative seat of the dealer
            ("stock_size", 1),  # / (52 * decks)
            ("hand_sizes", n),  # relative seats, / 14
            ("scores", n),  # penalty totals, relative seats, / 300 (capped)
        ]

    def __init__(self, num_players: int, options: dict[str, Any]):
        super().__init__(num_players, options)
        self._log = _LogPlanes(functools.partial(np.zeros, 52 * num_players, F32), self._fold)
        self._inv = 1.0 if num_players == 2 else 0.5

    def _fold(self, planes: Any, entries: tuple[tuple[int, str], ...], seat: int) -> Any:
        planes = planes.copy()
        n, inv = self.n, self._inv
        for s, text in entries:
            if text[0] in "dg" and text != "draw stock":
                card = _thirteen_discard(text)
                if card >= 0:
                    i = 52 * ((s - seat) % n) + card
                    # a reshuffled card can come round again: capped at 1
                    planes[i] = min(planes[i] + inv, 1.0)
        return planes

    def encode(self, obs: ThirteenObservation) -> Any:
        o = np.zeros(self.size, F32)
        off = self.offset
        n, seat = self.n, obs.seat
        d = 1.0 if n == 2 else 2.0
        inv = 1.0 / d
        if obs.hand:
            o[0:52] = _counts(obs.hand, inv)
        pile = obs.discard_pile
        if pile:
            o[52 + pile[-1]] = 1.0
            if len(pile) > 1:
                o[104:156] = np.bincount(np.asarray(pile[:-1]), minlength=52) * inv
        k0 = off["known"]
        for k in range(1, n):
            m = obs.known[(seat + k) % n]
            if m:
                start = k0 + 52 * (k - 1)
                o[start:start + 52] = _counts(m, inv)
        if obs.actions:
            d0 = off["discards"]
            o[d0:d0 + 52 * n] = self._log.planes(seat, obs.actions)
        if obs.taken_card is not None:
            o[off["taken_card"] + obs.taken_card] = 1.0
        if obs.phase != "over":
            o[off["wild_rank"] + obs.wild_rank] = 1.0
            o[off["phase"] + (0 if obs.phase == "draw" else 1)] = 1.0
        o[off["round"]] = obs.round / 11.0
        o[off["to_act"]] = obs.to_act == seat
        if obs.went_out is not None and obs.final_turn:
            o[off["went_out"] + (obs.went_out - seat) % n] = 1.0
            if obs.laid_down:
                o[off["laid_down"]:off["laid_down"] + 52] = _counts(obs.laid_down, inv)
        o[off["dealer"] + (obs.dealer - seat) % n] = 1.0
        o[off["stock_size"]] = obs.stock_size / (52.0 * d)
        hs, sc = off["hand_sizes"], off["scores"]
        for k in range(n):
            s = (seat + k) % n
            o[hs + k] = min(obs.hand_sizes[s] / 14.0, 1.0)
            o[sc + k] = min(obs.scores[s] / 300.0, 1.0)
        return o


# -- Manipulation --------------------------------------------------------------

_MANIP_PHASES = {"turn": 0, "after_meld": 1, "final": 2}


class ManipulationEncoder(Encoder):
    """Manipulation, 2-5 players (one deck and a joker for two, two decks
    and two jokers otherwise). Card index 52 is the joker."""

    game = ManipulationState.game_name

    def _layout(self) -> list[tuple[str, int]]:
        n = self.n
        return [
            ("hand", 53),  # own cards, count / decks
            ("table_cards", 53),  # physical cards on the table, count / decks
            ("table_identities", 52),  # what the table's cards stand for, count / decks
            ("table_melds", 1),  # melds on the table / 40 (capped)
            ("phase", 3),  # turn, after_meld, final
            ("to_act", 1),
            ("draws_this_turn", 1),  # / 3
            ("can_meld", 1),
            ("first_meld_from_hand_only", 1),
            ("exhausted", 1),  # the pile ran out: meld-only final turns
            ("pile_size", 1),  # / (54 * decks)
            ("hand_points", 1),  # own points in hand / 100 (capped)
            ("hand_sizes", n),  # relative seats, / 30 (capped)
            ("dealer", n),
            ("scores", n),  # relative seats, / target (capped)
            ("rounds_won", n),  # relative seats, / 10 (capped)
            ("round", 1),  # / 20 (capped)
        ]

    def encode(self, obs: ManipulationObservation) -> Any:
        o = np.zeros(self.size, F32)
        off = self.offset
        n, seat = self.n, obs.seat
        d = float(obs.decks)
        inv = 1.0 / d
        if obs.hand:
            o[0:53] = np.bincount(np.asarray(obs.hand), minlength=53) * inv
        if obs.table:
            phys = [c for meld in obs.table for c, _ in meld]
            ident = [s for meld in obs.table for _, s in meld]
            o[53:106] = np.bincount(np.asarray(phys), minlength=53) * inv
            o[106:158] = np.bincount(np.asarray(ident), minlength=52)[:52] * inv
            o[off["table_melds"]] = min(len(obs.table) / 40.0, 1.0)
        ph = _MANIP_PHASES.get(obs.phase)
        if ph is not None:
            o[off["phase"] + ph] = 1.0
        o[off["to_act"]] = obs.to_act == seat
        o[off["draws_this_turn"]] = obs.draws_this_turn / 3.0
        o[off["can_meld"]] = obs.can_meld
        o[off["first_meld_from_hand_only"]] = obs.first_meld_from_hand_only
        o[off["exhausted"]] = obs.exhausted
        o[off["pile_size"]] = obs.pile_size / (54.0 * d)
        pts = sum(min(c % 13 + 1, 10) if c < 52 else 25 for c in obs.hand)
        o[off["hand_points"]] = min(pts / 100.0, 1.0)
        target = float(obs.options["target"])
        hs, dl, sc, rw = off["hand_sizes"], off["dealer"], off["scores"], off["rounds_won"]
        o[dl + (obs.dealer - seat) % n] = 1.0
        for k in range(n):
            s = (seat + k) % n
            o[hs + k] = min(obs.hand_sizes[s] / 30.0, 1.0)
            o[sc + k] = min(obs.scores[s] / target, 1.0)
            o[rw + k] = min(obs.rounds_won[s] / 10.0, 1.0)
        o[off["round"]] = min(obs.round / 20.0, 1.0)
        return o


#: the encoder of each game's observation type (three-player Gin's is Gin's)
ENCODERS: dict[type[Observation], type[Encoder]] = {
    GinObservation: GinEncoder,
    ThirteenObservation: ThirteenEncoder,
    ManipulationObservation: ManipulationEncoder,
}


def make_encoder(game: str, num_players: int, options: Mapping[str, Any] | None = None) -> Encoder:
    """The encoder of ``game`` (an adapter name or any alias) for ``num_players``
    players, its rule options resolved as the engine resolves them (defaults
    filled in, every value checked).

    >>> make_encoder("three-thirteen", 3).describe()[0]
    ('hand', 0, 52)
    """
    spec = spec_of(game)
    encoder = ENCODERS.get(spec.cls.observation_type)
    if encoder is None:
        raise OptionError(f"{spec.name} has no observation encoder")
    probe = spec.new_state(spec.check_players(num_players), options, seed=0)
    return encoder(probe.num_players, dict(probe.options))
