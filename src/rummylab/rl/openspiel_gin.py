"""Our Gin bots playing OpenSpiel's ``gin_rummy``, against OpenSpiel's simple bot.

A strength check on someone else's engine and opponent: OpenSpiel deals,
enforces its own rules (single hands, knock card 10, gin bonus 25, undercut
bonus 25, no big gin) and scores; ``pyspiel.make_simple_gin_rummy_bot`` sits
on the other seat. Needs OpenSpiel (``pip install -e '.[rl]'``); pyspiel
is imported only when a function here is called.

**What our bot sees.** :func:`observation` builds a :class:`GinObservation`
for player ``p`` from what ``p`` may know only: OpenSpiel's own per-player
view (``state.to_observation_struct(p)``: ``p``'s hand, the upcard, the
discard pile, the stock size, the phase, the melds laid; the other hand is
``XX``) and the public moves (the players' actions of ``full_history()``;
of the chance outcomes only the face-up first upcard is read). From the
moves it derives which cards the opponent took from the discard pile and
still holds, and the hand's action texts.

**Cards.** Ours are ``suit * 13 + rank`` with suits ``c d h s``; OpenSpiel's
with suits ``s c d h`` (same rank order, ace low, same ``As``/``Th`` text).

**Phases and actions.** OpenSpiel's ids: cards 0-51 (discards, lay-offs),
52 draw upcard, 53 draw stock, 54 pass, 55 knock, 56-240 the 185 melds of
at most five cards. They map onto ours as follows:

==================  ===========================================================
OpenSpiel           our observation and actions
==================  ===========================================================
FirstUpcard         phase ``offer``: ``take discard`` [52] / ``pass`` [54]; after
                    both passed, phase ``draw`` with ``draw stock`` [53] alone
Draw                phase ``draw``: ``draw stock`` [53], ``take discard`` [52]
Discard             phase ``discard``: ``discard c`` [c] for every card (the card
                    just taken too: OpenSpiel allows it), and, when OpenSpiel
                    allows the knock, ``knock c`` for each of its legal knock
                    discards: [55] then [c]
Wall (stock at 2)   our engine ends the hand there; OpenSpiel lets the next
                    player knock with the upcard. Offered as phase ``draw`` with
                    ``take discard`` / ``pass`` [54] when that knock is legal
                    (``pass`` alone otherwise); after ``take discard`` phase
                    ``discard`` holding the upcard, with the legal ``knock c``
                    only: [55] then [c]
Knock, Layoff       no decision asked: the knocker lays a least-deadwood
                    arrangement (``knock_arrangement``: then the least the unseen
                    cards could lay off), runs longer than five split into
                    OpenSpiel's pieces; the defender lays off and melds for its
                    least deadwood (``best_defence``'s search within OpenSpiel's
                    lay-off rules: at most two cards beyond each end of a run)
==================  ===========================================================

OpenSpiel's hand is a draw (0 each) when the wall passes, when both players
take the upcard and throw it straight back, or after 50 upcard draws; a
knock with equal deadwood scores 0 (no undercut bonus).

At the wall our bots see an ordinary draw: ``pass`` there ends the hand (a
draw), but a bot values it as our engine's ``draw stock``, and after ``take
discard`` the observation's ``actions`` do not yet list that take. The wall
is rare (no hand of 1,300 against OpenSpiel's simple bot reached it), so
this is left as it is.

Against a gin OpenSpiel skips the lay-off step, and its simple bot's first
move there is the pass meant for "no lay-offs": it ends the hand before
laying its melds, and its whole hand counts. :func:`play_hand` reports our
return both ways (``SpielHand.ours`` and ``SpielHand.corrected``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from types import MappingProxyType
from typing import Any

from rummylab.bots import make_bot
from rummylab.bots.base import Bot
from rummylab.cards import Card, CardSet, card_str, cards_of, mask_points, rank_of
from rummylab.errors import IllegalActionError
from rummylab.game import TERMINAL
from rummylab.gin.game import (
    DISCARD,
    DISCARD_BASE,
    DRAW,
    DRAW_STOCK,
    GIN_OPTIONS,
    KNOCK_BASE,
    OFFER,
    OVER,
    PASS,
    TAKE_DISCARD,
    GinObservation,
    GinState,
    action_text,
    parse_action,
)
from rummylab.gin.solver import best_arrangement, deadwood, knock_arrangement, layoff_options
from rummylab.options import OptionValue, resolve_options
from rummylab.stats import wilson

# OpenSpiel's gin_rummy action ids (checked against pyspiel when first used)
OS_DRAW_UPCARD = 52
OS_DRAW_STOCK = 53
OS_PASS = 54
OS_KNOCK = 55
OS_MELD_BASE = 56
OS_NUM_MELDS = 185
OS_HAND_SIZE = 10
OS_WALL = 2
FULL_DECK: CardSet = (1 << 52) - 1
# OpenSpiel parameters we support, with its defaults
OS_PARAMS: dict[str, int] = {"knock_card": 10, "gin_bonus": 25, "undercut_bonus": 25}

_CARD_OF_TEXT = {card_str(c): c for c in range(52)}


def load_pyspiel() -> Any:
    """The pyspiel module, or a one-line ImportError saying how to get it."""
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        raise ImportError(
            "OpenSpiel (pyspiel) is not installed: pip install -e '.[rl]'"
        ) from None
    return pyspiel


def os_to_card(os_card: int) -> Card:
    """OpenSpiel's card (suits s c d h) as ours (suits c d h s).

    >>> card_str(os_to_card(0)), card_str(os_to_card(13)), card_str(os_to_card(51))
    ('As', 'Ac', 'Kh')
    """
    return ((os_card // 13 + 3) % 4) * 13 + os_card % 13


def card_to_os(card: Card) -> int:
    """Our card as OpenSpiel's; the inverse of :func:`os_to_card`."""
    return ((card // 13 + 1) % 4) * 13 + card % 13


@dataclass(frozen=True)
class _Tables:
    pyspiel: Any
    meld_mask: tuple[CardSet, ...]  # OpenSpiel meld id -> our card mask
    meld_id: Mapping[CardSet, int]


@cache
def _tables() -> _Tables:
    """Meld tables read from pyspiel, and a check of the encoding assumed here."""
    pyspiel = load_pyspiel()
    gr = pyspiel.gin_rummy
    expected = {
        "DRAW_UPCARD_ACTION": OS_DRAW_UPCARD, "DRAW_STOCK_ACTION": OS_DRAW_STOCK,
        "PASS_ACTION": OS_PASS, "KNOCK_ACTION": OS_KNOCK, "MELD_ACTION_BASE": OS_MELD_BASE,
        "NUM_MELD_ACTIONS": OS_NUM_MELDS, "WALL_STOCK_SIZE": OS_WALL,
    }
    for name, value in expected.items():
        if int(getattr(gr, name)) != value:
            raise RuntimeError(f"pyspiel.gin_rummy.{name} is {getattr(gr, name)}, not {value}")
    utils = gr.GinRummyUtils(13, 4, OS_HAND_SIZE)
    for c in range(52):
        if utils.card_string(c) != card_str(os_to_card(c)):
            raise RuntimeError(f"OpenSpiel card {c} is {utils.card_string(c)}")
    masks = [_os_mask(utils.int_to_meld[i]) for i in range(OS_NUM_MELDS)]
    return _Tables(pyspiel, tuple(masks), MappingProxyType({m: i for i, m in enumerate(masks)}))


def _os_mask(os_cards: Iterable[Any]) -> CardSet:
    """OpenSpiel card ids as our card set."""
    m = 0
    for c in os_cards:
        m |= 1 << os_to_card(int(c))
    return m


def _mask(texts: Sequence[str]) -> CardSet:
    m = 0
    for t in texts:
        m |= 1 << _CARD_OF_TEXT[t]
    return m


# -- what player p may know -------------------------------------------------------


@dataclass(frozen=True)
class SpielView:
    """One player's view of an OpenSpiel gin_rummy state, in our cards."""

    player: int
    phase: str  # OpenSpiel's phase name: FirstUpcard, Draw, Discard, Knock, ...
    to_act: int  # OpenSpiel's current player (negative: chance or terminal)
    hand: CardSet
    opponent_hand_size: int
    pile: tuple[Card, ...]  # OpenSpiel's discard pile, oldest first (not the upcard)
    upcard: Card | None
    stock_size: int
    knock_card: int
    melds: tuple[tuple[CardSet, ...], tuple[CardSet, ...]]  # laid per player
    layoffs: tuple[Card, ...]
    finished_layoffs: bool
    passed_first: tuple[bool, bool]
    # from the public moves
    actions: tuple[tuple[int, str], ...]
    opponent_known: CardSet
    taken_card: Card | None  # the card this player just took from the discard pile


def spiel_view(state: Any, player: int) -> SpielView:
    """What ``player`` may know of ``state``: OpenSpiel's observation struct
    for that player plus the public moves; never the other hand."""
    obs = state.to_observation_struct(player)
    hands = obs.hands
    upcard = None if obs.upcard is None else _CARD_OF_TEXT[obs.upcard]
    actions, known, last_take = _public_moves(state)
    opp = 1 - player
    taken = last_take[1] if last_take is not None and last_take[0] == player else None
    return SpielView(
        player=player,
        phase=str(obs.phase),
        to_act=int(state.current_player()),
        hand=_mask(hands[player]),
        opponent_hand_size=len(hands[opp]),
        pile=tuple(_CARD_OF_TEXT[t] for t in obs.discard_pile),
        upcard=upcard,
        stock_size=int(obs.stock_size),
        knock_card=int(obs.knock_card),
        melds=(tuple(_mask(m) for m in obs.layed_melds[0]),
               tuple(_mask(m) for m in obs.layed_melds[1])),
        layoffs=tuple(_CARD_OF_TEXT[t] for t in obs.layoffs),
        finished_layoffs=bool(obs.finished_layoffs),
        passed_first=(bool(obs.pass_on_first_upcard[0]), bool(obs.pass_on_first_upcard[1])),
        actions=tuple(actions),
        opponent_known=known[opp],
        taken_card=taken,
    )


def _public_moves(state: Any) -> tuple[list[tuple[int, str]], list[CardSet],
                                       tuple[int, Card] | None]:
    """Replay the players' moves (all public) from the first upcard: our
    action texts, the cards each player took from the discard pile and still
    holds, and the last move if it took the upcard."""
    history = state.full_history()
    deal = 2 * OS_HAND_SIZE  # chance outcomes 0-19 deal the hands, 20 turns the upcard
    texts: list[tuple[int, str]] = []
    known = [0, 0]
    last_take: tuple[int, Card] | None = None
    if len(history) <= deal:
        return texts, known, last_take
    upcard: Card | None = os_to_card(int(history[deal].action))
    stage = "first"
    stock = 52 - deal - 1
    for step in history[deal + 1:]:
        p, a = int(step.player), int(step.action)
        if p < 0:  # a stock card dealt to whoever drew: private, skipped
            continue
        last_take = None
        if a == OS_DRAW_UPCARD:
            assert upcard is not None
            known[p] |= 1 << upcard
            texts.append((p, "take discard"))
            last_take = (p, upcard)
            upcard, stage = None, "discard"
        elif a == OS_DRAW_STOCK:
            texts.append((p, "draw stock"))
            upcard, stage = None, "discard"
            stock -= 1
        elif a == OS_PASS:
            if stage in ("first", "wall"):
                texts.append((p, "pass"))
        elif a == OS_KNOCK:
            if stage == "wall":  # the knock takes the upcard
                assert upcard is not None
                known[p] |= 1 << upcard
                texts.append((p, "take discard"))
                upcard = None
            stage = "knock"
        elif a < 52:
            card = os_to_card(a)
            if stage == "knock":
                texts.append((p, "knock " + card_str(card)))
                known[p] &= ~(1 << card)
                stage = "lay"
            elif stage == "discard":
                texts.append((p, "discard " + card_str(card)))
                known[p] &= ~(1 << card)
                upcard = card
                stage = "wall" if stock == OS_WALL else "draw"
            # else: a lay-off after the knock
    return texts, known, last_take


@cache
def spiel_options(knock_card: int = 10, gin_bonus: int = 25,
                  undercut_bonus: int = 25) -> Mapping[str, OptionValue]:
    """Our gin options that match OpenSpiel's rules."""
    return MappingProxyType(resolve_options(GIN_OPTIONS, {
        "knock_limit": knock_card, "gin_bonus": gin_bonus, "undercut_bonus": undercut_bonus,
        "allow_discard_of_taken_card": True, "first_draw_after_both_pass": "non_dealer",
        "big_gin": False, "oklahoma": False,
    }))


def _legal_knocks(hand: CardSet, knock_card: int) -> list[Card]:
    """OpenSpiel's legal discards after a knock (its own routine)."""
    utils = _utils()
    return sorted(os_to_card(int(c)) for c in
                  utils.legal_discards([card_to_os(c) for c in cards_of(hand)], knock_card))


@cache
def _utils() -> Any:
    return _tables().pyspiel.gin_rummy.GinRummyUtils(13, 4, OS_HAND_SIZE)


def observation(state: Any, player: int, *, wall_taken: bool = False,
                options: Mapping[str, OptionValue] | None = None) -> GinObservation:
    """``player``'s view of an OpenSpiel gin_rummy state as our observation.

    ``wall_taken``: at the wall the player chose ``take discard``; the view
    then holds the upcard and offers the legal knocks only.
    """
    v = spiel_view(state, player)
    return _observation(state, v, wall_taken, options)


def _observation(state: Any, v: SpielView, wall_taken: bool,
                 options: Mapping[str, OptionValue] | None) -> GinObservation:
    acting = v.to_act == v.player
    os_legal = [int(a) for a in state.legal_actions(v.player)] if acting else []
    hand = v.hand
    pile = v.pile + ((v.upcard,) if v.upcard is not None else ())
    taken = v.taken_card
    legal: list[int] = []
    phase = {"FirstUpcard": OFFER, "Draw": DRAW, "Discard": DISCARD, "Wall": DRAW,
             "Deal": DRAW}.get(v.phase, OVER)
    if v.phase == "FirstUpcard":
        if OS_DRAW_STOCK in os_legal:
            phase = DRAW
            legal = [DRAW_STOCK]
        elif acting:
            legal = [TAKE_DISCARD, PASS]
    elif v.phase == "Draw" and acting:
        legal = [DRAW_STOCK, TAKE_DISCARD]
    elif v.phase == "Discard" and acting:
        legal = [DISCARD_BASE + c for c in cards_of(hand)]
        if OS_KNOCK in os_legal:
            legal += [KNOCK_BASE + c for c in _legal_knocks(hand, v.knock_card)]
    elif v.phase == "Wall" and acting:
        can_knock = OS_KNOCK in os_legal
        if wall_taken and can_knock:
            assert v.upcard is not None
            phase = DISCARD
            hand |= 1 << v.upcard
            pile = v.pile
            taken = v.upcard
            legal = [KNOCK_BASE + c for c in _legal_knocks(hand, v.knock_card)]
        else:
            legal = [TAKE_DISCARD, PASS] if can_knock else [PASS]
    opp_size = v.opponent_hand_size
    return GinObservation(
        game=GinState.game_name,
        seat=v.player,
        role="player",
        phase=phase,
        to_act=v.to_act if v.to_act >= 0 else TERMINAL,
        hand_seat=v.player,
        hand=hand,
        discard_pile=pile,
        stock_size=v.stock_size,
        opponent_known=v.opponent_known,
        opponent_hand_size=opp_size,
        taken_card=taken if acting and phase == DISCARD else None,
        knock_limit=v.knock_card,
        legal_actions=tuple(legal),
        dealer=1,  # OpenSpiel's player 0 always acts first: player 1 deals
        hand_number=1,
        scores=(0, 0),
        actions=v.actions,
        action_ids=tuple(parse_action(t) for _, t in v.actions),
        last_result=None,
        options=options if options is not None else spiel_options(v.knock_card),
        roles=("player", "player"),
    )


# -- laying down ------------------------------------------------------------------


def os_pieces(melds: Sequence[CardSet]) -> list[CardSet]:
    """Melds as OpenSpiel lays them: runs longer than five cut into near-equal
    runs of three to five cards (a cut inside a run changes no lay-off)."""
    out: list[CardSet] = []
    for meld in melds:
        cards = cards_of(meld)
        n = len(cards)
        if rank_of(cards[0]) == rank_of(cards[-1]) or n <= 5:
            out.append(meld)
            continue
        k = -(-n // 5)
        start = 0
        for i in range(k):
            size = n // k + (1 if i < n % k else 0)
            piece = 0
            for c in cards[start:start + size]:
                piece |= 1 << c
            out.append(piece)
            start += size
    return out


def os_layoff_plan(hand: CardSet, knocker_melds: Sequence[CardSet]) -> list[Card]:
    """The defender's lay-offs (in an order OpenSpiel accepts) for its least
    deadwood over lay-offs plus own melds, within OpenSpiel's lay-off rule:
    one card onto a three-card set, at most two cards beyond each end of a run."""
    per_meld: list[list[list[Card]]] = []
    for meld in knocker_melds:
        cards = cards_of(meld)
        lo, hi = cards[0], cards[-1]
        opts = layoff_options(hand, meld)
        if rank_of(lo) != rank_of(hi):
            opts = [o for o in opts
                    if sum(c < lo for c in o) <= 2 and sum(c > hi for c in o) <= 2]
        per_meld.append(opts)
    best: list[Card] = []
    best_dw = deadwood(hand)
    for combo in product(*per_meld):
        laid = 0
        plan: list[Card] = []
        for opt in combo:
            for c in opt:
                if laid >> c & 1:
                    break
                laid |= 1 << c
                plan.append(c)
            else:
                continue
            break
        else:
            dw = deadwood(hand & ~laid)
            if dw < best_dw:
                best, best_dw = plan, dw
    return best


def _union(masks: Sequence[CardSet]) -> CardSet:
    m = 0
    for x in masks:
        m |= x
    return m


class LayDown:
    """Counts the times the planned lay-down was not legal in OpenSpiel."""

    fallbacks = 0


def knocker_action(v: SpielView, os_legal: Sequence[int], discard: Card | None = None) -> int:
    """The knocker's next move in OpenSpiel's Knock phase: its discard, then
    the pieces of a least-deadwood arrangement, then pass."""
    t = _tables()
    hand = v.hand
    if hand.bit_count() == OS_HAND_SIZE + 1:  # the discard that goes with the knock
        if discard is None or card_to_os(discard) not in os_legal:
            LayDown.fallbacks += discard is not None
            options = [os_to_card(a) for a in os_legal if a < 52]
            discard = min(options, key=lambda c: (deadwood(hand & ~(1 << c)), -mask_points(1 << c)))
        return card_to_os(discard)
    laid = set(v.melds[v.player])
    original = hand | _union(list(laid))
    live = FULL_DECK & ~original & ~_union([1 << c for c in v.pile])
    if v.upcard is not None:
        live &= ~(1 << v.upcard)
    arrangement = knock_arrangement(original, live)
    for piece in os_pieces(arrangement.melds):
        if piece not in laid:
            a = OS_MELD_BASE + t.meld_id[piece]
            if a in os_legal:
                return a
            LayDown.fallbacks += 1
    if OS_PASS in os_legal:
        return OS_PASS
    LayDown.fallbacks += 1
    return _least_deadwood_meld(hand, os_legal)


def defender_action(v: SpielView, os_legal: Sequence[int]) -> int:
    """The defender's next move in OpenSpiel's Layoff phase: lay-offs, then
    its own melds, then pass."""
    t = _tables()
    hand = v.hand
    if not v.finished_layoffs:
        laid_off = _union([1 << c for c in v.layoffs])
        plan = os_layoff_plan(hand | laid_off, v.melds[1 - v.player])
        for c in plan:
            if not laid_off >> c & 1:
                if card_to_os(c) in os_legal:
                    return card_to_os(c)
                LayDown.fallbacks += 1
        return OS_PASS
    laid = set(v.melds[v.player])
    original = hand | _union(list(laid))
    for piece in os_pieces(best_arrangement(original).melds):
        if piece not in laid:
            a = OS_MELD_BASE + t.meld_id[piece]
            if a in os_legal:
                return a
            LayDown.fallbacks += 1
    return OS_PASS


def _least_deadwood_meld(hand: CardSet, os_legal: Sequence[int]) -> int:
    t = _tables()
    melds = [a for a in os_legal if a >= OS_MELD_BASE]
    if not melds:
        return int(os_legal[0])
    return min(melds, key=lambda a: deadwood(hand & ~t.meld_mask[a - OS_MELD_BASE]))


# -- one of our bots on an OpenSpiel seat -----------------------------------------


class SpielGinSeat:
    """Plays one of our bots on one seat of OpenSpiel gin_rummy hands.

    ``step(state)`` returns the OpenSpiel action for the seat to act; the bot
    is asked only where our game has the decision (see the module notes).
    With ``record`` set, every (observation, our action, OpenSpiel action)
    is kept in ``decisions``.
    """

    def __init__(self, bot: Bot, player: int, *, record: bool = False,
                 options: Mapping[str, OptionValue] | None = None) -> None:
        self.bot = bot
        self.player = player
        self.record = record
        self.options = options
        self.decisions: list[tuple[GinObservation, int, int]] = []
        self.restart()

    def restart(self) -> None:
        """Ready for a new hand."""
        self._wall_taken = False
        self._knock_discard: Card | None = None

    def step(self, state: Any) -> int:
        if int(state.current_player()) != self.player:
            raise IllegalActionError(f"player {self.player} is not to act")
        v = spiel_view(state, self.player)
        os_legal = [int(a) for a in state.legal_actions(self.player)]
        if v.phase == "Knock":
            discard, self._knock_discard = self._knock_discard, None
            return knocker_action(v, os_legal, discard)
        if v.phase == "Layoff":
            return defender_action(v, os_legal)
        if v.phase == "Wall" and os_legal == [OS_PASS]:
            return OS_PASS  # no knock possible at the wall: the hand is drawn
        obs = _observation(state, v, self._wall_taken, self.options)
        action = self.bot.act(obs)
        if action not in obs.legal_actions:
            raise IllegalActionError(
                f"bot {self.bot.name!r} chose {action_text(action)!r}, not legal here")
        if v.phase == "Wall" and action == TAKE_DISCARD:
            if self.record:
                self.decisions.append((obs, action, -1))
            self._wall_taken = True
            obs = _observation(state, v, True, self.options)
            action = self.bot.act(obs)
            if action not in obs.legal_actions:
                raise IllegalActionError(
                    f"bot {self.bot.name!r} chose {action_text(action)!r}, not legal here")
        os_action = self._to_openspiel(v, action)
        if os_action not in os_legal:
            raise IllegalActionError(
                f"{action_text(action)!r} maps to OpenSpiel action {os_action}, "
                f"not legal in its {v.phase} phase")
        if self.record:
            self.decisions.append((obs, action, os_action))
        return os_action

    def _to_openspiel(self, v: SpielView, action: int) -> int:
        if action == TAKE_DISCARD:
            return OS_DRAW_UPCARD
        if action == DRAW_STOCK:
            return OS_DRAW_STOCK
        if action == PASS:
            return OS_PASS
        if DISCARD_BASE <= action < KNOCK_BASE:
            return card_to_os(action - DISCARD_BASE)
        if KNOCK_BASE <= action < KNOCK_BASE + 52:
            self._knock_discard = action - KNOCK_BASE
            return OS_KNOCK
        raise IllegalActionError(f"{action_text(action)!r} has no OpenSpiel counterpart")


# -- many hands against OpenSpiel's simple bot -------------------------------------


@dataclass(frozen=True)
class SpielHand:
    """One hand: our player id, our return, how it ended; ``corrected`` is
    our return had OpenSpiel's simple bot laid its melds against our gin
    (see :func:`play_hand`), else ``ours``."""

    player: int
    ours: float
    outcome: str  # knock, gin, undercut, tie (equal deadwood), drawn
    knocker: str | None  # "ours", "theirs" or None
    moves: int
    corrected: float | None = None

    @property
    def fair(self) -> float:
        return self.ours if self.corrected is None else self.corrected


def _outcome(state: Any, player: int) -> tuple[str, str | None]:
    knocked = [bool(k) for k in state.knocked()]
    if not any(knocked):
        return "drawn", None
    k = knocked.index(True)
    ret = float(state.returns()[k])
    dw = int(state.deadwood()[k])
    outcome = "gin" if dw == 0 else "knock" if ret > 0 else "undercut" if ret < 0 else "tie"
    return outcome, "ours" if k == player else "theirs"


def _hand_seeds(seed: int, n: int) -> list[int]:
    rng = random.Random(f"rummylab openspiel gin {seed}")
    return [rng.randrange(2**62) for _ in range(n)]


def bot_seed(hand_seed: int) -> int:
    """Our bot's seed in the hand dealt from ``hand_seed``: another stream, as
    a bot drawing from ``Random(hand_seed)`` would replay the one that dealt
    the cards it cannot see."""
    return random.Random(f"bot {hand_seed}").randrange(2**62)


MAX_MOVES = 2000  # OpenSpiel ends every hand well before (50 upcard draws at most)


def play_hand(game: Any, bot: Bot, player: int, seed: int, *,
              seat: SpielGinSeat | None = None, opponent: Any = None,
              initial: Any = None) -> SpielHand:
    """One OpenSpiel hand: ``bot`` on ``player``, OpenSpiel's simple bot on the
    other seat, the deal and stock drawn from ``seed``. ``opponent`` (an
    OpenSpiel bot for the other player) and ``initial`` (a fresh initial
    state, cloned) save rebuilding them for every hand.

    Against a gin OpenSpiel's game skips the lay-off step, and its simple
    bot's first move there is the pass it keeps for "no lay-offs": it ends
    the hand before laying its melds, so its whole hand counts as deadwood.
    ``corrected`` is our return with its deadwood as its best melds leave
    it (the defence the rules give it), measured on the cards it held when
    we went gin."""
    t = _tables()
    rng = random.Random(seed)
    seat = seat or SpielGinSeat(bot, player)
    seat.restart()
    if opponent is None:
        opponent = t.pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - player)
    opponent.restart()
    state = initial.clone() if initial is not None else game.new_initial_state()
    moves = 0
    defended: int | None = None  # the simple bot's cards when our knock began
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"hand with seed {seed} did not end in {MAX_MOVES} moves")
        if state.current_player() == player:
            state.apply_action(seat.step(state))
        else:
            if defended is None and state.knocked()[player]:
                defended = _os_mask(state.hands()[1 - player])
            state.apply_action(opponent.step(state))
    outcome, knocker = _outcome(state, player)
    ours = float(state.returns()[player])
    corrected = None
    if outcome == "gin" and knocker == "ours" and defended is not None:
        corrected = ours - (int(state.deadwood()[1 - player]) - deadwood(defended))
    return SpielHand(player, ours, outcome, knocker, moves, corrected)


@dataclass
class SpielResult:
    """Hands of one of our bots against OpenSpiel's simple bot."""

    bot: str
    seed: int
    params: dict[str, int]
    hands: list[SpielHand] = field(default_factory=list)
    seconds: float = 0.0
    fallbacks: int = 0

    def summary(self) -> dict[str, Any]:
        n = len(self.hands)

        def mean_and_half(values: list[float]) -> tuple[float, float]:
            """The mean and the half-width of its 95% interval."""
            mean = sum(values) / n if n else 0.0
            var = sum((r - mean) ** 2 for r in values) / (n - 1) if n > 1 else 0.0
            return mean, 1.96 * math.sqrt(var / n) if n else 0.0

        rets = [h.ours for h in self.hands]
        mean, half = mean_and_half(rets)
        fair_mean, fair_half = mean_and_half([h.fair for h in self.hands])
        wins = sum(r > 0 for r in rets)
        losses = sum(r < 0 for r in rets)
        lo, hi = wilson(wins, n)

        def count(outcome: str, knocker: str) -> int:
            return sum(h.outcome == outcome and h.knocker == knocker for h in self.hands)

        per_seat = {}
        for p in (0, 1):
            r = [h.ours for h in self.hands if h.player == p]
            per_seat[f"as_player_{p}"] = {"hands": len(r),
                                          "points_per_hand": sum(r) / len(r) if r else 0.0}
        return {
            "bot": self.bot, "opponent": "openspiel simple", "seed": self.seed,
            "params": dict(self.params), "hands": n,
            "points_per_hand": mean, "points_ci_low": mean - half, "points_ci_high": mean + half,
            "points_per_hand_corrected": fair_mean,
            "points_corrected_ci_low": fair_mean - fair_half,
            "points_corrected_ci_high": fair_mean + fair_half,
            "gins_corrected": sum(h.corrected is not None and h.corrected != h.ours
                                  for h in self.hands),
            "wins": wins, "losses": losses,
            "win_rate": wins / n if n else 0.0, "win_ci_low": lo, "win_ci_high": hi,
            "drawn": sum(h.outcome == "drawn" for h in self.hands),
            "ties": sum(h.outcome == "tie" for h in self.hands),
            "ours": {"knocks": count("knock", "ours"), "gins": count("gin", "ours"),
                     "undercuts": count("undercut", "theirs"),
                     "undercut_after_knock": count("undercut", "ours")},
            "theirs": {"knocks": count("knock", "theirs"), "gins": count("gin", "theirs"),
                       "undercuts": count("undercut", "ours"),
                       "undercut_after_knock": count("undercut", "theirs")},
            **per_seat,
            "moves_per_hand": sum(h.moves for h in self.hands) / n if n else 0.0,
            "layout_fallbacks": self.fallbacks,
            "seconds": self.seconds,
        }


def load_game(params: Mapping[str, int] | None = None) -> Any:
    """OpenSpiel's gin_rummy with its rules (``knock_card``, ``gin_bonus``,
    ``undercut_bonus`` may be changed)."""
    given = dict(params or {})
    for key in given:
        if key not in OS_PARAMS:
            raise ValueError(f"unsupported OpenSpiel parameter {key!r} "
                             f"(supported: {', '.join(OS_PARAMS)})")
    full = {**OS_PARAMS, **{k: int(v) for k, v in given.items()}}
    return _tables().pyspiel.load_game("gin_rummy", full)


def play_hands(bot_spec: str, hands: int, seed: int = 0, *,
               params: Mapping[str, int] | None = None,
               on_hand: Callable[[int, SpielHand], None] | None = None,
               first: int = 0, last: int | None = None) -> SpielResult:
    """``hands`` single OpenSpiel hands of our bot ``bot_spec`` against
    OpenSpiel's simple bot: ours is player 0 on even hands, player 1 on odd.
    Hand ``i`` (deal, stock, our bot's seed) comes from ``seed`` and ``i``,
    so hands ``first`` to ``last`` (excluded) of a run can be played apart,
    in other processes, and give the same hands."""
    game = load_game(params)
    full = {**OS_PARAMS, **dict(params or {})}
    options = spiel_options(full["knock_card"], full["gin_bonus"], full["undercut_bonus"])
    result = SpielResult(bot_spec, seed, full)
    before = LayDown.fallbacks
    start = time.perf_counter()
    pyspiel = _tables().pyspiel
    opponents = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in (0, 1)]
    initial = game.new_initial_state()
    seeds = _hand_seeds(seed, hands)
    for i in range(first, hands if last is None else min(last, hands)):
        hs = seeds[i]
        player = i % 2
        bot = make_bot(bot_spec, "gin", bot_seed(hs))
        seat = SpielGinSeat(bot, player, options=options)
        hand = play_hand(game, bot, player, hs, seat=seat, opponent=opponents[1 - player],
                         initial=initial)
        result.hands.append(hand)
        if on_hand is not None:
            on_hand(i, hand)
    result.seconds = time.perf_counter() - start
    result.fallbacks = LayDown.fallbacks - before
    return result


__all__ = [
    "SpielGinSeat",
    "SpielHand",
    "SpielResult",
    "SpielView",
    "bot_seed",
    "card_to_os",
    "defender_action",
    "knocker_action",
    "load_game",
    "load_pyspiel",
    "observation",
    "os_layoff_plan",
    "os_pieces",
    "os_to_card",
    "play_hand",
    "play_hands",
    "spiel_options",
    "spiel_view",
]
