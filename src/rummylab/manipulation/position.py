"""Positions of Manipulation (docs/positions.md): the hands, the draw pile
(``stock=``, top first), the table (melds separated by ``|``, jokers with
what they stand for: ``Jk=Qc``), and the turn in progress: its step, its
draws, the card drawn last, and once the pile is out (§4.10, D-23) the seat
that drew its last card (``last=``), from which the meld-only turns left follow.

>>> from rummylab import from_position, new_state
>>> state = new_state("manipulation", {"players": 3}, seed=2)
>>> text = state.position()
>>> text.split()[1:7]
['round=1', 'dealer=0', 'scores=0,0,0', 'won=0,0,0', 'turn=1:play', 'draws=1']
>>> from_position(text).position() == text
True
"""

from __future__ import annotations

import re
import sys
from typing import Any

from rummylab.cards import JOKER, Card, card_str, cards_str, parse_card
from rummylab.errors import CardError, PositionError
from rummylab.game import register_position_codec
from rummylab.manipulation.game import (
    AFTER_MELD,
    FINAL,
    MANIPULATION_OPTIONS,
    MELD_TEXT,
    OVER,
    TURN,
    ManipulationObservation,
    ManipulationState,
)
from rummylab.manipulation.table import (
    Table,
    TableError,
    check_table,
    parse_meld,
    parse_table,
    table_str,
)
from rummylab.position import (
    VERSION,
    Fields,
    card,
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

STEPS = ("play", "melded", "final")
_STEP = {TURN: "play", AFTER_MELD: "melded", FINAL: "final"}
_PHASE = {v: k for k, v in _STEP.items()}
_CODES = {"draw": "d", "knock": "k", "pass": "p"}
_TEXTS = {v: k for k, v in _CODES.items()}
_CARD = re.compile(r"Jk=[0-9A-Za-z]{2}|[0-9A-Za-z]{2}")


def move_code(text: str) -> str:
    """``meld 7h 8h 9h => 7h 8h 9h | Qs Qd Jk=Qc`` -> ``m7h8h9h>7h8h9h|QsQdJk=Qc``."""
    if text in _CODES:
        return _CODES[text]
    played, _, table = text[5:].partition(" => ")
    melds = table.split(" | ")
    return "m" + played.replace(" ", "") + ">" + "|".join(m.replace(" ", "") for m in melds)


def _split_cards(text: str) -> list[str]:
    tokens = _CARD.findall(text)
    if "".join(tokens) != text:
        raise PositionError(f"moves=: {text!r} is not a list of cards")
    return tokens


def move_text(code: str) -> str | None:
    if code in _TEXTS:
        return _TEXTS[code]
    if not code.startswith("m") or ">" not in code:
        return None
    played, _, table = code[1:].partition(">")
    try:
        cs = sorted(parse_card(t, jokers=True) for t in _split_cards(played))
        melds = tuple(parse_meld(" ".join(_split_cards(m))) for m in table.split("|"))
    except (CardError, TableError, PositionError):
        return None
    if not cs:
        return None
    return f"meld {cards_str(cs)} => {table_str(melds)}"


def _table_text(table: Table) -> str:
    return table_str(table).replace(" | ", "|").replace(" ", ",") or "-"


def write(state: ManipulationState, at: int | None) -> str:
    if at is not None:
        return write_view(state.observation(at))
    st = state
    out = [f"{st.game_name}/{VERSION}", *option_tokens(st.options, MANIPULATION_OPTIONS),
           f"round={st.round}", f"dealer={st.dealer}", f"scores={ints_text(st._scores)}",
           f"won={ints_text(st._won)}"]
    if st._phase == OVER:
        out.append("turn=over")
        return " ".join(out)
    out += [f"turn={st._to_act}:{_STEP[st._phase]}", f"draws={st._draws}"]
    if st._drawn is not None:
        out.append(f"drawn={card_str(st._drawn)}")
    if st._exhausted:
        out.append(f"last={st._final_queue[-1]}")
    if st.options["initial_meld_from_hand"]:
        out.append("melded=" + ints_text(int(m) for m in st._melded_round))
    out.append("hands=" + "/".join(cards_text(h) for h in st._hands))
    out.append("stock=" + cards_text(reversed(st._pile)))
    out.append("table=" + _table_text(st._table))
    if st._round_actions:
        out.append("moves=" + moves_text(st._round_actions, move_code))
    return " ".join(out)


def _turns(obs: ManipulationObservation) -> tuple[int, int | None] | None:
    """From the round's moves: the draws of the turn in progress and the seat
    that drew the pile's last card; None when the moves do not start at the
    round's start (a position written without them)."""
    decks = obs.decks
    remaining = 52 * decks + decks - 10 * obs.num_players
    runs: list[list[int]] = []  # a seat's moves in a row are one turn
    for s, text in obs.actions:
        if not runs or runs[-1][0] != s:
            runs.append([s, 0])
        runs[-1][1] += text == "draw"
    if not runs or runs[-1][0] != obs.to_act:
        runs.append([obs.to_act, 0])
    last, draws = None, 0
    for s, k in runs:
        draws = 0
        for _ in range((remaining > 0) + k):  # the turn's own draw, then the draws asked
            remaining -= 1
            draws += 1
            if remaining == 0:
                last = s
    if remaining != obs.pile_size:
        return None
    return draws, last


def write_view(obs: ManipulationObservation) -> str:
    """What ``obs.seat`` may know, from its observation alone."""
    n = obs.num_players
    out = [f"{obs.game}/{VERSION}", *option_tokens(obs.options, MANIPULATION_OPTIONS),
           f"seat={obs.seat}", f"round={obs.round}", f"dealer={obs.dealer}",
           f"scores={ints_text(obs.scores)}", f"won={ints_text(obs.rounds_won)}"]
    if obs.phase == OVER:
        out.append("turn=over")
        return " ".join(out)
    found = _turns(obs)
    # another seat's draws are seen; without the moves, the least the step allows
    guess = found[0] if found else int(obs.phase == TURN)
    draws = obs.draws_this_turn if obs.seat == obs.to_act else guess
    out += [f"turn={obs.to_act}:{_STEP[obs.phase]}", f"draws={draws}"]
    if obs.drawn is not None:
        out.append(f"drawn={card_str(obs.drawn)}")
    if obs.exhausted:
        last = found[1] if found and found[1] is not None else obs.to_act
        out.append(f"last={last}")
    if obs.options["initial_meld_from_hand"]:
        melded = [any(s == t and m.startswith("meld ") for t, m in obs.actions)
                  for s in range(n)]
        melded[obs.seat] = not obs.first_meld_from_hand_only
        out.append("melded=" + ints_text(int(m) for m in melded))
    out.append("hands=" + "/".join(cards_text(obs.hand) if s == obs.seat
                                   else cards_text((), obs.hand_sizes[s]) for s in range(n)))
    out.append("stock=" + cards_text((), obs.pile_size))
    out.append("table=" + _table_text(obs.table))
    if obs.actions:
        out.append("moves=" + moves_text(obs.actions, move_code))
    return " ".join(out)


def read(cls: type[Any], f: Fields, seed: int | None) -> ManipulationState:
    options = read_options(f, MANIPULATION_OPTIONS)
    n = int(options["players"])
    decks = 1 if n == 2 else 2
    view = f.take("seat")
    if view is not None:
        seat(view, n, "seat=")
    rnd = integer(f.need("round"), "round=", 1, 100_000)
    dealer = seat(f.need("dealer"), n, "dealer=")
    scores = integers(f.need("scores"), n, "scores=")
    won = integers(f.need("won"), n, "won=")
    played = turn(f.need("turn"), n, STEPS)
    target = int(options["target"])
    reached = [s for s in range(n) if scores[s] >= target]
    done = rnd - (played is not None)  # rounds scored (a tie has several winners)
    if max(won) > done:
        raise PositionError(f"won=: a seat won more rounds than the {done} played")
    state: ManipulationState = cls(options, seed, first_dealer=dealer)
    state.decks_given, state._decks, state._auto_pass = False, [], False
    state.round, state.dealer, state._scores, state._won = rnd, dealer, scores, won
    state._results, state.events = [], []
    state._knocker = None
    state._best, state._legal = False, None
    if played is None:
        if not reached:
            raise PositionError(f"turn=over: no seat has reached the target {target}")
        f.done()
        final = [scores[s] + (int(options["game_bonus"]) if s in reached
                              else int(options["round_bonus"]) * won[s]) for s in range(n)]
        best = max(final)
        state._winners = [s for s in range(n) if final[s] == best]
        state._final, state._phase, state._legal = final, OVER, []
        state._hands, state._pile, state._table = [[] for _ in range(n)], [], ()
        state._round_actions, state._final_queue = [], []
        state._round_action_ids = []
        state._drawn = None
        return state
    if reached:
        raise PositionError(f"seat {reached[0]} has reached the target {target}: "
                            "write turn=over")
    to_act, step = played
    draws = integer(f.need("draws"), "draws=", 0, 3)
    drawn_text = f.take("drawn")
    last_text = f.take("last")
    last = None if last_text is None else seat(last_text, n, "last=")
    melded_text = f.take("melded")
    hands: list[list[Card]] = []
    unknown: list[int] = []
    for s, part in enumerate(per_seat(f.need("hands"), n, "hands=")):
        held, k = some_cards(part, f"hands= seat {s}", jokers=True)
        if not held and not k:
            raise PositionError(f"hands=: seat {s} holds no card: it went out, the round "
                                "is over")
        hands.append(held)
        unknown.append(k)
    stock_known, stock_unknown = some_cards(f.need("stock"), "stock=", jokers=True)
    table_text = f.need("table")
    try:
        table = () if table_text == "-" else parse_table(
            table_text.replace(",", " "), decks)
        check_table(table, decks)
    except (TableError, CardError) as e:
        raise PositionError(f"table=: {e}") from None
    moves = read_moves(f.take("moves"), n, move_text)
    f.done()
    if melded_text is not None and not options["initial_meld_from_hand"]:
        raise PositionError("melded= is for initial_meld_from_hand=true")
    melded = ([bool(integer(m, "melded=", 0, 1)) for m in melded_text.split(",")]
              if melded_text is not None
              else [any(s == t and m.startswith("meld ") for t, m in moves) for s in range(n)])
    if len(melded) != n:
        raise PositionError(f"melded= has {len(melded)} values for {n} seats")
    # -- the cards add up ------------------------------------------------------------
    pack = {c: decks for c in range(52)}
    pack[JOKER] = decks
    written = ([c for h in hands for c in h] + stock_known
               + [c for meld in table for c, _ in meld])
    left = count_pack(written, pack, f" ({'one deck' if decks == 1 else 'two decks'})")
    unseen = [c for c, k in left.items() for _ in range(k)]
    if len(unseen) != sum(unknown) + stock_unknown:
        raise PositionError(f"the cards do not add up: {len(written)} written, "
                            f"{sum(unknown) + stock_unknown} unknown, the pack holds "
                            f"{53 * decks}")
    # -- the turn --------------------------------------------------------------------
    exhausted = not stock_known and not stock_unknown
    if exhausted != (last is not None):
        raise PositionError("last= names the seat that drew the pile's last card: it is "
                            "written exactly when the stock is empty")
    final_turn = exhausted and (to_act != last or draws == 0)
    if step == "final" and (not final_turn or draws):
        raise PositionError("turn=: a final (meld-only) turn comes after the pile is out, "
                            "with no draw")
    if step == "play" and (final_turn or not draws):
        raise PositionError("turn=: a turn in play has drawn 1 to 3 cards")
    if final_turn and draws:
        raise PositionError("draws=: the turns after the pile is out draw nothing")
    rng = state._rng("position")
    rng.shuffle(unseen)
    for s in range(n):
        hands[s] = sorted(hands[s] + unseen[:unknown[s]])
        del unseen[:unknown[s]]
    drawn = None
    if drawn_text is not None:
        if not draws:
            raise PositionError("drawn=: no card drawn this turn")
        drawn = card(drawn_text, jokers=True)
        on_table = any(c == drawn for meld in table for c, _ in meld)
        if drawn not in hands[to_act] and not (step == "melded" and on_table):
            raise PositionError(f"drawn=: seat {to_act} does not hold {drawn_text}")
    elif draws:
        if not unknown[to_act]:
            raise PositionError("drawn= is missing: the card the seat to act drew last")
        drawn = rng.choice(hands[to_act])  # another seat's view: a card it holds
    # -- the state -------------------------------------------------------------------
    state._hands = hands
    state._pile = list(reversed(stock_known + unseen))
    state._table = table
    state._melded_round = melded
    state._round_actions = moves
    # a meld in the history has no id (MELD_TEXT), however it was given
    state._round_action_ids = [
        MELD_TEXT if text.startswith("meld ") else state.string_to_action(text)
        for _, text in moves]
    state._exhausted = exhausted
    if final_turn:
        assert last is not None
        state._final_queue = [(to_act + i) % n for i in range((last - to_act) % n + 1)]
    elif exhausted:
        assert last is not None
        state._final_queue = [(last + i) % n for i in range(1, n + 1)]
    else:
        state._final_queue = []
    state._final_turn = final_turn
    state._to_act = to_act
    state._draws = draws
    state._drawn = drawn
    state._phase = _PHASE[step]
    return state


register_position_codec(ManipulationState, sys.modules[__name__])
