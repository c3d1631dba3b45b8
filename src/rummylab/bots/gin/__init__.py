"""The Gin bots (two- and three-player): ``simple`` and ``strong``."""
