"""Arena: bots against each other over duplicate deals, with seats rotated.

Each deal (a match seed) is played once per seat rotation: with bots A, B the
same seed is played as A,B and as B,A. The engine shuffles from the match seed
only, so every rotation sees the same deck orders and each bot gets each seat's
cards once: luck of the deal cancels out. With three or more bots the rotations
are cyclic (each bot keeps its neighbours); ``seatings="all"`` plays every order
of the bots instead (3! = 6 matches a deal, 4! = 24), so that each also sits
after each other one. Figures are kept per bot, not per
seat, and aggregated in deal order, so the numbers do not depend on how the
deals were split across worker processes or a Dask cluster.

The engine never needs the heavy libraries: openskill (ratings), matplotlib
(``--plot``) and dask (``--backend dask``) are imported only when used, from
the ``arena`` extra (``pip install -e '.[arena]'``).

>>> result = run_arena("gin", ["simple", "random"], deals=2, seed=1, options={"target": 10})
>>> result.stats.matches, result.rotations
(4, 2)
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummylab.bots import make_bot
from rummylab.errors import OptionError, RummyError
from rummylab.match import MatchStats, bot_seed, match_seeds, play_match, whole
from rummylab.records import RecordWriter
from rummylab.registry import game_class
from rummylab.stats import wilson

EXTRA = "pip install -e '.[arena]'"


class ArenaError(RummyError):
    """Bad arena input, or a missing optional library."""


def require(module: str, what: str) -> Any:
    """Import an optional library or fail with one line naming the extra."""
    from importlib import import_module

    try:
        return import_module(module)
    except ImportError:
        raise ArenaError(f"{what} needs the {module.split('.')[0]} package: {EXTRA}") from None


def rotations(n: int) -> list[list[int]]:
    """Seatings of n bots: rotation r puts bot (seat + r) mod n in each seat.

    >>> rotations(2)
    [[0, 1], [1, 0]]
    >>> rotations(3)
    [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    """
    return [[(s + r) % n for s in range(n)] for r in range(n)]


SEATINGS = ("cyclic", "all")
# not an arena seating: each deal once, the bots in the seats given (as simulate plays)
SEATED = "seated"


def seatings(n: int, kind: str = "cyclic") -> list[list[int]]:
    """The seatings each deal is played in: the cyclic rotations, or ``all``
    the orders of the n bots (the rotations first, then the rest in order).

    >>> seatings(3, "all")
    [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [1, 0, 2], [2, 1, 0]]
    >>> seatings(2, "all") == rotations(2)
    True
    """
    if kind == SEATED:
        return [list(range(n))]
    if kind not in SEATINGS:
        raise ArenaError(f"unknown --seatings {kind!r} (seatings: {', '.join(SEATINGS)})")
    cyclic = rotations(n)
    if kind == "cyclic":
        return cyclic
    from itertools import permutations

    return cyclic + [list(p) for p in permutations(range(n)) if list(p) not in cyclic]


def split_bots(text: str) -> list[str]:
    """Comma-separated bot specs; ``key=value`` pieces without a name continue
    the spec before them (``random:seed=3,x=1,simple`` is two bots).

    >>> split_bots("simple, random:seed=3,x=1,simple")
    ['simple', 'random:seed=3,x=1', 'simple']
    >>> split_bots("strong:budget=2,knock=0.5:gin=0,simple")
    ['strong:budget=2,knock=0.5:gin=0', 'simple']
    >>> split_bots("simple,,random")
    Traceback (most recent call last):
    rummylab.errors.OptionError: an empty bot in --bots 'simple,,random'
    """
    specs: list[str] = []
    if not text.strip():
        return specs
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            raise OptionError(f"an empty bot in --bots {text!r}")
        if "=" not in piece.split(":", 1)[0]:
            specs.append(piece)
        elif not specs:
            raise OptionError(f"--bots {text!r} begins with an option, not a bot")
        elif ":" not in specs[-1]:
            raise OptionError(f"bot option {piece!r} in --bots follows {specs[-1]!r}, "
                              f"which has none: write {specs[-1]}:{piece}")
        else:
            specs[-1] += "," + piece
    return specs


def display_names(specs: Sequence[str]) -> list[str]:
    """Unique names for the bots: repeated specs get #1, #2, ...

    >>> display_names(["simple", "random", "simple"])
    ['simple#1', 'random', 'simple#2']
    """
    out = []
    for i, s in enumerate(specs):
        if specs.count(s) > 1:
            out.append(f"{s}#{specs[: i + 1].count(s)}")
        else:
            out.append(s)
    return out


# --- the work: chunks of deals, picklable, run anywhere ---------------------


@dataclass(frozen=True)
class Chunk:
    """Consecutive deals to play, each once per rotation."""

    game: str
    specs: tuple[str, ...]
    options: tuple[tuple[str, object], ...]
    first: int  # index of the first deal
    seeds: tuple[int, ...]
    record: bool
    seatings: str = "cyclic"
    position: str | None = None  # each match starts from it (rummylab.from_position)


@dataclass
class MatchResult:
    """One match, in seat order, and its seating (bot index per seat)."""

    deal: int
    seating: list[int]
    hands: int
    drawn: int
    match_wins: list[float]
    counts: dict[str, list[float]]
    winners: list[int]
    final_scores: list[int]


@dataclass
class ChunkResult:
    first: int
    matches: list[MatchResult]
    record: str = ""


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play every deal of a chunk once per rotation (a worker's job)."""
    n = len(chunk.specs)
    options = dict(chunk.options)
    buf = io.StringIO() if chunk.record else None
    writer = RecordWriter(buf) if buf is not None else None
    out: list[MatchResult] = []
    order = seatings(n, chunk.seatings)
    for offset, match_seed in enumerate(chunk.seeds):
        deal = chunk.first + offset
        for r, seating in enumerate(order):
            # a bot's seed follows the bot, not the seat: a random bot is the
            # same player in every rotation
            bots = [make_bot(chunk.specs[b], chunk.game, seed=bot_seed(match_seed, b))
                    for b in seating]
            stats = MatchStats(chunk.game, [chunk.specs[b] for b in seating])
            if writer is not None:
                # global match number, 1-based in the header
                writer.matches = deal * len(order) + r
            state = play_match(chunk.game, bots, match_seed, options, writer=writer, stats=stats,
                               position=chunk.position)
            out.append(MatchResult(
                deal, seating, stats.hands, stats.drawn, stats.match_wins, stats.counts,
                list(getattr(state, "winners", [])), list(getattr(state, "final_scores", [])),
            ))
    return ChunkResult(chunk.first, out, buf.getvalue() if buf is not None else "")


def make_chunks(game: str, specs: Sequence[str], options: Mapping[str, object],
                seeds: Sequence[int], size: int, record: bool,
                kind: str = "cyclic", position: str | None = None) -> list[Chunk]:
    opts = tuple(sorted(options.items()))
    return [Chunk(game, tuple(specs), opts, i, tuple(seeds[i:i + size]), record, kind, position)
            for i in range(0, len(seeds), size)]


# --- runners: each yields chunk results in any order ---------------------


def _worker_signals() -> None:
    """A worker leaves stopping to the main process: Ctrl-C reaches it there,
    and SIGTERM (the main process ending its workers) ends it at once."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _run_local(chunks: Sequence[Chunk], workers: int) -> Iterator[ChunkResult]:
    if workers <= 1:
        for c in chunks:
            yield play_chunk(c)
        return
    import multiprocessing

    pool = multiprocessing.Pool(min(workers, len(chunks)), initializer=_worker_signals)
    finished = False
    try:
        yield from pool.imap_unordered(play_chunk, chunks)
        finished = True
    finally:
        # stopped (Ctrl-C, SIGTERM) or failed: the workers end now, not after their chunks
        if finished:
            pool.close()
        else:
            pool.terminate()
        pool.join()


def check_scheduler(address: str) -> None:
    """Fail with one line on a Dask scheduler address of the wrong form (it
    is not contacted: a malformed one would only time out, 10 s later).

    >>> check_scheduler("tcp://127.0.0.1:8786")
    >>> check_scheduler("127.0.0.1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    rummylab.arena.ArenaError: bad Dask scheduler address '127.0.0.1': missing port number...

    Only plain ``tcp://`` and ``ws://`` schedulers: the secure ones (``tls``,
    ``wss``) need security settings the arena does not take, ``inproc`` lives
    in one process and ``ucx`` needs its own stack.

    >>> check_scheduler("tls://127.0.0.1:8786")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    rummylab.arena.ArenaError: bad Dask scheduler address 'tls://127.0.0.1:8786': ...
    """
    require("distributed", "--backend dask")
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        protocol, location = parse_address(address)
        if protocol not in ("tcp", "ws"):
            raise ValueError(f"{protocol}:// is not supported, give tcp://HOST:PORT "
                             "(or ws://HOST:PORT)")
        _, port = parse_host_port(location)
        if port is None or not 0 < int(port) < 65536:
            raise ValueError(f"port {port} is not 1 to 65535")
    except ValueError as e:
        raise ArenaError(f"bad Dask scheduler address {address!r}: {e}") from None


def check_backend(workers: int, backend: str, scheduler: str | None) -> None:
    """Where a run plays: ``workers`` local processes, or a Dask cluster at
    ``scheduler`` (whose address :func:`check_scheduler` checks).

    >>> check_backend(2, "local", None)
    >>> check_backend(2, "dask", "tcp://127.0.0.1:8786")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummylab.arena.ArenaError: --workers is for the local backend: ...
    """
    if workers < 1:
        raise ArenaError("--workers must be at least 1")
    if backend not in ("local", "dask"):
        raise ArenaError(f"unknown backend {backend!r} (backends: local, dask)")
    if backend == "dask" and not scheduler:
        raise ArenaError("--backend dask needs --scheduler ADDRESS")
    if scheduler and backend != "dask":
        raise ArenaError("--scheduler needs --backend dask")
    if backend == "dask" and workers != 1:
        raise ArenaError("--workers is for the local backend: a Dask run plays on the "
                         "cluster's workers")


# how long to keep trying to reach the scheduler before giving up
DASK_CONNECT_TIMEOUT = "10s"
# how long a scheduler may have no worker (one starting up, or scaling from none),
# at the start or later in the run
DASK_WORKER_TIMEOUT = "120s"
# how often a run with chunks still out asks whether any worker is left
DASK_POLL_SECONDS = 5.0


def _unreachable(scheduler: str, why: str) -> ArenaError:
    return ArenaError(f"cannot reach the Dask scheduler at {scheduler}: {why}")


def _probe_scheduler(scheduler: str) -> None:
    """Open one comm to ``scheduler`` and close it, within a hard deadline:
    a server that accepts the connection but never answers Dask's handshake
    (an HTTP server, say) would otherwise keep ``Client`` waiting for ever."""
    from dask.utils import parse_timedelta
    from distributed.comm.core import connect

    limit = float(parse_timedelta(DASK_CONNECT_TIMEOUT))

    async def go() -> None:
        comm = await asyncio.wait_for(connect(scheduler, timeout=DASK_CONNECT_TIMEOUT),  # type: ignore[no-untyped-call]
                                      limit + 2.0)
        await comm.close()

    try:
        asyncio.run(go())
    except TimeoutError:  # the connection was taken, the handshake never came
        raise _unreachable(scheduler, f"the answer is not a Dask scheduler's (no handshake "
                                      f"within {DASK_CONNECT_TIMEOUT})") from None
    except OSError as e:
        raise _unreachable(scheduler, str(e)) from None
    except Exception as e:  # something answers there, but not a scheduler
        raise _unreachable(scheduler, f"the answer is not a Dask scheduler's "
                                      f"({type(e).__name__})") from None


def _run_dask(chunks: Sequence[Chunk], scheduler: str) -> Iterator[ChunkResult]:
    distributed = require("distributed", "--backend dask")
    _probe_scheduler(scheduler)
    # built in two steps so that a client that fails to connect can be closed
    # here (left to the garbage collector, it prints a traceback at exit)
    client = distributed.Client.__new__(distributed.Client)
    try:
        client.__init__(scheduler, timeout=DASK_CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as e:
        _close_quietly(client)
        raise _unreachable(scheduler, str(e)) from None
    except Exception as e:  # something answers there, but not a scheduler
        _close_quietly(client)
        raise _unreachable(scheduler, f"the answer is not a Dask scheduler's "
                                      f"({type(e).__name__})") from None
    try:
        _need_worker(client, scheduler, "has no worker")
        futures = client.map(play_chunk, list(chunks), pure=False)
        try:
            # in deal order, as they are folded; all of them are played meanwhile
            for f in futures:
                while True:
                    try:
                        result = f.result(timeout=DASK_POLL_SECONDS)
                        break
                    except TimeoutError:  # a slow chunk, or no worker left to play it
                        _need_worker(client, scheduler, "has no worker left")
                yield result
        finally:
            client.cancel(futures)
    finally:
        _close_quietly(client)


def _need_worker(client: Any, scheduler: str, what: str) -> None:
    """Wait up to ``DASK_WORKER_TIMEOUT`` for a worker (at once if there is
    one); without one the run would wait for ever."""
    try:
        client.wait_for_workers(1, timeout=DASK_WORKER_TIMEOUT)
    except TimeoutError:
        raise ArenaError(f"the Dask scheduler at {scheduler} {what} (waited "
                         f"{DASK_WORKER_TIMEOUT}): start one with 'dask worker {scheduler}'"
                         ) from None
    except OSError as e:  # the scheduler went away
        raise ArenaError(f"lost the Dask scheduler at {scheduler}: {e}") from None


def _close_quietly(client: Any) -> None:
    with contextlib.suppress(Exception):
        client.close(timeout=1)


# --- aggregation ----------------------------------------------------------


@dataclass
class ArenaResult:
    """Figures per bot over all matches, and their ratings."""

    game: str
    specs: list[str]
    names: list[str]
    deals: int
    rotations: int  # seatings a deal is played in
    seed: int
    stats: MatchStats
    ratings: list[dict[str, float]] = field(default_factory=list)
    seatings: str = "cyclic"

    def rows(self) -> list[dict[str, Any]]:
        st = self.stats
        out = []
        for b, name in enumerate(self.names):
            lo, hi = wilson(st.match_wins[b], st.matches)
            row: dict[str, Any] = {
                "name": name, "spec": self.specs[b],
                "match_wins": whole(st.match_wins[b]), "matches": st.matches,
                "win_rate": st.match_wins[b] / st.matches if st.matches else 0.0,
                "ci_low": lo, "ci_high": hi,
                # the game's own per-hand (per-round) figure, under one name for all
                "points_per_hand": st.figure(game_class(self.game).deal_figure, b),
                "rating": self.ratings[b] if self.ratings else None,
            }
            for fig in st.figures:
                row.setdefault(fig.name, st.figure(fig.name, b))
            out.append(row)
        return out

    def to_dict(self) -> dict[str, Any]:
        d = self.stats.to_dict()
        d.pop("seats")
        return {"game": self.game, "seed": self.seed, "deals": self.deals,
                "rotations": self.rotations, "seatings": self.seatings,
                **{k: v for k, v in d.items() if k != "game"},
                "bots": self.rows()}


def match_ranks(game: str, winners: Sequence[int], final: Sequence[int]) -> list[int]:
    """Ranks per seat (1 best, ties share): winners first, the rest by final
    score (lowest first where the game's lower totals win).

    >>> match_ranks("gin", [1], [40, 110])
    [2, 1]
    >>> match_ranks("three-thirteen", [0, 2], [30, 50, 30])
    [1, 3, 1]
    """
    sign = 1 if game_class(game).lower_is_better else -1
    keys = [(0 if s in winners else 1, sign * v) for s, v in enumerate(final)]
    return [1 + sum(1 for k2 in keys if k2 < k) for k in keys]


class Ratings:
    """openskill Plackett-Luce ratings, one per bot, updated per match."""

    def __init__(self, names: Sequence[str]) -> None:
        models = require("openskill.models", "arena ratings")
        self.model = models.PlackettLuce()
        self.ratings = [self.model.rating(name=n) for n in names]

    def update(self, ranks_by_bot: Sequence[int]) -> None:
        teams = self.model.rate([[r] for r in self.ratings], ranks=list(ranks_by_bot))
        self.ratings = [t[0] for t in teams]

    def summary(self) -> list[dict[str, float]]:
        return [{"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for r in self.ratings]


def run_arena(
    game: str,
    specs: Sequence[str],
    deals: int,
    seed: int = 1,
    options: Mapping[str, object] | None = None,
    *,
    workers: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    record: Any = None,
    ratings: bool = True,
    progress: Callable[[int], None] | None = None,
    chunk_size: int | None = None,
    seating: str = "cyclic",
    position: str | None = None,
) -> ArenaResult:
    """Play ``deals`` deals once per seating (``seating``: ``cyclic``, the
    seat rotations, or ``all`` the orders of the bots); figures per bot.

    ``record`` is a text stream for the JSON Lines record (written in deal
    order); ``progress`` is called with the number of matches done so far.
    The game name and options must already be resolved (see the CLI).
    With ``position`` every match starts from it, each dealt from its own
    match seed (a seat's position: its unknown cards differ per match)."""
    n = len(specs)
    if n < 1:
        raise ArenaError("--bots names no bot")
    per_deal = len(seatings(n, seating))
    if deals < 1:
        raise ArenaError("--games must be at least 1")
    if chunk_size is not None and chunk_size < 1:
        raise ArenaError(f"chunk_size must be at least 1, got {chunk_size}")
    check_backend(workers, backend, scheduler)
    if backend == "dask":
        assert scheduler is not None
        check_scheduler(scheduler)
    # unknown bots fail before anything runs; each is named as the record names its seat
    canonical = [make_bot(s, game, seed=i).spec() for i, s in enumerate(specs)]
    rater = Ratings(display_names(specs)) if ratings else None
    seeds = match_seeds(seed, deals)
    parallel = workers if backend == "local" else 8
    # one process: a deal a chunk, so the progress bar moves with every deal
    size = chunk_size or (1 if backend == "local" and workers == 1
                          else max(1, min(32, math.ceil(deals / (parallel * 4)))))
    chunks = make_chunks(game, specs, options or {}, seeds, size, record is not None, seating,
                         position)
    agg = MatchStats(game, list(specs))
    done: dict[int, ChunkResult] = {}
    order = [c.first for c in chunks]
    next_i = 0
    played = 0
    source = (_run_local(chunks, workers) if backend == "local"
              else _run_dask(chunks, scheduler or ""))
    for res in source:
        done[res.first] = res
        played += len(res.matches)
        # fold in deal order, as soon as the next chunk in line is here
        while next_i < len(order) and order[next_i] in done:
            ready = done.pop(order[next_i])
            next_i += 1
            if record is not None:
                record.write(ready.record)
            for m in ready.matches:
                _fold(agg, m)
                if rater is not None:
                    ranks = match_ranks(game, m.winners, m.final_scores)
                    by_bot = [0] * n
                    for seat, b in enumerate(m.seating):
                        by_bot[b] = ranks[seat]
                    rater.update(by_bot)
        if progress is not None:
            progress(played)
    return ArenaResult(game, canonical, display_names(specs), deals, per_deal, seed, agg,
                       rater.summary() if rater is not None else [], seating)


def _fold(agg: MatchStats, m: MatchResult) -> None:
    agg.matches += 1
    agg.hands += m.hands
    agg.drawn += m.drawn
    for seat, b in enumerate(m.seating):
        agg.match_wins[b] += m.match_wins[seat]
        for name, values in m.counts.items():
            agg.counts.setdefault(name, [0.0] * len(m.seating))[b] += values[seat]


def plot_format(path: str) -> str:
    """The format a plot at ``path`` is written in: its extension's, PNG if
    it has none. An extension matplotlib cannot write is an ArenaError, told
    before the run: a chart is drawn in it once, small, to be sure (PGF, say,
    is listed but needs LaTeX to lay out the text)."""
    figure = require("matplotlib.figure", "--plot")
    fmt = os.path.splitext(os.path.basename(path))[1].lower().lstrip(".")
    if not fmt:
        return "png"
    formats = figure.Figure().canvas.get_supported_filetypes()
    if fmt not in formats:
        raise ArenaError(f"--plot {path}: matplotlib cannot write a .{fmt} file (it writes "
                         f"{', '.join('.' + f for f in sorted(formats))})")
    trial = figure.Figure(figsize=(1, 1))
    trial.subplots().set_title("win rate")
    try:
        trial.savefig(io.BytesIO(), format=fmt)
    except Exception as e:  # a writer missing here (LaTeX, a Pillow plugin)
        why = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ArenaError(f"--plot {path}: matplotlib cannot write .{fmt} here ({why})") from None
    return fmt


def plot(result: ArenaResult, path: str, fmt: str = "png") -> None:
    """Win rates with their 95% Wilson intervals as a bar chart, in any
    format :func:`plot_format` accepts."""
    # a Figure of its own, not pyplot: the caller's backend and figures stay as they were
    figure = require("matplotlib.figure", "--plot")
    if fmt not in figure.Figure().canvas.get_supported_filetypes():
        raise ArenaError(f"matplotlib cannot write a plot as {fmt!r}")
    rows = result.rows()
    rates = [r["win_rate"] for r in rows]
    err = [[r["win_rate"] - r["ci_low"] for r in rows],
           [r["ci_high"] - r["win_rate"] for r in rows]]
    fig = figure.Figure(figsize=(max(4.0, 1.4 * len(rows) + 2), 4))
    ax = fig.subplots()
    ax.bar([r["name"] for r in rows], rates, yerr=err, capsize=6, color="#4c78a8")
    ax.axhline(1 / len(rows), color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(0, 1)
    ax.set_ylabel("match win rate (95% Wilson CI)")
    ax.set_title(f"{result.game}: {result.stats.matches} matches "
                 f"({result.deals} deals x {result.rotations} seatings)")
    fig.tight_layout()
    try:
        fig.savefig(path, format=fmt)
    except OSError as e:
        raise ArenaError(f"cannot write {path}: {e.strerror}") from None
