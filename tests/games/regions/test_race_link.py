"""The race over the real link stack: two firmware instances on simulated lossy air."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from firmware.scenes.versus import LobbyScene, start_versus
from firmware.testing import scripted_machine
from hal.interfaces import RawInput, RawTouch
from hal.link.air import Impairments
from hal.link.memory import MemoryMedium


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


class MachinePair:
    """Two firmware units on one simulated medium, each driven by its own input script."""

    def __init__(self, tmp_path: Path, imp: Impairments, scripts: list[Any]) -> None:
        self.t = 0.0
        self.medium = MemoryMedium(imp, lambda: self.t)
        self.machines: list[Any] = []
        for name, script in zip(("Hana", "Ken"), scripts, strict=True):
            m = scripted_machine(tmp_path / name, script, link=self.medium.attach(), link_name=name)
            m.to_launcher()  # no boot screen: straight to the launcher
            m.link.auto_accept = True
            script.machine = m
            self.machines.append(m)
        self.tick = 0

    def run(self, ticks: int, until: Callable[[], bool] | None = None) -> None:
        for _ in range(ticks):
            self.t = self.tick / 60
            for m in self.machines:
                m.step()
            self.tick += 1
            if until is not None and until():
                return


class Solver:
    """Taps the points of a shortest solution, one every `pause` ticks."""

    def __init__(self, pause: int) -> None:
        self.pause = pause
        self.machine: Any = None
        self.until = -1
        self.point: tuple[int, int] | None = None
        self.next = 0

    def __call__(self, tick: int) -> RawInput:
        if self.point is not None and tick <= self.until:
            return RawInput(touch=RawTouch(*self.point))
        self.point = None
        m = self.machine
        gs = None if m is None else m.game_scene()
        if gs is None or m.scene is not gs or tick < self.next:
            return RawInput()
        game = gs.game
        if game.phase != "play" or game.queued:
            return RawInput()
        sol = game.solution()
        if not sol:
            return RawInput()
        x, y = game.chosen.drawing.points[sol[0]]
        self.point, self.until, self.next = (round(x), round(y)), tick + 2, tick + self.pause
        return RawInput(touch=RawTouch(*self.point))


def test_two_units_race_over_lossy_air_and_agree_on_the_winner(tmp_path) -> None:  # type: ignore[no-untyped-def]
    imp = Impairments(baud=9600, loss=0.1, corrupt=0.002, dup=0.01, delay_ms=20, jitter_ms=10,
                      seed=7)
    solvers = [Solver(90), Solver(20)]  # the guest is much quicker
    pair = MachinePair(tmp_path, imp, solvers)
    host, guest = pair.machines
    start_versus(host, "host", "regions", {"surface": "8_18", "pattern": "1"})  # 4 to clear
    start_versus(guest, "join", "regions", {})
    assert isinstance(guest.scene, LobbyScene)
    guest.scene.auto_join = True
    pair.run(60 * 60, until=lambda: all(m.game_scene() is not None for m in pair.machines))
    pair.run(12)  # the surface loads (the same on both units), play begins
    a, b = (m.dump()["game"] for m in pair.machines)
    assert a["phase"] == b["phase"] == "play"
    setups = [m.game_scene().game.match.rules.setup for m in pair.machines]
    assert setups[0] == setups[1] and setups[0].pattern == 1  # one puzzle, both units
    assert a["points"] == b["points"]
    assert (a["seat"], b["seat"]) == (0, 1) and a["surface"] == {"catalogue": "8_18"}
    pair.run(60 * 300, until=lambda: all(m.game_scene().game.reported for m in pair.machines))
    a, b = (m.dump()["game"] for m in pair.machines)
    assert a["winner"] == b["winner"] == 1
    assert b["solved"] and not a["solved"] and a["partner"]["left"] == 0
    turns = [m.game_scene().game.match.rules.turns for m in pair.machines]
    assert turns[0] == turns[1] >= 2 * b["selections"]  # every turn went over the air
    ra = host.store.list_records("regions")[0].record
    rb = guest.store.list_records("regions")[0].record
    assert (ra["outcome"], rb["outcome"]) == ("loss", "win")


def test_the_one_left_finishes_the_puzzle_alone(tmp_path: Path) -> None:
    """Issue 33, item 4: Ken's unit switches off at the start of the race; Hana is told Ken
    left, chooses to finish alone, solves the puzzle (Ken's turns wait) and wins; the record
    says Ken's side was nobody's from then on (the stand-in named "computer")."""
    pair = MachinePair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=8),
                       [Solver(20), Solver(20)])
    host, guest = pair.machines
    start_versus(host, "host", "regions", {"surface": "8_18", "pattern": "1"})
    start_versus(guest, "join", "regions", {})
    guest.scene.auto_join = True
    pair.run(60 * 60, until=lambda: all(m.game_scene() is not None for m in pair.machines))
    pair.machines.remove(guest)  # switched off: only its goodbye goes out
    guest.link.shutdown(wait=lambda: pair.run(1))
    pair.run(60 * 10, until=lambda: host.scene.name == "alone")
    assert host.scene.name == "alone" and host.scene.message == "Ken left the game."
    host.scene.finish()
    pair.run(60 * 120, until=lambda: host.game_scene().game.reported)
    record = host.store.list_records("regions")[0].record
    assert record["outcome"] == "win"
    assert record["seat_parts"]["1"][0] == ["Ken", 0]
    assert record["seat_parts"]["1"][-1][0] == "computer"
