"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel adapters.

Needs the ``rl`` extra (``pip install -e '.[rl]'``: pettingzoo,
gymnasium, open_spiel, numpy); the engine itself never imports them.
Importing this package registers the Gymnasium ids (``rummylab/Gin-v0``,
``rummylab/Gin3-v0``, ``rummylab/ThreeThirteen-v0``,
``rummylab/Manipulation-v0``) and the OpenSpiel games
(``python_rummylab_gin``, ``python_rummylab_gin3``,
``python_rummylab_three_thirteen``, ``python_rummylab_manipulation``).
"""

from __future__ import annotations

from rummylab.rl.aec import RummyAECEnv, aec_env, raw_env
from rummylab.rl.encoders import make_encoder
from rummylab.rl.gym_env import GYM_IDS, RummyGymEnv, gym_env, register_gym_envs
from rummylab.rl.specs import GAMES, SPIEL_NAMES, spec_of

register_gym_envs()

try:  # OpenSpiel has no wheel for every platform: the rest works without it
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]  # noqa: F401
except ImportError:  # pragma: no cover
    HAVE_OPENSPIEL = False
else:
    HAVE_OPENSPIEL = True
    from rummylab.rl.openspiel import register_openspiel_games

    register_openspiel_games()

__all__ = [
    "GAMES",
    "GYM_IDS",
    "HAVE_OPENSPIEL",
    "SPIEL_NAMES",
    "RummyAECEnv",
    "RummyGymEnv",
    "aec_env",
    "gym_env",
    "make_encoder",
    "raw_env",
    "spec_of",
]
