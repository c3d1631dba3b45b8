"""Bots never read hidden state (issue #5, point 3).

A hand is played some moves into; then every card the deciding seat cannot
see (the opponent's unknown cards and the stock) is shuffled among the deck
positions those cards held, and the same public moves are replayed. The
seat's observation must be identical in both worlds, the hidden cards must
differ, and every bot must decide the same in both.
"""

from __future__ import annotations

import random

import pytest

from rummylab import new_state
from rummylab.bots import make_bot
from rummylab.cards import cards_of, parse_cards
from rummylab.gin.game import GinState
from rummylab.manipulation.game import MELD_BEST

BOTS = ["simple", "strong", "strong:budget=8", "random:seed=4"]


def _played(game: str, seed: int, moves: int) -> GinState:
    state = new_state(game, seed=seed, options={"target": 500})
    bots = [make_bot("simple", game, s) for s in range(state.num_players)]
    for _ in range(moves):
        if state.is_terminal() or state.hand_number > 1:
            break
        p = state.current_player()
        state.apply_action(bots[p].act(state.observation(p)))
    assert isinstance(state, GinState)
    return state


def _twin(state: GinState, game: str, seed: int, seat: int, rng: random.Random) -> GinState:
    """The same match, the cards hidden from ``seat`` shuffled."""
    deal = next(e for e in state.events if e["type"] == "deal")
    deck = parse_cards(deal["deck"])
    obs = state.observation(seat)
    opponent = next(s for s in (state.dealer, state.non_dealer) if s != obs.hand_seat)
    hidden = (state.hand_of(opponent) & ~obs.opponent_known) | sum(
        1 << c for c in state._stock)
    positions = [i for i, c in enumerate(deck) if hidden >> c & 1]
    cards = [deck[i] for i in positions]
    rng.shuffle(cards)
    other = list(deck)
    for i, c in zip(positions, cards, strict=True):
        other[i] = c
    twin = new_state(game, seed=seed, options={"target": 500}, decks=[other],
                     **type(state).replay_setup(state.events))
    for e in state.events:
        if e["type"] == "action":
            twin.apply_action(twin.string_to_action(e["action"]))
    assert isinstance(twin, GinState)
    return twin


@pytest.mark.parametrize("game", ["gin", "gin3"])
def test_bots_decide_the_same_whatever_the_hidden_cards(game: str) -> None:
    rng = random.Random(7)
    differed = 0
    for case in range(24):
        seed = 100 + case
        state = _played(game, seed, rng.randrange(0, 24))
        if state.is_terminal() or state.hand_number > 1:
            continue
        to_act = state.current_player()
        # the seat to act, and in three-player Gin the sitter, who sees the captain's cards
        seats = [to_act] + [s for s in range(state.num_players)
                            if state.role_of(s) == "sitter"]
        for seat in seats:
            twin = _twin(state, game, seed, seat, rng)
            a, b = state.observation(seat), twin.observation(seat)
            assert a == b
            opp = next(s for s in (state.dealer, state.non_dealer) if s != a.hand_seat)
            differed += state.hand_of(opp) != twin.hand_of(opp)
            if seat != to_act:
                continue
            for spec in BOTS:
                first = make_bot(spec, game, seed=3).act(a)
                second = make_bot(spec, game, seed=3).act(b)
                assert first == second, (spec, game, seed)
                assert first in state.legal_actions()
                assert first in twin.legal_actions()
    # the shuffle is not a no-op: the opponent's hand did change in most cases
    assert differed >= 10


def test_hint_gives_a_legal_action_and_a_reason() -> None:
    for seed in range(6):
        state = _played("gin", seed, 2 * seed + 1)
        if state.is_terminal():
            continue
        p = state.current_player()
        for spec in ("simple", "strong", "random"):
            action, reason = make_bot(spec, "gin", 1).hint(state.observation(p))
            assert action in state.legal_actions()
            assert reason and "\n" not in reason


def test_strong_bot_options_are_checked() -> None:
    from rummylab.errors import OptionError

    with pytest.raises(OptionError, match="budget"):
        make_bot("strong:budget=zero", "gin")
    with pytest.raises(OptionError, match="no option"):
        make_bot("strong:depth=3", "gin")
    assert cards_of(0) == []


