"""Positions of Three Thirteen (docs/positions.md).

Hands are multisets: with two decks (three or four players) a card may be
written twice, never more.

>>> from rummylab import from_position, new_state
>>> state = new_state("three-thirteen", {"players": 3}, seed=4)
>>> text = state.position()
>>> text.split()[:5]
['three-thirteen/1', 'players=3', 'round=1', 'dealer=2', 'scores=0,0,0']
>>> from_position(text).position() == text
True
>>> [t for t in state.position(1).split() if t.startswith(("hands", "stock"))]
['hands=?3/2d,8d,Td/?3', 'stock=?94']
"""

from __future__ import annotations

import sys
from typing import Any

from rummylab.cards import Card, card_str, multi_cards, multi_count, multi_of
from rummylab.errors import CardError, PositionError
from rummylab.game import register_position_codec
from rummylab.position import (
    VERSION,
    Fields,
    cards,
    cards_text,
    count_pack,
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
from rummylab.three_thirteen.game import (
    DISCARD,
    DRAW,
    OVER,
    ROUNDS,
    THIRTEEN_OPTIONS,
    ThirteenObservation,
    ThirteenState,
    parse_action,
)
from rummylab.three_thirteen.solver import penalty

STEPS = ("draw", "discard")
_CODES = {"draw stock": "s", "take discard": "t"}
_TEXTS = {v: k for k, v in _CODES.items()}


def move_code(text: str) -> str:
    """``discard 7h`` -> ``d7h``, ``go out 7h`` -> ``o7h``."""
    if text in _CODES:
        return _CODES[text]
    return ("o" if text.startswith("go out") else "d") + text.rpartition(" ")[2]


def move_text(code: str) -> str | None:
    if code in _TEXTS:
        return _TEXTS[code]
    verb = {"d": "discard", "o": "go out"}.get(code[0])
    if verb is None or len(code) != 3:
        return None
    try:
        parse_action(f"{verb} {code[1:]}")
    except (CardError, ValueError):
        return None
    return f"{verb} {code[1:]}"


def _multi_text(multi: int, unknown: int | None = None) -> str:
    return cards_text(multi_cards(multi), unknown)


def write(state: ThirteenState, at: int | None) -> str:
    if at is not None:
        return write_view(state.observation(at))
    st = state
    out = [f"{st.game_name}/{VERSION}", *option_tokens(st.options, THIRTEEN_OPTIONS),
           f"round={st.round}", f"dealer={st.dealer}", f"scores={ints_text(st._scores)}"]
    if st._phase == OVER:
        out.append("turn=over")
        return " ".join(out)
    out.append(f"turn={st._to_act}:{st._phase}")
    if st._taken >= 0:
        out.append(f"taken={card_str(st._taken)}")
    if st._went_out is not None:
        out.append(f"out={st._went_out}")
    out.append("hands=" + "/".join(_multi_text(h) for h in st._hands))
    out.append("stock=" + cards_text(reversed(st._stock)))
    out.append("pile=" + cards_text(st._discard))
    if any(st._known):
        out.append("known=" + "/".join(_multi_text(k) for k in st._known))
    if st._reshuffle_id:
        out.append(f"reshuffles={st._reshuffle_id}")
    if st._round_actions:
        out.append("moves=" + moves_text(st._round_actions, move_code))
    return " ".join(out)


def write_view(obs: ThirteenObservation) -> str:
    """What ``obs.seat`` may know, from its observation alone: its hand, the
    hand laid down by a seat that went out, the cards seen taken."""
    out = [f"{obs.game}/{VERSION}", *option_tokens(obs.options, THIRTEEN_OPTIONS),
           f"seat={obs.seat}", f"round={obs.round}", f"dealer={obs.dealer}",
           f"scores={ints_text(obs.scores)}"]
    if obs.phase == OVER:
        out.append("turn=over")
        return " ".join(out)
    out.append(f"turn={obs.to_act}:{obs.phase}")
    if obs.taken_card is not None:
        out.append(f"taken={card_str(obs.taken_card)}")
    elif obs.phase == DISCARD and obs.actions and obs.actions[-1] == (obs.to_act,
                                                                      "take discard"):
        out.append("taken=?")
    if obs.went_out is not None:
        out.append(f"out={obs.went_out}")
    hands = []
    for s in range(obs.num_players):
        if s == obs.seat:
            hands.append(_multi_text(obs.hand))
        elif s == obs.went_out:
            hands.append(_multi_text(obs.laid_down))
        else:
            hands.append(_multi_text(obs.known[s], obs.hand_sizes[s] - multi_count(obs.known[s])))
    out.append("hands=" + "/".join(hands))
    out.append("stock=" + cards_text((), obs.stock_size))
    out.append("pile=" + cards_text(obs.discard_pile))
    if any(obs.known):
        out.append("known=" + "/".join(_multi_text(k) for k in obs.known))
    if obs.actions:
        out.append("moves=" + moves_text(obs.actions, move_code))
    return " ".join(out)


def _sub(small: list[Card], big: list[Card]) -> bool:
    """``small`` is in ``big`` as multisets."""
    rest = list(big)
    for c in small:
        if c not in rest:
            return False
        rest.remove(c)
    return True


def read(cls: type[Any], f: Fields, seed: int | None) -> ThirteenState:
    options = read_options(f, THIRTEEN_OPTIONS)
    n = int(options["players"])
    decks = 1 if n == 2 else 2
    view = f.take("seat")
    if view is not None:
        seat(view, n, "seat=")
    rnd = integer(f.need("round"), "round=", 1, ROUNDS)
    dealer = seat(f.need("dealer"), n, "dealer=")
    scores = integers(f.need("scores"), n, "scores=")
    played = turn(f.need("turn"), n, STEPS)
    state: ThirteenState = cls(options, seed, first_dealer=dealer)
    state.decks_given, state._decks, state._reshuffles = False, [], []
    state.round, state.dealer, state._scores = rnd, dealer, scores
    state._results, state.events = [], []
    if played is None:
        if rnd != ROUNDS:
            raise PositionError(f"turn=over: the game ends after round {ROUNDS}, not {rnd}")
        f.done()
        low = min(scores)
        state._winners = [s for s in range(n) if scores[s] == low]
        state._final = list(scores)
        state._phase, state._legal = OVER, []
        state._hands, state._known = [0] * n, [0] * n
        state._discard, state._stock, state._round_actions = [], [], []
        state._round_action_ids = []
        return state
    to_act, step = played
    taken_text = f.take("taken")
    out_text = f.take("out")
    went_out = None if out_text is None else seat(out_text, n, "out=")
    hands: list[list[Card]] = []
    unknown: list[int] = []
    hidden = []  # hands written with unknown cards: the others' in a seat's position
    for s, part in enumerate(per_seat(f.need("hands"), n, "hands=")):
        held, k = some_cards(part, f"hands= seat {s}")
        hands.append(sorted(held))
        unknown.append(k)
        hidden.append("?" in part)
    stock_known, stock_unknown = some_cards(f.need("stock"), "stock=")
    pile = cards(f.need("pile"), "pile=")
    known_text = f.take("known")
    known = ([sorted(cards(p, f"known= seat {s}"))
              for s, p in enumerate(per_seat(known_text, n, "known="))]
             if known_text is not None else [[] for _ in range(n)])
    reshuffles = integer(f.take("reshuffles") or "0", "reshuffles=")
    moves = read_moves(f.take("moves"), n, move_text)
    f.done()
    # -- the cards add up ------------------------------------------------------------
    pack = {c: decks for c in range(52)}
    written = [c for h in hands for c in h] + stock_known + pile
    left = count_pack(written, pack, f" ({'one deck' if decks == 1 else 'two decks'})")
    unseen = [c for c, k in left.items() for _ in range(k)]
    if len(unseen) != sum(unknown) + stock_unknown:
        raise PositionError(f"the cards do not add up: {len(written)} written, "
                            f"{sum(unknown) + stock_unknown} unknown, the pack holds "
                            f"{52 * decks}")
    size = rnd + 2
    for s in range(n):
        want = size + 1 if s == to_act and step == "discard" else size
        if len(hands[s]) + unknown[s] != want:
            raise PositionError(f"hands=: seat {s} holds {len(hands[s]) + unknown[s]} cards; "
                                f"in round {rnd} it holds {want} at this step")
        if hidden[s] and not known_text:
            known[s] = list(hands[s])  # written beside unknown cards: seen taken
        if not _sub(known[s], hands[s]):
            raise PositionError(f"known=: seat {s} does not hold all of "
                                f"{cards_text(known[s])}")
    stock_size = len(stock_known) + stock_unknown
    if step == "draw" and (not stock_size or not pile):
        raise PositionError("turn=: a turn starts with cards in the stock and the pile "
                            "(D-12 rebuilds an empty stock)")
    if went_out is not None:
        if went_out == to_act:
            raise PositionError(f"out=: seat {went_out} went out; the others play their "
                                "last turns")
        if unknown[went_out]:
            raise PositionError(f"hands=: seat {went_out} went out: its hand is face up")
        if penalty(multi_of(hands[went_out]), rnd + 1,
                   natural_wild_sets=bool(options["natural_wild_sets"])):
            raise PositionError(f"out=: seat {went_out}'s hand does not meld")
    rng = state._rng("position")
    rng.shuffle(unseen)
    for s in range(n):
        hands[s] = sorted(hands[s] + unseen[:unknown[s]])
        del unseen[:unknown[s]]
    taken = -1
    if taken_text is not None:
        if step != "discard":
            raise PositionError("taken=: a card is taken from the pile only before the discard")
        if taken_text == "?":
            if not known[to_act]:
                raise PositionError(f"taken=?: seat {to_act} holds no card seen taken")
            taken = rng.choice(known[to_act])
        else:
            found = cards(taken_text, "taken=")
            if len(found) != 1 or found[0] not in hands[to_act]:
                raise PositionError(f"taken=: {taken_text} is not a card seat {to_act} holds")
            taken = found[0]
            if taken not in known[to_act]:
                known[to_act].append(taken)
    # -- the state -------------------------------------------------------------------
    state._hands = [multi_of(h) for h in hands]
    state._known = [multi_of(k) for k in known]
    state._discard = pile
    state._stock = list(reversed(stock_known + unseen))
    state._to_act = to_act
    state._phase = DRAW if step == "draw" else DISCARD
    state._taken = taken
    state._went_out = went_out
    state._final_left = 0 if went_out is None else n - (to_act - went_out) % n
    state._round_actions = moves
    state._round_action_ids = [state.string_to_action(text) for _, text in moves]
    state._reshuffle_id = reshuffles
    state._legal = None
    return state


register_position_codec(ThirteenState, sys.modules[__name__])
