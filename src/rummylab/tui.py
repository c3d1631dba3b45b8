"""Playing against bots in a terminal, with Rich: Gin, three-player Gin,
Three Thirteen and Manipulation.

Gin: type a card to discard it (``7h``), ``k 7h`` to knock discarding it,
``s`` to draw from the stock, ``t`` to take the discard, ``p`` to pass.
Three Thirteen: a card, ``o 7h`` to go out discarding it, ``s``, ``t``.
Manipulation: ``m 7h 8h`` to meld cards, ``m CARDS => TABLE`` to lay out the
table, ``b`` the best meld, ``d`` draw again, ``k`` knock, ``p`` pass.
Everywhere: ``hint`` for advice, ``help`` for the keys, ``quit`` to leave, or
the number of a listed move.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from rummylab.bots import make_bot
from rummylab.cards import (
    CARD_POINTS,
    JOKER,
    Card,
    CardSet,
    card_str,
    cards_of,
    cards_str,
    multi_cards,
    multi_remove,
    parse_card,
)
from rummylab.errors import CardError, IllegalActionError, UnknownActionError
from rummylab.game import Event
from rummylab.gin.game import (
    BIG_GIN,
    DISCARD_BASE,
    DRAW_STOCK,
    KNOCK_BASE,
    PASS,
    TAKE_DISCARD,
    GinObservation,
)
from rummylab.gin.solver import best_arrangement, deadwood
from rummylab.manipulation.game import DRAW as M_DRAW
from rummylab.manipulation.game import KNOCK as M_KNOCK
from rummylab.manipulation.game import MELD_BEST as M_BEST
from rummylab.manipulation.game import PASS as M_PASS
from rummylab.manipulation.table import hand_points as manip_points
from rummylab.manipulation.table import meld_str as meld_text
from rummylab.match import apply_move, bot_seed
from rummylab.records import RecordWriter
from rummylab.registry import new_state
from rummylab.three_thirteen.game import DISCARD_BASE as T_DISCARD
from rummylab.three_thirteen.game import DRAW_STOCK as T_STOCK
from rummylab.three_thirteen.game import GO_OUT_BASE as T_GO_OUT
from rummylab.three_thirteen.game import TAKE_DISCARD as T_TAKE
from rummylab.three_thirteen.solver import combo_str
from rummylab.three_thirteen.solver import penalty as penalty13
from rummylab.three_thirteen.solver import solve as solve13

SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold", 4: "bold magenta"}
MANUAL = -2  # a move the player typed out in full and that is already applied
SYMBOL = "♣♦♥♠"
_WARN_MAX = 300  # characters of a warning (the keys fit; a typed line may not)
_ECHO_MAX = 40  # characters of what was typed, echoed in a warning


def card_text(card: Card) -> Text:
    label = card_str(card)
    if card == JOKER:
        return Text("Jk", style=SUIT_STYLE[4])
    return Text(label[0] + SYMBOL[card // 13], style=SUIT_STYLE[card // 13])


def cards_text(cards: list[Card]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


def hand_text(hand: CardSet) -> Text:
    """The hand with its best melds first, in brackets, then the deadwood."""
    arr = best_arrangement(hand)
    out = Text()
    for meld in arr.melds:
        out.append("[")
        cards = cards_of(meld)
        if cards[0] % 13 == cards[-1] % 13:
            cards.sort(key=lambda c: c // 13)
        out.append_text(cards_text(cards))
        out.append("] ")
    out.append_text(cards_text(cards_of(arr.deadwood_mask)))
    out.append(f"   deadwood {arr.deadwood}", style="cyan")
    return out


class TerminalGame:
    """One human seat against bots; input and output through a Rich console."""

    keys = ("Type a card to discard it, 'k CARD' to knock (or go gin), 'big gin' (if the "
            "rules have it), 's' stock, 't' take, 'p' pass")

    def __init__(self, game: str, bot: str, seed: int | None, options: Mapping[str, object],
                 console: Console, human: int = 0) -> None:
        self.state = new_state(game, options, seed)
        self.gin: Any = self.state
        self.console = console
        self.human = human
        self.bots = {s: make_bot(bot, game, None if seed is None else bot_seed(seed, s))
                     for s in range(self.state.num_players) if s != human}
        self.adviser = make_bot("strong", game)  # hints come from the best bot
        self.names = ["You" if s == human else f"{bot} ({s})"
                      for s in range(self.state.num_players)]
        self._spade_double = False  # Oklahoma: this hand counts double

    def ask(self, prompt: str) -> str:
        return self.console.input(prompt).strip()

    def help_text(self) -> str:
        return f"{self.keys}; 'hint', 'help', 'quit', or a move's number."

    def engine_move(self, raw: str) -> int:
        """A move as the records write it (``draw stock``); anything else is
        answered with the keys this prompt takes, not the records' words."""
        try:
            return int(self.gin.string_to_action(raw))
        except UnknownActionError:
            typed = repr(raw.strip())  # as quoted, escapes counted
            if len(typed) > _ECHO_MAX:
                typed = typed[:_ECHO_MAX - 2] + "…" + typed[-1]
            raise IllegalActionError(f"unknown move {typed}. {self.help_text()}") from None

    def wants_help(self, raw: str) -> bool:
        """``help`` (or ``?``) shows the keys again."""
        if raw.lower() in ("?", "help"):
            self.say(self.help_text())
            return True
        return False

    def say(self, text: str) -> None:
        """One line of plain text: names, moves and reasons are never markup
        (nor cut into lines: the terminal wraps them, a pipe keeps them whole)."""
        self.console.print(text, highlight=False, markup=False, soft_wrap=True)

    def warn(self, message: str) -> None:
        """One line in red, never read as markup; a long echo of what was
        typed is cut short."""
        if len(message) > _WARN_MAX:
            message = message[:_WARN_MAX - 1] + "…"
        self.console.print(Text(message, style="red"), highlight=False, soft_wrap=True)

    def run(self, writer: RecordWriter | None = None) -> None:
        state = self.gin
        if writer is not None:
            writer.begin(state, [self.names[s] if s != self.human else "human"
                                 for s in range(state.num_players)])
        self.report(state.take_events() if writer is None else [])
        self.announce_hand()
        while not state.is_terminal():
            seat = state.current_player()
            if not self.sitter_advice(seat):
                self.console.print("You left the match.")
                return
            if seat == self.human:
                before = self.hand_cards(state.observation(seat))
                action = self.human_turn()
                if action is None:
                    self.console.print("You left the match.")
                    return
                if action != MANUAL:  # a typed meld is applied as it is checked
                    state.apply_action(action)
                    self.show_drawn(before, self.hand_cards(state.observation(seat)), action)
            else:
                move = self.bots[seat].move(state.observation(seat))
                if not isinstance(move, str):  # a text move: its record line reports it
                    said = self.describe(seat, move)
                    if said:
                        self.say(f"{self.names[seat]}: {said}")
                apply_move(state, move)
            events = state.take_events()
            if writer is not None:
                writer.write_events(events)
            self.report(events)

    def hand_cards(self, obs: Any) -> list[Card]:
        return cards_of(obs.hand)

    # -- three-player Gin: the sitter's advice (§2.2) ----------------------------
    def sitter_advice(self, seat: int) -> bool:
        """Before each move of the captain in three-player Gin, the sitter's
        advice: a bot sitter advises the player who captains (its ``hint``),
        and a player who sits out sees the captain's hand and may advise the
        bot captain, who has the final say (bots decide from their own view).
        Advice is recorded. False if the player left."""
        st = self.gin
        if getattr(st, "advise", None) is None or seat != st.non_dealer:
            return True
        sitter = st.sitter_seat
        if sitter == self.human:
            return self.human_advice()
        if seat == self.human:
            action, reason = self.bots[sitter].hint(st.observation(sitter))
            st.advise(action)
            self.say(f"{self.names[sitter]}, sitting out, advises: "
                     f"{st.action_to_string(action)} — {reason}")
        return True

    def human_advice(self) -> bool:
        st = self.gin
        obs = st.observation(self.human)
        self.say(f"You sit out this hand; {self.names[st.non_dealer]} captains "
                 "and is to play.")
        self.show_table(obs)
        menu = self.show_menu(obs)
        while True:
            try:
                raw = self.ask("Your advice (a move, hint, or Enter to say nothing): ")
            except EOFError:
                return False
            if raw.lower() in ("q", "quit", "exit"):
                return False
            if not raw:
                return True
            if self.wants_help(raw):
                continue
            if raw.lower() in ("h", "hint"):
                self.show_hint(obs)
                continue
            try:
                action = self.parse(raw, obs, menu)
                st.advise(action)
            except (IllegalActionError, CardError) as e:
                self.warn(str(e))
                continue
            self.say(f"You advise: {st.action_to_string(action)}")
            return True

    @staticmethod
    def numbered(text: str, menu: list[tuple[int, str]]) -> int:
        """The move a number picks from the listed menu."""
        if text.isascii() and text.isdigit():
            i = int(text) if len(text) < 6 else 0  # a long number is out of range too
        else:
            raise IllegalActionError(f"{text!r} is not a move's number")
        if not 1 <= i <= len(menu):
            raise IllegalActionError(f"choose a move from 1 to {len(menu)}")
        return menu[i - 1][0]

    def show_drawn(self, before: list[Card], after: list[Card], action: int) -> None:
        """Tell the player which card a draw from the stock brought."""
        if self.gin.is_terminal() or not str(self.gin.action_to_string(action)).startswith("draw"):
            return
        new = list(after)
        for c in before:
            if c in new:
                new.remove(c)
        if new:
            line = Text("You drew ")
            line.append_text(cards_text(new))
            self.console.print(line)

    def describe(self, seat: int, action: int) -> str:
        text = self.gin.action_to_string(action)
        if action == TAKE_DISCARD:
            return f"takes {card_str(self.gin.discard_pile[-1])} from the discard pile"
        if action == DRAW_STOCK:
            return "draws from the stock"
        if action == PASS:
            return "passes on the upcard"
        return str(text)

    def announce_hand(self) -> None:
        st = self.gin
        self.console.rule(f"Hand {st.hand_number} — dealer {self.names[st.dealer]}")
        if st.num_players == 3:  # a line of its own: a narrow terminal would cut it
            self.say("Roles: " + ", ".join(f"{self.names[s]} {st.role_of(s)}"
                                           for s in range(3)))
        self._spade_double = False
        if st.options.get("oklahoma") and st.discard_pile:
            up = st.discard_pile[0]
            self._spade_double = up // 13 == 3
            limit = st.observation(self.human).knock_limit
            self.say(f"Oklahoma: the upcard {card_str(up)} sets the knock limit at {limit}"
                     + (" (gin only)" if limit == 0 else "")
                     + ("; a spade: this hand counts double" if self._spade_double else ""))

    def report(self, events: list[Event]) -> None:
        for e in events:
            if e["type"] == "result":
                self.show_result(e)
            elif e["type"] == "deal" and e["hand"] > 1:
                self.announce_hand()
            elif e["type"] == "end":
                self.show_end(e)

    def show_result(self, e: Event) -> None:
        c = self.console
        if e["outcome"] == "drawn":
            c.print("[bold]Drawn hand[/]: two cards left in the stock, no score; "
                    "the same dealer deals again.")
        else:
            d = escape(self.names[e["defender"]])
            third, plain = {"gin": ("goes gin", "go gin"),
                            "big_gin": ("goes big gin", "go big gin")}.get(
                                e["outcome"], ("knocks", "knock"))
            who = escape(self.verb(e["knocker"], third, plain))
            c.print(f"[bold]{who}[/]: melds {' | '.join(e['knocker_melds']) or '-'}; "
                    f"deadwood {e['knocker_deadwood_cards'] or '-'} "
                    f"({e['knocker_deadwood']})", highlight=False)
            lay = ", ".join(f"{card} on {e['knocker_melds'][i]}" for card, i in e["layoffs"])
            c.print(f"{d}: melds {' | '.join(e['defender_melds']) or '-'}; "
                    f"lays off {lay or 'nothing'}; deadwood "
                    f"{e['defender_deadwood_cards'] or '-'} ({e['defender_deadwood']})",
                    highlight=False)
            what = "undercut! " if e["outcome"] == "undercut" else ""
            doubled = " (doubled: the first upcard was a spade)" if self._spade_double else ""
            c.print(f"[bold]{what}{escape(self.verb(e['winner'], 'scores', 'score'))} "
                    f"{e['points']}{doubled}[/]", highlight=False)
        self.score_sheet()

    def score_sheet(self) -> None:
        t = Table(title="Score sheet")
        t.add_column("hand", justify="right")
        t.add_column("result")
        for s in range(self.gin.num_players):
            t.add_column(self.names[s], justify="right")
        for r in self.gin.hand_results:
            who = "-" if r["winner"] is None else self.names[r["winner"]]
            t.add_row(str(r["hand"]), f"{r['outcome']} {who} +{r['points']}",
                      *(str(x) for x in r["scores"]))
        self.console.print(t)

    def show_end(self, e: Event) -> None:
        names = self.names
        for i, g in enumerate(e.get("games") or (), 1):  # Hollywood: three games at once
            self.say(f"Game {i}: " + ", ".join(f"{names[s]} {v}" for s, v in
                                               enumerate(g["scores"]))
                     + " — won by " + " and ".join(names[w] for w in g["winners"]))
        if list(e["final_scores"]) != list(e["totals"]):
            opts = self.gin.options
            totals = ", ".join(f"{names[s]} {v}" for s, v in enumerate(e["totals"]))
            parts = [f"hand points {totals}"]
            if opts.get("game_bonus"):
                parts.append(f"game bonus {opts['game_bonus']}")
            if opts.get("line_bonus"):
                won = ", ".join(f"{names[s]} {n}" for s, n in enumerate(e["hands_won"]))
                parts.append(f"line bonus {opts['line_bonus']} a hand won ({won})")
            if opts.get("shutout_double"):
                parts.append("a shutout doubles")
            if e.get("games"):
                parts.append("the three games added")
            self.say("Final scores from: " + "; ".join(parts))
        winners = escape(" and ".join(names[w] for w in e["winners"]))
        self.console.print(f"[bold green]{winners} won the match[/] — final scores: "
                            + ", ".join(f"{escape(names[s])} {v}"
                                        for s, v in enumerate(e["final_scores"])),
                            highlight=False)

    def show_table(self, obs: GinObservation) -> None:
        c = self.console
        top = card_text(obs.discard_pile[-1]) if obs.discard_pile else Text("-")
        limit = f"   knock at {obs.knock_limit} or less" if obs.knock_limit != 10 else ""
        line = Text(f"Scores: {', '.join(f'{self.names[s]} {v}' for s, v in enumerate(obs.scores))}"
                    f"   stock {obs.stock_size}{limit}   discard ")
        line.append_text(top)
        c.print(line)
        if obs.opponent_known:
            known = Text("Opponent holds: ")
            known.append_text(cards_text(cards_of(obs.opponent_known)))
            c.print(known)
        # the sitter's view holds the captain's hand (§2.2)
        mine = Text("Your hand: " if obs.hand_seat == obs.seat else "Captain's hand: ")
        mine.append_text(hand_text(obs.hand))
        c.print(mine)

    def human_turn(self) -> int | None:
        st = self.gin
        obs = st.observation(self.human)
        legal = list(obs.legal_actions)
        self.show_table(obs)
        menu = self.show_menu(obs)
        while True:
            try:
                raw = self.ask("Your move: ")
            except EOFError:
                return None
            if raw.lower() in ("q", "quit", "exit"):
                return None
            if not raw or self.wants_help(raw):
                continue
            if raw.lower() in ("h", "hint"):
                self.show_hint(obs)
                continue
            try:
                action = self.parse(raw, obs, menu)
            except (IllegalActionError, CardError) as e:
                self.warn(str(e))
                continue
            if action == MANUAL:
                return action
            if action not in legal:
                self.warn(f"{st.action_to_string(action)} is not legal now: "
                          f"{self.why_not(action, obs)}")
                continue
            question = self.confirm(action, obs)
            if question:
                answer = self.yes_or_no(question)
                if answer is None:
                    return None
                if not answer:
                    self.console.print("Not played.")
                    continue
            return action

    def yes_or_no(self, question: str) -> bool | None:
        """Ask to confirm a weighty move: y or yes plays it, n, no or Enter
        does not, quit (or the end of input) leaves the match (None);
        anything else asks again."""
        while True:
            try:
                answer = self.ask(question + r" \[y/n] ").lower()  # not markup
            except EOFError:
                return None
            if answer in ("y", "yes"):
                return True
            if answer in ("", "n", "no"):
                return False
            if answer in ("q", "quit", "exit"):
                return None
            self.warn("answer y or n")

    def why_not(self, action: int, obs: GinObservation) -> str:
        """Why a move the player typed is not legal now (one clause)."""
        drawing = any(a in obs.legal_actions for a in (DRAW_STOCK, TAKE_DISCARD, PASS))
        if action in (DRAW_STOCK, TAKE_DISCARD, PASS):
            if not drawing:
                return "you have drawn: discard a card, or knock"
            return "on the first upcard take it (t) or pass (p)"
        if action == BIG_GIN:
            if not obs.options.get("big_gin"):
                return "big gin is not in these rules (--option big_gin=true)"
            return "big gin needs all eleven cards melded after the draw"
        if drawing:
            return "draw first: s for the stock, t to take the discard"
        card = (action - KNOCK_BASE) if action >= KNOCK_BASE else (action - DISCARD_BASE)
        if not obs.hand >> card & 1:
            return f"you do not hold {card_str(card)}"
        if card == obs.taken_card:
            return f"{card_str(card)} was just taken from the pile: keep it this turn (D-3)"
        if action >= KNOCK_BASE:
            dw = deadwood(obs.hand & ~(1 << card))
            return f"that leaves {dw} deadwood, over the knock limit of {obs.knock_limit}"
        return "the legal moves are listed above"

    def verb(self, seat: int, third: str, plain: str) -> str:
        """A name and its verb: 'You knock', 'simple (1) knocks'."""
        return f"{self.names[seat]} {plain if seat == self.human else third}"

    def show_menu(self, obs: Any) -> list[tuple[int, str]]:
        """List the legal moves, numbered; the list, for a typed number."""
        menu = self.menu(obs)
        for i, (_, label) in enumerate(menu, 1):
            self.say(f"  {i:>2}. {label}")
        return menu

    def show_hint(self, obs: Any) -> None:
        move, reason = self.adviser.move_hint(obs)
        said = move if isinstance(move, str) else self.gin.action_to_string(move)
        self.say(f"Hint: {said} — {reason}")

    def confirm(self, action: int, obs: Any) -> str | None:
        """A question to confirm a weighty move, or None."""
        if KNOCK_BASE <= action < BIG_GIN:
            card = action - KNOCK_BASE
            dw = deadwood(obs.hand & ~(1 << card))
            word = "Go gin" if dw == 0 else f"Knock with {dw} deadwood"
            return f"{word}, discarding {card_str(card)}?"
        return None

    def menu(self, obs: GinObservation) -> list[tuple[int, str]]:
        out = []
        top = card_str(obs.discard_pile[-1]) if obs.discard_pile else ""
        for a in obs.legal_actions:
            if a == TAKE_DISCARD:
                out.append((a, f"take {top} from the discard pile (t)"))
            elif a == DRAW_STOCK:
                out.append((a, "draw from the stock (s)"))
            elif a == PASS:
                out.append((a, f"pass on {top} (p)"))
            elif a == BIG_GIN:
                out.append((a, "big gin"))
        knocks = sorted((a for a in obs.legal_actions if KNOCK_BASE <= a < BIG_GIN),
                        key=lambda a: (deadwood(obs.hand & ~(1 << (a - KNOCK_BASE))),
                                       -CARD_POINTS[a - KNOCK_BASE]))
        for a in knocks:
            dw = deadwood(obs.hand & ~(1 << (a - KNOCK_BASE)))
            word = "gin" if dw == 0 else f"knock ({dw} deadwood)"
            out.append((a, f"{word}, discarding {card_str(a - KNOCK_BASE)} "
                           f"(k {card_str(a - KNOCK_BASE)})"))
        discards = [a for a in obs.legal_actions if DISCARD_BASE <= a < KNOCK_BASE]
        discards.sort(key=lambda a: (deadwood(obs.hand & ~(1 << (a - DISCARD_BASE))),
                                     -CARD_POINTS[a - DISCARD_BASE]))
        for a in discards:
            c = a - DISCARD_BASE
            dw = deadwood(obs.hand & ~(1 << c))
            out.append((a, f"discard {card_str(c)} (leaves {dw} deadwood)"))
        return out

    def parse(self, raw: str, obs: GinObservation, menu: list[tuple[int, str]]) -> int:
        text = raw.strip().lower()
        if text.isdecimal():
            return self.numbered(text, menu)
        short = {"s": DRAW_STOCK, "stock": DRAW_STOCK, "d": DRAW_STOCK, "t": TAKE_DISCARD,
                 "take": TAKE_DISCARD, "p": PASS, "pass": PASS}
        if text in short:
            return short[text]
        words = text.split()
        if len(words) == 2 and words[0] in ("k", "knock", "g", "gin"):
            return KNOCK_BASE + parse_card(words[1])
        if len(words) == 1:
            try:
                return DISCARD_BASE + parse_card(words[0])
            except CardError:
                pass
        return self.engine_move(raw)


