"""The exceptions of rummylab; each one's message is a single line for the user."""

from __future__ import annotations


class RummyError(Exception):
    """Base of every error rummylab raises on bad input."""


class CardError(RummyError, ValueError):
    """Unknown card, duplicate card, wrong number of cards."""


class OptionError(RummyError, ValueError):
    """Unknown rule option, or a value it does not take."""


class IllegalActionError(RummyError, ValueError):
    """An action that is not legal now; the state is left unchanged."""


class TurnError(IllegalActionError):
    """A move of a seat whose move it is not (another seat acts, or only the
    sitter advises): refused before the move itself is looked at."""


class UnknownActionError(IllegalActionError):
    """Text that names no action of the game at all (not one that is illegal now)."""


class RecordError(RummyError, ValueError):
    """A record that cannot be read or does not replay."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None, *,
                 unreadable: bool = False) -> None:
        self.line = line
        # where on the line (1-based characters): what a whole line is wrong for starts at 1
        self.column = column if column is not None or line is None else 1
        self.unreadable = unreadable  # not a record at all, rather than one that fails
        super().__init__(f"line {line}, column {self.column}: {message}" if line is not None
                         else message)


class PositionError(RummyError, ValueError):
    """A position (one line naming a moment of a game) that cannot be read or
    names no moment the rules allow."""


class BotError(RummyError):
    """A bot that raised, or answered with a move that is not legal, during play."""
