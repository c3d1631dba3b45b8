"""Group commit: the writes of every table go through one writer, which
commits all that are waiting in one transaction and only then tells each
table its write is durable.

With ``synchronous=FULL`` each SQLite commit waits for the disk; moves that
arrive while a commit is under way are batched into the next, so two hundred
busy tables share a handful of fsyncs instead of queueing for one each. No
write is acknowledged before its own transaction has committed.
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor

from rummylab.server.store import Store, Write

# the most writes one transaction carries (a bound on its size and latency)
BATCH = 256


class JournalError(Exception):
    """A write that could not be committed (the database is down or refused it)."""


class Journal:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: asyncio.Queue[tuple[Write, asyncio.Future[None]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        # its own thread: a commit never waits behind bots thinking in the shared pool
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="journal")
        self.commits = 0  # transactions, for the benchmark's figures
        self.writes = 0

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="journal")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._thread.shutdown(wait=True)

    async def write(self, w: Write) -> None:
        """Return once ``w`` is committed; raise :class:`JournalError` if it was not."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._queue.put((w, fut))
        await fut

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                errors = await asyncio.get_running_loop().run_in_executor(
                    self._thread, self.store.write, [w for w, _ in batch])
            except Exception as e:  # the thread itself failed: none of them is durable
                errors = [e] * len(batch)
            self.commits += 1
            self.writes += len(batch)
            for (_, fut), err in zip(batch, errors, strict=True):
                if fut.done():  # its waiter went away (a dropped connection)
                    continue
                if err is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(JournalError(f"the move could not be saved: "
                                                   f"{type(err).__name__}"))
