"""The Three Thirteen bots: ``simple`` and ``strong``."""
