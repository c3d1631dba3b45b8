"""The research adapters' doctests (pytest's own doctest run skips
``src/rummylab/rl``, whose modules import the ``rl`` extra)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

import rummylab.rl

MODULES = sorted(m.name for m in pkgutil.iter_modules(rummylab.rl.__path__, "rummylab.rl."))


def test_every_adapter_module_is_listed() -> None:
    assert {"rummylab.rl.common", "rummylab.rl.encoders", "rummylab.rl.specs"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_rl_doctests_pass(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
