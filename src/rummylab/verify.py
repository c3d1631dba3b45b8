"""Checking a fairly dealt record: it replays, its seed deals every hand as
recorded, and the seed is the one committed to before play.

A table server commits to a match's seed by publishing ``seed_hash(seed)``
when the table is created and reveals the seed only in the finished match's
record. What is hashed is the seed written as a decimal integer in ASCII
(``"7"``, no sign for non-negative seeds, no leading zeros or spaces):

>>> seed_hash(7)
'7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451'

>>> import io
>>> from rummylab.match import play_match
>>> from rummylab.bots import make_bot
>>> from rummylab.records import RecordWriter
>>> buf = io.StringIO()
>>> _ = play_match("gin", [make_bot("simple", "gin")] * 2, seed=7, options={"target": 10},
...                writer=RecordWriter(buf))
>>> _ = buf.seek(0)
>>> [m.match for m in verify(buf, seed_hash(7))]
[1]
>>> _ = buf.seek(0)
>>> verify(buf, seed_hash(8))  # doctest: +ELLIPSIS
Traceback (most recent call last):
rummylab.errors.RecordError: line 1, column 1: the header's seed hashes to 7902699b..., not to ...
"""

from __future__ import annotations

import hashlib
import re
from typing import IO

from rummylab.errors import OptionError, RecordError
from rummylab.records import ReplayedMatch, replay

_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


def seed_hash(seed: int) -> str:
    """SHA-256 of the seed's decimal text, in hex: the commitment to a deal."""
    return hashlib.sha256(str(int(seed)).encode("ascii")).hexdigest()


def check_seed_hash(text: str) -> str:
    """``text`` as a lower-case SHA-256 hex digest, or an :class:`OptionError`.

    >>> check_seed_hash("ab")
    Traceback (most recent call last):
    rummylab.errors.OptionError: a seed hash is 64 hex digits, not 'ab'
    """
    text = text.strip()
    if not _HEX64.fullmatch(text):
        raise OptionError(f"a seed hash is 64 hex digits, not {text[:80]!r}")
    return text.lower()


def verify(stream: IO[str], committed: str | None = None) -> list[ReplayedMatch]:
    """Replay every match of a record (as ``rummylab replay`` does) and check
    that each was dealt from its header's seed and, given ``committed``, that
    the seed hashes to it. The first failure is a :class:`RecordError`
    naming its line."""
    want = None if committed is None else check_seed_hash(committed)
    out = []
    for m in replay(stream):
        seed = m.state.seed
        if m.state.start_position is not None:
            # whoever wrote the position chose every hand of it: no seed dealt them
            raise RecordError("the match started from a position: its first hand was given, "
                              "not dealt by the seed, so its deal cannot be verified", m.line)
        if not m.seed_checked or seed is None:
            raise RecordError("the header has no seed that deals this match (its decks were "
                              "given), so its deal cannot be verified", m.line)
        got = seed_hash(seed)
        if want is not None and got != want:
            raise RecordError(f"the header's seed hashes to {got[:8]}..., not to the committed "
                              f"seed_hash {want[:8]}...", m.line)
        out.append(m)
    return out
