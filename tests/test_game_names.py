"""No code outside a game's own package tests the game's name (issue 41).

Everything above the games (match, arena, records, the command line, the
research adapters, the bots' registry) asks the game class: its
``game_name``, ``aliases``, player counts, ``lower_is_better``, ``deal_word``,
figures and so on (``rummylab.game.State``). This test parses every Python
file of the package with :mod:`ast` and fails on a string constant that *is*
a game's name or alias (any case, ``-`` or ``_``), outside:

- the game packages ``gin/``, ``three_thirteen/``, ``manipulation/`` and the
  bots written for one game, ``bots/gin/``, ``bots/three_thirteen/``,
  ``bots/manipulation/`` (a game may name itself);
- ``registry.py``, which says where each game class lives;
- ``rules/``, the rules texts;
- docstrings (module, class and function docstrings, and the doctest
  examples in them, which show a user how to name a game);
- the short allow-list below, each entry with its reason.

A name inside a longer text (a help message listing the games) is prose,
not a test of a name, and is not flagged.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rummylab.errors import RummyError
from rummylab.game import Observation, State
from rummylab.registry import GAMES, game_class, game_classes

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "rummylab"

# where a game may write its own name
OWN = ("gin/", "three_thirteen/", "manipulation/", "bots/gin/", "bots/three_thirteen/",
       "bots/manipulation/", "rules/", "registry.py")

# file -> why a game's name may stay there
ALLOWED: dict[str, str] = {
    "bots/__init__.py": "BOT_LEVELS is data: which bot plays which game, keyed by its name",
    "rl/openspiel_gin.py": "Gin's harness against OpenSpiel's gin_rummy; 'gin' there is the "
                           "outcome of going gin",
    "tui/gin.py": "Gin's own terminal view: 'gin' there is the hand's outcome and the key "
                  "for going gin",
}


def _names() -> set[str]:
    out = set()
    for cls in game_classes():
        for name in (cls.game_name, *cls.aliases):
            out |= {name.lower(), name.lower().replace("-", "_"), name.lower().replace("_", "-")}
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the constants that are docstrings."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                out.add(id(body[0].value))
    return out


def names_in(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, text) of every string constant of ``source`` that is one of
    ``names``, docstrings left out.

    >>> names_in('def f(g):\\n    "gin"\\n    return g == "Gin" or g in ("gin-x",)', {"gin"})
    [(3, 'Gin')]
    """
    tree = ast.parse(source)
    docs = _docstrings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs and node.value.strip().lower() in names]


def _files() -> list[str]:
    return sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py"))


def test_no_game_name_is_tested_outside_its_game() -> None:
    names = _names()
    assert {"gin", "gin3", "three-thirteen", "three_thirteen", "manipulation"} <= names
    found = []
    for rel in _files():
        if rel.startswith(OWN) or rel in ALLOWED:
            continue
        for line, text in names_in((PACKAGE / rel).read_text("utf-8"), names):
            found.append(f"{rel}:{line}: {text!r}")
    assert not found, "a game's name tested outside its package (ask the game class):\n" + \
        "\n".join(found)


def test_the_allow_list_is_short_and_current() -> None:
    """Every entry still names a file that holds a game's name (a stale entry
    would let one back in unseen)."""
    names = _names()
    assert len(ALLOWED) <= 3
    for rel in ALLOWED:
        path = PACKAGE / rel
        if path.exists():
            assert names_in(path.read_text("utf-8"), names), f"{rel} no longer needs its entry"


def test_the_checker_sees_a_name() -> None:
    # a comparison, a key and an f-string piece are caught; a docstring and prose are not
    src = ('"""gin"""\nx = game == "Manipulation"\ny = {"three_thirteen": 1}\n'
           'z = f"{a}three-thirteen"\nw = "gin, gin3 or manipulation"\n')
    assert [line for line, _ in names_in(src, _names())] == [2, 3, 4]


@pytest.mark.parametrize("name", list(GAMES))
def test_each_game_describes_itself(name: str) -> None:
    """The registry lists each class under the name it gives itself, and each
    class declares what the code above the games asks of it."""
    cls = GAMES[name]
    assert issubclass(cls, State) and cls.game_name == name
    assert game_class(name.upper().replace("-", "_")) is cls
    for alias in cls.aliases:
        assert game_class(alias) is cls
    assert cls.title and 2 <= cls.min_players <= cls.default_players <= cls.max_players
    assert ("players" in cls.option_spec) == (cls.min_players < cls.max_players)
    assert cls.deal_word in ("hand", "round")
    assert cls.drawn_key and cls.deal_figure in [f.name for f in cls.figures]
    assert issubclass(cls.observation_type, Observation)
    # each move form is in the game's own error for a move it does not know
    with pytest.raises(RummyError) as e:
        cls(seed=1).string_to_action("shuffle")
    assert all(f"'{form}'" in str(e.value) for form in cls.move_forms)
    state = cls(seed=1)
    assert type(state.observation(0)) is cls.observation_type
    assert isinstance(state.results, list) and state.results == []
    hand = state.cards_in_hand(state.current_player())
    assert hand == sorted(hand) and hand


def test_aliases_name_one_game_each() -> None:
    seen: dict[str, str] = {}
    for cls in game_classes():
        for alias in (cls.game_name, *cls.aliases):
            key = alias.lower().replace("_", "-")
            assert seen.setdefault(key, cls.game_name) == cls.game_name, alias


@pytest.mark.parametrize("name", list(GAMES))
def test_the_base_clone_and_the_games_fast_clone_agree(name: str) -> None:
    """``State.clone``'s deep copy (for a game without its own) and the
    game's fast clone play on alike, record only what happens to them, and
    leave the original as it was."""
    state = GAMES[name](seed=4)
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    before = state.observation(0).to_dict()
    deep, fast = State.clone(state), state.clone()
    assert deep.events == fast.events == [] and state.events
    for _ in range(6):
        if deep.is_terminal():
            break
        action = deep.legal_actions()[0]
        deep.apply_action(action)
        fast.apply_action(action)
        assert deep.observation(0) == fast.observation(0)
        assert deep.events == fast.events
    assert state.observation(0).to_dict() == before


def test_replay_setup_defaults_to_the_first_dealer() -> None:
    events = [{"type": "deal", "dealer": 1, "deck": ""}, {"type": "deal", "dealer": 0}]
    assert State.replay_setup(events) == {"first_dealer": 1}
    assert State.replay_setup([]) == {}
