"""The terminal game of each of the four games, played from a script on
stdin: moves (cards typed as the screen shows them, 7♥, any case), illegal
moves, a hint and the help. Every refused move is told with the game's own
reason, and each reason is checked here against the rule it cites.

Each script is written from a twin of the match, played alongside with the
same bots, so that the cards typed (one held, one not, the one just taken)
are known; the table of refused moves is then checked line by line, in
order, on the screen.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import pytest

from rummylab import new_state
from rummylab.bots import make_bot
from rummylab.cards import card_str, cards_of, multi_cards, multi_remove
from rummylab.cli import main
from rummylab.game import State
from rummylab.gin.game import DISCARD_BASE as GIN_DISCARD
from rummylab.gin.game import DRAW_STOCK as GIN_STOCK
from rummylab.gin.game import PASS as GIN_PASS
from rummylab.gin.game import TAKE_DISCARD as GIN_TAKE
from rummylab.gin.solver import deadwood
from rummylab.manipulation.game import DRAW as M_DRAW
from rummylab.manipulation.game import MELD_BEST
from rummylab.manipulation.game import PASS as M_PASS
from rummylab.manipulation.table import hand_points
from rummylab.match import apply_move, bot_seed
from rummylab.three_thirteen.game import DISCARD_BASE as T_DISCARD
from rummylab.three_thirteen.game import DRAW_STOCK as T_STOCK
from rummylab.three_thirteen.game import TAKE_DISCARD as T_TAKE
from rummylab.three_thirteen.solver import penalty

RULE = re.compile(r"§\d+(?:\.\d+| options)|D-\d+")
SYMBOLS = dict(zip("cdhs", "♣♦♥♠", strict=True))


def shown(card: int, *, lower: bool = False) -> str:
    """A card as the screen writes it (7♥, T♠), or in lower case (7h, 10s)."""
    text = card_str(card)
    if lower:
        return ("10" if text[0] == "T" else text[0].lower()) + text[1]
    return text[0] + SYMBOLS[text[1]]


class Script:
    """Lines to type into the terminal game, played on a twin of the match
    with the same bots, and the refusals the screen must show."""

    def __init__(self, game: str, seed: int, options: dict[str, object] | None = None) -> None:
        self.game, self.seed, self.options = game, seed, dict(options or {})
        self.state: Any = new_state(game, self.options, seed)
        self.bots = {s: make_bot("simple", game, bot_seed(seed, s))
                     for s in range(self.state.num_players) if s != 0}
        self.lines: list[str] = []
        self.refusals: list[tuple[str, str, str, str | None]] = []  # typed, move, reason, rule
        self.advance()

    def refuse(self, typed: str, move: str, reason: str, rule: str | None) -> None:
        """``typed`` is refused as ``move`` for ``reason``, which cites ``rule``."""
        assert rule is None or rule in RULE.findall(reason), (reason, rule)
        self.lines.append(typed)
        self.refusals.append((typed, move, reason, rule))

    def play(self, typed: str, action: int) -> None:
        """``typed`` is played as ``action``; the bots then play to the next prompt."""
        assert action in self.state.legal_actions(), (typed, self.state.action_to_string(action))
        self.lines.append(typed)
        self.state.apply_action(action)
        self.advance()

    def advance(self) -> None:
        st = self.state
        while not st.is_terminal():
            seat = st.current_player()
            if seat == 0:
                if st.legal_actions() == [M_PASS] and st.game_name == "manipulation":
                    st.apply_action(M_PASS)  # made for the player: nothing to choose
                    continue
                return
            apply_move(st, self.bots[seat].move(st.observation(seat)))

    def run(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            extra: tuple[str, ...] = ("hint", "help")) -> str:
        """Play the script (then ``extra`` and quit); check every refusal on
        screen, in order; return what the screen showed."""
        stdin = "\n".join([*self.lines, *extra, "quit"]) + "\n"
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        argv = ["play", "--terminal", self.game, "--seed", str(self.seed)]
        for key, value in self.options.items():
            argv += ["--option", f"{key}={value}"]
        assert main(argv) == 0
        out = capsys.readouterr().out
        warned = [line for line in out.splitlines() if "is not legal now" in line
                  or "unknown move" in line]
        assert len(warned) == len(self.refusals), warned
        for line, (typed, move, reason, _) in zip(warned, self.refusals, strict=True):
            assert f"{move} is not legal now: {reason}" in line, (typed, line)
        assert "You left the match." in out
        return out


def first_seed(game: str, test: Callable[[State], bool] = lambda st: True,
               options: dict[str, object] | None = None) -> int:
    """The first seed whose match the player (seat 0) opens, and that passes ``test``."""
    return next(s for s in range(1, 500) if (st := new_state(game, options, s))
                .current_player() == 0 and test(st))


def refused_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if "is not legal now" in line]


def test_gin_session(monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> None:
    sc = Script("gin", first_seed("gin"))
    obs = sc.state.observation(0)
    hand, up = cards_of(obs.hand), obs.discard_pile[-1]
    missing = next(c for c in range(52) if not obs.hand >> c & 1 and c != up)
    offer = "draw first: take the upcard or pass (§1.3)"
    # the opening: the non-dealer is offered the upcard (§1.3)
    sc.refuse("s", "draw stock", "the upcard is offered first: take it or pass (§1.3)", "§1.3")
    sc.refuse(shown(hand[0]), f"discard {card_str(hand[0])}", offer, "§1.3")
    sc.refuse(f"k {shown(hand[1], lower=True)}", f"knock {card_str(hand[1])}", offer, "§1.3")
    sc.play("t", GIN_TAKE)
    # a turn is one draw, then one discard (§1.4)
    drawn = "you have drawn this turn: discard a card, or knock (§1.4)"
    sc.refuse("s", "draw stock", drawn, "§1.4")
    sc.refuse("take", "take discard", drawn, "§1.4")
    sc.refuse("P", "pass", drawn, "§1.4")
    # D-3: the card taken from the pile stays this turn, as a discard or a knock
    d3 = f"{card_str(up)} was taken from the discard pile: it cannot be discarded this turn (D-3)"
    sc.refuse(shown(up), f"discard {card_str(up)}", d3, "D-3")
    sc.refuse(f"K {card_str(up).upper()}", f"knock {card_str(up)}", d3, "D-3")
    sc.refuse(shown(missing, lower=True), f"discard {card_str(missing)}",
              f"you do not hold {card_str(missing)}", None)
    sc.refuse(f"knock {card_str(missing)}", f"knock {card_str(missing)}",
              f"you do not hold {card_str(missing)}", None)
    # §1.5: a knock leaves 10 deadwood or less
    mask = sc.state.observation(0).hand
    over = next(c for c in cards_of(mask) if c != up and deadwood(mask & ~(1 << c)) > 10)
    left = deadwood(mask & ~(1 << over))
    sc.refuse(f"k {shown(over)}", f"knock {card_str(over)}",
              f"discarding {card_str(over)} leaves {left} deadwood, over the knock limit of 10 "
              "(§1.5)", "§1.5")
    sc.refuse("big gin", "big gin", "big gin is not in these rules (option big_gin, §1 options)",
              "§1 options")
    sc.play(shown(over), GIN_DISCARD + over)  # as the screen shows it: 7♥
    assert sc.state.current_player() == 0 and GIN_STOCK in sc.state.legal_actions()
    # the next turn opens with a draw (§1.4); a pass is for the upcard only (§1.3)
    sc.refuse("p", "pass", "a pass declines the upcard at the opening only (§1.3): draw from "
              "the stock or the discard pile", "§1.3")
    held = cards_of(sc.state.observation(0).hand)[0]
    sc.refuse(card_str(held), f"discard {card_str(held)}",
              "draw first: from the stock or the discard pile (§1.4)", "§1.4")
    assert len(sc.refusals) >= 10
    out = sc.run(monkeypatch, capsys)
    lines = refused_lines(out)
    assert lines[0].endswith("(keys now: t take, p pass)")  # the terminal's keys, after the reason
    assert lines[-1].endswith("(keys now: s stock, t take)")
    assert "unknown move" not in out  # 7♥, 10h, upper case: all read
    assert re.search(r"Hint: \S.* — ", out)
    assert out.count("'k CARD' to knock") == 2  # the greeting and 'help'


def _box_passes_to_you(st: State) -> bool:
    """Three-player Gin: you are the box and the captain's bot declines the upcard."""
    if st.role_of(0) != "box":  # type: ignore[attr-defined]
        return False
    captain = st.current_player()
    bot = make_bot("simple", "gin3", bot_seed(st.seed or 0, captain))
    return bot.move(st.observation(captain)) == GIN_PASS


