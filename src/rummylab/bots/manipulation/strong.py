"""A strong Manipulation strategy: look one draw ahead for a finish, and make
the play whose remaining hand is likeliest to finish next turn; optionally
keep a reserve back.

A round is a race: the first hand down to the knock limit (5 points) or out
wins it, and a knock is hardly ever undercut. The choices, all made from the
seat's observation:

- **meld now or draw again.** After the first draw, the best play (the one
  that sheds the most points, ``meld best``) is weighed against drawing a
  second card and then making the best play of the larger hand: the second
  card is sampled ``budget`` times from the unseen cards (the pack less the
  seat's hand and the table; every other hand and the pile are hidden) and
  each sample is solved exactly. Each outcome is valued in round points: going
  out wins the other hands plus the out bonus, ending with a knockable hand
  wins the other hands less the seat's own, anything else costs ``hold``
  times the points left in hand. With the default ``hold`` of 1 a finish
  weighs far more than the points a meld sheds, so the seat draws again
  mostly when its meld now would not finish and a second card is likely
  enough to let it knock or go out this very turn.
- **which play.** When the best play leaves a hand that cannot knock but
  is worth at most ``near`` (20) points, up to ``alts`` (3) other plays are
  weighed against it: the play that sheds the most cards, and the best play
  that keeps back one card of the best play (its highest cards first). Each
  is valued by the next turn: ``look`` (16) next draws, the same for every
  play, are sampled from the unseen cards, the remaining hand with each is
  solved exactly on the table the play leaves, and the outcome is valued as
  above. The play with the highest mean goes down (a text move, ``meld
  CARDS => TABLE``); ties keep the best play. Over 600 first rounds it won
  3 more rounds in 100 than the best play always (paired, about 2.4
  standard errors), but not more matches: 130 won of 270 against 132
  (the same deals, three seeds), within the noise.
- **the table left to the others** (``guard``, 2 by default; 0 turns it
  off). The table is shared: every play leaves the other seats places for
  their cards. With ``guard`` above 0 the plays above are weighed whenever
  the best play does not finish (not only near the knock limit; farther off
  each is worth ``hold`` times the points it keeps), each charged ``guard``
  times the expected round value (the other hands' points, as above) times
  the expected number of other seats that finish on their next turn on the
  table it leaves: ``ghands`` (8) hands per seat, its size plus one drawn
  card, sampled from the unseen cards (the same for every play) and solved
  exactly. Over 1,800 first rounds (three seeds) ``guard`` 1 won about 4
  more rounds in 100 than the bot without it (3.2 standard errors).
- **reading the other hands** (``read``, 1 by default). A player who can
  play usually does, so the cards a seat kept from its latest turn are
  nearly all cards that could not be played alone on the table it left
  (99.6% of them in games against ``simple``, where 78% of the unseen cards
  are). With ``read`` 1 ``guard``'s hands are drawn that way, without a card
  in two hands. Sharper hands bear a larger weight: ``read`` 1 with
  ``guard`` 2 won 2.7 more first rounds in 100 than ``guard`` 1 alone over
  1,800 rounds (three seeds, paired; 2.3 standard errors, and 2.0 more
  points a round), where ``guard`` 2 alone gained 0.7. With ``read`` 2 the
  seat's own sampled draws also come from what such hands leave: no gain.
- **decisive rounds** (off by default: ``race`` 0). With ``race`` above 0,
  once any seat is within ``race`` points of the target a round won is
  likely to end the game, and the points left in hand stop counting
  (``hold`` is taken as 0): only a finish does. Measured with ``race`` 50
  (90 matches), it changed 63 matches' course and the winner of 16 of
  them, 8 each way: no gain.
- **knock.** A hand worth the knock limit or less is knocked at once (after
  the best meld, so it is as low as it gets) unless the undercut risk is too
  high: each other hand small enough to hold as few points is drawn from the
  unseen cards, and the seat draws on instead when the chance that one of
  them ties or beats it exceeds ``risk``. On the round's last turn (the
  meld-only turn of the seat that drew the pile's last card) it passes: the
  hands are counted then anyway, so for the round a knock is never better,
  and it would give a hand that ties or beats the seat's the round with the
  undercut bonus (on a tie the seat loses its share of the win). A knock
  that hands another seat the points to end the game while the seat leads
  could, rarely, win the match; that is not modelled.
- **a reserve** (off by default: ``reserve`` 0). A turn that ends without a
  meld costs up to three cards (§4.4) and a meld ends the turn (D-14), so with
  ``reserve`` above 0 the seat melds the high cards of its best play and keeps
  back up to ``reserve`` cards worth at most ``keep`` points each that still
  fit the table it leaves, to meld next turn after a single draw. The reserve
  goes down with the rest (``meld best``) when that leaves a knockable hand
  or goes out, when the pile has run out, and when another hand is down to
  ``dump`` cards or fewer. Such a meld is a text move, ``meld CARDS =>
  TABLE`` (``move``; ``act`` returns ``meld best`` in its place, for callers
  that take action ids only). Measured, it loses: a kept card is often no
  longer playable next turn (benchmarks/README.md, "Strength").
- **pass** after a meld otherwise.

The samples come from a generator seeded by the bot's seed and the
observation, so a decision never depends on the hidden cards.

>>> from rummylab import new_state
>>> state = new_state("manipulation", {"players": 3}, seed=2)
>>> bot = StrongManipulationBot({"budget": "2"}, seed=1)
>>> bot.act(state.observation(state.current_player())) in state.legal_actions()
True
>>> state.action_to_string(bot.move(state.observation(state.current_player())))
'meld best'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rummylab.bots.base import Bot, to_act
from rummylab.cards import CARD_POINTS, JOKER, Card, cards_str
from rummylab.manipulation.game import (
    DRAW,
    KNOCK,
    MELD_BEST,
    MELD_TEXT,
    PASS,
    ManipulationObservation,
)
from rummylab.manipulation.solver import Play, arrange_with, best_play
from rummylab.manipulation.table import Table, hand_points, parse_table, table_str


def last_tables(obs: ManipulationObservation) -> list[tuple[Table, bool] | None]:
    """For each seat, the table as it stood at the end of its latest turn
    this round and whether it melded in that turn (None: no turn yet; for
    the seat to act, the turn in progress).

    A seat that could play usually does, so what it still holds mostly
    cannot be played on that table: the cards it kept after its meld, or
    every card but its third draw when it drew three.

    >>> from rummylab import new_state
    >>> state = new_state("manipulation", {"players": 3}, seed=2)
    >>> last_tables(state.observation(0))
    [None, None, None]
    """
    table = ""  # the latest table as logged: only the tables returned are parsed
    ends: list[tuple[str, bool] | None] = [None] * obs.num_players
    prev = None
    for (seat, text), action in zip(obs.actions, obs.action_ids, strict=True):
        melded = action == MELD_TEXT  # a meld, however it was given
        if melded:
            table = text.partition("=>")[2]  # a meld's table is in its text only
        before = ends[seat]
        # a seat's actions in a row are one turn (every turn logs one)
        if seat == prev and before is not None:
            melded = melded or before[1]
        ends[seat] = (table, melded)
        prev = seat
    parsed: dict[str, Table] = {}
    out: list[tuple[Table, bool] | None] = []
    for end in ends:
        if end is None:
            out.append(None)
            continue
        if end[0] not in parsed:
            parsed[end[0]] = parse_table(end[0], obs.decks)
        out.append((parsed[end[0]], end[1]))
    return out


def first_meld_due(obs: ManipulationObservation, *, latest_turn: bool = False) -> list[bool]:
    """For each seat, whether its next meld must be a new meld of its own
    cards (D-25's option ``initial_meld_from_hand``, until the seat has
    melded this round), or with ``latest_turn`` whether that held when its
    latest turn began (a first meld made then could lay nothing off):
    public, from the round's moves.

    >>> from rummylab import new_state
    >>> state = new_state("manipulation", {"players": 3, "initial_meld_from_hand": True}, seed=2)
    >>> first_meld_due(state.observation(0))
    [True, True, True]
    """
    n = obs.num_players
    if not obs.options["initial_meld_from_hand"]:
        return [False] * n
    melded = [False] * n
    at_start = [False] * n  # melded before the seat's latest turn began
    prev = None
    for (seat, _), action in zip(obs.actions, obs.action_ids, strict=True):
        if seat != prev:  # a seat's actions in a row are one turn
            at_start[seat] = melded[seat]
        melded[seat] = melded[seat] or action == MELD_TEXT
        prev = seat
    return [not (at_start if latest_turn else melded)[s] for s in range(n)]


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _leaves(held: int, size: int, play: Play | None) -> tuple[int, bool]:
    """What making ``play`` (None: no meld) leaves of a hand of ``size``
    cards worth ``held`` points: the points left, and whether it went out."""
    if play is None:
        return held, False
    return held - play.points_shed, play.cards_shed == size


class StrongManipulationBot(Bot):
    """Options: ``budget`` (second cards sampled when weighing a meld against
    another draw, default 16; 0 always melds), ``hold`` (what a point left in
    hand costs when the turn ends without a knock, default 1), ``risk``
    (largest undercut probability to knock with, in percent, default 50),
    ``reserve`` (most cards kept back from a meld, default 0: none), ``keep``
    (most points of a kept card, default 5), ``dump`` (meld the reserve too
    when another hand is down to this many cards, default 2; 0 never),
    ``alts`` (other plays weighed against the best one by the next turn,
    default 3; 0 always makes the best play), ``near`` (most points the best
    play may leave for them to be weighed, default 20), ``look`` (next draws
    sampled to weigh them, default 16), ``race`` (points from the target at
    which a round counts as decisive, default 0: never), ``guard`` (weight
    of the other seats' chance to finish on the table a play leaves, default
    2; 0 off), ``ghands`` (hands sampled per opponent for it, default
    8, at most 256), ``read`` (1, the default: the cards each seat kept from
    its latest turn are drawn from the ones it could not have played then, see
    :func:`last_tables`; 0: from all the unseen cards; 2: the seat's own
    next draws too are drawn from what such hands leave), ``seed``. The other
    plays' options (``near``, ``look``, ``guard``, ``ghands``) are refused
    with ``alts=0``, where they would do nothing."""

    name = "strong"
    accepted_options = ("budget", "seed", "risk", "hold", "reserve", "keep", "dump", "alts",
                        "near", "look", "race", "guard", "ghands", "read")

    def __init__(self, options: Mapping[str, str] | None = None, seed: int | None = None):
        super().__init__(options, seed)
        self.budget = self.int_option("budget", 16, 0)
        self.reserve = self.int_option("reserve", 0, 0)
        self.keep = self.int_option("keep", 5, 0)
        self.dump = self.int_option("dump", 2, 0)
        self._seed = self.seed_option(-(1 << 62)) or 0
        self.risk = self.int_option("risk", 50, 0, 100) / 100
        self.hold = self.float_option("hold", 1.0, 0.0)
        self.alts = self.int_option("alts", 3, 0)
        self.near = self.int_option("near", 20, 0)
        self.look = self.int_option("look", 16, 1)
        self.race = self.int_option("race", 0, 0)
        self.guard = self.float_option("guard", 2.0, 0.0)
        self.ghands = self.int_option("ghands", 8, 1, 256)  # hands a seat, solved each
        self.requires("ghands", "guard and alts are above 0", self.guard > 0 and self.alts > 0)
        # the other plays are weighed only with alts: without it these do nothing
        for key in ("near", "look", "guard"):
            self.requires(key, "alts is above 0", self.alts > 0)
        for key in ("keep", "dump"):
            self.requires(key, "reserve is above 0", self.reserve > 0)
        self.read = self.int_option("read", 1, 0, 2)
        # read 1 shapes guard's sampled hands; 2 also the seat's own next draws
        self.requires("read", "guard and alts are above 0 (or read is 2 and budget or alts is)",
                      (self.guard > 0 and self.alts > 0)
                      or (self.read == 2 and (self.budget > 0 or self.alts > 0)))
        self._plays: dict[tuple[Table, tuple[Card, ...], int, bool], Play | None] = {}
        self._dead_memo: dict[Table, dict[Card, bool]] = {}

    # -- the solver, memoized per position --------------------------------
    def best(self, obs: ManipulationObservation, hand: Sequence[Card]) -> Play | None:
        key = (obs.table, tuple(sorted(hand)), obs.decks, obs.first_meld_from_hand_only)
        if key not in self._plays:
            if len(self._plays) > 256:
                self._plays.clear()
            self._plays[key] = best_play(obs.table, list(hand), obs.decks,
                                         first_meld_from_hand_only=obs.first_meld_from_hand_only)
        return self._plays[key]

    @staticmethod
    def unseen(obs: ManipulationObservation) -> list[Card]:
        """The cards the seat cannot see (other hands and the pile), in card order."""
        counts = [obs.decks] * 53
        for c in obs.hand:
            counts[c] -= 1
        for meld in obs.table:
            for c, _ in meld:
                counts[c] -= 1
        return [c for c in range(53) for _ in range(max(0, counts[c]))]

    def _rng(self, obs: ManipulationObservation) -> random.Random:
        return random.Random(f"strongman {self._seed} {obs.seat} {obs.round} "
                             f"{len(obs.actions)} {obs.draws_this_turn} {obs.hand}")

    # -- values ----------------------------------------------------------------
    def _others(self, obs: ManipulationObservation, pool: Sequence[Card]) -> float:
        """Expected points in the other hands (their sizes times the mean unseen card)."""
        mean = sum(CARD_POINTS[c] for c in pool) / len(pool) if pool else 7.0
        return sum(n for s, n in enumerate(obs.hand_sizes) if s != obs.seat) * mean

    def decisive(self, obs: ManipulationObservation) -> bool:
        """Is a round won likely to end the game: some seat within ``race``
        points of the target?"""
        target = int(obs.options["target"])
        return bool(self.race) and max(obs.scores) >= target - self.race

    def _value(self, obs: ManipulationObservation, left: int, out: bool, others: float) -> float:
        """Round points of ending the turn with ``left`` points in hand (in a
        decisive round a point kept costs nothing: only a finish counts)."""
        if out:
            return others + int(obs.options["out_bonus"])
        if left <= int(obs.options["knock_limit"]):
            return others - (obs.num_players - 1) * left
        # a point kept in hand costs more than itself: it is also a turn
        # further from knocking, when the knock may be another seat's
        return 0.0 if self.decisive(obs) else -self.hold * left

    def undercut_risk(self, obs: ManipulationObservation, value: int,
                      pool: Sequence[Card], rng: random.Random, samples: int = 64) -> float:
        """Probability that some other hand holds ``value`` points or fewer,
        each hand drawn from the unseen cards (only hands of at most
        ``value`` cards can: an ace is worth one)."""
        risky = [n for s, n in enumerate(obs.hand_sizes) if s != obs.seat and 0 < n <= value]
        if not risky or not pool:
            return 0.0
        hits = 0
        for _ in range(samples):
            if any(sum(CARD_POINTS[c] for c in rng.sample(pool, min(n, len(pool)))) <= value
                   for n in risky):
                hits += 1
        return hits / samples

    # -- the reserve -------------------------------------------------------------
    def keep_back(self, obs: ManipulationObservation,
                  play: Play) -> tuple[list[Card], list[Card], Table] | None:
        """Split ``play`` into the cards to meld now and the reserve: up to
        ``reserve`` cards of at most ``keep`` points (never a joker), lowest
        first, each kept only if the rest still makes a legal meld and the
        reserve still fits the table it leaves. Returns (meld, reserve,
        table after the meld), or None when nothing can be kept back."""
        first = obs.first_meld_from_hand_only
        kept: list[Card] = []
        found: tuple[list[Card], list[Card], Table] | None = None
        for c in sorted(play.play, key=lambda c: (CARD_POINTS[c], c)):
            if len(kept) >= self.reserve or len(kept) + 1 >= len(play.play):
                break
            if c == JOKER or CARD_POINTS[c] > self.keep:
                break
            trial = [*kept, c]
            rest = list(play.play)
            for k in trial:
                rest.remove(k)
            table = arrange_with(obs.table, rest, obs.decks, first_meld_from_hand_only=first)
            if table is None or arrange_with(table, trial, obs.decks) is None:
                continue
            kept = trial
            found = (sorted(rest), sorted(kept), table)
        return found

    def _reserve_meld(self, obs: ManipulationObservation) -> tuple[str, str] | None:
        """The meld that keeps a reserve back, as a text move, and why; None
        when the whole best play should go down."""
        if not self.reserve or obs.phase != "turn" or not obs.pile_size:
            return None
        play = self.best(obs, obs.hand)
        assert play is not None
        if play.cards_shed == len(obs.hand):
            return None
        if hand_points(obs.hand) - play.points_shed <= int(obs.options["knock_limit"]):
            return None
        if any(0 < n <= self.dump for s, n in enumerate(obs.hand_sizes) if s != obs.seat):
            return None
        split = self.keep_back(obs, play)
        if split is None:
            return None
        meld, kept, table = split
        return (f"meld {cards_str(meld)} => {table_str(table)}",
                f"meld {cards_str(meld)} and keep {cards_str(kept)} back to meld next turn")

    # -- decisions ---------------------------------------------------------------
    def act(self, observation: Any) -> int:
        # a meld other than the best has no action id: meld best stands for it
        return self._choose(observation)[0]

    def move(self, observation: Any) -> int | str:
        return self.move_hint(observation)[0]

    def hint(self, observation: Any) -> tuple[int, str]:
        """The action ``act`` returns, with the reason for the move ``move``
        makes: where that is a meld no action id names, the reason says so."""
        move, reason = self.move_hint(observation)
        if isinstance(move, str):
            return MELD_BEST, f"{reason} (as an action id: meld best, the best play)"
        return move, reason

    def move_hint(self, observation: Any) -> tuple[int | str, str]:
        action, reason = self._choose(observation)
        if action == MELD_BEST:
            reserve = self._reserve_meld(observation)
            if reserve is not None:
                return reserve
            other = self._other_play(observation)
            if other is not None:
                return other
        return action, reason

    # -- another play than the best ------------------------------------------------
    def candidates(self, obs: ManipulationObservation, best: Play) -> list[Play]:
        """The best play, then up to ``alts`` others: the best play that keeps
        back one card of it (highest first), and the play shedding the most
        cards."""
        out = [best]
        seen = {best.play}
        first = obs.first_meld_from_hand_only
        more = best_play(obs.table, list(obs.hand), obs.decks,
                         first_meld_from_hand_only=first, objective="cards")
        pool: list[Play | None] = [more]
        for c in sorted(set(best.play), key=lambda c: (-CARD_POINTS[c], c)):
            if len(pool) > self.alts:
                break
            hand = list(obs.hand)
            hand.remove(c)
            pool.append(self.best(obs, hand))
        for p in pool:
            if p is not None and p.play not in seen and len(out) <= self.alts:
                seen.add(p.play)
                out.append(p)
        return out

    def _other_play(self, obs: ManipulationObservation) -> tuple[str, str] | None:
        """A play other than the best whose remaining hand is likelier to
        finish next turn (sampled over ``look`` next draws), less ``guard``
        times the other seats' chance to finish on the table it leaves; None
        to keep the best play."""
        if not self.alts or obs.phase != "turn" or not obs.pile_size:
            return None
        best = self.best(obs, obs.hand)
        assert best is not None
        held = hand_points(obs.hand)
        limit = int(obs.options["knock_limit"])
        left = held - best.points_shed
        if best.cards_shed == len(obs.hand) or left <= limit:
            return None
        ahead = left <= self.near
        if not ahead and not self.guard:
            return None
        pool = self.unseen(obs)
        if not pool:
            return None
        rng = self._rng(obs)
        picks = self._draws(obs, pool, rng, self.look)
        others = self._others(obs, pool)
        cands = self.candidates(obs, best)
        if len(cands) < 2:
            return None
        hands = self._their_hands(obs, pool, rng) if self.guard else []
        # (value, -index, play, share of next draws that finish, points left after
        # the next turn, other seats expected to finish)
        scored: list[tuple[float, int, Play, float, float, float]] = []
        for i, cand in enumerate(cands):
            rest = list(obs.hand)
            for c in cand.play:
                rest.remove(c)
            kept = held - cand.points_shed
            finish, after = 0.0, float(kept)
            if ahead:
                total = after = 0.0
                for c in picks:
                    hand = [*rest, c]
                    left, out = _leaves(kept + CARD_POINTS[c], len(hand),
                                        best_play(cand.table, hand, obs.decks))
                    total += self._value(obs, left, out, others)
                    finish += out or left <= limit
                    after += left
                value = total / len(picks)
                finish /= len(picks)
                after /= len(picks)
            else:
                value = self._value(obs, kept, False, others)
            threat = self._threat(obs, cand.table, hands) if hands else 0.0
            value -= self.guard * others * threat
            scored.append((value, -i, cand, finish, after, threat))
        value, i, play, finish, after, threat = max(scored, key=lambda t: (t[0], t[1]))
        if i == 0:
            return None
        _, _, top, top_finish, top_after, top_threat = scored[0]
        why = []
        if ahead:
            why.append(f"after my next draw it leaves {after:.1f} points on average and "
                       f"can knock or go out after {finish:.0%} of the draws (the best "
                       f"play {top_after:.1f}, {top_finish:.0%})")
        if hands:
            why.append(f"it leaves the other hands {threat:.2f} finishes expected on their "
                       f"next turns (the best play {top_threat:.2f})")
        return (f"meld {cards_str(play.play)} => {table_str(play.table)}",
                f"meld {cards_str(play.play)} ({_points(play.points_shed)}) rather than the "
                f"best play ({_points(top.points_shed)}): "
                + ("; ".join(why) or f"worth {value:.1f} against {scored[0][0]:.1f}"))

    # -- the other seats' chances on the table a play leaves -------------------------
    def _their_hands(self, obs: ManipulationObservation, pool: Sequence[Card],
                     rng: random.Random) -> list[list[list[Card]]]:
        """For each other seat with cards, ``ghands`` hands drawn from the
        unseen cards: its size plus the card it draws next. With ``read``
        the cards it kept from its latest turn (all of them after a meld,
        all but one after three draws) are drawn from the unseen cards that
        could not be played alone on the table it left, and the seats'
        hands of one sample never share a card."""
        seats = [(s, n) for s, n in enumerate(obs.hand_sizes) if s != obs.seat and n > 0]
        if not self.read:
            out: list[list[list[Card]]] = []
            for _, n in seats:
                k = min(n + 1, len(pool))
                out.append([rng.sample(pool, k) for _ in range(self.ghands)])
            return out
        reading = self._reading(obs, pool)
        out = [[] for _ in seats]
        for _ in range(self.ghands):
            for i, hand in enumerate(self._joint(reading, pool, rng, 1)[0]):
                out[i].append(hand)
        return out

    def _reading(self, obs: ManipulationObservation,
                 pool: Sequence[Card]) -> list[tuple[int, int, frozenset[Card]]]:
        """For each other seat with cards: its size, how many of its cards
        it kept from its latest turn, and the unseen cards that could not be
        played alone on the table it left."""
        last = last_tables(obs)
        due = first_meld_due(obs, latest_turn=True)
        out: list[tuple[int, int, frozenset[Card]]] = []
        for s, n in enumerate(obs.hand_sizes):
            if s == obs.seat or n <= 0:
                continue
            turn = last[s]
            # a seat bound to meld from its own hand first could lay off nothing:
            # what it kept says nothing of the table
            if turn is None or not turn[0] or due[s]:
                out.append((n, 0, frozenset()))
            else:
                out.append((n, n if turn[1] else n - 1, self._dead(turn[0], obs.decks, pool)))
        return out

    @staticmethod
    def _joint(reading: Sequence[tuple[int, int, frozenset[Card]]], pool: Sequence[Card],
               rng: random.Random, extra: int) -> tuple[list[list[Card]], list[Card]]:
        """One sample of the other hands (each its size plus ``extra``, the
        kept cards from the dead ones) without a card in two; and the cards
        left over."""
        left = list(pool)
        hands: list[list[Card]] = []
        for n, kept, dead in reading:
            hand: list[Card] = []
            if kept:
                idx = [j for j, c in enumerate(left) if c in dead]
                for j in sorted(rng.sample(idx, min(kept, len(idx))), reverse=True):
                    hand.append(left.pop(j))
            for _ in range(min(n + extra - len(hand), len(left))):
                hand.append(left.pop(rng.randrange(len(left))))
            hands.append(hand)
        return hands, left

    def _draws(self, obs: ManipulationObservation, pool: Sequence[Card],
               rng: random.Random, k: int) -> list[Card]:
        """``k`` sampled next draws: from the unseen cards, or with ``read``
        2 from what each sample of the other hands leaves (the pile holds
        more of the cards they could have played)."""
        if self.read < 2:
            return rng.sample(pool, min(k, len(pool)))
        reading = self._reading(obs, pool)
        picks = []
        for _ in range(min(k, len(pool))):
            left = self._joint(reading, pool, rng, 0)[1] or list(pool)
            picks.append(left[rng.randrange(len(left))])
        return picks

    def _dead(self, table: Table, decks: int, pool: Sequence[Card]) -> frozenset[Card]:
        """The cards of ``pool`` that cannot be played alone on ``table``
        (each card solved once per table: the answer does not depend on
        the pool)."""
        known = self._dead_memo.get(table)
        if known is None:
            if len(self._dead_memo) > 64:
                self._dead_memo.clear()
            known = self._dead_memo[table] = {}
        for c in set(pool):
            if c not in known:
                known[c] = best_play(table, [c], decks) is None
        return frozenset(c for c, d in known.items() if d)

    def _threat(self, obs: ManipulationObservation, table: Table,
                hands: list[list[list[Card]]]) -> float:
        """Expected number of other seats that knock or go out on their next
        turn with a sampled hand, on ``table`` (``hands``: for each other
        seat with cards, in seat order, its sampled hands)."""
        limit = int(obs.options["knock_limit"])
        due = first_meld_due(obs)
        seats = [s for s, n in enumerate(obs.hand_sizes) if s != obs.seat and n > 0]
        total = 0.0
        for seat, seat_hands in zip(seats, hands, strict=False):
            hits = 0
            for hand in seat_hands:
                left, out = _leaves(hand_points(hand), len(hand),
                                    best_play(table, hand, obs.decks,
                                              first_meld_from_hand_only=due[seat]))
                hits += out or left <= limit
            total += hits / len(seat_hands)
        return total

    def _choose(self, observation: Any) -> tuple[int, str]:
        obs: ManipulationObservation = observation
        legal = to_act(obs)
        if len(legal) == 1:
            return legal[0], "the only legal move"
        rng = self._rng(obs)
        pool = self.unseen(obs)
        held = hand_points(obs.hand)
        if MELD_BEST in legal:
            play = self.best(obs, obs.hand)
            assert play is not None
            left = held - play.points_shed
            if play.cards_shed == len(obs.hand):
                return MELD_BEST, f"the best play goes out ({play.points_shed} points)"
            if DRAW in legal and obs.draws_this_turn == 1 and self.budget:
                others = self._others(obs, pool)
                now = self._value(obs, left, False, others)
                later, finish, after = self._draw_value(obs, pool, rng, others)
                if later > now:
                    return DRAW, (f"draw again: with one more card the best play leaves "
                                  f"{after:.1f} points on average and can knock or go out "
                                  f"after {finish:.0%} of the draws; now it sheds "
                                  f"{_points(play.points_shed)} and leaves {left}")
            return MELD_BEST, f"the best play sheds {play.points_shed} points, {left} left"
        if KNOCK in legal:
            if PASS in legal and obs.last_turn:
                # the hands are counted now either way; a knock can only cost
                # (the undercut bonus to a hand that ties or beats this one)
                return PASS, (f"{held} points in hand on the round's last turn: pass; "
                              f"the hands are counted now anyway, and a knock would give "
                              f"a hand that ties or beats mine the undercut bonus")
            risk = self.undercut_risk(obs, held, pool, rng)
            if risk <= self.risk or (DRAW not in legal and PASS not in legal):
                return KNOCK, f"{held} points in hand: knock (undercut risk {risk:.0%})"
            if DRAW in legal:
                return DRAW, f"knocking with {held} risks an undercut ({risk:.0%}): draw"
            return PASS, f"knocking with {held} risks an undercut ({risk:.0%}): pass"
        if DRAW in legal:
            return DRAW, "nothing to meld: draw again"
        return PASS, "nothing to meld and no draw left"

    def _draw_value(self, obs: ManipulationObservation, pool: list[Card], rng: random.Random,
                    others: float) -> tuple[float, float, float]:
        """Expected value of drawing once more and then making the best play,
        the share of the draws after which the hand knocks or goes out, and
        the mean points it leaves."""
        if not pool or obs.pile_size == 0:
            return float("-inf"), 0.0, float(hand_points(obs.hand))
        held = hand_points(obs.hand)
        limit = int(obs.options["knock_limit"])
        total = 0.0
        finish = kept = 0
        picks = self._draws(obs, pool, rng, self.budget)
        for c in picks:
            hand = [*obs.hand, c]
            left, out = _leaves(held + CARD_POINTS[c], len(hand), self.best(obs, hand))
            total += self._value(obs, left, out, others)
            finish += out or left <= limit
            kept += left
        n = len(picks)
        return total / n, finish / n, kept / n
