"""The terminal game from the command line: typed input it cannot read is
told and asked again; a record it cannot write is one line, exit code 2."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rummylab.cli import main


@pytest.mark.parametrize("game", ["gin", "gin3", "three-thirteen", "manipulation"])
def test_unreadable_input_is_told_and_asked_again(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  game: str) -> None:
    # '²' is a digit to str.isdigit() but no number to int(); '99' is no listed move
    monkeypatch.setattr("sys.stdin", io.StringIO("²\n99\nnonsense\nquit\n"))
    assert main(["play", "--terminal", game, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "You left the match." in out
    assert "choose a move from 1 to" in out


def test_record_that_cannot_be_written(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    target = tmp_path / "missing" / "match.jsonl"
    assert main(["play", "--terminal", "gin", "--record", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing played, not even the greeting
    err = captured.err.strip()
    assert err.startswith("rummylab: error: cannot write") and "\n" not in err
    assert not target.parent.exists()


def _play_as_simple(target: Path):
    """A stand-in for the player: the simple bot's move; meanwhile no record is on disk."""
    from rummylab.bots import make_bot

    def human_turn(self):
        assert not target.exists() and not target.with_name(target.name + ".part").exists()
        return make_bot("simple", self.state.game_name).act(self.state.observation(self.human))
    return human_turn


