"""rummylab: exact, fast engines, bots and play surfaces for four rummy games."""

from rummylab.errors import (
    CardError,
    IllegalActionError,
    OptionError,
    PositionError,
    RecordError,
    RummyError,
)
from rummylab.position import from_position
from rummylab.registry import GAMES, new_state

__all__ = [
    "GAMES",
    "CardError",
    "IllegalActionError",
    "OptionError",
    "PositionError",
    "RecordError",
    "RummyError",
    "from_position",
    "new_state",
]
__version__ = "0.1.0"
