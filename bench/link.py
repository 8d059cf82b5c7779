"""Link benchmarks (issue 11): move latency, bytes on air per move, pairing time, link-loss
detection and the link's cost per tick, on the simulated 9600-baud radio.

Everything but the per-tick cost runs in simulated time (ticks of 1/60 s), so the figures
are the protocol's, not this machine's; the per-tick cost is measured with perf_counter.

    python bench/link.py [--games 6] [--pairings 20]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from firmware.link.pairing import Step
from firmware.link.radio import Radio
from firmware.link.testbed import Air
from firmware.match import Event, Played
from firmware.testing import running_game
from games.reversi.robot import MachinePair
from hal.link.air import Impairments

TICK_MS = 1000 / 60


def impairments(loss: float, seed: int) -> Impairments:
    return Impairments(
        baud=9600, loss=loss, corrupt=0.001, dup=0.01, delay_ms=20, jitter_ms=10, seed=seed
    )


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def play_games(loss: float, games: int) -> dict[str, Any]:
    """Whole robot-played games; each move's confirm-to-shown delay in ms."""
    latencies: list[float] = []
    air_bytes = 0
    moves = 0
    tick_costs: list[float] = []
    for seed in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            pair = MachinePair(Path(tmp), impairments(loss, seed))
            pair.start()
            confirmed: dict[int, int] = {}
            shown: dict[int, int] = {}
            for m in pair.machines:
                match = running_game(m).match
                service = m.link
                assert service is not None  # MachinePair units have their radio on
                session = service.session

                def listen(
                    played: Played,
                    _events: list[Event],
                    session: Any = session,
                    match: Any = match,
                    pair: MachinePair = pair,
                    c: dict[int, int] = confirmed,
                    s: dict[int, int] = shown,
                ) -> None:
                    index = len(match.history) - 1
                    (c if played.seat == session.seat else s)[index] = pair.tick

                match.listeners.append(listen)
                # time the link's own work per tick on this unit
                original = service.tick

                def timed(tick: int, original: Callable[[int], None] = original) -> None:
                    t0 = time.perf_counter()
                    original(tick)
                    tick_costs.append((time.perf_counter() - t0) * 1000)

                service.tick = timed
            sent_before = sum(link.tx.bytes_sent for link in pair.medium.links)

            def reported(p: MachinePair = pair) -> bool:
                return all(g.reported for g in p.games())

            pair.run(60 * 900, until=reported)
            air_bytes += sum(link.tx.bytes_sent for link in pair.medium.links) - sent_before
            moves += len(pair.games()[0].game.moves)
            for index, at in confirmed.items():
                if index in shown:
                    latencies.append((shown[index] - at) * TICK_MS)
    return {
        "loss": loss,
        "moves": len(latencies),
        "median_ms": statistics.median(latencies),
        "p95_ms": pct(latencies, 95),
        "bytes_per_move": air_bytes / max(1, moves),
        "tick_p99_ms": pct(tick_costs, 99),
        "tick_max_ms": max(tick_costs),
    }


def pairing_times(loss: float, count: int) -> list[float]:
    """Seconds from "pair with this unit" to both units holding the key (both players
    confirm as soon as the code shows)."""
    out = []
    for seed in range(count):
        air = Air(impairments(loss, 100 + seed))
        host, guest = air.radio("Ann"), air.radio("Bob")
        host.accept_pairing = True
        start = air.tick
        pairing = guest.start_pairing(host.id)

        def settle(host: Radio = host, guest: Radio = guest) -> bool:
            for radio in (host, guest):
                p = radio.pairing
                if p is not None and p.step is Step.CONFIRM:
                    p.confirm(True)
            return host.id in guest.paired() and guest.id in host.paired()

        air.run(60 * 120, until=settle)
        assert pairing.step is Step.PAIRED
        out.append((air.tick - start) / 60)
    return out


def loss_detection(count: int) -> list[float]:
    """Seconds from the air going silent to both sessions showing "waiting"."""
    out = []
    for seed in range(count):
        with tempfile.TemporaryDirectory() as tmp:
            pair = MachinePair(Path(tmp), impairments(0.0, 200 + seed))
            pair.start()
            pair.run(60 * 3 + seed * 7)
            pair.medium.cut = True
            start = pair.tick

            def waiting(p: MachinePair = pair) -> bool:
                return all(m.dump()["link"]["state"] == "waiting" for m in p.machines)

            pair.run(60 * 30, until=waiting)
            out.append((pair.tick - start) / 60)
    return out


def air_tick_cost(seconds: float) -> dict[str, float]:
    """Wall-clock cost of one radio tick on the real `air://` transport (UDP on loopback):
    two paired radios in this process at 60 Hz, a message each way every half second."""
    import os

    from firmware.link.radio import MemoryKeyring, PairRecord
    from hal.link.serial_link import SerialLink

    url = f"air://bench-{os.getpid()}?delay_ms=20&jitter_ms=10"
    rings = [MemoryKeyring(), MemoryKeyring()]
    key = os.urandom(32)
    rings[0].add(PairRecord(rings[1].unit_id, "B", key))
    rings[1].add(PairRecord(rings[0].unit_id, "A", key))
    links = [SerialLink.open(url), SerialLink.open(url)]
    radios = [Radio(link, ring, name) for link, ring, name in zip(links, rings, "AB", strict=True)]
    costs: list[float] = []
    got = sent = 0
    start = time.monotonic()
    tick = 0
    try:
        while time.monotonic() - start < seconds:
            if tick % 30 == 0:  # the two units take turns, as in a game
                radios[tick % 60 // 30].send(radios[1 - tick % 60 // 30].id, b"A" + bytes(10))
                sent += 1
            for radio in radios:
                t0 = time.perf_counter()
                radio.tick(tick)
                costs.append((time.perf_counter() - t0) * 1000)
                got += len(radio.take_messages())
            tick += 1
            delay = start + tick / 60 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
    finally:
        for link in links:
            link.close()
    return {
        "p50": pct(costs, 50),
        "p99": pct(costs, 99),
        "max": max(costs),
        "messages": got,
        "sent": sent,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--pairings", type=int, default=20)
    args = parser.parse_args()
    pygame.init()
    print("move latency (confirm on one unit -> shown on the other), 9600 baud simulated")
    print(f"{'loss':>5} {'moves':>6} {'median':>8} {'p95':>8} {'B/move':>8} {'tick p99':>9}")
    for loss in (0.0, 0.1, 0.3):
        r = play_games(loss, args.games)
        print(
            f"{loss:5.0%} {r['moves']:6d} {r['median_ms']:6.0f}ms {r['p95_ms']:6.0f}ms"
            f" {r['bytes_per_move']:8.0f} {r['tick_p99_ms']:7.3f}ms"
        )
    for loss in (0.0, 0.1):
        times = pairing_times(loss, args.pairings)
        print(
            f"pairing at {loss:.0%} loss: median {statistics.median(times):.2f} s,"
            f" p95 {pct(times, 95):.2f} s, max {max(times):.2f} s"
        )
    det = loss_detection(10)
    print(f"link-loss detection: median {statistics.median(det):.2f} s, max {max(det):.2f} s")
    cost = air_tick_cost(10.0)
    print(
        f"air:// radio tick (wall clock, 10 s): p50 {cost['p50']:.3f} ms, p99 {cost['p99']:.3f}"
        f" ms, max {cost['max']:.3f} ms; {cost['messages']} of {cost['sent']} messages delivered"
    )


if __name__ == "__main__":
    main()
