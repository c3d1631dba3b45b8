"""Bots: each sees only its seat's observation and returns a legal action.

Other packages add bots by name through the entry-point group
``rummylab.bots``: each entry point names a mapping from game name to a
factory ``(options, seed) -> Bot`` (the shape of :data:`BOT_LEVELS`' values),
or a :class:`Bot` subclass, which then plays the games in its ``games``
attribute (every game if it has none). ``make_bot`` loads one the first time
its name is asked for, so ``play``, ``simulate`` and ``arena`` (and their
worker processes) know it by name once its package is installed::

    [project.entry-points."rummylab.bots"]
    mybot = "mypackage.bots:MyBot"

>>> from rummylab import new_state
>>> state = new_state("gin", seed=2)
>>> bot = make_bot("simple", "gin")
>>> action = bot.act(state.observation(state.current_player()))
>>> action in state.legal_actions(), state.action_to_string(action)
(True, 'take discard')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from importlib.metadata import entry_points

from rummylab.bots.base import Bot
from rummylab.bots.gin.simple import SimpleGinBot
from rummylab.bots.gin.strong import StrongGinBot
from rummylab.bots.random_bot import RandomBot
from rummylab.bots.three_thirteen.simple import SimpleThirteenBot
from rummylab.errors import OptionError
from rummylab.registry import GAMES as _REGISTERED
from rummylab.registry import game_class

# level name -> game name -> factory(options, seed)
BOT_LEVELS: dict[str, dict[str, Callable[[dict[str, str], int | None], Bot]]] = {
    "random": {
        "gin": lambda o, s: RandomBot(o, s),
        "gin3": lambda o, s: RandomBot(o, s),
        "three-thirteen": lambda o, s: RandomBot(o, s),
        "manipulation": lambda o, s: RandomBot(o, s),
    },
    "simple": {
        "gin": lambda o, s: SimpleGinBot(o, s),
        "gin3": lambda o, s: SimpleGinBot(o, s),
        "three-thirteen": lambda o, s: SimpleThirteenBot(o, s),
        "manipulation": lambda o, s: _simple_manipulation(o, s),
    },
    "strong": {
        "gin": lambda o, s: StrongGinBot(o, s),
        "gin3": lambda o, s: StrongGinBot(o, s),
        "three-thirteen": lambda o, s: _strong_thirteen(o, s),
        "manipulation": lambda o, s: _strong_manipulation(o, s),
    },
}


# the Manipulation and strong Three Thirteen bots import their solvers on first use
def _simple_manipulation(options: dict[str, str], seed: int | None) -> Bot:
    from rummylab.bots.manipulation.simple import SimpleManipulationBot

    return SimpleManipulationBot(options, seed)


def _strong_thirteen(options: dict[str, str], seed: int | None) -> Bot:
    from rummylab.bots.three_thirteen.strong import StrongThirteenBot

    return StrongThirteenBot(options, seed)


def _strong_manipulation(options: dict[str, str], seed: int | None) -> Bot:
    from rummylab.bots.manipulation.strong import StrongManipulationBot

    return StrongManipulationBot(options, seed)


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``NAME`` or ``NAME:key=value[:key=value]`` into a name and options."""
    name, *parts = spec.strip().split(":")
    if not name.strip():
        raise OptionError(f"no bot named in {spec!r} (e.g. strong:budget=200)")
    opts: dict[str, str] = {}
    for part in parts:
        for item in part.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise OptionError(f"bot option {item!r} in {spec!r} must be written key=value")
            key = key.strip()
            if key in opts:
                raise OptionError(f"bot option {key!r} given twice in {spec!r}")
            opts[key] = value.strip()
    return name.strip().lower(), opts


# the player-facing names of the three levels
LEVEL_NAMES = {"easy": "random", "medium": "simple", "hard": "strong"}


def make_bot(spec: str, game: str, seed: int | None = None) -> Bot:
    """A bot from its spec (``simple``, ``random:seed=3``, ``hard``) for ``game``.

    >>> make_bot("hard:budget=8", "gin").spec()
    'strong:budget=8'
    """
    name, opts = parse_bot_spec(spec)
    name = LEVEL_NAMES.get(name, name)
    game_name = game_class(game).game_name
    if name not in BOT_LEVELS and not _load_plugin(name):
        installed = [ep.name for ep in entry_points(group="rummylab.bots")]
        known = ", ".join(dict.fromkeys([*BOT_LEVELS, *LEVEL_NAMES, *installed]))
        raise OptionError(f"unknown bot {name!r} (bots: {known})")
    factories = BOT_LEVELS[name]
    if game_name not in factories:
        raise OptionError(f"bot {name!r} does not play {game_name}")
    bot = factories[game_name](opts, seed)
    if bot.name != name:
        # a subclass that kept its parent's name: records name it as asked
        # (a name it will not let go of, a read-only property, stays its own)
        with suppress(AttributeError):
            bot.name = name
    return bot


GAMES = tuple(_REGISTERED)  # what a plugin Bot without ``games`` plays


def _factory(cls: type[Bot], name: str) -> Callable[[dict[str, str], int | None], Bot]:
    def make(options: dict[str, str], seed: int | None) -> Bot:
        bot = cls.__new__(cls)
        with suppress(AttributeError):
            bot.name = name  # before __init__, so that its option errors name it too
        bot.__init__(options, seed)  # type: ignore[misc]
        return bot
    return make


def _load_plugin(name: str) -> bool:
    """Register the bot the entry point ``name`` of ``rummylab.bots`` names;
    False if no installed package declares one."""
    found = [ep for ep in entry_points(group="rummylab.bots") if ep.name.lower() == name]
    if not found:
        return False
    try:
        target = found[0].load()
    except Exception as e:  # a broken plugin is the plugin's error, said in one line
        raise OptionError(f"bot {name!r} ({found[0].value}) cannot be loaded: "
                          f"{type(e).__name__}: {e}") from None
    if isinstance(target, type) and issubclass(target, Bot):
        cls = target
        games = getattr(cls, "games", GAMES)
        BOT_LEVELS[name] = dict.fromkeys(games, _factory(cls, name))
    elif isinstance(target, Mapping):
        BOT_LEVELS[name] = dict(target)
    else:
        raise OptionError(f"bot {name!r} ({found[0].value}) is neither a Bot subclass nor a "
                          "mapping of games to factories")
    return True


__all__ = [
    "BOT_LEVELS",
    "LEVEL_NAMES",
    "Bot",
    "RandomBot",
    "SimpleGinBot",
    "SimpleThirteenBot",
    "StrongGinBot",
    "make_bot",
    "parse_bot_spec",
]