class ThirteenTerminal(TerminalGame):
    """Three Thirteen: the same loop, its own table, moves and results."""

    keys = "Type a card to discard it, 'o CARD' to go out, 's' stock, 't' take"

    def hand_cards(self, obs: Any) -> list[Card]:
        return multi_cards(obs.hand)

    def announce_hand(self) -> None:
        st = self.gin
        self.console.rule(f"Round {st.round} — {st.round + 2} cards, {st.wild_rank_name}s "
                          f"are wild — dealer {self.names[st.dealer]}")

    def describe(self, seat: int, action: int) -> str:
        if action == T_TAKE:
            return f"takes {card_str(self.gin.discard_pile[-1])} from the discard pile"
        if action == T_STOCK:
            return "draws from the stock"
        return str(self.gin.action_to_string(action))

    def report(self, events: list[Event]) -> None:
        for e in events:
            if e["type"] == "result":
                self.show_result(e)
            elif e["type"] == "deal" and e["round"] > 1:
                self.announce_hand()
            elif e["type"] == "reshuffle":
                self.console.print("The stock ran out: the discard pile is shuffled into a "
                                   "new stock.")
            elif e["type"] == "end":
                self.show_end(e)

    def show_result(self, e: Event) -> None:
        c = self.console
        if e["went_out"] is not None:
            c.print(f"[bold]{escape(self.names[e['went_out']])} went out[/]", highlight=False)
        else:
            c.print("[bold]Nothing left to draw[/]: the round is scored as it stands.")
        for seat, hand in enumerate(e["hands"]):
            c.print(f"{escape(self.names[seat])}: {' | '.join(hand['melds']) or '-'}; unmatched "
                    f"{hand['unmatched'] or '-'}; penalty {hand['penalty']}", highlight=False)
        t = Table(title="Score sheet")
        t.add_column("round", justify="right")
        for s in range(self.gin.num_players):
            t.add_column(self.names[s], justify="right")
        for r in self.gin.round_results:
            t.add_row(str(r["round"]), *(f"+{p} = {tot}" for p, tot in
                                         zip(r["penalties"], r["scores"], strict=True)))
        c.print(t)

    def show_end(self, e: Event) -> None:
        winners = escape(" and ".join(self.names[w] for w in e["winners"]))
        self.console.print(f"[bold green]{winners} won with the lowest total[/] — "
                           + ", ".join(f"{escape(self.names[s])} {v}"
                                       for s, v in enumerate(e["final_scores"])),
                           highlight=False)

    def show_table(self, obs: Any) -> None:
        c = self.console
        top = card_text(obs.discard_pile[-1]) if obs.discard_pile else Text("-")
        line = Text(f"Round {obs.round}, {self.gin.wild_rank_name}s wild.  Totals: "
                    + ", ".join(f"{self.names[s]} {v}" for s, v in enumerate(obs.scores))
                    + f"   stock {obs.stock_size}   discard ")
        line.append_text(top)
        c.print(line)
        seen = [(s, k) for s, k in enumerate(obs.known) if k and s != obs.seat]
        if seen:  # cards the others took from the discard pile and still hold
            held = Text("Seen taken, still held: ")
            for i, (s, k) in enumerate(seen):
                held.append(("; " if i else "") + f"{self.names[s]} ")
                held.append_text(cards_text(multi_cards(k)))
            c.print(held)
        aw = bool(obs.options["natural_wild_sets"])
        if obs.final_turn:
            c.print(f"[bold]{escape(self.names[obs.went_out])} went out — this is your last "
                    "turn.[/]")
            if obs.laid_down:
                laid = solve13(obs.laid_down, obs.wild_rank, natural_wild_sets=aw)
                c.print(f"{escape(self.names[obs.went_out])} laid down: "
                        + " ".join("[" + combo_str(k) + "]" for k in laid.combos),
                        highlight=False)
        sol = solve13(obs.hand, obs.wild_rank, natural_wild_sets=aw)
        mine = Text("Your hand: ")
        for combo in sol.combos:
            mine.append("[" + combo_str(combo) + "] ")
        mine.append_text(cards_text(list(sol.unmatched)))
        mine.append(f"   penalty {sol.penalty}", style="cyan")
        c.print(mine)

    def menu(self, obs: Any) -> list[tuple[int, str]]:
        out = []
        top = card_str(obs.discard_pile[-1]) if obs.discard_pile else ""
        aw = bool(obs.options["natural_wild_sets"])
        for a in obs.legal_actions:
            if a == T_TAKE:
                out.append((a, f"take {top} from the discard pile (t)"))
            elif a == T_STOCK:
                out.append((a, "draw from the stock (s)"))
        for a in obs.legal_actions:
            if a >= T_GO_OUT:
                out.append((a, f"go out, discarding {card_str(a - T_GO_OUT)} "
                               f"(o {card_str(a - T_GO_OUT)})"))
        discards = [a for a in obs.legal_actions if T_DISCARD <= a < T_GO_OUT]
        scored = sorted((penalty13(multi_remove(obs.hand, a - T_DISCARD), obs.wild_rank,
                                   natural_wild_sets=aw), -CARD_POINTS[a - T_DISCARD], a)
                        for a in discards)
        for pen, _, a in scored:
            out.append((a, f"discard {card_str(a - T_DISCARD)} (leaves penalty {pen})"))
        return out

    def parse(self, raw: str, obs: Any, menu: list[tuple[int, str]]) -> int:
        text = raw.strip().lower()
        if text.isdecimal():
            return self.numbered(text, menu)
        short = {"s": T_STOCK, "stock": T_STOCK, "t": T_TAKE, "take": T_TAKE}
        if text in short:
            return short[text]
        words = text.split()
        if len(words) == 2 and words[0] in ("o", "out"):
            return T_GO_OUT + parse_card(words[1])
        if len(words) == 1:
            try:
                return T_DISCARD + parse_card(words[0])
            except CardError:
                pass
        return self.engine_move(raw)

    def confirm(self, action: int, obs: Any) -> str | None:
        if action >= T_GO_OUT:
            return f"Go out, discarding {card_str(action - T_GO_OUT)}?"
        return None