@pytest.mark.parametrize(("spec", "game", "message"), [
    ("strong:feed=nan", "gin", "feed must be a finite number"),
    ("strong:race=inf", "gin", "race must be a finite number"),
    ("strong:knock=1.5", "gin", "knock must be from 0 to 1"),
    ("strong:deny=-1", "gin", "deny must be at least 0"),
    ("strong:stakes=5", "three-thirteen", "stakes must be from 0 to 1"),
    ("strong:hazard=-0.1", "three-thirteen", "hazard must be from 0 to 1"),
    ("strong:upcard=2", "three-thirteen", "upcard must be from 0 to 1"),
    ("strong:risk=101", "manipulation", "risk must be from 0 to 100"),
    ("strong:read=3", "manipulation", "read must be from 0 to 2"),
    ("strong:deep=1", "three-thirteen", "deep must be 0 \\(off\\) or 2 to 6"),
    ("strong:deep=7", "three-thirteen", "deep must be from 0 to 6"),
    # options that work only through another one, which is off
    ("strong:hazard=0.5", "three-thirteen", "hazard has no effect unless deep is 2"),
    ("strong:stakes=1:out_bonus=41", "three-thirteen", "out_bonus must be at most 40"),
    ("strong:keep=3", "manipulation", "keep has no effect unless reserve"),
    ("strong:dump=1", "manipulation", "dump has no effect unless reserve"),
    ("strong:guard=0:ghands=4", "manipulation", "ghands has no effect unless guard"),
    ("strong:alts=0:ghands=4", "manipulation", "ghands has no effect unless guard and alts"),
    ("strong:alts=0:guard=1", "manipulation", "guard has no effect unless alts"),
    ("strong:alts=0:look=4", "manipulation", "look has no effect unless alts"),
    ("strong:alts=0:near=30", "manipulation", "near has no effect unless alts"),
    ("strong:guard=0:read=1", "manipulation", "read has no effect unless guard and alts"),
    ("strong:alts=0:budget=0:read=2", "manipulation", "read has no effect unless guard"),
    ("strong:deny=0:budget=40", "gin", "budget has no effect unless deny, feed or knock"),
    ("strong:deny=0:tight=1", "gin3", "tight has no effect unless deny, feed or knock"),
    ("strong:deny=0:seed=2", "gin", "seed has no effect unless deny, feed or knock"),
    # sample counts that would run for hours
    ("strong:budget=1001", "gin", "budget must be from 1 to 1000"),
    ("strong:ghands=257", "manipulation", "ghands must be from 1 to 256"),
    # the bound of an integer written out, not rounded
    ("strong:seed=-4611687000000000000", "three-thirteen", "at least -4611686018427387904$"),
])
def test_bot_option_values_out_of_range_are_refused(spec: str, game: str, message: str) -> None:
    from rummylab.errors import OptionError

    with pytest.raises(OptionError, match=message):
        make_bot(spec, game)


def test_bot_option_values_at_their_limits_are_taken() -> None:
    for spec, game in (("strong:knock=1:look=0:tight=0", "gin"),
                       ("strong:deny=0:knock=0.5:budget=1000", "gin"),
                       ("strong:deny=0:feed=1:seed=3:tight=1", "gin3"),
                       ("strong:alts=0:read=2", "manipulation"),
                       ("strong:alts=1:ghands=256:near=0:look=1", "manipulation"),
                       ("strong:stakes=1:out_bonus=40:deep=6:hazard=0:upcard=0",
                        "three-thirteen"),
                       ("strong:risk=100:read=2:reserve=1:keep=0:dump=0:ghands=1",
                        "manipulation")):
        make_bot(spec, game)


@pytest.mark.parametrize("game", ["gin", "gin3", "three-thirteen", "manipulation"])
def test_a_hint_is_the_move_the_bot_makes_next(game: str) -> None:
    """Asking a bot for a hint changes nothing: the random bot's hint is the
    move its next ``act`` makes, and its game goes on as without the hint."""
    state = new_state(game, seed=4)
    asked, plain = make_bot("random", game, seed=3), make_bot("random", game, seed=3)
    for _ in range(30):
        if state.is_terminal():
            break
        seat = state.current_player()
        obs = state.observation(seat)
        hinted, _ = asked.hint(obs)
        assert asked.act(obs) == hinted == plain.act(obs)
        state.apply_action(hinted)


@pytest.mark.parametrize(("value", "key"), [(2.9, "budget"), (True, "budget"), (None, "budget"),
                                            (True, "knock"), ([1], "knock")])
