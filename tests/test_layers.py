"""The import layers of docs/architecture.md hold (issue 41, done-when 2).

Every module under src/rummylab is read with ``ast`` (no import runs), and every
import in it counts: at the top, inside functions and under ``TYPE_CHECKING``.
Three rules:

(a) no module imports a module of a higher layer;
(b) the engine (layers cards to bots) imports nothing outside the standard library
    and rummylab, except the optional numba kernel; the play layer imports its
    optional extras only inside functions, so ``import rummylab.arena`` works
    without them;
(c) no import circle among rummylab modules.

``LAYERS`` places every module; a new module fails here until it is placed (and
the table in docs/architecture.md, which must list the same names, says so too).
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
DOC = ROOT / "docs" / "architecture.md"

# lowest first: a module may import its own layer and the layers before it
ORDER = ("cards", "solvers", "games", "records", "bots", "play", "adapters")

# a name ending in ".*" places a package and everything under it
LAYERS: dict[str, str] = {
    # cards: what every game stands on
    "rummylab.errors": "cards",
    "rummylab.cards": "cards",
    "rummylab.options": "cards",
    "rummylab.rules": "cards",
    # solvers: exact answers about hands and tables, no game state
    "rummylab.gin.solver": "solvers",
    "rummylab.three_thirteen.solver": "solvers",
    "rummylab.manipulation.table": "solvers",
    "rummylab.manipulation.solver": "solvers",
    "rummylab.manipulation.sweep_tables": "solvers",
    "rummylab.manipulation._kernel": "solvers",
    "rummylab.reference": "solvers",
    "rummylab.gin.analysis": "solvers",  # a hand's analysis: solver answers, no game state
    "rummylab.three_thirteen.analysis": "solvers",
    "rummylab.manipulation.analysis": "solvers",
    # games: the State API, each game, the registry that finds them
    "rummylab": "games",
    "rummylab.game": "games",
    "rummylab.registry": "games",
    "rummylab.gin": "games",
    "rummylab.gin.game": "games",
    "rummylab.gin.three_player": "games",
    "rummylab.three_thirteen": "games",
    "rummylab.three_thirteen.game": "games",
    "rummylab.manipulation": "games",
    "rummylab.manipulation.game": "games",
    # positions: a moment of a game as one line, written and read by the game's codec
    "rummylab.position": "games",
    "rummylab.gin.position": "games",
    "rummylab.gin.three_player_position": "games",
    "rummylab.three_thirteen.position": "games",
    "rummylab.manipulation.position": "games",
    # records: writing and replaying matches
    "rummylab.records": "records",
    "rummylab.verify": "records",  # the server's seed-commitment check (issue 42)
    # bots: a bot sees an observation and picks an action
    "rummylab.bots.*": "bots",
    # play: matches, the arena, analysis, statistics
    "rummylab.match": "play",
    "rummylab.arena": "play",
    "rummylab.analysis": "play",
    "rummylab.stats": "play",
    # adapters: what people and programs use
    "rummylab.cli": "adapters",
    "rummylab.__main__": "adapters",
    "rummylab.tui.*": "adapters",
    "rummylab.rl.*": "adapters",
    "rummylab.server.*": "adapters",
    "rummylab.web.*": "adapters",
}

ENGINE = ORDER[: ORDER.index("bots") + 1]
# the only third-party imports below the play layer: the optional accelerator of
# the Manipulation sweep (extra "fast"); solver.py imports it only when numba
# is importable, and both paths give the same plays (tests/test_manipulation_kernel.py)
ENGINE_THIRD_PARTY = {"rummylab.manipulation._kernel": {"numba", "numpy"}}

# Imports that break a rule today and are fixed in a file another part of the
# work owns: (importer, imported) -> why it is still here. Each one must still
# be found (test_known_exceptions_are_still_needed), so a fix removes its line.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {
    # a game names its position codec (``position_module``), loaded only when a
    # position is asked for; the codec imports the game it writes and reads
    **{(game, codec): "a game's position codec, named and loaded late" for game, codec in (
        ("rummylab.gin.game", "rummylab.gin.position"),
        ("rummylab.gin.three_player", "rummylab.gin.three_player_position"),
        ("rummylab.three_thirteen.game", "rummylab.three_thirteen.position"),
        ("rummylab.manipulation.game", "rummylab.manipulation.position"))},
}

# "rummylab.gin.game:GinState" (a registry entry) or import_module("rummylab.x")
_DOTTED = re.compile(r"rummylab(\.\w+)*(:\w+)?")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # what it imports: a rummylab module, or a top-level package name
    line: int
    top: bool  # at module level (not inside a function or class body)

    def __str__(self) -> str:
        return f"{self.module} (line {self.line}) imports {self.target}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


FILES = {module_name(p): p for p in sorted((SRC / "rummylab").rglob("*.py"))}


def resolve(name: str) -> str:
    """The rummylab module ``name`` is, or is inside (``rummylab.x.f`` -> ``rummylab.x``)."""
    while name not in FILES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _top_level_nodes(tree: ast.Module) -> set[int]:
    """Statements run on import: the module body and its if/try/with blocks."""
    out: set[int] = set()
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        out.add(id(node))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            for child in getattr(node, field, []):
                if isinstance(child, ast.ExceptHandler):
                    out.add(id(child))
                    todo.extend(child.body)
                else:
                    todo.append(child)
    return out


def imports_of(module: str) -> list[Import]:
    path = FILES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    top = _top_level_nodes(tree)
    out: list[Import] = []

    def add(target: str, node: ast.AST, at_top: bool) -> None:
        if target == "rummylab" or target.startswith("rummylab."):
            target = resolve(target)
        else:
            target = target.split(".")[0]
        out.append(Import(module, target, getattr(node, "lineno", 0), at_top))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node, id(node) in top)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            if source == "__future__":
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                add(sub if sub in FILES else source, node, id(node) in top)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and _DOTTED.fullmatch(node.value) and "." in node.value):
            # a module named in a string (a registry entry, import_module): it is
            # imported when used, so it counts as an import from inside a function
            target = resolve(node.value.partition(":")[0])
            if target in FILES:
                out.append(Import(module, target, node.lineno, False))
    return out


IMPORTS = {m: imports_of(m) for m in FILES}


def layer_of(module: str) -> str | None:
    if module in LAYERS:
        return LAYERS[module]
    packages = [k[:-2] for k in LAYERS if k.endswith(".*")]
    inside = [p for p in packages if module == p or module.startswith(p + ".")]
    return LAYERS[max(inside, key=len) + ".*"] if inside else None


def rank(module: str) -> int:
    layer = layer_of(module)
    assert layer is not None, module
    return ORDER.index(layer)


def is_third_party(target: str) -> bool:
    return target != "rummylab" and not target.startswith("rummylab.") and (
        target not in sys.stdlib_module_names)


def found(imp: Import) -> bool:
    """An import that breaks no rule, or one listed in KNOWN_EXCEPTIONS."""
    return (imp.module, imp.target) in KNOWN_EXCEPTIONS


def upward_imports() -> list[Import]:
    placed = [imp for imps in IMPORTS.values() for imp in imps
              if imp.target in FILES and layer_of(imp.module) and layer_of(imp.target)]
    return [imp for imp in placed if rank(imp.target) > rank(imp.module)]


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle (its modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (got := visit(nxt)) is not None:
                return got
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (cycle := visit(start)) is not None:
            return cycle
    return None


def import_graph() -> dict[str, set[str]]:
    return {m: {imp.target for imp in imps if imp.target in FILES and imp.target != m
                and not found(imp)}
            for m, imps in IMPORTS.items()}


# --- the tests ---------------------------------------------------------------------------


def test_every_module_has_a_layer() -> None:
    missing = sorted(m for m in FILES if layer_of(m) is None)
    assert not missing, (
        f"no layer for {', '.join(missing)}: place it in LAYERS in tests/test_layers.py "
        "and in the table of docs/architecture.md")
    assert set(LAYERS.values()) <= set(ORDER)


def test_no_module_imports_a_higher_layer() -> None:
    bad = [f"{imp}: {layer_of(imp.module)} may not import {layer_of(imp.target)}"
           for imp in upward_imports() if not found(imp)]
    assert not bad, "imports from a lower layer into a higher one:\n" + "\n".join(bad)


def test_engine_imports_only_the_standard_library() -> None:
    bad = []
    for m, imps in IMPORTS.items():
        if layer_of(m) not in ENGINE:
            continue
        allowed = ENGINE_THIRD_PARTY.get(m, set())
        bad += [f"{imp} (not in the standard library)" for imp in imps
                if is_third_party(imp.target) and imp.target not in allowed and not found(imp)]
    assert not bad, "\n".join(bad)


def test_play_layer_imports_its_extras_only_when_used() -> None:
    bad = [f"{imp} at module level: import it inside the function that needs it"
           for m, imps in IMPORTS.items() if layer_of(m) == "play"
           for imp in imps if imp.top and is_third_party(imp.target) and not found(imp)]
    assert not bad, "\n".join(bad)


def test_no_import_circle() -> None:
    cycle = find_cycle(import_graph())
    if cycle is not None:
        steps = [f"{a} (line {min(i.line for i in IMPORTS[a] if i.target == b)}) imports {b}"
                 for a, b in pairwise(cycle)]
        raise AssertionError("import circle:\n" + "\n".join(steps))


def test_known_exceptions_are_still_needed() -> None:
    every = {(imp.module, imp.target) for imps in IMPORTS.values() for imp in imps}
    stale = [f"{a} -> {b}" for a, b in KNOWN_EXCEPTIONS if (a, b) not in every]
    assert not stale, "fixed, remove from KNOWN_EXCEPTIONS: " + ", ".join(stale)


def test_architecture_doc_lists_the_same_layers() -> None:
    """The layer table of docs/architecture.md: one row per layer, in order, naming
    in backticks exactly the modules LAYERS places there."""
    rows: dict[str, set[str]] = {}
    order: list[str] = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 2:
            continue
        head = re.fullmatch(r"\d+\. (\w+)", cells[0].replace("*", ""))
        if head and head.group(1) in ORDER:
            order.append(head.group(1))
            rows[head.group(1)] = set(re.findall(r"`(rummylab[\w.*]*)`", cells[1]))
    assert order == list(ORDER)
    for layer in ORDER:
        assert rows[layer] == {m for m, lay in LAYERS.items() if lay == layer}, layer


# --- the checker checks ------------------------------------------------------------------


def test_an_upward_import_is_caught() -> None:
    """A solver importing the match runner is reported with its line."""
    fake = Import("rummylab.gin.solver", "rummylab.match", 7, False)
    assert rank(fake.target) > rank(fake.module)
    assert str(fake) == "rummylab.gin.solver (line 7) imports rummylab.match"


def test_imports_inside_functions_and_type_checking_count(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from rummylab.match import play_match\n"
        "def f():\n    from rummylab.bots import make_bot\n    import numpy\n"
        "try:\n    import numba\nexcept ImportError:\n    pass\n")
    FILES["rummylab._probe"] = src
    try:
        got = {(i.target, i.top) for i in imports_of("rummylab._probe")}
    finally:
        del FILES["rummylab._probe"]
    assert got == {("typing", True), ("rummylab.match", True), ("rummylab.bots", False),
                   ("numpy", False), ("numba", True)}


def test_a_circle_is_reported() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(edges) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
