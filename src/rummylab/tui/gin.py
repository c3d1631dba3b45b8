"""Gin Rummy at the terminal: the hand with its melds, the upcard, knocks.

Type a card to discard it (``7h``, ``7♥``), ``k 7h`` to knock discarding it,
``s`` to draw from the stock, ``t`` to take the discard, ``p`` to pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from rummylab.cards import CARD_POINTS, Card, CardSet, card_str, cards_of, parse_card
from rummylab.errors import CardError
from rummylab.game import Event, State
from rummylab.gin.game import (
    BIG_GIN,
    DISCARD_BASE,
    DRAW_STOCK,
    KNOCK_BASE,
    PASS,
    TAKE_DISCARD,
    GinObservation,
    GinState,
)
from rummylab.gin.solver import best_arrangement, deadwood
from rummylab.tui.base import TerminalGame, card_text, cards_text


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


class GinView(TerminalGame):
    """Gin Rummy (§1): one hand against the other, hand after hand."""

    game: ClassVar[type[State]] = GinState
    keys = ("Type a card to discard it, 'k CARD' to knock (or go gin), 'big gin' (if the "
            "rules have it), 's' stock, 't' take, 'p' pass")
    short_keys: ClassVar[Mapping[int, str]] = {
        DRAW_STOCK: "s stock", TAKE_DISCARD: "t take", PASS: "p pass"}

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._spade_double = False  # Oklahoma: this hand counts double

    def hand_cards(self, obs: Any) -> list[Card]:
        return cards_of(obs.hand)

    def describe(self, seat: int, action: int) -> str:
        if action == TAKE_DISCARD:
            return f"takes {card_str(self.state.discard_pile[-1])} from the discard pile"
        if action == DRAW_STOCK:
            return "draws from the stock"
        if action == PASS:
            return "passes on the upcard"
        return str(self.state.action_to_string(action))

    def announce_hand(self) -> None:
        st = self.state
        self.console.rule(f"Hand {st.hand_number} — dealer {self.names[st.dealer]}")
        self.announce_roles()
        self._spade_double = False
        if st.options.get("oklahoma") and st.discard_pile:
            up = st.discard_pile[0]
            obs = st.observation(self.human)
            # public, and right for a match started from a position too (the
            # pile's bottom card need not be the upcard there)
            self._spade_double = obs.doubled
            limit = obs.knock_limit
            self.say(f"Oklahoma: the upcard {card_str(up)} sets the knock limit at {limit}"
                     + (" (gin only)" if limit == 0 else "")
                     + ("; a spade: this hand counts double" if self._spade_double else ""))

    def announce_roles(self) -> None:
        """Who plays which part this hand (two-player Gin: no parts)."""

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
        for s in range(self.state.num_players):
            t.add_column(self.names[s], justify="right")
        for r in self.state.hand_results:
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
            opts = self.state.options
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

    def confirm(self, action: int, obs: Any) -> str | None:
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

    def parse_move(self, text: str, key: str, obs: Any) -> int | None:
        short = {"s": DRAW_STOCK, "stock": DRAW_STOCK, "d": DRAW_STOCK, "t": TAKE_DISCARD,
                 "take": TAKE_DISCARD, "p": PASS, "pass": PASS}
        if key in short:
            return short[key]
        words = key.split()
        if len(words) == 2 and words[0] in ("k", "knock", "g", "gin"):
            return KNOCK_BASE + parse_card(words[1])
        if len(words) == 1:
            try:
                return DISCARD_BASE + parse_card(words[0])
            except CardError:
                pass
        return None
