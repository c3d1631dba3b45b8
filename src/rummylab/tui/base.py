"""The terminal game's neutral part: the screen loop, reading what is typed,
hints, help, confirmations, leaving and the record. It knows no game's rules:
each game's view (``rummylab.tui.gin`` and its neighbours) draws the table,
lists and reads the moves, and tells the results; the reasons a move is
refused come from the game itself (``State.refusal``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.console import Console
from rich.text import Text

from rummylab.bots import make_bot
from rummylab.cards import JOKER, Card, card_str
from rummylab.errors import CardError, IllegalActionError, UnknownActionError
from rummylab.game import Event
from rummylab.match import apply_move, bot_seed
from rummylab.records import RecordWriter
from rummylab.registry import new_state

SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold", 4: "bold magenta"}
MANUAL = -2  # a move the player typed out in full and that is already applied
SYMBOL = "♣♦♥♠"
_WARN_MAX = 300  # characters of a warning (the keys fit; a typed line may not)
_ECHO_MAX = 40  # characters of what was typed, echoed in a warning
QUIT = ("q", "quit", "exit")

# the screen writes suits as symbols: typed back (black or white, with or
# without the emoji selector) they are the letters of D-1
_TYPED_SUITS = str.maketrans({"♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h",
                              "♠": "s", "♤": "s", "\ufe0f": None})


def as_typed(raw: str) -> str:
    """A typed line with the suit symbols the screen shows read as letters.

    >>> as_typed("k 7♥"), as_typed("m 10♠ J♠ Q♠")
    ('k 7h', 'm 10s Js Qs')
    """
    return raw.translate(_TYPED_SUITS)


def card_text(card: Card) -> Text:
    """A card as the screen shows it: rank, suit symbol, colour."""
    if card == JOKER:
        return Text("Jk", style=SUIT_STYLE[4])
    return Text(card_str(card)[0] + SYMBOL[card // 13], style=SUIT_STYLE[card // 13])


def cards_text(cards: list[Card]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


class TerminalGame:
    """One human seat against bots; input and output through a Rich console.

    A game's view subclasses it and fills in what depends on the game: the
    table (``show_table``), the moves (``menu``, ``parse_move``), the news of
    a hand or round (``announce_hand``, ``show_result``, ``show_end``)."""

    #: what the player may type, said at the start and by ``help``
    keys: ClassVar[str] = "Type a move as the records write it"
    #: the short keys of moves, said when a move is refused: action id -> "t take"
    short_keys: ClassVar[Mapping[int, str]] = {}

    def __init__(self, game: str, bot: str, seed: int | None, options: Mapping[str, object],
                 console: Console, human: int = 0, state: Any = None) -> None:
        # a match started elsewhere (from a position) or a new one
        self.state: Any = new_state(game, options, seed) if state is None else state
        self.console = console
        self.human = human
        self.bots = {s: make_bot(bot, game, None if seed is None else bot_seed(seed, s))
                     for s in range(self.state.num_players) if s != human}
        self.adviser = make_bot("strong", game)  # hints come from the best bot
        self.names = ["You" if s == human else f"{bot} ({s})"
                      for s in range(self.state.num_players)]

    # -- input and output ------------------------------------------------------
    def ask(self, prompt: str) -> str:
        return self.console.input(prompt).strip()

    def help_text(self) -> str:
        return f"{self.keys}; 'hint', 'help', 'quit', or a move's number."

    def engine_move(self, text: str, typed: str | None = None) -> int:
        """A move as the records write it (``draw stock``); anything else is
        answered with the keys this prompt takes, not the records' words.
        ``typed``: the line as the player typed it, for the echo."""
        try:
            return int(self.state.string_to_action(text))
        except UnknownActionError:
            echo = repr((text if typed is None else typed).strip())  # as quoted, escapes counted
            if len(echo) > _ECHO_MAX:
                echo = echo[:_ECHO_MAX - 2] + "…" + echo[-1]
            raise IllegalActionError(f"unknown move {echo}. {self.help_text()}") from None

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

    def verb(self, seat: int, third: str, plain: str) -> str:
        """A name and its verb: 'You knock', 'simple (1) knocks'."""
        return f"{self.names[seat]} {plain if seat == self.human else third}"

    # -- the match ---------------------------------------------------------------
    def run(self, writer: RecordWriter | None = None) -> None:
        state = self.state
        if writer is not None:
            writer.begin(state, [self.names[s] if s != self.human else "human"
                                 for s in range(state.num_players)])
        opening = state.take_events() if writer is None else []
        self.report([e for e in opening if e["type"] != "deal"])  # the deal is announced
        self.announce_hand()
        while not state.is_terminal():
            seat = state.current_player()
            if not self.before_move(seat):
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

    def before_move(self, seat: int) -> bool:
        """Called before each move of ``seat``; False if the player left."""
        return True

    def report(self, events: list[Event]) -> None:
        for e in events:
            if e["type"] == "result":
                self.show_result(e)
            elif e["type"] == "deal":
                self.announce_hand()
            elif e["type"] == "end":
                self.show_end(e)
            else:
                self.show_event(e)

    def show_event(self, e: Event) -> None:
        """Any other event the view tells of (a move, a reshuffle)."""

    def show_drawn(self, before: list[Card], after: list[Card], action: int) -> None:
        """Tell the player which card a draw from the stock brought."""
        st = self.state
        if st.is_terminal() or not str(st.action_to_string(action)).startswith("draw"):
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
        """A bot's move as told on screen ('' tells nothing)."""
        return str(self.state.action_to_string(action))

    def show_end(self, e: Event) -> None:
        names = self.names
        winners = " and ".join(names[w] for w in e["winners"])
        self.say(f"{winners} won the match — final scores: "
                 + ", ".join(f"{names[s]} {v}" for s, v in enumerate(e["final_scores"])))

    # -- the player's turn -------------------------------------------------------
    def human_turn(self) -> int | None:
        st = self.state
        obs = st.observation(self.human)
        legal = list(obs.legal_actions)
        self.show_table(obs)
        menu = self.show_menu(obs)
        while True:
            try:
                raw = self.ask("Your move: ")
            except EOFError:
                return None
            if raw.lower() in QUIT:
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
            if answer in QUIT:
                return None
            self.warn("answer y or n")

    def why_not(self, action: int, obs: Any) -> str:
        """Why a move the player typed is not legal now: the game's reason,
        then the keys of the moves that are (where they have keys)."""
        reason = self.state.refusal(action) or "it is not among the moves listed above"
        keys = [self.short_keys[a] for a in obs.legal_actions if a in self.short_keys]
        return reason + (f" (keys now: {', '.join(keys)})" if keys else "")

    def parse(self, raw: str, obs: Any, menu: list[tuple[int, str]]) -> int:
        """The move a typed line names: a listed move's number, the view's
        keys (cards as the screen shows them too: 7♥, 10h, any case), or a
        move as the records write it."""
        text = as_typed(raw).strip()
        if text.isdecimal():
            return self.numbered(text, menu)
        move = self.parse_move(text, " ".join(text.lower().split()), obs)
        return self.engine_move(text, raw) if move is None else move

    def parse_move(self, text: str, key: str, obs: Any) -> int | None:
        """The view's keys: the move ``text`` names (``key``: the same in lower
        case, single-spaced), or None for the records' words."""
        return None

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

    def show_menu(self, obs: Any) -> list[tuple[int, str]]:
        """List the legal moves, numbered; the list, for a typed number."""
        menu = self.menu(obs)
        for i, (_, label) in enumerate(menu, 1):
            self.say(f"  {i:>2}. {label}")
        return menu

    def show_hint(self, obs: Any) -> None:
        move, reason = self.adviser.move_hint(obs)
        said = move if isinstance(move, str) else self.state.action_to_string(move)
        self.say(f"Hint: {said} — {reason}")

    def confirm(self, action: int, obs: Any) -> str | None:
        """A question to confirm a weighty move, or None."""
        return None

    # -- what each game's view draws -------------------------------------------
    def hand_cards(self, obs: Any) -> list[Card]:
        """The cards of the hand in ``obs``, as a list."""
        raise NotImplementedError

    def announce_hand(self) -> None:
        """A new hand or round is dealt."""
        raise NotImplementedError

    def show_table(self, obs: Any) -> None:
        raise NotImplementedError

    def show_result(self, e: Event) -> None:
        raise NotImplementedError

    def menu(self, obs: Any) -> list[tuple[int, str]]:
        """The legal moves in ``obs``, each with its label, in the order listed."""
        raise NotImplementedError
