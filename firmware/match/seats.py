"""Seats: where a match's actions come from (issue 10).

Every seat answers the same question each tick — "your move?" — with an action or None:

- `LocalSeat`: the scene turns taps and buttons into an action and `offer`s it.
- `ComputerSeat`: the game's computer player, sliced within a per-tick work budget taken
  from the device profile; deterministic for a state, seed and level however it is sliced.
- `RemoteSeat`: actions arriving from outside as wire bytes (the peer link's inbox), each
  with the digest the sender's rules reached after it.
- `ReplaySeat`: a stored record's actions, released one at a time by the replay scene or
  automatically.

The driver (`firmware.match.driver.Match`) checks and applies whatever a seat answers; the
`Seat` base class every seat implements is defined beside it (and importable from here).
"""

from __future__ import annotations

import copy
import logging
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from firmware.match.driver import Match, Seat
from firmware.match.pacing import PENDING, Pacing
from firmware.match.pool import MAX_TRIES, PartFailed, SearchPool
from firmware.match.protocol import ActionError, ComputerPlayer, SplitPlayer, Thinker
from firmware.match.worker import SearchWorker

log = logging.getLogger("twinfold.match")

__all__ = [
    "MIN_THINK_TICKS",
    "ComputerSeat",
    "LocalSeat",
    "RelaySeat",
    "RemoteSeat",
    "ReplaySeat",
    "ReplaySource",
    "Seat",
]

A = TypeVar("A")

MIN_THINK_TICKS = 24  # a computer never answers faster than this: its move stays visible


def makespan(units: Sequence[int], cores: int) -> int:
    """Work units until the last of these parts is done on `cores` processes, each part (in
    order) going to the first process free: what fixes a pooled decision's landing tick."""
    free = [0] * max(1, cores)
    for u in units:
        i = free.index(min(free))
        free[i] += u
    return max(free) if units else 0


class LocalSeat(Seat[A]):
    """The person at this unit: the scene offers an action, the next poll plays it."""

    kind = "local"

    def __init__(self) -> None:
        self.pending: A | None = None

    def offer(self, action: A) -> None:
        self.pending = action

    def poll(self, match: Match[A], seat: int) -> A | None:
        action, self.pending = self.pending, None
        return action

    def cancel(self) -> None:
        self.pending = None


