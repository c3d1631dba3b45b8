"""The vocabulary every game shares, in the OpenSpiel manner.

A :class:`State` is a whole match at a decision point. Chance (shuffles) is
resolved inside from the seed or from explicit deck orders, so a state always
waits for a seat to act, or is terminal::

    state = new_state("gin", seed=7)
    while not state.is_terminal():
        seat = state.current_player()
        action = bot_for[seat].act(state.observation(seat))
        state.apply_action(action)

Actions are ints in a fixed space of ``num_distinct_actions()`` with a
stable text form (``action_to_string`` / ``string_to_action``). Everything
that happens is appended to ``state.events`` as plain JSON-able dicts; the
record writer streams them (``rummylab.records``).
"""

from __future__ import annotations

import copy
import dataclasses
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Self, TypeVar

from rummylab.cards import cards_str
from rummylab.errors import CardError, IllegalActionError, OptionError, PositionError
from rummylab.options import Option, OptionValue, resolve_options

Card = int

TERMINAL = -1


def shown(value: object) -> str:
    """``repr(value)`` for a one-line message: at most 60 characters, no
    line breaks (an array's repr has some).

    >>> shown([1] * 40)
    '[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,...'
    """
    text = " ".join(repr(value).splitlines())
    return text if len(text) <= 60 else text[:60] + "..."


