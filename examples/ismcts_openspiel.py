"""OpenSpiel's information-set MCTS playing a rummylab game (needs
``pip install -e '.[rl]'``).

    python examples/ismcts_openspiel.py                   # 10 rounds of Three Thirteen, ~1 min
    python examples/ismcts_openspiel.py --game python_rummylab_gin --games 3
    python examples/ismcts_openspiel.py --simulations 50 --games 10

Seat 0 is ISMCTS with random rollouts; the other seats play at random.
ISMCTS draws a world consistent with what its seat has seen at every
simulation: that is ``state.resample_from_infostate``, which rummylab's
OpenSpiel games provide. OpenSpiel's ``ISMCTSBot`` seeds those draws from a
sampler of its own that takes no seed, so the search differs from run to run;
``--seed`` fixes each game's deals and its random players' stream, which are
drawn apart from the search's.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import rummylab.rl  # noqa: F401  (registers the games)


def play(game: pyspiel.Game, bot: ismcts.ISMCTSBot, seed: int, g: int) -> list[float]:
    """Game ``g``: its deals and its random players' stream come from ``seed``
    and ``g`` alone, whatever the search did in the games before."""
    deals = np.random.RandomState([seed, g, 0])
    players = np.random.RandomState([seed, g, 1])
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(deals.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(players.choice(state.legal_actions())))
    return list(state.returns())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="python_rummylab_three_thirteen")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--simulations", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    game = pyspiel.load_game(args.game)
    # the search has a stream of its own: its draws vary from run to run
    search = np.random.RandomState([args.seed, 1 << 30])
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=search)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                           random_state=search)
    total = np.zeros(game.num_players())
    start = time.perf_counter()
    for g in range(1, args.games + 1):
        returns = play(game, bot, args.seed, g)
        total += returns
        print(f"game {g}: returns {returns}  ({time.perf_counter() - start:.1f} s)")
    print(f"ISMCTS (seat 0) mean return over {args.games} games: {total[0] / args.games:+.2f}")


if __name__ == "__main__":
    main()
