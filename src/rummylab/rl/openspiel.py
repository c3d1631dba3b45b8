"""The four games as OpenSpiel Python games.

Registered on ``import rummylab.rl`` (``pyspiel.register_game``) as
``python_rummylab_gin``, ``python_rummylab_gin3``,
``python_rummylab_three_thirteen`` and ``python_rummylab_manipulation``:

    import pyspiel, rummylab.rl
    game = pyspiel.load_game("python_rummylab_three_thirteen(players=3)")

**Structure.** An OpenSpiel game here is a *short match*: ``hands`` hands
of Gin / three-player Gin, or ``rounds`` rounds of Three Thirteen /
Manipulation (default 1, like OpenSpiel's own ``gin_rummy``), each from
the start of an engine match (Three Thirteen's rounds are rounds 1, 2, ...
with their hand sizes and wild ranks). Utilities are the points of those
hands, zero-sum the engines' way (own points less the others' mean; for
Three Thirteen the others' mean penalty less one's own); end-of-match
bonuses are not part of it. A game also ends after ``max_moves`` player
moves (an unfinished hand scores nothing): random Gin can take discards
back and forth forever, and Three Thirteen can reshuffle forever.

**Chance.** The first chance node picks the dealer (Gin, Three Thirteen,
Manipulation: one outcome per seat) or the roles (three-player Gin: one of
six box/captain/sitter assignments). Then every deck is dealt *card by
card*: chance node k picks the card at position k of the deck order (top
first), uniformly among the cards not yet placed, so a whole deck is
``52`` (``104``, ``106``) chance nodes with at most 52 (53 with the joker)
outcomes each. When the stock of Three Thirteen runs out, the reshuffle
is chance nodes too, one per card of the new stock. The engine itself is
built from those explicit deck orders (its ``decks=`` / ``reshuffles=``
arguments) and replayed when a later deck is dealt.

**Information.** Information-state strings are perfect recall: the deals
and every move as the seat saw them (its own draws named, others' not).
Observation strings and both tensors are the seat's current view, the
tensor being the encoder of :mod:`rummylab.rl.encoders` (the information
state tensor is that same summary, not a perfect-recall encoding).
``resample_from_infostate`` deals the cards the seat cannot see anew,
consistently with everything it saw (every card an opponent showed was
held by it at the time), and replays the history to check it.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any

import numpy as np  # type: ignore[import-not-found, import-untyped, unused-ignore]
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from rummylab.cards import card_str, cards_str, parse_cards
from rummylab.errors import IllegalActionError, RummyError
from rummylab.game import State
from rummylab.registry import DEFAULT_GAME
from rummylab.rl.encoders import Encoder, make_encoder
from rummylab.rl.specs import SPECS, SPIEL_NAMES, GameSpec, spec_of, zero_sum

SHORT_NAMES = SPIEL_NAMES
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


class ResampleError(RummyError):
    """No world the player cannot tell from this one was found."""


# tries before giving up (a world seldom needs more than one since every Manipulation
# turn ends with its own pass; before, forced passes that differ between worlds did)
RESAMPLE_TRIES = 400


def _card_text(card: int) -> str:
    return card_str(card)


# -- the game -------------------------------------------------------------------


class _Config:
    """Immutable per-game settings shared by all states of a game."""

    def __init__(self, spec: GameSpec, params: dict[str, Any]) -> None:
        self.spec = spec
        self.n = spec.check_players(params.get("players"))
        cls = self.game = spec.cls
        per = _per(spec)
        self.per = per
        self.hands = int(params.get(per, 1))
        if self.hands < 1:
            raise ValueError(f"{per} must be at least 1")
        if cls.max_deals is not None and self.hands > cls.max_deals:
            raise ValueError(f"{cls.title} has {cls.max_deals} {per}")
        engine_opts = {k: v for k, v in params.items()
                       if k in spec.cls.option_spec and k != "players"}
        self.options = spec.engine_options(self.n, engine_opts)
        self.probe = spec.new_state(self.n, self.options, seed=0)  # for action texts
        self.resolved: dict[str, Any] = dict(self.probe.options)
        self.pack = cls.pack(self.n)
        self.num_actions = spec.num_actions
        # the first chance node: who deals first (three-player Gin: the roles)
        self.setups = cls.starts(self.n)
        self.setup_outcomes = len(self.setups)
        self.max_chance_outcomes = max(self.setup_outcomes, len(set(self.pack)))
        mm = int(params.get("max_moves", -1))
        if mm < 1 and mm != -1:
            raise ValueError(f"max_moves must be at least 1 (-1: the default), not {mm}")
        self.max_moves = mm if mm > 0 else self._default_moves()
        self.encoder = make_encoder(spec.name, self.n, self.resolved)

    def _default_moves(self) -> int:
        return self.hands * self.game.move_limit(self.n)

    def utility_bound(self) -> tuple[float, float]:
        """Least and greatest utility of a seat over the whole game."""
        return self.game.utility_bound(self.resolved, self.n, self.hands)

    def max_chance_nodes(self) -> int:
        # the setup, one deck per hand, and reshuffles: every reshuffled card
        # is drawn before the next reshuffle, so they are fewer than the moves
        # plus one pack
        extra = self.max_moves + len(self.pack) if self.game.reshuffles_stock else 0
        return 1 + self.hands * len(self.pack) + extra


def _game_type(spec: GameSpec) -> Any:
    cls = spec.cls
    params: dict[str, Any] = {}
    if spec.players_option:
        params["players"] = spec.default_players
    params[_per(spec)] = 1
    params["max_moves"] = -1
    for name, opt in cls.option_spec.items():
        if name != "players":
            params[name] = opt.default
    return pyspiel.GameType(
        short_name=SHORT_NAMES[spec.name],
        long_name=f"Python rummylab {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.players),
        min_num_players=min(spec.players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _per(spec: GameSpec) -> str:
    """The parameter that counts the game's deals: ``hands`` or ``rounds``."""
    return f"{spec.cls.deal_word}s"


class RummySpielGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]
    """An OpenSpiel game over a rummylab engine (subclassed per game)."""

    GAME = DEFAULT_GAME

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = spec_of(self.GAME)
        params = dict(params or {})
        self.config = _Config(spec, params)
        lo, hi = self.config.utility_bound()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.config.num_actions,
            max_chance_outcomes=self.config.max_chance_outcomes,
            num_players=self.config.n,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0,
            max_game_length=self.config.max_moves + self.config.max_chance_nodes(),
        )
        super().__init__(_GAME_TYPES[spec.name], info, params)

    def new_initial_state(self, *args: Any) -> RummySpielState:
        return RummySpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.config.max_chance_nodes()

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.config, iig_obs_type, params)


# -- the deterministic core: engine + what each seat saw, rebuilt by replay ------


class _Hand:
    """Where each card of the current hand came from, for resampling."""

    def __init__(self, start: int, deck_index: int, resh_index: int) -> None:
        self.start = start  # index of the hand's first move
        self.deck_index = deck_index  # into core.decks
        self.resh_index = resh_index  # into core.reshuffles: this hand's first
        self.segments = 1  # the deck, then one per reshuffle
        self.owner: dict[tuple[int, int], tuple[int, int]] = {}  # (seg, pos) -> (seat, time)
        self.public: set[tuple[int, int]] = set()
        self.pointer = 0  # next stock position of the current segment
        self.takes: list[Counter[int]] = []
        self.reveals: list[tuple[int, int, int]] = []  # (time, seat, card)
        self.views: list[int] = []  # per seat: whose hand it sees
        self.went_out: int | None = None
        self.taken = -1  # the card taken from the pile by the last move, if any

    def copy(self) -> _Hand:
        new = object.__new__(_Hand)
        new.__dict__.update(self.__dict__)
        new.owner = dict(self.owner)
        new.takes = [Counter(t) for t in self.takes]
        new.reveals = list(self.reveals)
        return new


