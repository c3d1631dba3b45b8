"""The observations' quicker ``__init__`` (game.quick_init) takes the
parameters the dataclass made, with the same defaults, and gives the same
observation; it refuses a dataclass whose fields it cannot fill alike."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field

import pytest

from rummylab import new_state
from rummylab.game import quick_init
from rummylab.gin.game import GinObservation
from rummylab.manipulation.game import ManipulationObservation
from rummylab.three_thirteen.game import ThirteenObservation


def _dataclass_twin(cls: type) -> type:
    """The same fields as a plain frozen dataclass, with the generated ``__init__``."""
    return dataclass(frozen=True)(type(f"Plain{cls.__name__}", (cls,), {}))


@pytest.mark.parametrize("cls", [GinObservation, ThirteenObservation, ManipulationObservation])
def test_the_parameters_are_the_dataclass_ones(cls: type) -> None:
    ours = inspect.signature(cls.__init__).parameters
    theirs = inspect.signature(_dataclass_twin(cls).__init__).parameters
    assert [(p.name, p.kind, p.default) for p in ours.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.values()]


@pytest.mark.parametrize("game", ["gin", "gin3", "three-thirteen", "manipulation"])
def test_an_observation_is_the_one_the_dataclass_would_make(game: str) -> None:
    obs = new_state(game, seed=4).observation(0)
    values = {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
    twin = _dataclass_twin(type(obs))(**values)
    assert vars(twin) == vars(obs)
    assert obs == type(obs)(**values) and obs.to_dict() == twin.to_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.seat = 1  # type: ignore[misc]
    values.pop("game")
    with pytest.raises(TypeError, match="game"):
        type(obs)(**values)


def test_a_field_it_cannot_fill_alike_is_refused() -> None:
    @dataclass(frozen=True)
    class Made:
        cards: list[int] = field(default_factory=list)

    with pytest.raises(TypeError, match="factory"):
        quick_init(Made)