class ManipulationTerminal(TerminalGame):
    """Manipulation: the table of melds, the hand, and melds typed or found."""

    keys = ("Type 'm CARDS' to meld them (the engine arranges the table) or "
            "'m CARDS => TABLE', 'b' for the best meld, 'd' draw, 'k' knock, 'p' pass")

    def hand_cards(self, obs: Any) -> list[Card]:
        return list(obs.hand)

    def announce_hand(self) -> None:
        st = self.gin
        self.console.rule(f"Round {st.round} — dealer {self.names[st.dealer]}")

    def human_turn(self) -> int | None:
        if self.gin.legal_actions() == [M_PASS]:
            return M_PASS  # the turn's end, with nothing to choose: made for the player
        return super().human_turn()

    def describe(self, seat: int, action: int) -> str:
        if action in (M_BEST, M_PASS):
            # a meld is reported from the record's line; every turn ends with a
            # pass, chosen or not, so it tells nothing
            return ""
        if action == M_DRAW:
            return "melds nothing and draws again"
        return str(self.gin.action_to_string(action))

    def report(self, events: list[Event]) -> None:
        for e in events:
            if e["type"] == "action" and e["action"].startswith("meld"):  # yours too
                self.say(f"{self.names[e['seat']]}: {e['action']}")
            elif e["type"] == "result":
                self.show_result(e)
            elif e["type"] == "deal" and e["round"] > 1:
                self.announce_hand()
            elif e["type"] == "end":
                self.show_end(e)

    def show_result(self, e: Event) -> None:
        c = self.console
        how = {"knock": f"{self.names[e['knocker']]} knocked" if e["knocker"] is not None
               else "", "out": f"{self.names[e['went_out']]} went out" if e["went_out"]
               is not None else "", "exhausted": "the draw pile ran out"}[e["ended"]]
        c.print(f"[bold]Round over: {how}[/]", highlight=False)
        for seat, hand in enumerate(e["hands"]):
            won = f"  wins +{e['points'][seat]}{self._why(e, seat)}" if seat in e["winners"] \
                else ""
            c.print(f"{self.names[seat]}: {hand or '-'} ({e['values'][seat]} points){won}",
                    highlight=False)
        t = Table(title="Score sheet")
        t.add_column("round", justify="right")
        for s in range(self.gin.num_players):
            t.add_column(self.names[s], justify="right")
        for r in self.gin.round_results:
            t.add_row(str(r["round"]), *(f"+{p} = {tot}" for p, tot in
                                         zip(r["points"], r["scores"], strict=True)))
        c.print(t)

    def _why(self, e: Event, w: int) -> str:
        """A winner's points, part by part (§4.9): the other hands' differences,
        the undercut bonus, the going-out bonus."""
        values, winners = e["values"], e["winners"]
        parts = [f"{sum(values[j] - values[w] for j in range(len(values)) if j not in winners)}"
                 " from the other hands"]
        opts = self.gin.options
        if e["knocker"] is not None and w != e["knocker"]:
            parts.append(f"{opts['undercut_bonus']} undercut bonus")
        if e["went_out"] == w:
            parts.append(f"{opts['out_bonus']} for going out")
        return f" ({' + '.join(parts)})"

    def show_table(self, obs: Any) -> None:
        c = self.console
        c.print(f"Scores: {', '.join(f'{self.names[s]} {v}' for s, v in enumerate(obs.scores))}"
                f"   draw pile {obs.pile_size}   draws this turn {obs.draws_this_turn}",
                highlight=False)
        self.say("Cards in hand: " + ", ".join(f"{self.names[s]} {n}" for s, n in
                                               enumerate(obs.hand_sizes) if s != obs.seat))
        if obs.exhausted:
            self.say("The draw pile is used up: a last turn to meld, without drawing (§4.10).")
        if obs.draws_this_turn == 1 and obs.drawn is not None:
            line = Text("You drew ")  # the turn's first card, drawn for you
            line.append_text(cards_text([obs.drawn]))
            c.print(line)
        if obs.table:
            for i, meld in enumerate(obs.table, 1):
                c.print(f"  table {i:>2}: {meld_text(meld)}", highlight=False)
        else:
            c.print("  the table is empty")
        mine = Text("Your hand: ")
        mine.append_text(cards_text(list(obs.hand)))
        mine.append(f"   {manip_points(obs.hand)} points", style="cyan")
        c.print(mine)

    def menu(self, obs: Any) -> list[tuple[int, str]]:
        out = []
        for a in obs.legal_actions:
            if a == M_BEST:
                play = self.gin.best()
                out.append((a, f"meld best: {cards_str(play.play)} (sheds {play.points_shed} "
                               "points) (b)"))
            elif a == M_DRAW:
                out.append((a, "meld nothing, draw again (d)"))
            elif a == M_KNOCK:
                out.append((a, "knock (k)"))
            elif a == M_PASS:
                out.append((a, "end the turn (p)"))
        return out

    def parse(self, raw: str, obs: Any, menu: list[tuple[int, str]]) -> int:
        text = raw.strip().lower()
        if text.isdecimal():
            return self.numbered(text, menu)
        short = {"d": M_DRAW, "draw": M_DRAW, "k": M_KNOCK, "knock": M_KNOCK, "p": M_PASS,
                 "pass": M_PASS, "b": M_BEST, "best": M_BEST, "m best": M_BEST,
                 "meld best": M_BEST}
        key = " ".join(text.split())  # 'meld best' as the records write it, any spacing
        if key in short:
            return short[key]
        words = raw.strip().split(None, 1)
        if words and words[0].lower() in ("m", "meld") and len(words) == 2:
            self.gin.meld(words[1])  # checked and applied here: a typed meld has no id
            return MANUAL
        return self.engine_move(raw)

    def why_not(self, action: int, obs: Any) -> str:
        if action == M_KNOCK:
            return (f"a knock needs {obs.options['knock_limit']} points in hand or fewer "
                    f"(you hold {manip_points(obs.hand)})")
        if action == M_DRAW:
            return "no more draws this turn" if obs.draws_this_turn else "the turn has a draw"
        return "the legal moves are listed above"

    def show_end(self, e: Event) -> None:
        names, target = self.names, self.gin.options["target"]
        over = [s for s, v in enumerate(e["totals"]) if v >= target]
        self.say(f"Bonuses (§4.11): 100 to {' and '.join(names[s] for s in over)}, at "
                 f"{target} or more; 25 a round won to the others ("
                 + ", ".join(f"{names[s]} {e['rounds_won'][s]}" for s in range(len(names))
                             if s not in over) + ")")
        winners = escape(" and ".join(names[w] for w in e["winners"]))
        self.console.print(f"[bold green]{winners} won the match[/] — final scores: "
                           + ", ".join(f"{escape(names[s])} {v}"
                                       for s, v in enumerate(e["final_scores"])),
                           highlight=False)

    def confirm(self, action: int, obs: Any) -> str | None:
        if action == M_KNOCK:
            return f"Knock with {manip_points(obs.hand)} points in hand?"
        return None


TERMINALS: dict[str, type[TerminalGame]] = {
    "gin": TerminalGame, "gin3": TerminalGame, "three-thirteen": ThirteenTerminal,
    "manipulation": ManipulationTerminal,
}


def play_terminal(game: str, bot: str, seed: int | None, options: Mapping[str, object],
                  record: bool, console: Console) -> str | None:
    """Play a match at the terminal. With ``record``, return the match's
    record once it is over (None if the player left it): it is kept in
    memory meanwhile, since each hand's deck order is in it."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        # a typed line that is no text in the locale's encoding is read with
        # replacement characters (and refused as a move), not lost with the
        # rest of the buffered input
        sys.stdin.reconfigure(errors="replace")
    tg = TERMINALS[game](game, bot, seed, options, console)
    stream = io.StringIO() if record else None
    console.print(f"[bold]{game}[/] against {escape(bot)}. {escape(tg.help_text())}")
    tg.run(RecordWriter(stream) if stream is not None else None)
    if stream is None or not tg.gin.is_terminal():
        return None
    return stream.getvalue()
