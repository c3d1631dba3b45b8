"""§1 option `hollywood`: three games scored at once."""

from __future__ import annotations

import io

from rummylab.bots import make_bot
from rummylab.gin.game import GinState
from rummylab.match import play_match
from rummylab.records import RecordWriter, replay


def test_option_hollywood_entry_order_first_win_game1_second_games12_then_all() -> None:
    state = GinState({"hollywood": True, "target": 100}, seed=1)
    state._hollywood_entry(0, 20, 100)  # first win: game 1 only
    assert [c[0] for c in state._hw_cols] == [20, 0, 0]
    state._hollywood_entry(0, 15, 100)  # second win: games 1 and 2
    assert [c[0] for c in state._hw_cols] == [35, 15, 0]
    state._hollywood_entry(0, 10, 100)  # third: all three
    assert [c[0] for c in state._hw_cols] == [45, 25, 10]
    state._hollywood_entry(1, 30, 100)  # the other player's first win: game 1
    assert [c[1] for c in state._hw_cols] == [30, 0, 0]


def test_option_hollywood_closed_game_is_skipped_and_entry_moves_on() -> None:
    state = GinState({"hollywood": True, "target": 50}, seed=1)
    state._hollywood_entry(0, 60, 50)  # game 1 over at once
    assert state._hw_open == [False, True, True]
    state._hollywood_entry(1, 10, 50)  # first win of player 1 enters game 2
    assert [c[1] for c in state._hw_cols] == [0, 10, 0]
    assert state._hw_results[0][0] == [0]


def test_option_hollywood_match_ends_when_all_three_games_end_and_replays() -> None:
    buf = io.StringIO()
    writer = RecordWriter(buf)
    bots = [make_bot("simple", "gin"), make_bot("random", "gin", seed=3)]
    state = play_match("gin", bots, seed=7, options={"hollywood": True}, writer=writer)
    assert state.is_terminal()
    assert state._hw_open == [False, False, False]
    end = next(line for line in buf.getvalue().splitlines() if '"type":"end"' in line)
    assert '"games":' in end
    # each game's final score is its column plus bonuses (none here)
    assert sum(state.final_scores) == sum(sum(col) for col in state._hw_cols)
    buf.seek(0)
    assert [m.winners for m in replay(buf)] == [state.winners]
