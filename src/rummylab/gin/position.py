"""Positions of two-player Gin (docs/positions.md); three-player Gin's module
extends :class:`GinCodec` with the roles and the sitter's advice.

>>> from rummylab import from_position, new_state
>>> state = new_state("gin", seed=1)
>>> text = state.position()
>>> text.split()[:5]
['gin/1', 'hand=1', 'dealer=1', 'scores=0,0', 'won=0,0']
>>> from_position(text).position() == text
True
>>> [t for t in state.position(0).split() if t.startswith(("seat", "turn", "hands"))]
['seat=0', 'turn=0:offer', 'hands=5c,7c,9c,5d,Ah,3h,6h,Kh,3s,4s/?10']
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rummylab.cards import Card, card_str, cards_of, mask_of, parse_card
from rummylab.errors import CardError, PositionError
from rummylab.game import register_position_codec
from rummylab.gin.game import (
    DISCARD,
    DRAW,
    GIN_OPTIONS,
    OFFER,
    OVER,
    GinObservation,
    GinState,
)
from rummylab.options import Option, OptionValue
from rummylab.position import (
    VERSION,
    Fields,
    cards,
    cards_text,
    count_pack,
    flag,
    integer,
    integers,
    ints_text,
    moves_text,
    option_tokens,
    per_seat,
    read_moves,
    read_options,
    seat,
    some_cards,
    turn,
)

STEPS = ("offer", "draw", "stock", "discard")
_PACK = {c: 1 for c in range(52)}

_CODES = {"pass": "p", "draw stock": "s", "take discard": "t", "big gin": "g"}
_TEXTS = {v: k for k, v in _CODES.items()}


def move_code(text: str) -> str:
    """``discard 7h`` -> ``d7h``, ``knock 7h`` -> ``k7h``, ``draw stock`` -> ``s``."""
    if text in _CODES:
        return _CODES[text]
    verb, _, c = text.partition(" ")
    return verb[0] + c


def move_text(code: str) -> str | None:
    if code in _TEXTS:
        return _TEXTS[code]
    verb = {"d": "discard", "k": "knock"}.get(code[0])
    if verb is None or len(code) != 3:
        return None
    try:
        return f"{verb} {card_str(parse_card(code[1:]))}"
    except CardError:
        return None


class GinCodec:
    """Writes and reads Gin positions; three-player Gin overrides the hooks."""

    spec: Mapping[str, Option] = GIN_OPTIONS
    players = 2

    # -- hooks -----------------------------------------------------------------
    def roles_tokens(self, dealer: int, roles: tuple[str, ...]) -> list[str]:
        return [f"dealer={dealer}"]

    def read_roles(self, f: Fields) -> tuple[int, int, int | None]:
        """Dealer, non-dealer and (three-player Gin) the sitter."""
        dealer = seat(f.need("dealer"), 2, "dealer=")
        return dealer, 1 - dealer, None

    def extra_tokens(self, advice: tuple[str, ...]) -> list[str]:
        return []

    def read_extra(self, f: Fields, state: GinState) -> None:
        """Three-player Gin's advice; nothing in Gin."""

    def build(self, cls: type[Any], options: Mapping[str, OptionValue],
              seed: int | None, dealer: int) -> GinState:
        state: GinState = cls(options, seed, first_dealer=dealer)
        return state

    # -- writing ---------------------------------------------------------------
    def write(self, state: GinState, at: int | None) -> str:
        if at is not None:
            return self.write_view(state.observation(at))
        st = state
        n = st.num_players
        out = [f"{st.game_name}/{VERSION}", *option_tokens(st.options, self.spec),
               f"hand={st._hand_no}"]
        out += self.roles_tokens(st.dealer, tuple(st.role_of(s) for s in range(n)))
        out += [f"scores={ints_text(st._scores)}", f"won={ints_text(st._wins)}"]
        if st.options["hollywood"]:
            out.append("games=" + "/".join(
                ",".join(f"{st._hw_cols[g][s]}:{st._hw_wins[g][s]}" for s in range(n))
                for g in range(3)))
        if st._phase == OVER:
            out.append("turn=over")
            return " ".join(out)
        step = {OFFER: "offer", DISCARD: "discard"}.get(
            st._phase, "stock" if st._forced_stock else "draw")
        out.append(f"turn={st._to_act}:{step}")
        if st._phase == DISCARD and st._taken >= 0:
            out.append(f"taken={card_str(st._taken)}")
        if st.options["oklahoma"]:
            out += [f"limit={st._limit}", f"double={str(st._multiplier == 2).lower()}"]
        out.append("hands=" + "/".join(cards_text(cards_of(h)) for h in st._hands))
        out.append("stock=" + cards_text(reversed(st._stock)))
        out.append("pile=" + cards_text(st._discard))
        if any(st._known):
            out.append("known=" + "/".join(cards_text(cards_of(k)) for k in st._known))
        out += self.extra_tokens(tuple(t for _, t, at in getattr(st, "_advice", ())
                                       if at == len(st._hand_actions)))
        if st._hand_actions:
            out.append("moves=" + moves_text(st._hand_actions, move_code))
        return " ".join(out)

    def write_view(self, obs: GinObservation) -> str:
        """What ``obs.seat`` may know, from its observation alone."""
        n = len(obs.scores)
        out = [f"{obs.game}/{VERSION}", *option_tokens(obs.options, self.spec),
               f"seat={obs.seat}", f"hand={obs.hand_number}"]
        out += self.roles_tokens(obs.dealer, obs.roles)
        out.append(f"scores={ints_text(obs.scores)}")
        # the hands won and Hollywood's games are public: written as in the full position
        if obs.hands_won:
            out.append(f"won={ints_text(obs.hands_won)}")
        if obs.games:
            out.append("games=" + "/".join(",".join(f"{p}:{w}" for p, w in game)
                                           for game in obs.games))
        if obs.phase == OVER:
            out.append("turn=over")
            return " ".join(out)
        step = {OFFER: "offer", DISCARD: "discard"}.get(obs.phase, "draw")
        # after both declined the upcard, the first draw is from the stock (§1.3)
        if obs.phase == DRAW and obs.actions and obs.actions[-1][1] == "pass":
            step = "stock"
        out.append(f"turn={obs.to_act}:{step}")
        if obs.taken_card is not None:
            out.append(f"taken={card_str(obs.taken_card)}")
        elif obs.phase == DISCARD and obs.actions and obs.actions[-1] == (obs.to_act,
                                                                          "take discard"):
            out.append("taken=?")  # seen taken; which of its known cards is not shown
        if obs.options["oklahoma"]:
            out += [f"limit={obs.knock_limit}", f"double={str(obs.doubled).lower()}"]
        holders = [s for s in range(n) if obs.roles[s] != "sitter"]
        opponent = next(s for s in holders if s != obs.hand_seat)
        hands = []
        for s in range(n):
            if s == obs.hand_seat:
                hands.append(cards_text(cards_of(obs.hand)))
            elif s == opponent:
                known = cards_of(obs.opponent_known)
                hands.append(cards_text(known, obs.opponent_hand_size - len(known)))
            else:
                hands.append("-")
        out.append("hands=" + "/".join(hands))
        out.append("stock=" + cards_text((), obs.stock_size))
        out.append("pile=" + cards_text(obs.discard_pile))
        out += self.extra_tokens(obs.advice)
        if obs.actions:
            out.append("moves=" + moves_text(obs.actions, move_code))
        return " ".join(out)

    # -- reading ---------------------------------------------------------------
    def read(self, cls: type[Any], f: Fields, seed: int | None) -> GinState:
        n = self.players
        options = read_options(f, self.spec)
        view = f.take("seat")
        viewer = None if view is None else seat(view, n, "seat=")
        hand_no = integer(f.need("hand"), "hand=", 1, 100_000)
        dealer, non_dealer, sitter = self.read_roles(f)
        scores = integers(f.need("scores"), n, "scores=")
        won_text = f.take("won")
        # a seat's view does not show the hands won: at least one for points scored
        won = (integers(won_text, n, "won=") if won_text is not None
               else [1 if s else 0 for s in scores])
        for s in range(n):
            if scores[s] and not won[s]:
                raise PositionError(f"seat {s} has {scores[s]} points and won no hand")
        target = int(options["target"])
        hollywood = bool(options["hollywood"])
        games = self._read_games(f, n, target) if hollywood else None
        played = turn(f.need("turn"), n, STEPS)
        holders = [dealer, non_dealer]
        if not hollywood and played is not None and max(scores) >= target:
            raise PositionError(f"a seat has reached the target {target}: write turn=over")
        if games is not None and played is not None and not any(
                max(col) < target for col, _ in games):
            raise PositionError("all three Hollywood games are over: write turn=over")
        state = self.build(cls, options, seed, dealer)
        state.dealer, state.non_dealer = dealer, non_dealer
        if sitter is not None:
            state.sitter_seat = sitter  # type: ignore[attr-defined]
        state.decks_given = False
        state._decks = []
        state._hand_no = hand_no
        state._scores, state._wins = scores, won
        state._results = []
        state.events = []
        if hollywood:
            self._set_games(state, games or [([0] * n, [0] * n)] * 3, target)
        if played is None:
            self._finish(state, scores, target, games)
            f.done()
            return state
        to_act, step = played
        if to_act not in holders:
            raise PositionError(f"turn=: seat {to_act} holds no cards this hand (the sitter)")
        if step == "stock":
            first = options["first_draw_after_both_pass"]
            due = dealer if first == "dealer" else non_dealer
            if to_act != due:
                raise PositionError(f"turn=: after both decline the upcard seat {due} draws "
                                    "first (first_draw_after_both_pass)")
        taken_text = f.take("taken")
        limit, double = self._read_oklahoma(f, options)
        hand_parts = per_seat(f.need("hands"), n, "hands=")
        hands: list[list[Card]] = []
        unknown: list[int] = []
        hidden = []  # hands written with unknown cards: the others' in a seat's position
        for s, part in enumerate(hand_parts):
            held, k = some_cards(part, f"hands= seat {s}")
            if len(set(held)) != len(held):
                raise PositionError(f"hands= seat {s} holds a card twice")
            hands.append(held)
            unknown.append(k)
            hidden.append("?" in part)
        stock_known, stock_unknown = some_cards(f.need("stock"), "stock=")
        pile = cards(f.need("pile"), "pile=")
        known_text = f.take("known")
        known = ([set(cards(p, f"known= seat {s}"))
                  for s, p in enumerate(per_seat(known_text, n, "known="))]
                 if known_text is not None else [set() for _ in range(n)])
        for s in range(n):
            if hidden[s]:  # the cards written beside unknown ones are those seen taken
                known[s] |= set(hands[s])
        moves = read_moves(f.take("moves"), n, move_text)
        self.read_extra(f, state)
        f.done()
        # -- the cards add up -------------------------------------------------------
        left = count_pack([c for h in hands for c in h] + stock_known + pile, _PACK)
        unseen = [c for c, k in left.items() if k]
        sizes = [len(hands[s]) + unknown[s] for s in range(n)]
        if len(unseen) != sum(unknown) + stock_unknown:
            raise PositionError(f"the cards do not add up: {52 - len(unseen)} written, "
                                f"{sum(unknown) + stock_unknown} unknown, the pack holds 52")
        for s in range(n):
            want = 0 if s not in holders else 11 if (s == to_act and step == "discard") else 10
            if sizes[s] != want:
                raise PositionError(f"hands=: seat {s} holds {sizes[s]} cards; it holds "
                                    f"{want} at this step")
            if not known[s] <= set(hands[s]):
                raise PositionError(f"known=: seat {s} does not hold "
                                    f"{card_str(min(known[s] - set(hands[s])))}")
        stock_size = len(stock_known) + stock_unknown
        if step in ("offer", "stock") and (stock_size != 31 or len(pile) != 1):
            raise PositionError("turn=: the upcard is offered (and declined) only at the "
                                "start of the hand: stock 31 cards, pile 1")
        if stock_size < (2 if step == "discard" else 3):
            raise PositionError(f"stock=: {stock_size} cards; the hand ends drawn when the "
                                "stock is down to two (§1.9)")
        if not pile and step != "discard":
            raise PositionError("pile=: the discard pile is empty only while the card "
                                "taken from it is to be discarded")
        rng = state._rng("position")
        rng.shuffle(unseen)
        for s in range(n):
            hands[s] += unseen[:unknown[s]]
            del unseen[:unknown[s]]
        stock = stock_known + unseen
        taken = -1
        if taken_text is not None:
            if step != "discard":
                raise PositionError("taken=: a card is taken from the pile only before "
                                    "the discard")
            taken = self._taken(taken_text, known[to_act], set(hands[to_act]), rng, to_act)
            known[to_act].add(taken)  # seen taken: the other seat knows it
        # -- the state -----------------------------------------------------------
        state._hands = [mask_of(h) for h in hands]
        state._known = [mask_of(k) for k in known]
        state._discard = pile
        state._stock = list(reversed(stock))
        if limit is None:
            state._limit, state._multiplier = int(options["knock_limit"]), 1
        else:
            if double is None:  # the upcard's suit is not in a seat's view
                double = rng.random() < 0.25
            state._limit, state._multiplier = limit, 2 if double else 1
        state._phase = {"offer": OFFER, "discard": DISCARD}.get(step, DRAW)
        state._to_act = to_act
        state._passes = (0 if to_act == non_dealer else 1) if step == "offer" else 2
        state._forced_stock = step == "stock"
        state._taken = taken
        state._hand_actions = moves
        state._hand_action_ids = [state.string_to_action(text) for _, text in moves]
        state._legal = None
        self.after_read(state, moves, viewer)
        return state

    def after_read(self, state: GinState, moves: list[tuple[int, str]],
                   viewer: int | None) -> None:
        """Three-player Gin re-dates the advice to the moves read."""

    @staticmethod
    def _taken(text: str, known: set[Card], held: set[Card], rng: random.Random,
               to_act: int) -> Card:
        """The card taken from the pile: ``?`` (a seat's view of another's
        turn) is one of the cards seen taken, else it must be held."""
        if text == "?":
            if not known:
                raise PositionError(f"taken=?: seat {to_act} holds no card seen taken")
            return rng.choice(sorted(known))
        found = cards(text, "taken=")
        if len(found) != 1 or found[0] not in held:
            raise PositionError(f"taken=: {text} is not a card seat {to_act} holds")
        return found[0]

    @staticmethod
    def _read_oklahoma(f: Fields, options: Mapping[str, OptionValue]
                       ) -> tuple[int | None, bool | None]:
        limit_text, double_text = f.take("limit"), f.take("double")
        if not options["oklahoma"]:
            if limit_text is not None or double_text is not None:
                raise PositionError("limit= and double= are Oklahoma's (oklahoma=true)")
            return None, None
        if limit_text is None:
            raise PositionError("field limit= is missing: Oklahoma's knock limit for the hand")
        limit = integer(limit_text, "limit=", 0, 10)
        if limit == 1:
            raise PositionError("limit=1: an ace upcard allows gin only (limit=0)")
        double = None if double_text is None else flag(double_text, "double=")
        return limit, double

    @staticmethod
    def _read_games(f: Fields, n: int, target: int) -> list[tuple[list[int], list[int]]] | None:
        text = f.take("games")
        if text is None:  # a seat's view: the columns are not in its observation
            return None
        games = []
        for g, part in enumerate(per_seat(text, 3, "games= (three games)")):
            cols, wins = [], []
            items = part.split(",")
            if len(items) != n:
                raise PositionError(f"games=: game {g + 1} has {len(items)} values for "
                                    f"{n} seats")
            for item in items:
                points, _, count = item.partition(":")
                p = integer(points, f"games= game {g + 1}")
                w = integer(count, f"games= game {g + 1} wins") if count else int(p > 0)
                if p and not w:
                    raise PositionError(f"games=: game {g + 1} has points without a win")
                cols.append(p)
                wins.append(w)
            if sum(c >= target for c in cols) > 1:
                raise PositionError(f"games=: game {g + 1} has two seats at the target")
            games.append((cols, wins))
        return games

    @staticmethod
    def _set_games(state: GinState, games: list[tuple[list[int], list[int]]],
                   target: int) -> None:
        n = state.num_players
        state._hw_cols = [cols[:] for cols, _ in games]
        state._hw_wins = [wins[:] for _, wins in games]
        state._hw_open = [max(cols) < target for cols, _ in games]
        state._hw_entered = [[games[g][1][s] > 0 for g in range(3)] for s in range(n)]
        state._hw_results = [
            ([], []) if state._hw_open[g] else state._settle(
                games[g][0], games[g][1], [s for s in range(n) if games[g][0][s] >= target])
            for g in range(3)]

    @staticmethod
    def _finish(state: GinState, scores: list[int], target: int,
                games: list[tuple[list[int], list[int]]] | None) -> None:
        state._hands = [0] * state.num_players
        state._known = [0] * state.num_players
        state._discard, state._stock, state._hand_actions = [], [], []
        state._hand_action_ids = []
        if games is not None:
            if any(state._hw_open):
                raise PositionError("turn=over: a Hollywood game is still open")
            state._finish_hollywood()
        elif state.options["hollywood"]:  # a seat's view: the games are not shown
            best = max(scores)
            state._winners = [s for s in range(state.num_players) if scores[s] == best]
            state._final, state._phase, state._legal = list(scores), OVER, []
        else:
            reached = [s for s in range(state.num_players) if scores[s] >= target]
            if not reached:
                raise PositionError(f"turn=over: no seat has reached the target {target}")
            state._finish(reached)
        state.events = []


CODEC = GinCodec()
write = CODEC.write
read = CODEC.read
register_position_codec(GinState, CODEC)