def test_three_player_gin_session(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """You are in the box: the captain declines the upcard, you decline it too,
    and by D-7 the box draws first, from the stock (§2.4)."""
    seed = next(s for s in range(1, 500) if _box_passes_to_you(new_state("gin3", seed=s)))
    sc = Script("gin3", seed)
    obs = sc.state.observation(0)
    hand = cards_of(obs.hand)
    missing = next(c for c in range(52) if not obs.hand >> c & 1)
    offer = "draw first: take the upcard or pass (§1.3)"
    sc.refuse("s", "draw stock", "the upcard is offered first: take it or pass (§1.3)", "§1.3")
    sc.refuse(shown(hand[0]), f"discard {card_str(hand[0])}", offer, "§1.3")
    sc.refuse(f"k {shown(hand[0])}", f"knock {card_str(hand[0])}", offer, "§1.3")
    sc.play("pass", GIN_PASS)
    assert sc.state.legal_actions() == [GIN_STOCK]
    sc.refuse("t", "take discard",
              "both declined the upcard: the first draw is from the stock (§2.4, D-7)", "D-7")
    sc.refuse("p", "pass", "a pass declines the upcard at the opening only (§1.3): draw from "
              "the stock", "§1.3")
    sc.refuse(shown(hand[1]), f"discard {card_str(hand[1])}",
              "draw first: both declined the upcard, so from the stock (§2.4, D-7)", "§2.4")
    sc.play("s", GIN_STOCK)
    drawn = "you have drawn this turn: discard a card, or knock (§1.4)"
    sc.refuse("s", "draw stock", drawn, "§1.4")
    sc.refuse("t", "take discard", drawn, "§1.4")
    sc.refuse(shown(missing), f"discard {card_str(missing)}",
              f"you do not hold {card_str(missing)}", None)
    mask = sc.state.observation(0).hand
    over = next(c for c in cards_of(mask) if deadwood(mask & ~(1 << c)) > 10)
    sc.refuse(f"k {shown(over)}", f"knock {card_str(over)}",
              f"discarding {card_str(over)} leaves {deadwood(mask & ~(1 << over))} deadwood, "
              "over the knock limit of 10 (§1.5)", "§1.5")
    sc.refuse("big gin", "big gin", "big gin is not in these rules (option big_gin, §1 options)",
              "§1 options")
    assert len(sc.refusals) >= 10
    out = sc.run(monkeypatch, capsys)
    assert "Roles: You box" in out and re.search(r"Hint: \S.* — ", out)


def test_three_thirteen_session(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    """Three Thirteen reads its own moves: no upcard, no pass, no knock; its
    reasons are its own (§3), never Gin's."""
    sc = Script("three-thirteen", first_seed("three-thirteen"))
    obs = sc.state.observation(0)
    hand, top = multi_cards(obs.hand), obs.discard_pile[-1]
    missing = next(c for c in range(52) if c not in hand and c != top)
    first = "draw first: from the stock or the discard pile (§3.4)"
    sc.refuse(shown(hand[0]), f"discard {card_str(hand[0])}", first, "§3.4")
    sc.refuse(f"o {shown(hand[1])}", f"go out {card_str(hand[1])}", first, "§3.4")
    sc.lines += ["p", "k Ks"]  # Gin's keys name no move here
    sc.refusals += [("p", "", "", None), ("k Ks", "", "", None)]
    sc.play("t", T_TAKE)
    drawn = "you have drawn this turn: discard a card or go out (§3.4)"
    sc.refuse("s", "draw stock", drawn, "§3.4")
    sc.refuse("T", "take discard", drawn, "§3.4")
    d3 = (f"{card_str(top)} was taken from the discard pile: it cannot be discarded this turn "
          "(D-3, §3.11)")
    sc.refuse(shown(top), f"discard {card_str(top)}", d3, "D-3")
    sc.refuse(f"O {shown(top, lower=True)}", f"go out {card_str(top)}", d3, "§3.11")
    sc.refuse(shown(missing), f"discard {card_str(missing)}",
              f"you do not hold {card_str(missing)}", None)
    sc.refuse(f"o {card_str(missing)}", f"go out {card_str(missing)}",
              f"you do not hold {card_str(missing)}", None)
    multi = sc.state.observation(0).hand
    wild = sc.state.wild_rank
    keep = next(c for c in hand if penalty(multi_remove(multi, c), wild) > 0)
    left = penalty(multi_remove(multi, keep), wild)
    sc.refuse(f"o {shown(keep)}", f"go out {card_str(keep)}",
              f"going out needs every card but the discard in combinations: without "
              f"{card_str(keep)} the rest leaves {left} penalty points (§3.5)", "§3.5")
    sc.refuse(f"discard {card_str(missing)}", f"discard {card_str(missing)}",
              f"you do not hold {card_str(missing)}", None)
    sc.play(shown(keep), T_DISCARD + keep)
    assert sc.state.current_player() == 0 and T_STOCK in sc.state.legal_actions()
    again = multi_cards(sc.state.observation(0).hand)[0]
    sc.refuse(f"o {shown(again)}", f"go out {card_str(again)}", first, "§3.4")
    assert len([r for r in sc.refusals if r[1]]) >= 10

    stdin = "\n".join([*sc.lines, "hint", "help", "quit"]) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    assert main(["play", "--terminal", "three-thirteen", "--seed", str(sc.seed)]) == 0
    out = capsys.readouterr().out
    warned = [line for line in out.splitlines()
              if "is not legal now" in line or "unknown move" in line]
    assert len(warned) == len(sc.refusals)
    for line, (typed, move, reason, _) in zip(warned, sc.refusals, strict=True):
        if move:
            assert f"{move} is not legal now: {reason}" in line, (typed, line)
        else:
            assert f"unknown move {typed!r}. Type a card to discard it, 'o CARD'" in line
    assert "upcard" not in out and "knock" not in out.lower()
    assert re.search(r"Hint: \S.* — ", out)


def test_manipulation_session(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    """A turn with nothing to meld: draw again, the third card, no meld after it (§4.4)."""
    def nothing_to_meld(st: State) -> bool:
        return MELD_BEST not in st.legal_actions()

    sc = Script("manipulation", first_seed("manipulation", nothing_to_meld))
    obs = sc.state.observation(0)
    hand = list(obs.hand)
    missing = next(c for c in range(52) if c not in hand)
    no_meld = "no card of your hand fits a meld or the table now (§4.6)"
    sc.refuse("p", "pass", "the turn goes on: with one card drawn and nothing melded, meld or "
              "draw again (§4.4)", "§4.4")
    sc.refuse("k", "knock", f"a knock needs 5 points in hand or fewer; you hold "
              f"{hand_points(hand)} (§4.8)", "§4.8")
    sc.refuse("b", "meld best", no_meld, "§4.6")  # not 'the legal moves are listed above'
    sc.refuse("Meld  Best", "meld best", no_meld, "§4.6")
    sc.refuse(f"m {shown(missing)}", f"meld {card_str(missing)}",
              f"{card_str(missing)} is not in your hand", None)
    three = " ".join(shown(c) for c in hand[:3])
    sc.refuse(f"m {three}", f"meld {three.translate(str.maketrans('♣♦♥♠', 'cdhs'))}",
              f"no legal table holds {' '.join(card_str(c) for c in hand[:3])} with the cards "
              "on the table", None)
    sc.refuse(f"m {card_str(hand[0])} {card_str(hand[0])}",
              f"meld {card_str(hand[0])} {card_str(hand[0])}",
              f"{card_str(hand[0])} is named 2 times; your hand holds "
              f"{'one' if hand.count(hand[0]) == 1 else 2}", None)
    sc.play("d", M_DRAW)
    hand = list(sc.state.observation(0).hand)
    sc.refuse("pass", "pass", "the turn goes on: with 2 cards drawn and nothing melded, meld or "
              "draw again (§4.4)", "§4.4")
    sc.refuse("K", "knock", f"a knock needs 5 points in hand or fewer; you hold "
              f"{hand_points(hand)} (§4.8)", "§4.8")
    # the third card ends the turn by itself when there is no knock: nothing
    # is left to choose (§4.4); the next turn opens with a card drawn
    sc.play("draw", M_DRAW)
    assert sc.state.current_player() == 0 and sc.state.observation(0).draws_this_turn == 1
    sc.refuse("p", "pass", "the turn goes on: with one card drawn and nothing melded, meld or "
              "draw again (§4.4)", "§4.4")
    assert len(sc.refusals) >= 10
    out = sc.run(monkeypatch, capsys)
    lines = refused_lines(out)
    assert lines[0].endswith("(keys now: d draw)")
    assert re.search(r"Hint: \S.* — ", out) and out.count("'m CARDS'") == 2


def test_manipulation_meld_typed_as_shown(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The best play's cards typed with the suit symbols the screen shows are melded."""
    seed = first_seed("manipulation", lambda st: MELD_BEST in st.legal_actions())
    play = new_state("manipulation", seed=seed).best()  # type: ignore[attr-defined]
    assert play is not None
    typed = "m " + " ".join(shown(c) if c < 52 else "Jk" for c in play.play)
    monkeypatch.setattr("sys.stdin", io.StringIO(typed + "\nquit\n"))
    assert main(["play", "--terminal", "manipulation", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert "You: meld " + " ".join(card_str(c) for c in sorted(play.play)) in out
    assert "unknown" not in out and "not legal" not in out


def test_the_sitter_watches_in_silence(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """§2.2: a player who sits out is asked once a hand; Enter watches the
    hand in silence, the captain's hand shown at its moves and nothing asked.
    Advice is asked for move by move only once the sitter gives some."""
    from rummylab.tui import TerminalGame

    prompts: list[str] = []

    def ask(self: Any, prompt: str) -> str:
        prompts.append(prompt)
        return "" if "watch" in prompt else "quit"

    monkeypatch.setattr(TerminalGame, "ask", ask)
    seed = next(s for s in range(1, 500)
                if new_state("gin3", seed=s).role_of(0) == "sitter")  # type: ignore[attr-defined]
    assert main(["play", "--terminal", "gin3", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    watched = out.split("You watch this hand in silence.")
    assert len(watched) == 2 and "Captain's hand:" in watched[1]
    sat_out = [p for p in prompts if "watch" in p]
    assert len(sat_out) == 1  # one question for the hand, however many moves the captain made
    assert watched[1].count("Captain's hand:") > 3
    assert prompts[-1] == "Your move: "  # the next hand, you play: quit

    prompts.clear()
    answers = iter(["a", "hint", "", "w"])
    monkeypatch.setattr(TerminalGame, "ask",
                        lambda self, prompt: prompts.append(prompt) or next(answers, "quit"))
    assert main(["play", "--terminal", "gin3", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert "Hint: " in out and "You watch this hand in silence." in out
    assert [p.split(" (")[0].split(",")[0] for p in prompts[:4]] == [
        "Enter to watch in silence", "Your advice", "Your advice", "Your advice"]


def test_a_hand_laid_down_is_not_seen_held() -> None:
    """§3.5: the one who went out laid down every card; the cards seen taken
    from the pile by them are no longer listed as held."""
    from rich.console import Console

    from rummylab.tui import TERMINALS

    def went_out_holding_seen(seed: int) -> Any:
        st: Any = new_state("three-thirteen", seed=seed)
        bots = [make_bot("simple", "three-thirteen", seed + s) for s in range(2)]
        while not st.is_terminal() and st.round == 1:
            obs = st.observation(st.current_player())
            if obs.went_out is not None and obs.known[obs.went_out]:
                return st
            st.apply_action(bots[obs.seat].act(obs))
        return None

    st = next(found for seed in range(1, 300) if (found := went_out_holding_seen(seed)))
    seat = st.current_player()
    obs = st.observation(seat)
    buffer = io.StringIO()
    view = TERMINALS["three-thirteen"]("three-thirteen", "simple", 1, {},
                                       Console(file=buffer, width=200), human=seat)
    view.state = st
    view.show_table(obs)
    text = buffer.getvalue()
    assert f"{view.names[obs.went_out]} went out — this is your last turn" in text
    seen = [line for line in text.splitlines() if line.startswith("Seen taken")]
    assert not any(view.names[obs.went_out] in line for line in seen)


def test_each_game_has_its_view_found_through_its_class() -> None:
    """The view is looked up by the game's State class (a subclass of a game
    finds its nearest view), never by testing the game's name."""
    from rummylab.gin.game import GinState
    from rummylab.registry import GAMES, game_class
    from rummylab.tui import TERMINALS, TerminalGame, view_class

    views = {name: view_class(game_class(name)) for name in GAMES}
    assert len(set(views.values())) == len(GAMES)
    assert all(issubclass(v, TerminalGame) and v.game is game_class(n)  # type: ignore[attr-defined]
               for n, v in views.items())
    assert dict(TERMINALS) == views and TERMINALS["3-13"] is views["three-thirteen"]

    class HouseGin(GinState):
        pass

    assert view_class(HouseGin) is views["gin"]
    with pytest.raises(LookupError, match="no terminal view plays State"):
        view_class(State)