class _Core:
    """Everything a state holds; ``__deepcopy__`` is a cheap engine clone."""

    def __init__(self, config: _Config) -> None:
        self.config = config
        self.setup: int | None = None
        self.decks: list[list[int]] = []
        self.reshuffles: list[list[int]] = []
        self.pending: str | None = "setup"  # chance to resolve: setup, deck, reshuffle
        self.order: list[int] = []  # the cards placed so far by the pending chance
        self.pool: Counter[int] = Counter()
        self.left = 0  # cards still to place
        self.moves: list[int] = []
        self.melds: dict[int, str] = {}  # manipulation: move index -> explicit meld
        # a replayed meld that was not this world's best play (a resampled world)
        self.relaxed = False
        self.seats: list[int] = []  # who made each move
        self.engine: State | None = None
        # per seat, the lines of its information state (perfect recall)
        self.lines: list[list[str]] = [[f"p{p}"] for p in range(config.n)]
        self.views = list(range(config.n))  # whose hand each seat sees this hand
        self.last_result = ""
        self.hand: _Hand | None = None
        self.hands_done = 0
        self.deals = 0
        self.resh_seen = 0
        self.over = False
        self.stale = False  # over, but the engine dealt on: its view is not the game's

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        new = object.__new__(_Core)
        new.__dict__.update(self.__dict__)
        new.decks = list(self.decks)  # deck orders are never mutated
        new.reshuffles = list(self.reshuffles)
        new.order = list(self.order)
        new.pool = Counter(self.pool)
        new.moves = list(self.moves)
        new.melds = dict(self.melds)
        new.seats = list(self.seats)
        new.engine = None if self.engine is None else self.engine.clone()
        new.lines = [list(x) for x in self.lines]
        new.views = list(self.views)
        new.hand = None if self.hand is None else self.hand.copy()
        return new

    # -- chance --------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.pending == "setup":
            k = self.config.setup_outcomes
            return [(i, 1.0 / k) for i in range(k)]
        total = self.left
        return [(c, k / total) for c, k in sorted(self.pool.items()) if k > 0]

    def apply_chance(self, outcome: int) -> None:
        if self.pending == "setup":
            if not 0 <= outcome < self.config.setup_outcomes:
                raise ValueError(f"no setup outcome {outcome}")
            self.setup = outcome
            self._start_deck()
            return
        if self.pool.get(outcome, 0) <= 0:
            raise ValueError(f"card {outcome} is not left to deal")
        self.pool[outcome] -= 1
        self.left -= 1
        self.order.append(outcome)
        if self.left == 0:
            (self.decks if self.pending == "deck" else self.reshuffles).append(self.order)
            self.order, self.pending = [], None
            self.rebuild()

    def _start_deck(self) -> None:
        self.pending = "deck"
        self.order = []
        self.pool = Counter(self.config.pack)
        self.left = len(self.config.pack)

    # -- building and replaying -------------------------------------------------
    def new_engine(self) -> State:
        cfg = self.config
        assert self.setup is not None
        kw: dict[str, Any] = {"decks": self.decks, **cfg.setups[self.setup][1]}
        if cfg.game.reshuffles_stock:
            kw["reshuffles"] = self.reshuffles
        return cfg.spec.new_state(cfg.n, cfg.options, 0, **kw)

    def rebuild(self) -> None:
        """Build the engine from the chance outcomes and replay every move."""
        self.engine = self.new_engine()
        self.lines = [[f"p{p}"] for p in range(self.config.n)]
        self.views = list(range(self.config.n))
        self.last_result = ""
        self.hand = None
        self.hands_done = 0
        self.deals = 0
        self.resh_seen = 0
        self.over = self.stale = False
        self._events(self.engine.take_events(), -1, None)
        moves, self.moves, self.seats = self.moves, [], []
        for action in moves:
            self.play(action)
        if self.pending is None and not self.over and len(self.moves) >= self.config.max_moves:
            self.over = True

    def play(self, action: int) -> None:
        """Apply one player move; may leave a chance sequence pending.

        A move whose text is not its id's own (a Manipulation ``meld best``,
        written as the explicit meld) already recorded (a replay) is played
        as the text it was, whatever the engine would find now."""
        st = self.engine
        assert st is not None
        cfg = self.config
        game = cfg.game
        seat = st.current_player()
        i = len(self.moves)
        replay_text = self.melds.get(i)
        top = -1
        if game.takes_discard(action):
            top = st.discard_pile[-1]  # type: ignore[attr-defined]
        before = [len(st.cards_in_hand(s)) for s in range(cfg.n)]
        if replay_text is not None:
            # this hand would have played otherwise: a relaxed world
            if action not in st.legal_actions():
                self.relaxed = True
            else:
                probe = st.clone()
                probe.apply_action(action)
                self.relaxed |= probe.take_events()[0]["action"] != replay_text
            st.apply(replay_text)
        else:
            st.apply_action(action)
        self.moves.append(action)
        self.seats.append(seat)
        events = st.take_events()
        hand = self.hand
        assert hand is not None
        draws: list[tuple[int, int]] = []
        text = ""
        for e in events:
            if e["type"] == "action":
                text = e["action"]
                break
        if text != st.action_to_string(action):
            self.melds[i] = text  # replayed as written
        shown = game.shown_cards(text)
        ended = any(e["type"] == "result" for e in events)
        # where the cards went: the hands grew by the cards drawn from the
        # stock (the mover's, then any drawn for the next turn), by the card
        # taken from the pile, and shrank by the cards shown
        if not ended:
            grown = [len(st.cards_in_hand(s)) - before[s] for s in range(cfg.n)]
            grown[seat] += len(shown) - (top >= 0)
            order = [seat] + [s for s in range(cfg.n) if s != seat]
            for s in order:
                for _ in range(max(grown[s], 0)):
                    draws.append((s, self._draw(s, i)))
        taken, hand.taken = hand.taken, -1
        if top >= 0:
            hand.takes[seat][top] += 1
            hand.taken = top
        if game.lays_hand_down(action):
            hand.went_out = seat
        for c in shown:
            if (c == taken and not cfg.resolved.get("allow_discard_of_taken_card", True)
                    and hand.takes[seat][c] < 2):
                # D-3: the copy taken this turn stays; this one was unseen
                hand.reveals.append((i, seat, c))
            elif hand.takes[seat][c] > 0:
                hand.takes[seat][c] -= 1
            else:
                hand.reveals.append((i, seat, c))
        line = f"{seat}:{text}"
        if game.lays_hand_down(action):
            # §3.5: the hand is laid face up, for every seat to see
            line += f" laid {cards_str(st.cards_in_hand(seat))}"
        if draws:
            for p, view in enumerate(self.views):
                mine = "".join(f" +{card_str(c)}" for s, c in draws if s == view)
                self.lines[p].append(line + mine)
        else:
            for p_lines in self.lines:
                p_lines.append(line)
        self._events(events, i, seat)
        if self.pending is None and not self.over and len(self.moves) >= cfg.max_moves:
            self.over = True

    def _draw(self, seat: int, time: int) -> int:
        hand = self.hand
        assert hand is not None
        seg = hand.segments - 1
        pos = hand.pointer
        hand.pointer += 1
        hand.owner[(seg, pos)] = (seat, time)
        order = (self.decks[hand.deck_index] if seg == 0
                 else self.reshuffles[hand.resh_index + seg - 1])
        return order[pos]

    def _events(self, events: list[dict[str, Any]], time: int, seat: int | None) -> None:
        st: Any = self.engine
        for e in events:
            kind = e["type"]
            if kind == "result":
                self.hands_done += 1
                shown = {k: v for k, v in e.items() if k not in ("type", "scores")}
                self.last_result = "result " + json.dumps(shown, sort_keys=True)
                for p_lines in self.lines:
                    p_lines.append(self.last_result)
                if self.hands_done >= self.config.hands or st.is_terminal():
                    self.over = True
                    self.stale = not st.is_terminal()  # the engine dealt the next hand
                    return
            elif kind == "end":
                self.over = True
                return
            elif kind == "deal":
                self.deals += 1
                if self.deals > len(self.decks):
                    if len(self.moves) >= self.config.max_moves:
                        self.over = self.stale = True
                        return
                    self._start_deck()
                    return
                self._new_hand(len(self.moves))
            elif kind == "reshuffle":
                self.resh_seen += 1
                if self.resh_seen > len(self.reshuffles):
                    if len(self.moves) >= self.config.max_moves:
                        self.over = True
                        return
                    self.pending = "reshuffle"
                    self.order = []
                    stock = parse_cards(e["stock"])
                    self.pool = Counter(stock)
                    self.left = len(stock)
                    return
                hand = self.hand
                assert hand is not None
                hand.segments += 1
                hand.pointer = 0

    def _new_hand(self, start: int) -> None:
        st: Any = self.engine
        n = self.config.n
        hand = _Hand(start, self.deals - 1, self.resh_seen)
        hand.takes = [Counter() for _ in range(n)]
        dealt = st.dealt_to()
        for i, seat in enumerate(dealt):
            if seat < 0:
                hand.public.add((0, i))  # dealt face up
            else:
                hand.owner[(0, i)] = (seat, -1)
        hand.pointer = len(dealt)
        self.hand = hand
        views, heads = [], []
        for p in range(n):
            obs = st.observation(p)
            view = getattr(obs, "hand_seat", p)
            views.append(view)
            heads.append(f"deal {self.deals}: dealer {st.dealer} seat {p} "
                         f"sees {view}: {cards_str(obs.cards_in_hand())}" + st.deal_line())
        hand.views = views
        self.views = views
        for p in range(n):
            self.lines[p].append(heads[p])

    # -- views -----------------------------------------------------------------
    def info_string(self, player: int) -> str:
        text = "\n".join(self.lines[player])
        if self.pending is not None:
            text += f"\n(chance: {self.pending})"
        return text

    def obs_string(self, player: int) -> str:
        if self.pending is not None or self.engine is None:
            return f"p{player} (chance: {self.pending})"
        if self.stale:
            return f"p{player} over: {self.last_result}"
        obs = self.engine.observation(player)
        d = dataclasses.replace(obs, actions=()).to_dict()  # the log is in the info state
        del d["actions"]
        return json.dumps(d, sort_keys=True, separators=(",", ":"))

    def tensor(self, player: int) -> Any:
        if self.pending is not None or self.engine is None or self.stale:
            return np.zeros(self.config.encoder.size, np.float32)
        return self.config.encoder.encode(self.engine.observation(player))

    def current_player(self) -> int:
        if self.over:
            return _TERMINAL
        if self.pending is not None:
            return _CHANCE
        assert self.engine is not None
        return self.engine.current_player()

    def returns(self) -> list[float]:
        if not self.over or self.engine is None:
            return [0.0] * self.config.n
        st: Any = self.engine
        return zero_sum(list(st.scores), self.config.spec.lower_is_better)

    # -- resampling ------------------------------------------------------------
    def propose(self, player: int, rng: random.Random,
                pinned: set[int]) -> list[list[int]] | None:
        """New orders for the current hand's deck and reshuffles: the cards
        ``player`` saw stay where they were; every card an opponent showed
        (discarded, melded) from an unseen source goes to one of its unseen
        slots filled before that move; the rest are shuffled. Seats in
        ``pinned`` keep their true cards. None when the greedy matching
        fails (the caller tries again)."""
        hand = self.hand
        assert hand is not None
        view = hand.views[player]
        deck = self.decks[hand.deck_index]
        segs = [deck] + [self.reshuffles[hand.resh_index + j]
                         for j in range(hand.segments - 1)]
        known: set[tuple[int, int]] = set(hand.public)
        for key, (seat, _) in hand.owner.items():
            if seat == view or seat in pinned:
                known.add(key)
        pools = [Counter(seg) for seg in segs]
        for seg, pos in known:
            pools[seg][segs[seg][pos]] -= 1
        hidden = [(seg, pos) for seg in range(len(segs)) for pos in range(len(segs[seg]))
                  if (seg, pos) not in known]
        by_seat: dict[int, list[tuple[int, int, int]]] = {}
        for seg, pos in hidden:
            owner = hand.owner.get((seg, pos))
            if owner is not None:
                by_seat.setdefault(owner[0], []).append((owner[1], seg, pos))
        assigned: dict[tuple[int, int], int] = {}
        for time, seat, card in sorted(hand.reveals):
            if seat == view or seat in pinned:
                continue
            options = [(seg, pos) for t, seg, pos in by_seat.get(seat, ())
                       if t < time and (seg, pos) not in assigned and pools[seg][card] > 0]
            if not options:
                return None
            seg, pos = options[rng.randrange(len(options))]
            assigned[(seg, pos)] = card
            pools[seg][card] -= 1
        new_segs = [list(x) for x in segs]
        for (seg, pos), card in assigned.items():
            new_segs[seg][pos] = card
        for seg in range(len(segs)):
            free = [pos for sg, pos in hidden if sg == seg and (sg, pos) not in assigned]
            rest = [c for c, k in sorted(pools[seg].items()) for _ in range(k)]
            if len(rest) != len(free):
                return None
            rng.shuffle(rest)
            for pos, card in zip(free, rest, strict=True):
                new_segs[seg][pos] = card
        return new_segs