def whole_number(value: object) -> int | None:
    """``value`` as an int if it is a whole number (numpy's integers too),
    else None: never a bool, a float or a string, which ``int()`` would turn
    into another number.

    >>> whole_number(7), whole_number(7.0), whole_number(True), whole_number("7")
    (7, None, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:  # a float, a string, an array of several
        return None


def as_text(text: object) -> str:
    """``text`` if it is a string: an action given as text must be one (an id
    goes to ``apply_action``); anything else is an :class:`IllegalActionError`.

    >>> as_text(5)
    Traceback (most recent call last):
    rummylab.errors.IllegalActionError: an action as text must be a string, not int
    """
    if not isinstance(text, str):
        raise IllegalActionError(f"an action as text must be a string, not {type(text).__name__}")
    return text


def as_action(action: object) -> int:
    """An action id as a plain ``int``: any integer type passes (numpy's
    too, through ``__index__``); anything else is an
    :class:`IllegalActionError`, so a state never stores a foreign number.

    >>> as_action(True)
    Traceback (most recent call last):
    rummylab.errors.IllegalActionError: True is not an action id (an int)
    >>> as_action(3.0)
    Traceback (most recent call last):
    rummylab.errors.IllegalActionError: 3.0 is not an action id (an int)
    """
    whole = whole_number(action)
    if whole is None:
        raise IllegalActionError(f"{shown(action)} is not an action id (an int)")
    return whole


def card_lists(value: object, what: str) -> list[list[int]]:
    """Deck orders (or stocks) given to a constructor as lists of plain int
    cards: anything else is a :class:`CardError` (``check_deck_order`` then
    checks the cards themselves).

    >>> card_lists([(0, 1)], "decks"), card_lists(None, "decks")
    ([[0, 1]], [])
    >>> card_lists([[0, 1.0]], "decks")
    Traceback (most recent call last):
    rummylab.errors.CardError: decks must be lists of cards (ints), not [[0, 1.0]]
    """
    if value is None:
        return []
    out: list[list[int]] = []
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        for order in value:
            if not isinstance(order, Sequence) or isinstance(order, str | bytes):
                break
            cards = [c for c in map(whole_number, order) if c is not None]
            if len(cards) != len(order):
                break
            out.append(cards)
        else:
            return out
    raise CardError(f"{what} must be lists of cards (ints), not {shown(value)}")


Event = dict[str, Any]


# values an observation may share with the state: immutable, holding nothing
_ATOMIC = frozenset({str, int, float, bool, type(None), bytes})


def frozen(value: Any) -> Any:
    """A read-only deep copy: mappings become mapping proxies, lists tuples.
    Every container is new (a tuple too), so the copy shares nothing with
    ``value`` but strings and numbers: a view made of it cannot reach the
    state it came from (``gc.get_referents`` walks only into the copy).

    >>> r = frozen({"melds": ["As 2s 3s"], "hands": [{"points": 4}]})
    >>> r["melds"], r["hands"][0]["points"]
    (('As 2s 3s',), 4)
    >>> t = ((1, 2),)
    >>> frozen(t) == t and frozen(t)[0] is not t[0]
    True
    """
    kind = type(value)
    if kind is dict:  # plain JSON first, without the slower ABC checks
        return MappingProxyType({k: v if type(v) in _ATOMIC else frozen(v)
                                 for k, v in value.items()})
    if kind is list:
        if set(map(type, value)) <= _ATOMIC:
            return tuple(value)  # a new tuple of shared atoms
        return tuple([frozen(v) for v in value])
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple([frozen(v) for v in value])  # tuple(a_tuple) would be a_tuple itself
    return value


def thawed(value: Any) -> Any:
    """Plain dicts and lists again (for JSON), from :func:`frozen`'s form.

    >>> thawed(frozen({"melds": ["As 2s 3s"]}))
    {'melds': ['As 2s 3s']}
    """
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if kind is MappingProxyType or kind is dict:  # frozen's own, without the ABC checks
        return {k: v if type(v) in _ATOMIC else thawed(v) for k, v in value.items()}
    if kind is tuple:
        return [v if type(v) in _ATOMIC else thawed(v) for v in value]
    if isinstance(value, Mapping):
        return {k: thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thawed(v) for v in value]
    return value


#: per-seat counters of a run of matches, by name (summed across matches and workers)
Counts = dict[str, list[float]]


@dataclass(frozen=True)
class Figure:
    """One per-seat figure of a run's summary: the counter ``count`` divided
    by ``per`` (``"deal"``: the hands or rounds played; ``"match"``: the
    matches; another counter's name; None: the count itself), 0.0 when that
    is zero. ``short`` is its column head where space is tight."""

    name: str
    count: str
    per: str | None = None
    short: str = ""

    def value(self, counts: Counts, seat: int, deals: int, matches: int) -> float:
        """This figure of ``seat``.

        >>> Figure("points_per_hand", "points", "deal").value({"points": [30.0]}, 0, 4, 1)
        7.5
        """
        n: float
        if self.per is None:
            return counts[self.count][seat]
        if self.per == "deal":
            n = deals
        elif self.per == "match":
            n = matches
        else:
            n = counts[self.per][seat]
        return counts[self.count][seat] / n if n else 0.0


_O = TypeVar("_O")


def quick_init(cls: type[_O]) -> type[_O]:
    """A frozen dataclass's ``__init__`` remade to fill the instance's
    ``__dict__`` in one step: the generated one calls ``object.__setattr__``
    once a field, which was half the cost of an observation. Same
    parameters, defaults and values; no ``__post_init__`` or factories."""
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__")
    positional: list[str] = []
    keyword: list[str] = []
    names: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.default_factory is not dataclasses.MISSING or not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: a factory or init=False field")
        param = f.name
        if f.default is not dataclasses.MISSING:
            names[f"_default_{f.name}"] = f.default
            param += f"=_default_{f.name}"
        (keyword if f.kw_only else positional).append(param)
    params = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    fields = ", ".join(f"{f.name!r}: {f.name}" for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    source = f"def __init__({params}):\n    _set(self, '__dict__', {{{fields}}})\n"
    names["_set"] = object.__setattr__  # the instance's new, empty dict replaced at once
    exec(source, names)  # the way dataclasses makes its own __init__
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


@dataclass(frozen=True, kw_only=True)
class Observation:
    """What one seat may know: the fields every game's view shares (each
    game's subclass adds its own: the hand, the pile or the table, ...).

    ``actions`` are the moves of the hand (round) so far as ``(seat, text)``;
    ``action_ids`` the same moves as action ids, one per entry of ``actions``
    (a Manipulation meld, written with its cards and table, has none:
    ``-1``), so that a bot reads the history without parsing text.
    ``action_ids`` are not part of ``to_dict()``: ``actions`` says the same."""

    game: str
    seat: int
    phase: str
    to_act: int
    legal_actions: tuple[int, ...]
    dealer: int
    scores: tuple[int, ...]
    actions: tuple[tuple[int, str], ...]
    action_ids: tuple[int, ...]
    last_result: Mapping[str, Any] | None
    options: Mapping[str, OptionValue] = field(repr=False)

    def cards_in_hand(self) -> list[Card]:
        """The cards of the hand this view shows, ascending, a card held
        twice (two decks) listed twice."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The view as plain JSON-able data (cards as text)."""
        raise NotImplementedError


# each game's position codec, registered by the notation layer above the games
# (rummylab.position): a game does not name the module that reads it
_POSITION_CODECS: dict[type[State], Any] = {}


def register_position_codec(cls: type[State], codec: Any) -> None:
    """Make ``codec`` (with ``write(state, seat)`` and ``read(cls, fields,
    seed)``) the one that writes and reads ``cls``'s positions."""
    _POSITION_CODECS[cls] = codec


class State(ABC):
    """A match in progress. Subclasses are the games.

    Each game describes itself in class attributes, so that the code above
    the games (the registry, match statistics, the arena, the command line,
    the research adapters) asks the game instead of testing its name:

    ``game_name``, ``aliases``
        its name in the registry, records and commands, and other names
        that find it (``rummylab.registry.game_class``).
    ``title``
        its name in prose ("Three Thirteen").
    ``min_players``, ``max_players``, ``default_players``
        how many may play; a game for a range of counts takes the option
        ``players``.
    ``lower_is_better``
        the lowest total wins (Three Thirteen's penalties): rankings and
        zero-sum returns turn round.
    ``deal_word``
        what one deal is called: ``"hand"`` or ``"round"``.
    ``drawn_key``
        the summary's name for the deals that end with no winner
        (``drawn_hands``, ``rounds_without_going_out``, ...).
    ``figures``, ``deal_figure``
        the per-seat figures of a summary, in table order (see
        :meth:`count_event`), and the one that is its per-deal points.
    ``observation_type``
        the class of ``observation(seat)``.
    ``move_forms``
        how its moves are written, as a player types them (``discard 7h``);
        ``text_lines`` and ``deal_line`` write a hand and a table.
    ``analysis_inputs``
        what :meth:`analyze` reads besides the cards (``round``, ``table``,
        ``hand``, ``decks``).
    ``max_deals``
        the most deals a match has, if the rules fix it (Three Thirteen: 11).
    ``reshuffles_stock``
        an empty stock is rebuilt from the discard pile: records carry its
        ``reshuffle`` lines and the constructor takes ``reshuffles=``.

    Class methods say how a match starts (:meth:`starts`), what its pack is
    (:meth:`pack`), how long a deal can run (:meth:`move_limit`), the range
    of its points (:meth:`utility_bound`) and what a move shows the table
    (:meth:`takes_discard`, :meth:`shown_cards`, :meth:`lays_hand_down`):
    the research adapters model the chance and the hidden cards from them.
    """

    game_name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str]
    option_spec: ClassVar[Mapping[str, Option]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    lower_is_better: ClassVar[bool] = False
    deal_word: ClassVar[str] = "hand"
    drawn_key: ClassVar[str] = "drawn_hands"
    figures: ClassVar[tuple[Figure, ...]] = ()
    deal_figure: ClassVar[str] = ""
    observation_type: ClassVar[type[Observation]] = Observation
    move_forms: ClassVar[tuple[str, ...]] = ()
    analysis_inputs: ClassVar[frozenset[str]] = frozenset()
    max_deals: ClassVar[int | None] = None
    reshuffles_stock: ClassVar[bool] = False

    options: dict[str, OptionValue]
    num_players: int
    _legal: list[int] | None
    _scores: list[int]
    _winners: list[int]
    _final: list[int]
    _results: list[Event]
    seed: int | None
    events: list[Event]
    #: dealt from deck orders given to the constructor, not from the seed
    decks_given: bool = False
    #: the position the match started from (rummylab.from_position), or None:
    #: a record's header carries it, and replaying starts from it again
    start_position: str | None = None

    # -- whose turn, what is legal ------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or ``TERMINAL``."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal action ids for the seat to act, ascending."""

    @classmethod
    @abstractmethod
    def num_distinct_actions(cls) -> int:
        """Size of the fixed action space."""

    def legal_action_mask(self) -> list[bool]:
        mask = [False] * self.num_distinct_actions()
        for a in self.legal_actions():
            mask[a] = True
        return mask

    # -- acting --------------------------------------------------------
    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Apply a legal action; an illegal one raises
        :class:`IllegalActionError` and changes nothing."""

    @abstractmethod
    def action_to_string(self, action: int) -> str: ...

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse an action's text form (any case); raise
        :class:`IllegalActionError` for text that names no action."""

    def apply(self, text: str) -> int:
        """Parse and apply an action given as text; returns its id."""
        action = self.string_to_action(as_text(text))
        self.apply_action(action)
        return action

    def _require_legal(self, action: int) -> int:
        """``action`` as a plain int; raise unless it is legal now (the
        cached list first: hot path)."""
        if type(action) is not int:
            action = as_action(action)
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            self.check_legal(action)
        return action

    def check_legal(self, action: int) -> int:
        """``action`` as a plain int; raise :class:`IllegalActionError`
        unless it is legal now, with the reason :meth:`refusal` gives."""
        action = as_action(action)
        if self.is_terminal():
            raise IllegalActionError("the match is over")
        reason = self.refusal(action)
        if reason is not None:
            try:
                text = self.action_to_string(action)
            except (IllegalActionError, ValueError, IndexError):
                text = str(action)
            raise IllegalActionError(f"{text!r} is not legal now: {reason}")
        return action

    # -- refusals: why a move is not legal now, in the game's own words ----
    def refusal(self, move: int | str, seat: int | None = None) -> str | None:
        """None if ``move`` (an action id, or its text) is legal now for the
        seat to act; otherwise why not, one line in the game's own words,
        citing the rule (§) or decision (D-n) that refuses it where one does.
        With ``seat``, a move of a seat that is not to act is refused too:
        an interface answering for a seat passes it, so that no reason tells
        that seat of the cards of the seat to act.

        The reason names no key of any interface (a terminal, a browser), so
        every one of them can show it and add its own keys.

        >>> from rummylab.registry import new_state
        >>> state = new_state("gin", seed=1)
        >>> state.refusal("take discard") is None, state.refusal("draw stock")
        (True, 'the upcard is offered first: take it or pass (§1.3)')
        """
        if isinstance(move, str):
            try:
                action = self.string_to_action(move)
            except IllegalActionError as e:
                return str(e)
        else:
            whole = whole_number(move)
            if whole is None:
                return f"{move!r} is not an action id (an int)"
            action = whole
        turn = self._turn_refusal(seat)
        if turn is not None:
            return turn
        if action in self.legal_actions():
            return None
        return self._refusal(action)

    def _turn_refusal(self, seat: int | None) -> str | None:
        """Why no move is open now (to ``seat``, when given), or None."""
        if self.is_terminal():
            return "the match is over"
        if seat is not None:
            asked = whole_number(seat)
            if asked is None or not 0 <= asked < self.num_players:
                return f"no seat {seat!r}"
            if asked != self.current_player():
                return f"it is not seat {asked}'s turn: seat {self.current_player()} is to act"
        return None

    def _refusal(self, action: int) -> str:
        """Why ``action``, not legal now, is refused; each game says it by
        its rules. This fallback names the moves that are legal."""
        try:
            self.action_to_string(action)
        except (IllegalActionError, ValueError, IndexError) as e:
            return str(e)
        legal = ", ".join(self.action_to_string(a) for a in self.legal_actions())
        return f"the legal moves now are {legal}"

    # -- views and results -------------------------------------------
    def _result_view(self, results: Sequence[Event]) -> Mapping[str, Any] | None:
        """The latest of ``results`` for an observation: a read-only deep
        copy made for this view alone. Not cached: a cache the state holds,
        or one two views share, would let a view walk (``gc.get_referrers``)
        back to the state or to another seat's view."""
        return frozen(results[-1]) if results else None

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """What ``seat`` may know, and nothing more."""

    @property
    def scores(self) -> list[int]:
        """Running totals."""
        return list(self._scores)

    @property
    def winners(self) -> list[int]:
        """The seats that won the match (empty until it is over)."""
        return list(self._winners)

    @property
    def final_scores(self) -> list[int]:
        """Totals with the end-of-match bonuses (empty until it is over)."""
        return list(self._final)

    def returns(self) -> list[float]:
        """Per seat, zero-sum: own final score less the others' mean (where
        lower totals win, the others' mean less one's own)."""
        if not self.is_terminal():
            return [0.0] * self.num_players
        return self._zero_sum([-f for f in self._final] if self.lower_is_better else self._final)

    @property
    def results(self) -> list[Event]:
        """The result of every hand (round) so far, as its ``result`` event
        (copies: changing them changes nothing here)."""
        return [copy.deepcopy(r) for r in self._results]

    @abstractmethod
    def hand_of(self, seat: int) -> Any:
        """A seat's cards in the game's own form (full information: for
        referees and tests): Gin a bit mask (``cards.cards_of``), Three
        Thirteen a two-deck multiset (``cards.multi_cards``), Manipulation
        a sorted list. :meth:`cards_in_hand` is the same in one form."""

    @abstractmethod
    def cards_in_hand(self, seat: int) -> list[Card]:
        """A seat's cards, ascending, a card held twice listed twice (full
        information: for referees and tests)."""

    def clone(self) -> Self:
        """An independent copy that records only what happens to it from now
        on (the games replace this deep copy by faster ones)."""
        events, self.events = self.events, []
        try:
            new = copy.deepcopy(self)
        finally:
            self.events = events
        return new

    @classmethod
    def replay_setup(cls, events: Sequence[Event]) -> dict[str, Any]:
        """Constructor arguments, beyond the deck orders, that a record's
        ``events`` fix (by default the first deal's dealer)."""
        for e in events:
            if e.get("type") == "deal":
                return {"first_dealer": int(e["dealer"])}
        return {}

    @classmethod
    def decks_for(cls, players: int) -> int:
        """How many decks ``players`` play with."""
        return 1

    @classmethod
    def pack(cls, players: int) -> list[Card]:
        """Every card ``players`` play with, deck by deck."""
        return [c for _ in range(cls.decks_for(players)) for c in range(52)]

    @classmethod
    def starts(cls, players: int) -> list[tuple[str, dict[str, Any]]]:
        """Every way a match can start before its first deck is dealt, as
        ``(text, constructor keywords)``: by default, who deals first."""
        return [(f"dealer {seat}", {"first_dealer": seat}) for seat in range(players)]

    @classmethod
    def move_limit(cls, players: int) -> int:
        """A bound on the moves of one deal for adapters that must cut a
        game off: a length no sensible deal reaches (random players can take
        discards back and forth for ever)."""
        return 300

    @classmethod
    def utility_bound(cls, options: Mapping[str, OptionValue], players: int,
                      deals: int) -> tuple[float, float]:
        """The least and greatest zero-sum points (``returns`` without the
        end-of-match bonuses) a seat can have after ``deals`` deals."""
        raise NotImplementedError

    @classmethod
    def takes_discard(cls, action: int) -> bool:
        """``action`` takes the top card of the discard pile."""
        return False

    @classmethod
    def shown_cards(cls, text: str) -> list[Card]:
        """The cards of the mover's hand that the move written ``text`` puts
        face up (a discard, a meld)."""
        return []

    @classmethod
    def lays_hand_down(cls, action: int) -> bool:
        """After ``action`` the mover's hand lies face up while the deal goes
        on (Three Thirteen's going out, §3.5)."""
        return False

    def dealt_to(self) -> list[int]:
        """For the deal in progress, the seat each card of its deck order went
        to, top card first (-1: dealt face up); the rest is the stock."""
        raise NotImplementedError

    def role_of(self, seat: int) -> str:
        """The seat's role this deal ("" where the game has none)."""
        return ""

    def deal_line(self) -> str:
        """What every seat sees of the deal in progress, for a plain-text log
        (it follows the seat's own cards, each part after ``" | "``)."""
        return ""

    def text_lines(self, seat: int | None = None) -> list[str]:
        """A plain-text view, line by line: ``seat``'s cards as it sees them,
        or every hand (the referee's view: ``seat`` None), then the public
        cards on the table."""
        seats = range(self.num_players) if seat is None else [seat]
        return [f"seat {p}: {cards_str(self._seen_cards(p, seat is None))}" for p in seats]

    def _seen_cards(self, seat: int, referee: bool) -> list[Card]:
        return self.cards_in_hand(seat) if referee else self.observation(seat).cards_in_hand()

    @classmethod
    def count_event(cls, counts: Counts, event: Event, memo: dict[str, Any]) -> bool:
        """Count one event of a match into ``counts`` (per-seat counters
        named in ``figures``; ``memo`` keeps what a later event needs, for
        one run); True if it ends a deal with no winner (``drawn_key``)."""
        return False

    @classmethod
    def counters(cls) -> tuple[str, ...]:
        """The counters ``figures`` read, in order of first use."""
        names = [n for f in cls.figures for n in (f.count, f.per)
                 if n is not None and n not in ("deal", "match")]
        return tuple(dict.fromkeys(names))

    @classmethod
    def analyze(cls, cards: str, **given: Any) -> dict[str, Any]:
        """The best arrangement of a hand (for ``rummylab analyze``); the
        keys of ``given`` are in ``analysis_inputs``."""
        raise OptionError(f"{cls.game_name} has no hand analysis")

    @classmethod
    def arrange(cls, obs: Observation) -> dict[str, Any] | None:
        """The hand ``obs`` shows as a player lays it out (the browser's table):
        ``melds``, ``unmatched`` cards, their ``points`` under the game's
        ``word`` for them and, after the draw, ``after_discard`` (card ->
        points left); None if the game has no arrangement or there is no hand."""
        return None

    # -- positions (docs/positions.md) ---------------------------------------
    def position(self, seat: int | None = None) -> str:
        """This moment as one line: the whole state, or with ``seat`` only
        what that seat may know (written from its observation alone)."""
        text: str = self.position_codec().write(self, None if seat is None else self._seat(seat))
        return text

    @classmethod
    def position_codec(cls) -> Any:
        """The game's position codec (``write`` and ``read``): the notation
        layer above the games registers it (``rummylab.position``, imported
        with the package)."""
        codec = _POSITION_CODECS.get(cls)
        if codec is None:
            raise PositionError(f"{cls.game_name} has no position notation")
        return codec

    @classmethod
    def record_version_setup(cls, version: int) -> dict[str, Any]:
        """Constructor keywords that replay a record of an older format
        ``version`` as it was played (none: every version plays alike)."""
        return {}

    # -- helpers the games share ------------------------------------------
    def _setup(self, options: Mapping[str, object] | None, seed: int | None) -> None:
        """Validate the options and key every shuffle to the seed."""
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(f"options must be a mapping such as {{'target': 50}}, "
                              f"not {type(options).__name__} {shown(options)}")
        self.options = resolve_options(self.option_spec, options)
        # 7.0, True or "7" would deal another game than 7 (the shuffles key on its text)
        if seed is not None:
            whole = whole_number(seed)
            if whole is None:
                raise OptionError(f"the seed must be a whole number, not {shown(seed)}")
            seed = whole
        self.seed = seed
        self.events = []
        # each shuffle draws from its own generator keyed by the seed, so a
        # clone copies no generator state
        self._base_seed = seed if seed is not None else random.SystemRandom().randrange(2**63)

    def _rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.game_name}/{self._base_seed}/{purpose}")

    def _first_dealer(self, first_dealer: int | None, players: int) -> int:
        """The given first dealer, or one drawn at random from the seed."""
        if first_dealer is None:
            return self._rng("dealer").randrange(players)
        seat = whole_number(first_dealer)
        if seat is None or not 0 <= seat < players:
            raise IllegalActionError(f"first_dealer must be a seat from 0 to {players - 1}, "
                                     f"not {shown(first_dealer)}")
        return seat

    def _seat(self, seat: object) -> int:
        """``seat`` as a plain int if it is one of the seats (never a bool)."""
        n = whole_number(seat)
        if n is None or not 0 <= n < self.num_players:
            raise IllegalActionError(f"no seat {shown(seat)}")
        return n

    @staticmethod
    def _zero_sum(final: Sequence[float]) -> list[float]:
        """Each seat's final score less the mean of the others'."""
        n, total = len(final), sum(final)
        return [f - (total - f) / (n - 1) for f in final]

    def take_events(self) -> list[Event]:
        """Events since the last call (for streaming records)."""
        out, self.events = self.events, []
        return out