class ComputerSeat(Seat[A]):
    """The game's computer player, thinking `budget` work units per tick.

    The decision is a function of the state, seed and level only (work-limited search), and
    it is applied at a tick fixed by the work it took: `max(min_ticks, ceil(units /
    budget))` polls after the request. In-loop (`worker=False`) the thinker does `budget`
    units per poll, so it is always decided by then; with a worker process the search runs
    on another core and the seat waits for that tick. Headless (`block=True`) a worker that
    is late is waited for, so frames are the same in both modes; in real time a late move is
    applied when it arrives (counted in `late`), and with `pacing` the poll it was applied
    at is recorded, so a replay of those ticks (the emulator's rewind) applies it at the
    same poll (firmware.match.pacing). Suspend restarts the search and replays the same
    number of polls.

    With `cores` > 1 (a worker profile that gives the computer several cores) a player that
    can split its decision (`SplitPlayer`: issue 36) runs its parts on a `SearchPool` of
    that many processes; the units that fix the landing tick are then the parts' makespan
    on `cores` processes (each part to the first free one, in order): a function of the
    parts' work alone, so still the same frames in headless runs and replays.
    """

    kind = "computer"

    def __init__(
        self,
        player: ComputerPlayer[A],
        budget: int | None = None,
        min_ticks: int = MIN_THINK_TICKS,
        *,
        worker: bool = False,
        block: bool = True,
        pacing: Pacing | None = None,
        cores: int = 1,
    ) -> None:
        self.player = player
        self.cores = max(1, cores)
        self._pool: SearchPool | None = None
        self._pooled = False  # the decision in progress runs on the pool
        self.budget = max(1, budget if budget is not None else player.units_per_tick)
        self.min_ticks = min_ticks
        self.use_worker = worker
        self.block = block
        self.thinker: Thinker[A] | None = None
        self.thinking = False
        self.calls = 0
        self.units = 0
        self.decided: A | None = None
        self.late = 0
        self.pacing = pacing
        self.request = -1  # the tick the decision in progress was asked for (pacing's key)
        self._worker: SearchWorker | None = None
        self._job = 0
        self._resubmit = False  # a checkpoint's copy: ask the worker again on the next poll
        self.retried = 0  # decisions asked again of a new worker after the last one died
        self._tries = 0  # workers the decision in progress has been asked of

    def __deepcopy__(self, memo: dict[int, Any]) -> ComputerSeat[A]:
        """A copy for a machine checkpoint (firmware.checkpoint): the worker process is
        shared, not copied, and a copy taken while waiting on it asks again when it is first
        polled (the same state, seed and level: the same decision, due at the same poll)."""
        clone = copy.copy(self)
        memo[id(self)] = clone
        for name in ("player", "thinker", "decided"):
            setattr(clone, name, copy.deepcopy(getattr(self, name), memo))
        clone._resubmit = self.use_worker and self.thinking and self.decided is None
        return clone

    def begin(self, match: Match[A], seat: int) -> None:
        self.cancel()
        self.thinking = True
        parts = None
        if self.use_worker and self.cores > 1 and isinstance(self.player, SplitPlayer):
            parts = self.player.split(match.rules, seat)
        if parts:
            if self.pacing is not None:
                self.request = self.pacing.now()
            if self._pool is None:
                self._pool = SearchPool(self.cores)
            self._pool.submit(parts, match.rules, seat)
            self._pooled = True
            return
        if self.use_worker:
            if self.pacing is not None:
                self.request = self.pacing.now()
            if self._worker is None or not self._worker.alive:
                self._worker = SearchWorker()
            self._job = self._worker.submit(self.player, match.rules, seat)
            self._tries = 1
        else:
            self.thinker = self.player.start(match.rules, seat)

    def _think(self, match: Match[A], block: bool, seat: int = 0) -> None:
        """One poll's work: a slice in-loop, or a look at the worker's pipe (waiting for the
        answer with `block` once it may be due)."""
        if self.decided is not None:
            return
        if self._pooled and self._pool is not None:
            done = self._pool.poll(wait_for=block and self.calls >= self.min_ticks)
            if done is not None:
                results, units = done
                assert isinstance(self.player, SplitPlayer)
                self.decided = self.player.join(match.rules, seat, results)
                self.units = makespan(units, self.cores)
            return
        if self._worker is not None and self.use_worker:
            wait = block and self.calls >= self.min_ticks
            answer = self._worker.result(self._job, wait=wait)
            if answer is not None:
                self.decided = match.rules.decode(answer[0])
                self.units = answer[1]
            elif not self._worker.alive:
                self._ask_again(match, seat)
            return
        assert self.thinker is not None
        self.decided = self.thinker.think(self.budget)
        if self.decided is not None:
            self.units = int(getattr(self.thinker, "units", self.calls * self.budget))

    def _ask_again(self, match: Match[A], seat: int) -> None:
        """The worker died mid-search (killed, out of memory): a new one searches the same
        state again, so the move is the same and costs one retry, never a hang (issue 36).
        The landing tick still comes from the decision's own units. A decision that kills
        MAX_TRIES workers in a row is a bug: PartFailed, as in the pool."""
        if self._tries >= MAX_TRIES:
            raise PartFailed(f"a search killed its worker process {MAX_TRIES} times")
        assert self._worker is not None
        log.warning("search worker %s died; the decision runs again", self._worker.pid)
        self._worker.close()
        self._worker = SearchWorker()
        self._job = self._worker.submit(self.player, match.rules, seat)
        self._tries += 1
        self.retried += 1

    def due(self) -> int | None:
        """The poll at which the decided action is played (None while undecided)."""
        if self.decided is None:
            return None
        return max(self.min_ticks, -(-self.units // self.budget))

    def poll(self, match: Match[A], seat: int) -> A | None:
        if self._resubmit:  # restored from a checkpoint: the same search again
            self._resubmit = False
            calls, request = self.calls, self.request
            self.begin(match, seat)
            self.calls, self.request = calls, request
        if not self.thinking:
            self.begin(match, seat)
        self.calls += 1
        paced = self.pacing if self.use_worker else None  # only a worker's timing varies
        landing = paced.landing(self.request) if paced is not None else None
        if landing == PENDING:  # not applied by the end of the recording: it holds
            self._think(match, False, seat)
            return None
        # replayed or scripted ticks keep no real time: wait for the answer as headless does
        self._think(match, self.block or (paced is not None and paced.scripted), seat)
        due = self.due()
        if due is None or self.calls < max(due, landing or 0):
            return None
        if self.calls > due:
            self.late += 1
        if paced is not None:
            paced.landed(self.request, self.calls, self.calls > due)
        action = self.decided
        self._clear()
        return action

    def _clear(self) -> None:
        self.thinker, self.thinking, self.decided = None, False, None
        self.calls = self.units = 0

    def cancel(self) -> None:
        """Drop the decision in progress; a worker's late answer to it is discarded."""
        self._clear()
        self._pooled = False
        if self._pool is not None:
            self._pool.cancel()
        if self._worker is not None:
            self._worker.cancel()
            self._job = -1

    def close(self) -> None:
        """Stop the worker process, if any (game end, quit)."""
        self.cancel()
        if self._worker is not None:
            self._worker.close()
            self._worker = None
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def save(self) -> dict[str, Any]:
        return {"calls": self.calls} if self.thinking else {}

    def load(self, data: dict[str, Any], match: Match[A], seat: int) -> None:
        self.cancel()
        calls = int(data.get("calls", 0))
        if calls <= 0 or match.rules.to_move() != seat:
            return
        self.begin(match, seat)
        for done in range(1, calls + 1):  # the same polls again: the same decision and tick
            self.calls = done
            if not self.use_worker:
                self._think(match, block=False)
        self.calls = calls


class RemoteSeat(Seat[A]):
    """A player on another unit: wire-encoded actions queued by the link layer."""

    kind = "remote"

    def __init__(self) -> None:
        self.inbox: deque[tuple[bytes, str | None]] = deque()
        self._expected: str | None = None

    def deliver(self, data: bytes, digest: str | None = None) -> None:
        """Queue one action as received (bytes) with the sender's digest after it (hex; a
        prefix of it is enough: the link sends the first 6 bytes)."""
        self.inbox.append((bytes(data), digest))

    def poll(self, match: Match[A], seat: int) -> A | None:
        while self.inbox:
            data, digest = self.inbox.popleft()
            try:
                action = match.rules.decode(data)
            except ActionError as exc:
                match.refuse(seat, self.kind, f"undecodable action: {exc}")
                continue
            self._expected = digest
            return action
        return None

    def expected_digest(self) -> str | None:
        return self._expected

    def cancel(self) -> None:
        self.inbox.clear()
        self._expected = None


class RelaySeat(RemoteSeat[A]):
    """The person at this unit in a sealed match (hidden hands, firmware.link.session): the
    scene offers as to a `LocalSeat`, but the action goes to the host, which alone can apply
    it (it knows whose cards it kills); it is applied here when the host's echo arrives."""

    kind = "local"

    def __init__(self, outbox: Callable[[A], None]) -> None:
        super().__init__()
        self.outbox = outbox
        self.waiting = False  # an offer is on its way: further offers are ignored

    def offer(self, action: A) -> None:
        if not self.waiting:
            self.waiting = True
            self.outbox(action)

    def poll(self, match: Match[A], seat: int) -> A | None:
        action = super().poll(match, seat)
        if action is not None:
            self.waiting = False
        return action

    def cancel(self) -> None:
        super().cancel()
        self.waiting = False


class ReplaySource:
    """A stored record's actions in order, shared by the replay seats of one match.

    The replay viewer calls `release()` for each step forward.
    """

    def __init__(self, actions: Sequence[tuple[int, bytes]]) -> None:
        self.actions = list(actions)
        self.index = 0
        self.released = 0

    @property
    def at_end(self) -> bool:
        return self.index >= len(self.actions)

    def release(self, count: int = 1) -> None:
        self.released = min(len(self.actions), self.released + count)

    def take(self, seat: int) -> bytes | None:
        if self.at_end or self.index >= self.released:
            return None
        want_seat, data = self.actions[self.index]
        if want_seat != seat:
            return None
        self.index += 1
        return data


class ReplaySeat(Seat[A]):
    """One seat of a replay: plays the record's next action when it is released."""

    kind = "replay"

    def __init__(self, source: ReplaySource) -> None:
        self.source = source

    def poll(self, match: Match[A], seat: int) -> A | None:
        data = self.source.take(seat)
        if data is None:
            return None
        try:
            return match.rules.decode(data)
        except ActionError as exc:
            match.refuse(seat, self.kind, f"undecodable action in the record: {exc}")
            return None
