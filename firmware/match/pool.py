"""A pool of search processes on the cores the frame loop does not need (issue 36).

A computer player that can split its decision (`ComputerPlayer.split`) hands the seat a
fixed list of parts; the pool runs them on its processes, each part on the first idle one,
and gives the results back in the parts' order once all are in. The parts and the way the
player joins them do not depend on the pool's size, so one process or four give the same
move (the in-loop seat runs the same parts one after another).

Processes are `spawn`ed once and reused, like `worker.SearchWorker`. A process that dies
mid-part (killed, out of memory) is replaced and its part run again from the start: one
part's work lost, never a hang. A part that kills `MAX_TRIES` processes in a row is a bug,
reported by an exception rather than retried for ever.
"""

from __future__ import annotations

import atexit
import importlib
import logging
import multiprocessing
import signal
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

log = logging.getLogger("twinfold.match")

SLICE_UNITS = 20_000  # about 20 ms of search between looks at the pipe for a cancel
MAX_TRIES = 3
_LIVE: weakref.WeakSet[SearchPool] = weakref.WeakSet()


class PartFailed(RuntimeError):
    """A part killed its process MAX_TRIES times."""


def rules_class(path: str) -> Any:
    """The rules class named `module:Class` (a job names its game's rules this way)."""
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def think_until_done(conn: Connection, thinker: Any) -> tuple[Any, Any]:
    """Run `thinker` in slices of SLICE_UNITS until it answers or a newer message arrives:
    (its answer or None, the newer message or None). A process's loop, shared by the
    seat's worker and the pool's processes."""
    while True:
        result = thinker.think(SLICE_UNITS)
        if result is not None:
            return result, None
        if conn.poll():
            return None, conn.recv()


def serve(conn: Connection, start: Callable[[Any], tuple[Any, Callable[[Any, int], Any]]]) -> None:
    """A search process's loop: one job at a time, `start(job)` giving its thinker and how
    to word the answer; a newer message cancels the current job (None stops the process).

    It also ends when the parent is gone (issue 34, item 9): a parent that quits, or drops
    the worker of a clip's replay, closes the pipe, and the process then ends quietly
    instead of printing a traceback (EOFError, BrokenPipeError) on the terminal the person
    quit in. Ctrl+C in that terminal reaches the whole process group: the parent handles it.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _serve_jobs(conn, start)
    except (EOFError, OSError):  # the pipe closed (BrokenPipeError is an OSError)
        return


def _serve_jobs(
    conn: Connection, start: Callable[[Any], tuple[Any, Callable[[Any, int], Any]]]
) -> None:
    pending: Any = None
    while True:
        job = pending if pending is not None else conn.recv()
        if job is None:
            return
        thinker, reply = start(job)
        result, pending = think_until_done(conn, thinker)
        if result is not None:
            conn.send(reply(result, int(getattr(thinker, "units", 0))))


def _start_part(job: Any) -> tuple[Any, Callable[[Any, int], Any]]:
    job_id, index, part, rules_path, rules_json, seat = job
    rules = rules_class(rules_path).from_json(rules_json)
    return part.start(rules, seat), lambda result, units: (job_id, index, result, units)


def _serve(conn: Connection) -> None:
    """One pool process: a part at a time."""
    serve(conn, _start_part)


class _Process:
    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child,), daemon=True, name="twinfold-cpu")
        self.process.start()
        child.close()
        self.part = -1  # the part it works on (-1: idle)

    def close(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=2)
        self.conn.close()


class SearchPool:
    """`size` processes running the parts of one decision at a time."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a pool needs at least one process")
        self.size = size
        self._procs: list[_Process] = []
        self._job = 0
        self._parts: list[Any] = []
        self._queue: list[int] = []
        self._results: list[Any] = []
        self._units: list[int] = []
        self._tries: list[int] = []
        self._spec: tuple[str, Any, int] = ("", None, 0)
        self.retried = 0  # parts run again after their process died
        _LIVE.add(self)

    @property
    def pids(self) -> list[int]:
        """The live processes' ids (tests kill one)."""
        return [p.process.pid for p in self._procs if p.process.pid is not None]

    def submit(self, parts: list[Any], rules: Any, seat: int) -> None:
        """Start the parts of a decision for `seat` in `rules`' state (cancelling any
        decision in progress)."""
        self._job += 1
        cls = type(rules)
        self._spec = (f"{cls.__module__}:{cls.__qualname__}", rules.to_json(), seat)
        self._parts = list(parts)
        self._queue = list(range(len(parts)))
        self._results = [None] * len(parts)
        self._units = [0] * len(parts)
        self._tries = [0] * len(parts)
        while len(self._procs) < min(self.size, len(parts)):
            self._procs.append(_Process())
        for proc in self._procs:
            proc.part = -1
        self._dispatch()

    def _dispatch(self) -> None:
        path, data, seat = self._spec
        for proc in self._procs:
            if proc.part < 0 and self._queue:
                index = self._queue.pop(0)
                self._tries[index] += 1
                if self._tries[index] > MAX_TRIES:
                    raise PartFailed(f"part {index} killed its process {MAX_TRIES} times")
                proc.part = index
                proc.conn.send((self._job, index, self._parts[index], path, data, seat))

    def _replace(self, proc: _Process) -> None:
        """A dead process: its part goes back to the queue, a new process takes its place."""
        if proc.part >= 0:
            self._queue.insert(0, proc.part)
            self.retried += 1
            log.warning("search process %s died; part %d runs again", proc.process.pid, proc.part)
        proc.close()
        self._procs[self._procs.index(proc)] = _Process()

    def poll(self, wait_for: bool = False) -> tuple[list[Any], list[int]] | None:
        """(results, units) in the parts' order once every part is done; None before.
        With `wait_for` it blocks until then."""
        while True:
            busy = [p for p in self._procs if p.part >= 0]
            if not busy and not self._queue:
                if self._parts and all(r is not None for r in self._results):
                    return list(self._results), list(self._units)
                return None
            ready = wait(
                [p.conn for p in busy] + [p.process.sentinel for p in busy],
                timeout=None if wait_for else 0,
            )
            if not ready:
                return None
            for proc in busy:
                if proc.conn in ready or proc.conn.poll():
                    try:
                        job, index, result, units = proc.conn.recv()
                    except (EOFError, OSError):
                        self._replace(proc)
                        continue
                    if job == self._job and index == proc.part:
                        self._results[index] = result
                        self._units[index] = units
                        proc.part = -1
                elif proc.process.sentinel in ready or not proc.process.is_alive():
                    self._replace(proc)
            self._dispatch()

    def cancel(self) -> None:
        """Abandon the decision in progress (late answers are dropped by job number)."""
        self._job += 1
        self._parts, self._queue = [], []
        for proc in self._procs:
            proc.part = -1

    def close(self) -> None:
        for proc in self._procs:
            proc.close()
        self._procs = []
        _LIVE.discard(self)


def close_all() -> int:
    """Stop every pool's processes (quit, crash, game end); returns how many pools."""
    pools = list(_LIVE)
    for pool in pools:
        pool.close()
    return len(pools)


atexit.register(close_all)
