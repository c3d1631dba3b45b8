"""Three-player Gin at the terminal: Gin's view, the roles, and the sitter.

The player who sits out a hand (§2.2) sees the captain's cards. Once a hand,
at the captain's first move, they choose: Enter watches the hand in silence
(the captain's hand is shown at each of its moves, and nothing is asked);
advice (``a``, a move, its number, ``hint``) makes them advise move by move,
asked at each of the captain's moves (Enter says nothing; ``w`` goes back to
watching).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rummylab.errors import CardError, IllegalActionError
from rummylab.game import State
from rummylab.gin.three_player import Gin3State
from rummylab.tui.base import QUIT
from rummylab.tui.gin import GinView

WATCH, ADVISE, ASK = "watch", "advise", "ask"


class Gin3View(GinView):
    """Three-player Gin (§2): the box against the captain, a sitter advising."""

    game: ClassVar[type[State]] = Gin3State

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        #: how the player follows a hand they sit out: ASK (choose once a hand),
        #: WATCH (in silence, never asked) or ADVISE (asked at each move)
        self.sitter_mode = ASK
        self._following: str | None = None  # this hand's choice

    def announce_hand(self) -> None:
        self._following = None if self.sitter_mode == ASK else self.sitter_mode
        super().announce_hand()

    def announce_roles(self) -> None:
        st = self.state  # a line of its own: a narrow terminal would cut it
        self.say("Roles: " + ", ".join(f"{self.names[s]} {st.role_of(s)}"
                                       for s in range(st.num_players)))

    def before_move(self, seat: int) -> bool:
        """Before each move of the captain, the sitter's advice (§2.2): a
        bot sitter advises the player who captains (its ``hint``), and a
        player who sits out sees the captain's hand and may advise the bot
        captain, who has the final say (bots decide from their own view).
        Advice is recorded. False if the player left."""
        st = self.state
        if seat != st.non_dealer:
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
        st = self.state
        obs = st.observation(self.human)
        if self._following is None:  # the captain's first move this hand
            self.say(f"You sit out this hand; {self.names[st.non_dealer]} captains and is to "
                     "play. Enter watches the hand in silence; advice ('a', a move, its "
                     "number) is asked for at each of the captain's moves.")
        self.show_table(obs)
        if self._following == WATCH:
            return True
        menu = self.show_menu(obs)
        while True:
            prompt = ("Your advice (a move, hint, Enter to say nothing, w to watch): "
                      if self._following == ADVISE else
                      "Enter to watch in silence, or your advice (a move, hint): ")
            try:
                raw = self.ask(prompt)
            except EOFError:
                return False
            low = raw.lower()
            if low in QUIT:
                return False
            if self.wants_help(raw):
                continue
            if low in ("w", "watch") or (not raw and self._following != ADVISE):
                self._following = WATCH
                self.say("You watch this hand in silence.")
                return True
            if not raw:
                return True  # no advice on this move
            self._following = ADVISE  # asked at each move from now on, this hand
            if low in ("a", "advise"):
                continue
            if low in ("h", "hint"):
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

    def help_text(self) -> str:
        if self.state.sitter_seat == self.human and not self.state.is_terminal():
            return (f"{self.keys}; sitting out, 'a' to advise the captain, 'w' to watch in "
                    "silence; 'hint', 'help', 'quit', or a move's number.")
        return super().help_text()
