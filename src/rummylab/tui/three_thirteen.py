"""Three Thirteen at the terminal: the round's wild rank, the combinations in
hand, going out.

Type a card to discard it (``7h``, ``7♥``), ``o 7h`` to go out discarding
it, ``s`` to draw from the stock, ``t`` to take the discard.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from rummylab.cards import CARD_POINTS, Card, card_str, multi_cards, multi_remove, parse_card
from rummylab.errors import CardError
from rummylab.game import Event, State
from rummylab.three_thirteen.game import (
    DISCARD_BASE,
    DRAW_STOCK,
    GO_OUT_BASE,
    TAKE_DISCARD,
    ThirteenState,
)
from rummylab.three_thirteen.solver import combo_str, penalty, solve
from rummylab.tui.base import TerminalGame, card_text, cards_text


class ThirteenView(TerminalGame):
    """Three Thirteen (§3): eleven rounds, a wild rank each, the lowest total wins."""

    game: ClassVar[type[State]] = ThirteenState
    keys = "Type a card to discard it, 'o CARD' to go out, 's' stock, 't' take"
    short_keys: ClassVar[Mapping[int, str]] = {DRAW_STOCK: "s stock", TAKE_DISCARD: "t take"}

    def hand_cards(self, obs: Any) -> list[Card]:
        return multi_cards(obs.hand)

    def announce_hand(self) -> None:
        st = self.state
        self.console.rule(f"Round {st.round} — {st.round + 2} cards, {st.wild_rank_name}s "
                          f"are wild — dealer {self.names[st.dealer]}")

    def describe(self, seat: int, action: int) -> str:
        if action == TAKE_DISCARD:
            return f"takes {card_str(self.state.discard_pile[-1])} from the discard pile"
        if action == DRAW_STOCK:
            return "draws from the stock"
        return str(self.state.action_to_string(action))

    def show_event(self, e: Event) -> None:
        if e["type"] == "reshuffle":
            self.console.print("The stock ran out: the discard pile is shuffled into a "
                               "new stock.")

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
        for s in range(self.state.num_players):
            t.add_column(self.names[s], justify="right")
        for r in self.state.round_results:
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
        line = Text(f"Round {obs.round}, {self.state.wild_rank_name}s wild.  Totals: "
                    + ", ".join(f"{self.names[s]} {v}" for s, v in enumerate(obs.scores))
                    + f"   stock {obs.stock_size}   discard ")
        line.append_text(top)
        c.print(line)
        # cards the others took from the discard pile and still hold; the hand
        # of one who went out is laid down (§3.5), so it holds none of them
        seen = [(s, k) for s, k in enumerate(obs.known)
                if k and s != obs.seat and s != obs.went_out]
        if seen:
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
                laid = solve(obs.laid_down, obs.wild_rank, natural_wild_sets=aw)
                c.print(f"{escape(self.names[obs.went_out])} laid down: "
                        + " ".join("[" + combo_str(k) + "]" for k in laid.combos),
                        highlight=False)
        sol = solve(obs.hand, obs.wild_rank, natural_wild_sets=aw)
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
            if a == TAKE_DISCARD:
                out.append((a, f"take {top} from the discard pile (t)"))
            elif a == DRAW_STOCK:
                out.append((a, "draw from the stock (s)"))
        for a in obs.legal_actions:
            if a >= GO_OUT_BASE:
                out.append((a, f"go out, discarding {card_str(a - GO_OUT_BASE)} "
                               f"(o {card_str(a - GO_OUT_BASE)})"))
        discards = [a for a in obs.legal_actions if DISCARD_BASE <= a < GO_OUT_BASE]
        scored = sorted((penalty(multi_remove(obs.hand, a - DISCARD_BASE), obs.wild_rank,
                                 natural_wild_sets=aw), -CARD_POINTS[a - DISCARD_BASE], a)
                        for a in discards)
        for pen, _, a in scored:
            out.append((a, f"discard {card_str(a - DISCARD_BASE)} (leaves penalty {pen})"))
        return out

    def parse_move(self, text: str, key: str, obs: Any) -> int | None:
        short = {"s": DRAW_STOCK, "stock": DRAW_STOCK, "t": TAKE_DISCARD, "take": TAKE_DISCARD}
        if key in short:
            return short[key]
        words = key.split()
        if len(words) == 2 and words[0] in ("o", "out"):
            return GO_OUT_BASE + parse_card(words[1])
        if len(words) == 1:
            try:
                return DISCARD_BASE + parse_card(words[0])
            except CardError:
                pass
        return None

    def confirm(self, action: int, obs: Any) -> str | None:
        if action >= GO_OUT_BASE:
            return f"Go out, discarding {card_str(action - GO_OUT_BASE)}?"
        return None
