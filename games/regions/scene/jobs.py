"""Work too slow for one frame (laying out a surface), done on a worker thread behind a
"working" animation, with a result that appears at a fixed tick.

The job is started, the scene counts ticks; at `ticks` the result is taken, waiting for
the worker if it is not done yet. The computation is pure, so the result and the tick it
appears at are the same on every run: a seed and an input movie still reproduce every
frame. `ticks` is chosen so that on the desktop the worker is done long before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


class Job:
    """One computation on a worker thread; `step()` once per tick until it returns True."""

    def __init__(self, kind: str, params: dict[str, Any], work: Callable[[], Any], ticks: int):
        self.kind = kind
        self.params = params  # what restarts the same job after a suspend
        self.ticks = ticks
        self.age = 0
        self.result: Any = None
        self.error: Exception | None = None
        self._out: list[Any] = []
        self._thread = threading.Thread(target=self._run, args=(work,), daemon=True)
        self._thread.start()

    def _run(self, work: Callable[[], Any]) -> None:
        try:
            self._out.append(("ok", work()))
        except Exception as exc:  # handed to the scene, which shows its message
            self._out.append(("error", exc))

    def step(self) -> bool:
        """Count one tick; True once the result (or error) is in."""
        self.age += 1
        if self.age < self.ticks:
            return False
        self._thread.join()
        status, value = self._out[0]
        if status == "ok":
            self.result = value
        else:
            self.error = value
        return True

    def wait(self) -> None:
        """Finish at once (tests, quitting)."""
        self._thread.join()
