"""A computer player's search in a worker process, for units with a spare core (issue 18).

The frame loop keeps drawing while the worker searches. The decision is node-limited, so the
worker finds exactly the move the in-loop slices would; the seat applies it at the tick its
work fixes (see `ComputerSeat`), not when the worker happens to finish, so frames stay
reproducible.

One process per seat, started on first use with the `spawn` method (the firmware's SDL state
never crosses into it), reused for every move of the game, and stopped when the seat is
closed: on quit, restart, game end or a crash (`close_all`, called by the machine, and at
interpreter exit). A search is cancelled cooperatively between slices of `pool.SLICE_UNITS`.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from firmware.match.pool import close_all as close_pools
from firmware.match.pool import rules_class, serve

log = logging.getLogger("twinfold.match")

_LIVE: weakref.WeakSet[SearchWorker] = weakref.WeakSet()


def _start_job(job: Any) -> tuple[Any, Callable[[Any, int], Any]]:
    job_id, player, rules_path, rules_json, seat = job
    rules = rules_class(rules_path).from_json(rules_json)
    return player.start(rules, seat), lambda action, units: (job_id, rules.encode(action), units)


def _serve(conn: Connection) -> None:
    """The worker's loop: one job at a time; a newer message cancels the current job."""
    serve(conn, _start_job)


class SearchWorker:
    """The parent's handle on one worker process."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(target=_serve, args=(child,), daemon=True, name="twinfold-cpu")
        self._process.start()
        child.close()
        self._job = 0
        self._ended = False  # its pipe closed: the process died (killed, out of memory)
        _LIVE.add(self)
        # dropped without close() (a clip's or rewind's replayed seat): the process goes too
        weakref.finalize(self, _stop, self._process)

    @property
    def alive(self) -> bool:
        return not self._ended and self._process.is_alive()

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def submit(self, player: Any, rules: Any, seat: int) -> int:
        """Start deciding for `seat` in `rules`' state; returns the job number."""
        self._job += 1
        cls = type(rules)
        path = f"{cls.__module__}:{cls.__qualname__}"
        self._conn.send((self._job, player, path, rules.to_json(), seat))
        return self._job

    def result(self, job: int, wait: bool = False) -> tuple[bytes, int] | None:
        """(wire action, units) of `job` once done; stale answers are dropped."""
        while self._conn.poll(None if wait else 0):
            try:
                done, data, units = self._conn.recv()
            except (EOFError, OSError):
                # the process is gone (its seat starts another and asks again: issue 36)
                self._ended = True
                self._process.join(timeout=5)
                return None
            if done == job:
                return bytes(data), int(units)
        return None

    def cancel(self) -> None:
        """Abandon the current job (the next submit pre-empts it between slices)."""
        self._job += 1

    def close(self) -> None:
        """Stop the process at once."""
        if self._process.is_alive():
            self._process.kill()
        self._process.join(timeout=2)
        self._conn.close()
        _LIVE.discard(self)


def _stop(process: multiprocessing.process.BaseProcess) -> None:
    if process.is_alive():
        process.kill()
    process.join(timeout=2)


def close_all() -> int:
    """Stop every live worker and search pool (quit, crash, game end); returns how many
    were stopped."""
    workers = list(_LIVE)
    for worker in workers:
        worker.close()
    return len(workers) + close_pools()


atexit.register(close_all)
