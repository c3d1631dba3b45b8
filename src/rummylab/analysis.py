"""Hand analysis for the CLI (``rummylab analyze``) and the docs: each game's
lives in its package and is reached through ``State.analyze``; the functions
stay importable from here.

>>> analyze_gin("7c 8c 9c 4d 4h 4s 2c 3c Ah 2h Kd")["discard"]
'Kd'
"""

from __future__ import annotations

from rummylab.gin.analysis import analyze_gin
from rummylab.manipulation.analysis import analyze_manipulation
from rummylab.three_thirteen.analysis import analyze_thirteen

__all__ = ["analyze_gin", "analyze_manipulation", "analyze_thirteen"]
