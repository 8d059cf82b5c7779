"""A scripted Reversi player and two-unit set-ups for link tests and benches: two firmware
units on one simulated radio, each played by a `Robot` that taps the first legal square
whenever it is its turn in a versus game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.scenes.versus import LobbyScene, start_versus
from firmware.testing import scripted_machine
from hal.interfaces import RawInput, RawTouch
from hal.link.air import Impairments
from hal.link.memory import MemoryMedium


class Robot:
    """An input movie written as it goes: taps the first legal square when it is this
    unit's turn in a versus game (and nothing else)."""

    def __init__(self) -> None:
        self.machine: Any = None
        self.tap_until = -1
        self.point: tuple[int, int] | None = None

    def __call__(self, tick: int) -> RawInput:
        m = self.machine
        if self.point is not None and tick <= self.tap_until:
            return RawInput(touch=RawTouch(*self.point))
        self.point = None
        if m is None or tick % 7:
            return RawInput()
        gs = m.game_scene()
        if gs is None or m.scene is not gs:
            return RawInput()
        game = gs.game
        if game.anim is not None or not game.human_to_move():
            return RawInput()
        legal = sorted(game.game.legal())
        if not legal:
            return RawInput()
        rect = game.hotspots()[f"square:{legal[0]}"]
        self.point, self.tap_until = rect.center, tick + 2
        return RawInput(touch=RawTouch(*rect.center))


class MachinePair:
    """Two firmware units on one simulated medium, each played by a `Robot`."""

    def __init__(self, tmp_path: Path, imp: Impairments) -> None:
        self.t = 0.0
        self.medium = MemoryMedium(imp, lambda: self.t)
        self.machines: list[Any] = []
        self.robots: list[Robot] = []
        for name in ("Hana", "Ken"):
            robot = Robot()
            m = scripted_machine(tmp_path / name, robot, link=self.medium.attach(), link_name=name)
            m.to_launcher()  # no boot screen: straight to the launcher
            assert m.link is not None, "a machine booted with a link has its link service"
            m.link.auto_accept = True
            robot.machine = m
            self.machines.append(m)
            self.robots.append(robot)
        self.tick = 0

    def run(self, ticks: int, until: Callable[[], bool] | None = None, draw: bool = False) -> None:
        for _ in range(ticks):
            self.t = self.tick / 60
            for m in self.machines:
                m.step()
                if draw:
                    m.render()
            self.tick += 1
            if until is not None and until():
                return

    def start(self) -> None:
        host, guest = self.machines
        start_versus(host, "host", "reversi", {})
        start_versus(guest, "join", "reversi", {})
        assert isinstance(guest.scene, LobbyScene)
        guest.scene.auto_join = True
        self.run(60 * 60, until=lambda: all(m.game_scene() is not None for m in self.machines))
        assert all(m.game_scene() is not None for m in self.machines)

    def games(self) -> list[Any]:
        return [m.game_scene().game for m in self.machines if m.game_scene() is not None]
