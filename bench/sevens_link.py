"""Linked Killing Sevens, sealed against open (issue 14): what hiding the hands costs.

Three units (host and two guests, the host also plays seat 3) play whole games of random
legal cards over the simulated 9600-baud radio with 10% frame loss. Reported: simulated time
from the go to the agreed end (median game), bytes on the air per action (every unit, acks
and keep-alives included), each action's wait from the tick its player chose it to the tick
the last unit applied it (median and p95 over all games), and the CPU time of each guest's
end check (deal again, replay every action through the whole rules, compare), which runs in
one tick.

    python bench/sevens_link.py [--games 6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import benchenv  # noqa: F401  (the checkout on sys.path)
from ticktime import pct

from firmware.link.packet import ID_BYTES
from firmware.link.session import Session, State
from firmware.link.testbed import Air, prepaired
from firmware.match import LocalSeat, Match, RelaySeat
from games.sevens.match import SevensRules, SevensSealed, deal_for_link
from hal.link.air import Impairments


def timed(check: Any, into: list[float]) -> Any:
    """The end check, timed (CPU) each time it runs to a verdict."""

    def run() -> bool:
        before = time.thread_time()
        done = check()
        if done:
            into.append(time.thread_time() - before)
        return bool(done)

    return run


def one_game(seed: int, sealed: bool) -> dict[str, Any]:
    air = Air(Impairments(baud=9600, loss=0.1, corrupt=0.001, delay_ms=20, jitter_ms=10, seed=seed))
    ids = [bytes([0x20 + i]) * ID_BYTES for i in range(3)]
    radios = prepaired(air, "Host", "G1", "G2", ids=ids)
    sessions = [Session(r) for r in radios]
    for i, s in enumerate(sessions):
        s._secret = bytes([seed % 250, i + 1]) * 8
    sessions[0].host_game("sevens", {}, seats=3, sealed=sealed)
    for s in sessions[1:]:
        s.look("sevens")

    def ticking(done: Callable[[], bool]) -> Callable[[], bool]:
        """Each air tick: every session ticks, then `done` is asked."""

        def until() -> bool:
            for s in sessions:
                s.tick()
            return done()

        return until

    air.run(600, until=ticking(lambda: all(s.hosts() for s in sessions[1:])))
    for s in sessions[1:]:
        s.join(radios[0].id)
    air.run(1800, until=ticking(lambda: all(s.seed is not None for s in sessions)))
    start, sent0 = air.tick, sum(link.tx.bytes_sent for link in air.medium.links)
    rng = random.Random(seed)
    matches: dict[int, Match[str]] = {}
    checks: list[float] = []
    offered: dict[int, int] = {}  # action number -> tick its player chose it
    applied: dict[int, list[int]] = {}  # action number -> tick each unit applied it
    for s in sessions[1:]:
        # timing the guest's end check: the method is wrapped in place
        s._unseal = timed(s._unseal, checks)  # type: ignore[method-assign]
    for _ in range(60 * 600):
        air.run(1)
        for i, s in enumerate(sessions):
            s.tick()
            if i in matches or not s.ready:
                continue
            rules: Any
            if i == 0:
                rules = deal_for_link(s.deal_seed or 0) if sealed else SevensRules.new(s.seed or 0)
            elif sealed:
                assert s.opening is not None  # a sealed guest is ready with the host's opening
                rules = SevensSealed.from_json(s.opening["rules"])
            else:
                rules = SevensRules.new(s.seed or 0)
            s.seats = 4
            seats = s.make_seats()
            if i == 0:
                seats[3] = LocalSeat()
            matches[i] = Match(rules, seats)
            s.attach(matches[i], dealer=deal_for_link)
        for i, m in matches.items():
            seat = m.to_move
            mine = seat == sessions[i].seat or (i == 0 and seat == 3)
            if seat is not None and mine:
                source = m.seats[seat]
                assert isinstance(source, LocalSeat | RelaySeat)
                legal = m.rules.legal_actions()
                assert legal is not None  # Killing Sevens lists its legal actions
                source.offer(rng.choice(list(legal)))
                offered.setdefault(len(m.history), air.tick)
            before = len(m.history)
            m.step()
            for k in range(before, len(m.history)):
                applied.setdefault(k, []).append(air.tick)
        if all(s.state is State.OVER for s in sessions):
            break
    assert all(s.state is State.OVER and s.agreed for s in sessions), "a game did not finish"
    actions = len(matches[0].history)
    sent = sum(link.tx.bytes_sent for link in air.medium.links) - sent0
    waits = [max(applied[k]) - offered[k] for k in offered if len(applied.get(k, [])) == 3]
    return {
        "latency_ms": [w * 1000 / 60 for w in waits],
        "seconds": (air.tick - start) / 60,
        "bytes_per_action": sent / actions,
        "check_ms": max(checks) * 1000 if sealed and checks else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    print("3 units + 1 seat of the host, random legal plays, 9600 baud, 10% frame loss")
    for sealed in (False, True):
        runs = [one_game(seed, sealed) for seed in range(args.games)]
        name = "sealed" if sealed else "open  "
        secs = statistics.median(float(r["seconds"]) for r in runs)
        per = statistics.median(r["bytes_per_action"] for r in runs)
        waits = [w for r in runs for w in r["latency_ms"]]
        p95 = pct(waits, 0.95)
        line = (
            f"{name}: game {secs:5.1f} s (median of {len(runs)}), {per:5.0f} B/action, "
            f"chosen -> applied on every unit median {statistics.median(waits):4.0f} ms "
            f"p95 {p95:4.0f} ms"
        )
        if sealed:
            line += f", guest end check max {max(r['check_ms'] for r in runs):.1f} ms CPU"
        print(line)


if __name__ == "__main__":
    main()
