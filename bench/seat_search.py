"""A computer seat's decision run in this process, as the seat runs it on a device profile:
the benches that play outside engines use it so their waits are the seat's."""

from __future__ import annotations

from typing import Any

from firmware.match.profiles import DeviceProfile
from firmware.match.seats import makespan


def think_through(thinker: Any) -> Any:
    """Let one search think until it decides (no slice limit: benches are not frame-bound)."""
    while (result := thinker.think(1 << 40)) is None:
        pass  # an unlimited slice decides at once; the loop only guards a thinker that yields
    return result


def split_decision(
    computer: Any, rules: Any, seat: int, profile: DeviceProfile
) -> tuple[Any, int] | None:
    """On a worker profile with several cores, the decision split into the pool's parts
    (`computer.split`, each part searched here, `computer.join`) and the parts' makespan,
    the work units that fix its landing tick; None where the seat would not split."""
    parts = computer.split(rules, seat) if profile.mode == "worker" and profile.cores > 1 else None
    if parts is None:
        return None
    thinkers = [part.start(rules, seat) for part in parts]
    results = [think_through(t) for t in thinkers]
    return computer.join(rules, seat, results), makespan([t.units for t in thinkers], profile.cores)
