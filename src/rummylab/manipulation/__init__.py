"""Manipulation (§4): the table model and move checks (``table``), the exact
best-play solver (``solver``) and, later, the game engine (``game``)."""
