"""Playing against bots in a terminal, with Rich: Gin, three-player Gin,
Three Thirteen and Manipulation.

:mod:`rummylab.tui.base` is the neutral part (the screen loop, input, hints,
help, leaving, the record); each game has its view, found through the game's
class (:func:`view_class`):

- Gin (:mod:`~rummylab.tui.gin`): a card to discard it (``7h`` or ``7♥``),
  ``k 7h`` to knock discarding it, ``s`` stock, ``t`` take, ``p`` pass;
- three-player Gin (:mod:`~rummylab.tui.gin3`): the same, and the sitter
  watches in silence or advises the captain;
- Three Thirteen (:mod:`~rummylab.tui.three_thirteen`): a card, ``o 7h`` to
  go out discarding it, ``s``, ``t``;
- Manipulation (:mod:`~rummylab.tui.manipulation`): ``m 7h 8h`` to meld cards,
  ``m CARDS => TABLE`` to lay out the table, ``b`` the best meld, ``d`` draw
  again, ``k`` knock, ``p`` pass.

Everywhere: ``hint`` for advice, ``help`` for the keys, ``quit`` to leave, or
the number of a listed move. A refused move is told with the game's own
reason (``State.refusal``).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator, Mapping

from rich.console import Console
from rich.markup import escape

from rummylab.game import State
from rummylab.records import RecordWriter
from rummylab.registry import GAMES, game_class
from rummylab.tui.base import MANUAL, TerminalGame, as_typed, card_text, cards_text
from rummylab.tui.gin import GinView
from rummylab.tui.gin3 import Gin3View
from rummylab.tui.manipulation import ManipulationView
from rummylab.tui.three_thirteen import ThirteenView

__all__ = ["MANUAL", "TERMINALS", "Gin3View", "GinView", "ManipulationView", "TerminalGame",
           "ThirteenView", "as_typed", "card_text", "cards_text", "play_terminal",
           "view_class"]

# each view names the game class it draws
_VIEWS: dict[type[State], type[TerminalGame]] = {
    v.game: v for v in (GinView, Gin3View, ThirteenView, ManipulationView)}


def view_class(game: type[State]) -> type[TerminalGame]:
    """The terminal view of a game class (or of the nearest class it derives from)."""
    for cls in game.__mro__:
        view = _VIEWS.get(cls)
        if view is not None:
            return view
    raise LookupError(f"no terminal view plays {game.__name__}")


class _ViewsByName(Mapping[str, type[TerminalGame]]):
    """The views by the registry's game names and aliases (``TERMINALS["gin"]``)."""

    def __getitem__(self, name: str) -> type[TerminalGame]:
        return view_class(game_class(name))

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


TERMINALS: Mapping[str, type[TerminalGame]] = _ViewsByName()


def play_terminal(game: str, bot: str, seed: int | None, options: Mapping[str, object],
                  record: bool, console: Console, position: str | None = None) -> str | None:
    """Play a match at the terminal. With ``record``, return the match's
    record once it is over (None if the player left it): it is kept in
    memory meanwhile, since each hand's deck order is in it. From
    ``position`` the match starts at that moment (rummylab.from_position
    with ``seed``), the player in the position's seat (else seat 0)."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        # a typed line that is no text in the locale's encoding is read with
        # replacement characters (and refused as a move), not lost with the
        # rest of the buffered input
        sys.stdin.reconfigure(errors="replace")
    if position is None:
        tg = TERMINALS[game](game, bot, seed, options, console)
    else:
        from rummylab.position import from_position, split

        start = from_position(position, seed)
        seat = split(position).values.get("seat")
        tg = TERMINALS[game](game, bot, seed, start.options, console,
                             human=0 if seat is None else int(seat), state=start)
    stream = io.StringIO() if record else None
    console.print(f"[bold]{game}[/] against {escape(bot)}. {escape(tg.help_text())}")
    tg.run(RecordWriter(stream) if stream is not None else None)
    if stream is None or not tg.state.is_terminal():
        return None
    return stream.getvalue()
