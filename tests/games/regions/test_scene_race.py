"""The race (`link` mode) in the scene, with two firmware instances joined by a stand-in for
the link session (same seat/seed/make_seats/attach/agreed interface as the link stack's
`Session`): a delayed, reordering-free but lossy-with-retransmission pipe. The real link
stack is not on this branch; see docs/games/regions.md."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from firmware.game_api import GameContext
from firmware.match import LocalSeat, Match, Played, RemoteSeat, Seat
from firmware.testing import machine_from_movie, run, tap_script
from hal.interfaces import RawInput


class Pipe:
    """In-order delivery with random delays; a lost frame is sent again later, holding up
    everything behind it (what a reliable link over a lossy medium looks like above it)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.queue: list[tuple[int, bytes, str]] = []
        self.now = 0

    def send(self, data: bytes, digest: str) -> None:
        due = self.now + self.rng.randrange(2, 6)
        if self.rng.random() < 0.3:  # lost, retransmitted after a timeout
            due += 20
        if self.queue:
            due = max(due, self.queue[-1][0])
        self.queue.append((due, data, digest))

    def arrivals(self) -> list[tuple[bytes, str]]:
        self.now += 1
        out = []
        while self.queue and self.queue[0][0] <= self.now:
            _due, data, digest = self.queue.pop(0)
            out.append((data, digest))
        return out


class StandInSession:
    def __init__(self, seat: int, seed: int, outgoing: Pipe, incoming: Pipe) -> None:
        self.seat, self.seed = seat, seed
        self.outgoing, self.incoming = outgoing, incoming
        self.agreed = False
        self.match: Match[Any] | None = None
        self.remote: RemoteSeat[Any] = RemoteSeat()

    def make_seats(self) -> list[Seat[Any]]:
        self.remote = RemoteSeat()
        local: LocalSeat[Any] = LocalSeat()
        return [local, self.remote] if self.seat == 0 else [self.remote, local]

    def attach(self, match: Match[Any], dealer: Any = None, computer: Any = None) -> None:
        self.match = match
        match.listeners.append(self._on_played)

    def _on_played(self, played: Played, _events: list[Any]) -> None:
        if played.seat == self.seat:
            self.outgoing.send(played.data, played.digest)

    def tick(self) -> None:
        for data, digest in self.incoming.arrivals():
            self.remote.deliver(data, digest)

    def partner_name(self) -> str:
        return "unit-" + "AB"[1 - self.seat]


def race_units(
    tmp: Path, seed: int, **options: str
) -> tuple[Any, Any, StandInSession, StandInSession]:
    rng = random.Random(seed)
    a_to_b, b_to_a = Pipe(rng), Pipe(rng)
    sessions = (StandInSession(0, 777, a_to_b, b_to_a), StandInSession(1, 777, b_to_a, a_to_b))
    machines = []
    for seat, session in enumerate(sessions):
        m = machine_from_movie(tmp / str(seat), game="regions", seed=seat, options=options)
        gs = m.game_scene()
        # what the link stack's versus start does: the shared seed, the session in ctx
        ctx = GameContext(m, gs.cartridge, dict(gs.ctx.options), session.seed)
        ctx.versus = session
        gs.ctx, gs.game = ctx, gs.cartridge.create(ctx)
        machines.append(m)
    return machines[0], machines[1], sessions[0], sessions[1]


def test_two_units_race_and_the_first_to_clear_wins_on_both(tmp_path):
    m0, m1, s0, s1 = race_units(tmp_path, 5, surface="6_2", pattern="random", variant="classic")
    units = [(m0, s0), (m1, s1)]

    def frame() -> None:
        for m, s in units:
            s.tick()
            run(m, 1, draw=False)
        both_over = all(s.match is not None and s.match.over for _m, s in units)
        if both_over and s0.match.rules.digest() == s1.match.rules.digest():
            s0.agreed = s1.agreed = True

    for _ in range(20):  # the surface loads behind the working animation on both
        frame()
    g0, g1 = m0.dump()["game"], m1.dump()["game"]
    assert g0["phase"] == g1["phase"] == "play"
    assert g0["states"] == g1["states"] and g0["points"] == g1["points"] and g0["seat"] == 0
    solution = m0.game_scene().game.solution()
    pause = {0: 45, 1: 12}  # player 1 is quicker
    plan = {0: list(solution), 1: list(solution)}
    next_tap = {0: 20, 1: 20}
    for t in range(4000):
        for seat, (m, _s) in enumerate(units):
            if plan[seat] and t == next_tap[seat]:
                p = m.dump()["game"]["points"][plan[seat].pop(0)]
                m.hal.input.script = tap_script({m.tick: (p["x"], p["y"])})
                next_tap[seat] = t + pause[seat]
            elif t == next_tap[seat] + 4:
                m.hal.input.script = lambda tick: RawInput()
        frame()
        if all(m.game_scene().game.reported for m, _s in units):
            break
    g0, g1 = m0.dump()["game"], m1.dump()["game"]
    assert g0["phase"] == g1["phase"] == "clear"
    assert g0["winner"] == g1["winner"] == 1
    assert g1["solved"] and not g0["solved"]
    assert g0["partner"]["selections"] == g1["selections"] == len(solution)
    r0 = m0.store.list_records("regions")[0].record
    r1 = m1.store.list_records("regions")[0].record
    assert (r0["outcome"], r1["outcome"]) == ("loss", "win")
    assert r0["race"]["winner"] == r1["race"]["winner"] == 1
    assert set(m0.dump()["hotspots"]) == {"choice:quit"}
