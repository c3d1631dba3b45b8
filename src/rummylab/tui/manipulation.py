"""Manipulation at the terminal: the table of melds, the hand, and melds
typed or found.

Type ``m 7h 8h 9h`` to meld cards (the engine arranges the table; ``7♥`` as
the screen shows it works too), ``m CARDS => TABLE`` to lay out the table
yourself, ``b`` for the best meld, ``d`` to draw again, ``k`` to knock,
``p`` to end the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from rummylab.cards import Card, cards_str
from rummylab.errors import IllegalActionError
from rummylab.game import Event, State
from rummylab.manipulation.game import DRAW, KNOCK, MELD_BEST, PASS, ManipulationState
from rummylab.manipulation.table import hand_points, meld_str
from rummylab.tui.base import MANUAL, TerminalGame, cards_text


class ManipulationView(TerminalGame):
    """Manipulation (§4): a shared table that every meld may rearrange."""

    game: ClassVar[type[State]] = ManipulationState
    keys = ("Type 'm CARDS' to meld them (the engine arranges the table) or "
            "'m CARDS => TABLE', 'b' for the best meld, 'd' draw, 'k' knock, 'p' pass")
    short_keys: ClassVar[Mapping[int, str]] = {
        DRAW: "d draw", KNOCK: "k knock", PASS: "p pass", MELD_BEST: "b best meld"}

    def hand_cards(self, obs: Any) -> list[Card]:
        return list(obs.hand)

    def announce_hand(self) -> None:
        st = self.state
        self.console.rule(f"Round {st.round} — dealer {self.names[st.dealer]}")

    def human_turn(self) -> int | None:
        if self.state.legal_actions() == [PASS]:
            return PASS  # the turn's end, with nothing to choose: made for the player
        return super().human_turn()

    def describe(self, seat: int, action: int) -> str:
        if action in (MELD_BEST, PASS):
            # a meld is reported from the record's line; every turn ends with a
            # pass, chosen or not, so it tells nothing
            return ""
        if action == DRAW:
            return "melds nothing and draws again"
        return str(self.state.action_to_string(action))

    def show_event(self, e: Event) -> None:
        if e["type"] == "action" and e["action"].startswith("meld"):  # yours too
            self.say(f"{self.names[e['seat']]}: {e['action']}")

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
        for s in range(self.state.num_players):
            t.add_column(self.names[s], justify="right")
        for r in self.state.round_results:
            t.add_row(str(r["round"]), *(f"+{p} = {tot}" for p, tot in
                                         zip(r["points"], r["scores"], strict=True)))
        c.print(t)

    def _why(self, e: Event, w: int) -> str:
        """A winner's points, part by part (§4.9): the other hands' differences,
        the undercut bonus, the going-out bonus."""
        values, winners = e["values"], e["winners"]
        parts = [f"{sum(values[j] - values[w] for j in range(len(values)) if j not in winners)}"
                 " from the other hands"]
        opts = self.state.options
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
                c.print(f"  table {i:>2}: {meld_str(meld)}", highlight=False)
        else:
            c.print("  the table is empty")
        mine = Text("Your hand: ")
        mine.append_text(cards_text(list(obs.hand)))
        mine.append(f"   {hand_points(obs.hand)} points", style="cyan")
        c.print(mine)

    def menu(self, obs: Any) -> list[tuple[int, str]]:
        out = []
        for a in obs.legal_actions:
            if a == MELD_BEST:
                play = self.state.best()
                out.append((a, f"meld best: {cards_str(play.play)} (sheds {play.points_shed} "
                               "points) (b)"))
            elif a == DRAW:
                out.append((a, "meld nothing, draw again (d)"))
            elif a == KNOCK:
                out.append((a, "knock (k)"))
            elif a == PASS:
                out.append((a, "end the turn (p)"))
        return out

    def parse_move(self, text: str, key: str, obs: Any) -> int | None:
        short = {"d": DRAW, "draw": DRAW, "k": KNOCK, "knock": KNOCK, "p": PASS,
                 "pass": PASS, "b": MELD_BEST, "best": MELD_BEST, "m best": MELD_BEST,
                 "meld best": MELD_BEST}
        if key in short:  # 'meld best' as the records write it, any spacing
            return short[key]
        words = text.split(None, 1)
        if words and words[0].lower() in ("m", "meld") and len(words) == 2:
            reason = self.state.refusal(f"meld {words[1]}")
            if reason is not None:
                raise IllegalActionError(f"meld {words[1]} is not legal now: {reason}")
            self.state.meld(words[1])  # checked and applied here: a typed meld has no id
            return MANUAL
        return None

    def show_end(self, e: Event) -> None:
        names, opts = self.names, self.state.options
        target = opts["target"]
        over = [s for s, v in enumerate(e["totals"]) if v >= target]
        self.say(f"Bonuses (§4.11): {opts['game_bonus']} to "
                 f"{' and '.join(names[s] for s in over)}, at {target} or more; "
                 f"{opts['round_bonus']} a round won to the others ("
                 + ", ".join(f"{names[s]} {e['rounds_won'][s]}" for s in range(len(names))
                             if s not in over) + ")")
        winners = escape(" and ".join(names[w] for w in e["winners"]))
        self.console.print(f"[bold green]{winners} won the match[/] — final scores: "
                           + ", ".join(f"{escape(names[s])} {v}"
                                       for s, v in enumerate(e["final_scores"])),
                           highlight=False)

    def confirm(self, action: int, obs: Any) -> str | None:
        if action == KNOCK:
            return f"Knock with {hand_points(obs.hand)} points in hand?"
        return None
