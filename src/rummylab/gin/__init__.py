"""Gin Rummy (§1) and three-player Gin in the box (§2)."""

from rummylab.gin.game import GinObservation, GinState, action_text, parse_action
from rummylab.gin.three_player import Gin3State

__all__ = ["Gin3State", "GinObservation", "GinState", "action_text", "parse_action"]
