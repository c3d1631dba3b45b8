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

# each game's position codec registers itself with its State class
from rummylab.gin import position as _gin_position  # noqa: F401  isort: skip
from rummylab.gin import three_player_position as _gin3_position  # noqa: F401  isort: skip
from rummylab.manipulation import position as _manipulation_position  # noqa: F401  isort: skip
from rummylab.three_thirteen import position as _thirteen_position  # noqa: F401  isort: skip

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