# -- the state -------------------------------------------------------------------


class RummySpielState(pyspiel.State):  # type: ignore[misc, unused-ignore]
    """A state of an OpenSpiel rummylab game (see the module docstring)."""

    def __init__(self, game: RummySpielGame) -> None:
        super().__init__(game)
        self._core = _Core(game.config)
        self.resample_note = ""

    @property
    def engine(self) -> State | None:
        """The engine match (full information: for referees and tests)."""
        return self._core.engine

    def current_player(self) -> int:
        return self._core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._core.engine
        assert engine is not None and player == engine.current_player()
        return engine.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.over:  # the engine may have dealt on (max_moves, hands): it is over here
            raise IllegalActionError("the game is over: no more actions")
        if core.pending is not None:
            core.apply_chance(int(action))
        else:
            core.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE or player < 0:
            core = self._core
            if core.pending == "setup":
                return core.config.setups[action][0]
            return f"card {_card_text(action)}"
        return self._core.config.probe.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._core.over

    def returns(self) -> list[float]:
        return self._core.returns()

    def rewards(self) -> list[float]:
        return self._core.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> Any:
        """A state ``player_id`` cannot tell from this one (the same
        information-state string), its unseen cards dealt anew: the
        history is replayed with new chance outcomes for the current hand.

        Three Thirteen: a seat that went out laid its hand face up (§3.5),
        so it keeps its true cards. Manipulation: each recorded meld is
        replayed as it was laid; in most worlds some of them would not have
        been that hand's best play (a *relaxed* world, noted as such: the
        player cannot tell it apart, but its ``history()`` replays to another
        state). The true state is never returned: if nothing fits after
        ``RESAMPLE_TRIES`` tries, a :class:`ResampleError` is raised.
        ``resample_note`` says which happened."""
        core = self._core
        player = int(player_id)
        if core.pending is not None or core.over or core.hand is None:
            new = self.clone()
            new.resample_note = "nothing to resample here"
            return new
        seed = probability_sampler() if callable(probability_sampler) else None
        rng = random.Random(seed)
        want = core.info_string(player)
        history = list(self.history())
        # a hand laid face up is public
        pinned: set[int] = {core.hand.went_out} if core.hand.went_out is not None else set()
        for attempt in range(RESAMPLE_TRIES):
            segs = core.propose(player, rng, pinned)
            new = None if segs is None else self._replay(history, segs)
            if new is not None and new._core.info_string(player) == want:
                new.resample_note = (f"resampled in {attempt + 1} tries, pinned {sorted(pinned)}"
                                     + (", relaxed (a recorded meld not this world's best play)"
                                        if new._core.relaxed else ""))
                return new
        # returning this state would show the player every hidden card
        raise ResampleError(f"no world player {player} cannot tell from this one was found in "
                            f"{RESAMPLE_TRIES} tries")

    def _replay(self, history: list[int], segs: list[list[int]]) -> RummySpielState | None:
        core = self._core
        hand = core.hand
        assert hand is not None
        new: RummySpielState = self.get_game().new_initial_state()
        nc = new._core
        nc.melds = dict(core.melds)
        r0, nseg = hand.resh_index, len(segs)
        move = 0
        try:
            for a in history:
                if nc.pending == "deck" and len(nc.decks) == hand.deck_index:
                    a = segs[0][len(nc.order)]
                elif nc.pending == "reshuffle" and r0 <= len(nc.reshuffles) < r0 + nseg - 1:
                    a = segs[len(nc.reshuffles) - r0 + 1][len(nc.order)]
                elif nc.pending is None:
                    if nc.over or nc.current_player() != core.seats[move]:
                        return None
                    move += 1
                new.apply_action(a)
        except (RummyError, ValueError, AssertionError, IndexError, RuntimeError):
            return None
        if nc.current_player() != core.current_player():
            return None
        return new

    def __str__(self) -> str:
        core = self._core
        if core.engine is None or core.pending is not None:
            return f"(chance: {core.pending}, {len(core.order)} placed)"
        if core.stale:
            return f"over after {core.hands_done} hands: {core.last_result}"
        from rummylab.rl.common import render_text

        return render_text(core.engine)