def test_record_is_written_when_the_match_is_over(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    """The record holds every hand's deck order, so it stays in memory while the
    match is played (the player could read the stock from the file) and is
    written at the end; a match started without --seed names the seed it was
    dealt from, in the record and on screen, and replays."""
    from rummylab.tui import TerminalGame

    target = tmp_path / "[bold]match.jsonl"  # a name that is no markup on screen either
    monkeypatch.setattr(TerminalGame, "human_turn", _play_as_simple(target))
    # the seed the command draws, fixed so that the test plays one match every run
    monkeypatch.setattr(random.SystemRandom, "randrange", lambda self, n: 424242)
    assert main(["play", "--terminal", "gin", "--option", "target=10",
                 "--record", str(target)]) == 0
    out = capsys.readouterr().out
    seed = json.loads(target.read_text(encoding="utf-8").splitlines()[0])["seed"]
    assert seed == 424242 and "This match was seed 424242" in out
    assert f"Record written to {target}" in out
    assert main(["replay", str(target)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["[bold]match.jsonl"]


def test_no_record_of_a_match_left_unfinished(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    """A match the player leaves is no record that replays: none is written,
    and an older file of that name stays as it was."""
    target = tmp_path / "match.jsonl"
    target.write_text("an older record\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--terminal", "gin", "--seed", "3", "--record", str(target)]) == 0
    out = capsys.readouterr().out
    assert "no record was written" in out and "This match was seed 3" in out
    assert target.read_text(encoding="utf-8") == "an older record\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["match.jsonl"]


def test_manipulation_meld_best_typed_as_the_records_write_it() -> None:
    """'meld best', the action's own text, is the best meld, as 'b' is."""
    from rich.console import Console

    from rummylab.manipulation.game import MELD_BEST
    from rummylab.tui import TERMINALS

    tg = TERMINALS["manipulation"]("manipulation", "simple", 3, {"players": 3},
                                   Console(file=io.StringIO()))
    obs = tg.state.observation(0)
    for typed in ("meld best", "Meld  Best", "m best", "b"):
        assert tg.parse(typed, obs, []) == MELD_BEST


def test_three_player_gin_sitter_gives_advice(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    """§2.2: a player who sits out sees the captain's hand and may advise the
    bot captain; a bot that sits out advises the player who captains (its
    hint). Each piece of advice is a legal move of the captain, recorded as
    an advice line before the captain's move, and the record replays."""
    from rummylab.tui import TerminalGame

    target = tmp_path / "match.jsonl"
    monkeypatch.setattr(TerminalGame, "human_turn", _play_as_simple(target))
    answers = iter(["hint", "1"] * 10_000)  # ask for a hint, then advise the first move
    monkeypatch.setattr(TerminalGame, "ask", lambda self, prompt: next(answers))
    assert main(["play", "--terminal", "gin3", "--seed", "3", "--option", "target=40",
                 "--record", str(target)]) == 0
    out = capsys.readouterr().out
    assert "You sit out this hand" in out and "Captain's hand:" in out
    assert "Hint: " in out and "You advise: " in out  # the player as sitter
    assert "sitting out, advises: " in out  # a bot sitter advising the player
    lines = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    cut = next(e for e in lines if e["type"] == "cut")
    advice = [i for i, e in enumerate(lines) if e["type"] == "advice"]
    assert advice and cut
    for i in advice:
        nxt = lines[i + 1]  # the captain's move follows the advice
        assert nxt["type"] == "action" and nxt["seat"] != lines[i]["seat"]
    assert main(["replay", str(target)]) == 0


@pytest.mark.parametrize("game", ["gin", "gin3", "three-thirteen", "manipulation"])
def test_typed_markup_and_long_lines_are_told_as_typed(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str],
                                                        game: str) -> None:
    """What the player types is never read as markup (it crashed the game or
    changed the message), and a very long line is echoed cut short; a number
    of any length out of the list is out of range."""
    lines = ["[/]", "[bold]x[/bold]", "1" * 4301, "y" * 5000, "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["play", "--terminal", game, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "'[/]'" in out and "'[bold]x[/bold]'" in out
    assert "choose a move from 1 to" in out and "is not a move's number" not in out
    assert "y" * 200 not in out.replace("\n", "")
    assert "You left the match." in out


def test_a_line_that_is_no_text_is_refused_and_the_rest_read(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A typed line that is not UTF-8 is one refused move, not a crash, and
    the lines after it are still read."""
    raw = io.TextIOWrapper(io.BytesIO(b"\xe9\nquit\n"), encoding="utf-8", errors="strict")
    monkeypatch.setattr("sys.stdin", raw)
    assert main(["play", "--terminal", "gin", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "unknown move '\ufffd'. Type a card to discard it" in out
    assert "You left the match." in out


def test_a_knock_is_confirmed_by_y_or_yes_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The confirmation takes y/yes or n/no/Enter; quit leaves the match;
    anything else is asked again."""
    from rich.console import Console

    from rummylab.tui import TERMINALS
    tg = TERMINALS["gin"]("gin", "simple", 3, {}, Console(file=io.StringIO()))
    for typed, expected in ((["yikes", "yes"], True), (["hint", ""], False), (["n"], False),
                            (["maybe", "quit"], None), (["Y"], True)):
        answers = iter(typed)
        monkeypatch.setattr(type(tg), "ask", lambda self, prompt, it=answers: next(it))
        assert tg.yes_or_no("Knock?") is expected, typed


def test_players_given_twice_must_agree(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--terminal", "three-thirteen", "--players", "3",
                 "--option", "players=2"]) == 2
    assert "--players 3 and --option players=2 disagree" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--terminal", "three-thirteen", "--players", "3", "--option", "players=03",
                 "--seed", "1"]) == 0


@pytest.mark.parametrize("game", ["gin", "gin3"])
def test_a_hint_and_a_warning_are_one_line_each(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str],
                                                game: str) -> None:
    """Piped, nothing is cut into lines at the console's width: the hint is
    one line with its whole reason, and a long unknown move is echoed cut
    short while the keys after it are told whole."""
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\n" + "xyz" * 40 + "\nquit\n"))
    assert main(["play", "--terminal", game, "--bot", "strong", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    hint = [line for line in lines if "Hint:" in line]
    assert len(hint) == 1 and re.search(r"\d+% to knock then; .+ \d+\.\d, \d+%", hint[0])
    unknown = [line for line in lines if "unknown move" in line]
    assert len(unknown) == 1 and "xyz" * 14 not in unknown[0] and "…'" in unknown[0]
    assert unknown[0].endswith("or a move's number.")


@pytest.mark.parametrize(("game", "key"), [("gin", "'k CARD' to knock"), ("gin3", "'k CARD'"),
                                           ("three-thirteen", "'o CARD' to go out"),
                                           ("manipulation", "'m CARDS'")])
def test_help_shows_the_keys_again(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str], game: str,
                                   key: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("help\n?\nquit\n"))
    assert main(["play", "--terminal", game, "--seed", "3"]) == 0
    out = capsys.readouterr().out.replace("\n", "")
    assert out.count(key) == 3  # the opening line, then once for each request
    assert "unknown move" not in out and "You left the match." in out


def test_your_own_manipulation_meld_is_told(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Like the bots' melds, yours is said with the table it leaves."""
    from rummylab import new_state
    from rummylab.manipulation.game import MELD_BEST

    # a seed where the first seat to act, you, can meld on its first turn
    seed = next(s for s in range(200) if (st := new_state("manipulation", {"players": 3}, s))
                .current_player() == 0 and MELD_BEST in st.legal_actions())
    monkeypatch.setattr("sys.stdin", io.StringIO("b\nquit\n"))
    assert main(["play", "--terminal", "manipulation", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert "You: meld " in out


def _terminal(game: str, seed: int, options: dict | None = None) -> Any:
    from rich.console import Console

    from rummylab.tui import TERMINALS

    return TERMINALS[game](game, "simple", seed, options or {}, Console(file=io.StringIO()))


def test_a_refused_gin_move_says_why() -> None:
    from rummylab.gin.game import DISCARD_BASE, DRAW_STOCK, KNOCK_BASE, TAKE_DISCARD

    tg = _terminal("gin", 3)
    st = tg.state
    while TAKE_DISCARD not in st.legal_actions() or st.current_player() != 0:
        st.apply_action(st.legal_actions()[0])
    obs = st.observation(0)
    held = next(c for c in range(52) if obs.hand >> c & 1)
    assert "draw first" in tg.why_not(DISCARD_BASE + held, obs)
    st.apply_action(TAKE_DISCARD)
    obs = st.observation(0)
    taken = obs.taken_card
    assert "(D-3)" in tg.why_not(DISCARD_BASE + taken, obs)
    missing = next(c for c in range(52) if not obs.hand >> c & 1)
    assert "you do not hold" in tg.why_not(DISCARD_BASE + missing, obs)
    assert "you have drawn" in tg.why_not(DRAW_STOCK, obs)
    knocks = [c for c in range(52) if obs.hand >> c & 1 and c != taken
              and KNOCK_BASE + c not in obs.legal_actions]
    assert "over the knock limit" in tg.why_not(KNOCK_BASE + knocks[0], obs)


def test_oklahoma_and_hollywood_are_explained(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The knock limit the upcard sets, a spade's doubling, the three games and
    the bonuses that make the final scores are all said."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--terminal", "gin", "--seed", "5", "--option", "target=15",
                 "--option", "oklahoma=true", "--option", "hollywood=true",
                 "--option", "game_bonus=100", "--option", "line_bonus=20"]) == 0
    out = capsys.readouterr().out
    assert "Oklahoma: the upcard Qs sets the knock limit at 10; a spade" in out
    assert "(doubled: the first upcard was a spade)" in out
    assert "knock at 9 or less" in out  # a 9 upcard
    assert all(f"Game {i}: " in out for i in (1, 2, 3))
    assert "Final scores from: hand points" in out and "game bonus 100" in out


def test_you_knock_and_you_score() -> None:
    tg = _terminal("gin", 1)
    assert tg.verb(0, "knocks", "knock") == "You knock"
    assert tg.verb(1, "knocks", "knock") == "simple (1) knocks"


def test_three_player_gin_roles_have_a_line_of_their_own(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--terminal", "gin3", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    roles = next(line for line in out.splitlines() if line.startswith("Roles: "))
    assert all(role in roles for role in ("box", "captain", "sitter"))


def test_manipulation_tells_the_draw_the_hands_and_the_bonuses(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\nk\n" + "1\n" * 300))
    assert main(["play", "--terminal", "manipulation", "--seed", "4", "--option", "target=60"]) == 0
    out = capsys.readouterr().out
    assert "You drew " in out.split("Your move")[0]  # the first card of the first turn
    assert "Cards in hand: simple (1) " in out
    assert "knock is not legal now: a knock needs 5 points in hand or fewer" in out
    assert "unknown move ''" not in out
    assert "Bonuses (§4.11): 100 to " in out and "25 a round won to the others" in out
    # each round's winner: the points, part by part, adding up (§4.9)
    told = re.findall(r"wins \+(\d+) \((\d+) from the other hands((?: \+ \d+ [a-z ]+)*)\)",
                      out)
    assert told
    for total, diffs, bonuses in told:
        assert int(total) == int(diffs) + sum(int(b) for b in re.findall(r"\+ (\d+)", bonuses))


def test_the_manipulation_view_names_the_card_drawn_to_its_seat_only() -> None:
    from rummylab import new_state
    from rummylab.manipulation.game import DRAW

    st = new_state("manipulation", {"players": 3}, seed=4)
    seat = st.current_player()
    mine = st.observation(seat)
    assert mine.drawn in mine.hand and mine.to_dict()["drawn"]
    assert all(st.observation(s).drawn is None for s in range(3) if s != seat)
    if DRAW in st.legal_actions():
        before = list(mine.hand)
        st.apply_action(DRAW)
        after = st.observation(seat)
        extra = list(after.hand)
        for c in before:
            extra.remove(c)
        assert extra == [after.drawn]


def test_ctrl_c_leaves_with_the_seed_and_no_traceback(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    """Ctrl-C at the prompt: exit code 130, the seed told (even one drawn at
    random), no record written."""

    def interrupted(self: Any, prompt: str = "", **_: Any) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("rich.console.Console.input", interrupted)
    monkeypatch.setattr(random.SystemRandom, "randrange", lambda self, n: 777)
    target = tmp_path / "match.jsonl"
    assert main(["play", "--terminal", "manipulation", "--record", str(target)]) == 130
    captured = capsys.readouterr()
    assert "Stopped. This match was seed 777: --seed 777 deals it again." in captured.out
    assert "Traceback" not in captured.out + captured.err
    assert not target.exists()


def test_three_thirteen_shows_the_cards_seen_taken(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A card another seat takes from the discard pile is shown as held by it
    (the seat's observation ``known``) until it is thrown again."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--terminal", "three-thirteen", "--seed", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    takes = [(i, m) for i, line in enumerate(lines)
             if (m := re.search(r"(\w+ \(\d\)): takes (\w\w) from the discard pile", line))]
    assert takes
    suits = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
    for i, m in takes:
        seen = next(line for line in lines[i + 1:] if line.startswith("Seen taken"))
        card = m.group(2)[0] + suits[m.group(2)[1]]
        assert f"{m.group(1)} " in seen and card in seen.split(m.group(1))[1].split(";")[0]
