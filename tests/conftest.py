"""Test setup: make ``helpers`` importable and keep hypothesis fast and reproducible."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

_TESTS = Path(__file__).resolve().parent
_SRC = _TESTS.parent / "src"
# tests import their shared helpers as ``helpers``; the package itself is
# normally installed (pip install -e .), src/ is a fallback for a bare checkout
for path in (str(_TESTS), str(_SRC)):
    if path not in sys.path:
        sys.path.insert(0, path)

settings.register_profile(
    "default",
    deadline=None,  # whole matches are played per example; their time varies
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
# CI: the same examples on every run, no example database
settings.register_profile(
    "ci",
    parent=settings.get_profile("default"),
    derandomize=True,
    database=None,
)
settings.load_profile("ci" if os.environ.get("CI") else "default")