# -- observers ---------------------------------------------------------------------


class _Observer:
    """OpenSpiel's Python observer protocol: ``tensor``, ``dict``,
    ``set_from(state, player)`` and ``string_from(state, player)``."""

    def __init__(self, config: _Config, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only the single-player views (public and own private "
                             "information) are supported")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        enc: Encoder = config.encoder
        self.tensor = np.zeros(enc.size, np.float32)
        self.dict = {name: self.tensor[start:start + size]
                     for name, start, size in enc.describe()}

    def set_from(self, state: RummySpielState, player: int) -> None:
        self.tensor[:] = state._core.tensor(player)

    def string_from(self, state: RummySpielState, player: int) -> str:
        if self.perfect_recall:
            return state._core.info_string(player)
        return state._core.obs_string(player)


# -- registration -----------------------------------------------------------------


def _spiel_class(name: str) -> type[RummySpielGame]:
    """The OpenSpiel game class of one game (``GinSpielGame``, ...), named
    in this module so that it pickles."""
    cls_name = f"{SPECS[name].title}SpielGame"
    cls = type(cls_name, (RummySpielGame,), {"GAME": name, "__module__": __name__,
                                             "__qualname__": cls_name})
    globals()[cls_name] = cls
    return cls


_CLASSES: dict[str, type[RummySpielGame]] = {name: _spiel_class(name) for name in SPECS}
_GAME_TYPES = {name: _game_type(spec_of(name)) for name in _CLASSES}


def register_openspiel_games() -> None:
    """Register the four games with OpenSpiel (idempotent)."""
    registered = set(pyspiel.registered_names())
    for name, cls in _CLASSES.items():
        if SHORT_NAMES[name] not in registered:
            pyspiel.register_game(_GAME_TYPES[name], cls)


def load(game: str, **params: Any) -> Any:
    """``pyspiel.load_game`` by adapter name: ``load("three_thirteen", players=3)``."""
    register_openspiel_games()
    return pyspiel.load_game(SHORT_NAMES[spec_of(game).name], params)
