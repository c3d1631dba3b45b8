"""The rules document that ships with the package (``rummylab/rules/RULES.md``).

Every `§S.N` rule and `D-n` decision cited in the code, its messages, the docs
and the tests must exist in it, so a user can look each one up; its numbering
has no gaps; it has the spec's numbered items and decisions, each decision at
the same rule; its option tables are the games' options.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import pytest

from rummylab.cli import console, main
from rummylab.registry import GAMES, game_class

ROOT = Path(__file__).resolve().parent.parent
# where a citation may stand: the package (code, messages, per-game texts), the
# README, the docs, and the tests, scripts, benchmarks and examples that name rules
CITING = [
    *sorted((ROOT / "src").rglob("*.py")),
    *sorted((ROOT / "src").rglob("*.md")),
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted(p for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name),
    *sorted((ROOT / "scripts").rglob("*.py")),
    *sorted((ROOT / "benchmarks").rglob("*.py")),
    *sorted((ROOT / "benchmarks").rglob("*.md")),
    *sorted((ROOT / "examples").rglob("*.py")),
]
# the project's spec lives in its shared folder, beside the checkout (or beside the
# folder of worktrees); a user's copy of the package has none
SPECS = [p / "shared" / "RULES.md" for p in (ROOT.parent, ROOT.parent.parent)]

CITATION = re.compile(r"§(\d+)(?:\.(\d+))?|\bD-(\d+)\b")
SECTION = re.compile(r"^## (\d+)\. ")
ITEM = re.compile(r"^(\d+)\. ")  # a top-level numbered item; sub-steps are indented
DEFINED_HERE = re.compile(r"\*\*D-(\d+):\*\*")  # the document defines each decision so
ANY_DECISION = re.compile(r"\bD-(\d+)\b")  # the spec names each decision where it makes it


@dataclass
class Rulebook:
    """The numbering of a rules text: its sections with their numbered items,
    and where (section, item; item 0 = the section's text outside items) each
    decision is made."""

    items: dict[int, list[int]] = field(default_factory=dict)
    decisions: dict[int, list[tuple[int, int]]] = field(default_factory=dict)

    def has(self, section: int, item: int | None) -> bool:
        return section in self.items and (item is None or item in self.items[section])


def parse(text: str, decision: re.Pattern[str]) -> Rulebook:
    """The numbering of ``text``: sections are ``## S. Title`` headings, items
    the numbered list entries at the start of a line; any other ``#``/``##``
    heading ends the numbered part (the option tables, the index)."""
    book = Rulebook()
    section: int | None = None
    item = 0
    for line in text.splitlines():
        if m := SECTION.match(line):
            section, item = int(m[1]), 0
            assert section not in book.items, f"section {section} appears twice"
            book.items[section] = []
            continue
        if line.startswith(("# ", "## ")):
            section = None
            continue
        if section is None:
            continue
        if m := ITEM.match(line):
            item = int(m[1])
            book.items[section].append(item)
        for d in decision.finditer(line):
            book.decisions.setdefault(int(d[1]), []).append((section, item))
    return book


def rules_text() -> str:
    # read as an installed package reads it, not from the source tree
    return resources.files("rummylab.rules").joinpath("RULES.md").read_text("utf-8")


@pytest.fixture(scope="module")
def book() -> Rulebook:
    return parse(rules_text(), DEFINED_HERE)


def where(section: int, item: int) -> str:
    return f"§{section}.{item}" if item else f"§{section}"


def test_every_cited_rule_and_decision_exists(book: Rulebook) -> None:
    missing = []
    for path in CITING:
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for m in CITATION.finditer(line):
                if m[3] is not None:
                    ok = int(m[3]) in book.decisions
                    why = "no such decision"
                else:
                    ok = book.has(int(m[1]), None if m[2] is None else int(m[2]))
                    why = (f"section {m[1]} has no item {m[2]}" if int(m[1]) in book.items
                           else f"no section {m[1]}")
                if not ok:
                    missing.append(f"{path.relative_to(ROOT)}:{number}: {m[0]}: {why}")
    assert not missing, "citations RULES.md does not have:\n" + "\n".join(missing)


def test_the_scan_sees_the_citations() -> None:
    # a pattern or file list that went wrong would pass the test above with nothing checked
    cited = {m[0] for p in CITING for m in CITATION.finditer(p.read_text("utf-8"))}
    assert {"§1.4", "§4.7", "D-3", "D-16", "§1"} <= cited
    assert len(CITING) > 50


def test_numbering_has_no_gaps(book: Rulebook) -> None:
    assert sorted(book.items) == list(range(len(book.items))) == [0, 1, 2, 3, 4]
    for section, items in book.items.items():
        assert items == list(range(1, len(items) + 1)), f"§{section} items are {items}"
    assert sorted(book.decisions) == list(range(1, len(book.decisions) + 1))
    twice = {d: places for d, places in book.decisions.items() if len(places) > 1}
    assert not twice, f"decisions defined more than once: {twice}"


def test_decisions_index_lists_each_decision_at_its_rule(book: Rulebook) -> None:
    text = rules_text()
    index = text[text.index("## Decisions index"):]
    rows = re.findall(r"^\| D-(\d+) \| (§[\d.]+) \|", index, re.MULTILINE)
    assert [int(d) for d, _ in rows] == sorted(book.decisions)
    for d, rule in rows:
        assert rule == where(*book.decisions[int(d)][0]), f"D-{d} is indexed at {rule}"


def spec_path() -> Path:
    found = next((p for p in SPECS if p.is_file()), None)
    if found is None:
        pytest.skip("the project's shared folder (shared/RULES.md) is not beside this checkout")
    return found


def test_same_items_and_decisions_as_the_spec(book: Rulebook) -> None:
    spec = parse(spec_path().read_text("utf-8"), ANY_DECISION)
    assert book.items == spec.items
    assert sorted(book.decisions) == sorted(spec.decisions)
    for d, places in spec.decisions.items():
        # the spec makes each decision where it first names it
        assert book.decisions[d][0] == places[0], (
            f"D-{d} is at {where(*book.decisions[d][0])}, the spec has it at "
            f"{where(*places[0])}")


def option_tables() -> dict[str, list[list[str]]]:
    """The rows (option, default, values, rule) of each game's table under
    ``## Rule options``."""
    text = rules_text()
    part = text[text.index("## Rule options"):text.index("## Decisions index")]
    tables: dict[str, list[list[str]]] = {}
    game = ""
    for line in part.splitlines():
        if m := re.match(r"^### `([\w-]+)`$", line):
            game = m[1]
            tables[game] = []
        elif line.startswith("| `") and game:
            cells = [c.replace("\\|", "|").strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            tables[game].append([cells[0].strip("`"), *cells[1:4]])
    return tables


def test_option_tables_are_the_games_options() -> None:
    tables = option_tables()
    assert sorted(tables) == sorted(GAMES)
    for name, rows in tables.items():
        expected = []
        for opt in game_class(name).option_spec.values():
            default = str(opt.default).lower() if isinstance(opt.default, bool) else str(
                opt.default)
            expected.append([opt.name, default, opt.allowed(), opt.rule])
        assert rows == expected, f"the table of {name} should have the rows {expected}"


def test_rules_command_names_and_prints_the_full_rules(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "_width", 200)
    assert main(["rules", "gin"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert "rummylab rules all" in last
    shown = Path(last.split("(the file ", 1)[1].rstrip(")"))
    assert shown.name == "RULES.md" and shown.read_text("utf-8") == rules_text()
    assert main(["rules", "all"]) == 0
    out = capsys.readouterr().out
    for text in ("0. Common ground", "4. Manipulation", "D-25:", "Decisions index",
                 "initial_meld_from_hand"):
        assert text in out