def test_bot_options_given_from_python_must_be_text_or_numbers(value: object, key: str) -> None:
    """``int(2.9)`` would quietly cut to 2 and ``True`` would be 1."""
    from rummylab.bots import StrongGinBot
    from rummylab.errors import OptionError

    with pytest.raises(OptionError, match=f"{key} must be"):
        StrongGinBot({key: value})  # type: ignore[dict-item]
    assert StrongGinBot({"budget": 3, "knock": 0.5}).budget == 3  # numbers are fine


@pytest.mark.parametrize("game", ["gin", "gin3", "three-thirteen", "manipulation"])
@pytest.mark.parametrize("spec", ["random", "simple", "strong:budget=4"])
def test_a_seat_with_no_move_is_refused_in_one_line(game: str, spec: str) -> None:
    from rummylab.errors import IllegalActionError

    state = new_state(game, seed=1)
    idle = next(s for s in range(state.num_players) if s != state.current_player())
    bot = make_bot(spec, game, seed=1)
    for ask in (bot.act, bot.hint, bot.move, bot.move_hint):
        with pytest.raises(IllegalActionError, match=f"seat {idle} has no move"):
            ask(state.observation(idle))


def test_a_random_bot_without_a_seed_is_seeded() -> None:
    state = new_state("gin", seed=2)
    obs = state.observation(state.current_player())
    assert len({make_bot("random", "gin").act(obs) for _ in range(8)}) == 1


def test_strong_manipulation_hints_the_move_it_makes() -> None:
    """Its text melds (another play than the best) have no action id: the
    hint's action is meld best, and its reason is the move's."""
    from rummylab.match import apply_move

    state = new_state("manipulation", {"players": 3}, seed=2)
    bots = [make_bot("strong", "manipulation", seed=s) for s in range(3)]
    texts = 0
    for _ in range(60):
        if state.is_terminal():
            break
        seat = state.current_player()
        obs = state.observation(seat)
        move, why = bots[seat].move_hint(obs)
        action, reason = bots[seat].hint(obs)
        assert bots[seat].act(obs) == action and bots[seat].move(obs) == move
        if isinstance(move, str):
            texts += 1
            assert action == MELD_BEST and reason.startswith(why) and "meld best" in reason
        else:
            assert (action, reason) == (move, why)
        apply_move(state, move)
    assert texts > 0


def _seeds_given(monkeypatch: pytest.MonkeyPatch, module: object) -> list[int]:
    seen: list[int] = []
    real = make_bot

    def spy(spec: str, game: str, seed: int | None = None) -> object:
        if seed is not None:
            seen.append(seed)
        return real(spec, game, seed)

    monkeypatch.setattr(module, "make_bot", spy)
    return seen


def _deals_the_same(game: str, match_seed: int, seed: int) -> bool:
    """Would a bot seeded ``seed`` find the match's deal by trying it, or a
    few numbers around it, as the match seed?"""
    want = new_state(game, seed=match_seed).events[-1]
    return any(new_state(game, seed=seed - k).events[-1] == want for k in range(-4, 5))


def test_a_bots_seed_does_not_give_away_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The arena, simulate and the terminal game seed their bots through a
    hash of the match's seed: a bot cannot rebuild the deal from its seed."""
    import rummylab.arena as arena
    import rummylab.cli as cli
    import rummylab.tui as tui
    import rummylab.tui.base as tui_base
    from rummylab.match import match_seeds

    seen = _seeds_given(monkeypatch, arena)
    arena.run_arena("gin", ["simple", "random"], 2, seed=5, options={"target": 10},
                    ratings=False)
    match = match_seeds(5, 2)
    assert seen and not any(_deals_the_same("gin", m, s) for m in match for s in seen)

    seen = _seeds_given(monkeypatch, cli)
    assert cli.main(["simulate", "gin", "--games", "2", "--seed", "5", "--no-progress",
                     "--option", "target=10"]) == 0
    assert seen and not any(_deals_the_same("gin", m, s) for m in match for s in seen)

    seen = _seeds_given(monkeypatch, tui_base)  # the view's base makes the bots
    from rich.console import Console

    tui.TerminalGame("gin", "simple", 1234, {}, Console(file=None, quiet=True))
    assert seen and not any(_deals_the_same("gin", 1234, s) for s in seen)
