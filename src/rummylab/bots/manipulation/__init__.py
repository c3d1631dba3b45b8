"""The Manipulation bots: ``simple`` and ``strong``."""
