"""Killing Sevens over the link: three units and one computer seat on a lossy in-memory
medium play a whole game by taps to identical tables and rankings on every unit."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pygame
import pytest
from sevens_driver import remember

from firmware.link.session import Session
from firmware.link.testbed import Air, prepaired
from firmware.testing import scripted_machine
from hal.interfaces import RawInput, RawTouch
from hal.link.air import Impairments


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


class Tapper:
    """A person at one unit: two taps on a random playable card, or pass, on their turn."""

    def __init__(self, seed: int) -> None:
        self.machine: Any = None
        self.rng = random.Random(seed)
        self.queue: list[tuple[int, int] | None] = []

    def __call__(self, tick: int) -> RawInput:
        if self.queue:
            point = self.queue.pop(0)
            return RawInput(touch=RawTouch(*point)) if point else RawInput()
        m = self.machine
        gs = m.game_scene() if m is not None else None
        if gs is None or gs.game.anim is not None or not gs.game.human_to_move():
            return RawInput()
        spots = gs.game.hotspots()
        cards = [
            n
            for n in spots
            if n.startswith("card:") and n[5:] in {c for c in m.dump()["game"]["playable"]}
        ]
        name = self.rng.choice(sorted(cards)) if cards else "button:pass"
        point = spots[name].center
        taps = 2 if cards else 1
        self.queue = ([point] * 2 + [None] * 2) * taps
        return RawInput()


def test_three_units_and_a_computer_finish_one_game_alike(tmp_path: Path) -> None:
    air = Air(Impairments(baud=9600, loss=0.1, corrupt=0.002, delay_ms=20, jitter_ms=10, seed=5))
    radios = prepaired(air, "Host", "G1", "G2")
    sessions = [Session(r) for r in radios]
    options = {"max_kill": "9", "three_walls": "off", "sevens_first": "last", "extra_turn": "on"}
    sessions[0].host_game("sevens", options, seats=3)
    for s in sessions[1:]:
        s.look("sevens")

    def tick_sessions() -> None:
        for s in sessions:
            s.tick()

    air.run(300, until=lambda: (tick_sessions(), all(s.hosts() for s in sessions[1:]))[1])
    for s in sessions[1:]:
        assert s.join(radios[0].id)
    air.run(1200, until=lambda: (tick_sessions(), all(s.ready for s in sessions))[1])
    machines = []
    for i, session in enumerate(sessions):
        remember(tmp_path / str(i), bubbles="fast", hints=True)
        tapper = Tapper(i)
        m = scripted_machine(tmp_path / str(i), tapper)
        m.start_game("sevens", dict(session.options), versus=session)
        tapper.machine = m
        machines.append(m)
    for _ in range(60 * 900):
        air.run(1)
        tick_sessions()
        for m in machines:
            m.step()
        if all(m.dump()["game"]["phase"] == "over" for m in machines):
            break
    dumps = [m.dump()["game"] for m in machines]
    assert all(d["phase"] == "over" and d["mode"] == "link" for d in dumps)
    assert len({str(d["table"]) for d in dumps}) == 1
    assert len({str(d["ranking"]) for d in dumps}) == 1
    assert sorted(d["seat"] for d in dumps) == [0, 1, 2]
    assert all(d["members"][3] == "coward" for d in dumps)  # seat 4's first-time computer
    assert all(s.divergences == 0 for s in sessions)
