"""Long tests, sampled: a few examples or cases in the default run, all under ``-m slow``.

The default ``python -m pytest`` deselects tests marked ``slow`` (pyproject.toml);
``.ci/run`` runs them after it. ``given_sampled`` and ``sampled_counts`` make two
tests of one check, so the default run still makes every check, on fewer cases.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis.strategies import SearchStrategy


def given_sampled(*strategies: SearchStrategy[Any], full: int,
                  sample: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``@settings(max_examples=full) @given(*strategies)`` run as two tests:
    ``[sample]`` with ``sample`` examples, and ``[full]``, marked slow, with ``full``."""
    if not 0 < sample < full:
        raise ValueError(f"sample must be between 0 and full ({full}), got {sample}")

    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        # one @given wrapper per count: hypothesis reads the settings off the wrapper
        runs = {n: settings(max_examples=n)(given(*strategies)(test)) for n in (sample, full)}

        @pytest.mark.parametrize("examples", [
            pytest.param(sample, id="sample"),
            pytest.param(full, id="full", marks=pytest.mark.slow),
        ])
        def run(examples: int) -> None:
            runs[examples]()

        run.__name__ = run.__qualname__ = test.__name__
        run.__doc__ = test.__doc__
        run.__module__ = test.__module__
        return run

    return decorate


def sampled_counts(full: int, sample: int) -> list[Any]:
    """``pytest.mark.parametrize`` values for a test looping over ``n`` cases drawn
    one after another: ``sample`` (the first cases) in the default run, all ``full``
    under ``-m slow``."""
    if not 0 < sample < full:
        raise ValueError(f"sample must be between 0 and full ({full}), got {sample}")
    return [pytest.param(sample, id="sample"),
            pytest.param(full, id="full", marks=pytest.mark.slow)]
