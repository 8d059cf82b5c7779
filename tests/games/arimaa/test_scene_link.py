"""Arimaa over the peer link (issue 13, `link` mode): two firmware instances on a lossy
in-memory medium play a whole game, each unit's player entering turns by taps, and both
end with the same record."""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path
from typing import Any

import pygame
import pytest

from firmware.link.session import State
from firmware.scenes.versus import LobbyScene, start_versus
from firmware.testing import scripted_machine
from games.arimaa.ai.goal import find_goal
from games.arimaa.rules.board import square_name
from games.arimaa.rules.randomplay import random_turn
from hal.interfaces import RawInput, RawTouch
from hal.link.air import Impairments
from hal.link.memory import MemoryMedium


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


class ArimaaRobot:
    """This unit's player: on its own turn, taps OK in setup, or a random legal turn (a goal
    when there is one) step by step and Done; taps go through the firmware like a stylus."""

    def __init__(self, seed: int) -> None:
        self.machine: Any = None
        self.rng = random.Random(seed)
        self.queue: deque[str] = deque()
        self.point: tuple[int, int] | None = None
        self.until = -1
        self.turns = 0
        self.idle = False  # a player who lets the clock run
        self.resigns = False  # a player who resigns on its first turn of play

    def __call__(self, tick: int) -> RawInput:
        if self.point is not None and tick <= self.until:
            return RawInput(touch=RawTouch(*self.point))
        if self.point is not None and tick <= self.until + 3:
            return RawInput()
        self.point = None
        m = self.machine
        gs = m.game_scene() if m is not None else None
        if gs is None or m.scene is not gs:
            return RawInput()
        scene = gs.game
        if not self.queue:
            if self.idle or not scene.local_to_move() or scene.phase == "over":
                return RawInput()
            self.plan(scene)
        name = self.queue.popleft()
        rect = scene.hotspots().get(name)
        if rect is None:
            self.queue.clear()
            return RawInput()
        self.point, self.until = rect.center, tick + 2
        return RawInput(touch=RawTouch(*rect.center))

    def plan(self, scene: Any) -> None:
        if scene.phase == "setup":
            self.queue.extend(["choice:random", "button:ok"])
            return
        if self.resigns:
            self.queue.extend(["button:resign", "button:resign"])  # arm, then confirm
            return
        game = scene.game
        goal = find_goal(game.position.boards, game.position.side)
        if goal:
            steps = goal
        else:
            twin = game.copy()
            random_turn(twin, self.rng)
            steps = [(s.frm, s.to) for s in twin.turns[-1]]
        for frm, to in steps:
            self.queue.extend([f"square:{square_name(frm)}", f"square:{square_name(to)}"])
        self.queue.append("button:done")
        self.turns += 1


def pair(tmp_path: Path, options: dict[str, str]) -> tuple[list[Any], list[ArimaaRobot], Any]:
    """Two units on lossy air, paired, in an Arimaa versus game with the host's options."""
    imp = Impairments(
        baud=9600, loss=0.1, corrupt=0.002, dup=0.01, delay_ms=20, jitter_ms=10, seed=11
    )
    clock = [0.0]
    medium = MemoryMedium(imp, lambda: clock[0])
    machines, robots = [], []
    for n, name in enumerate(("Hana", "Ken")):
        robot = ArimaaRobot(n)
        m = scripted_machine(tmp_path / name, robot, link=medium.attach(), link_name=name)
        m.to_launcher()
        m.link.auto_accept = True
        robot.machine = m
        machines.append(m)
        robots.append(robot)
    host, guest = machines
    start_versus(host, "host", "arimaa", options)
    start_versus(guest, "join", "arimaa", {})
    assert isinstance(guest.scene, LobbyScene)
    guest.scene.auto_join = True

    def run(ticks: int, until: Any) -> None:
        for _ in range(ticks):
            clock[0] += 1 / 60
            for m in machines:
                m.step()
            if until():
                return

    run(60 * 60, lambda: all(m.game_scene() is not None for m in machines))
    return machines, robots, run


def test_two_units_play_a_whole_game_over_lossy_air_to_the_same_record(tmp_path: Path) -> None:
    machines, robots, run = pair(tmp_path, {"clock": "0:30/5/100/3/0/0"})
    host, guest = machines
    games = [m.game_scene().game for m in machines]
    assert [g.mode for g in games] == ["link", "link"]
    assert {g.human_side for g in games} == {0, 1}
    assert {m.dump()["game"]["seat"] for m in machines} == {"g", "s"}
    run(60 * 60 * 30, lambda: all(g.reported for g in games))
    a, b = games
    assert a.phase == b.phase == "over"
    assert a.dump()["record"] == b.dump()["record"] and len(a.dump()["record"]) > 6
    assert a.rules.digest() == b.rules.digest()
    assert a.game.clock is not None and b.game.clock is not None
    assert a.game.clock.reserves == b.game.clock.reserves
    ra, rb = host.store.list_records("arimaa"), guest.store.list_records("arimaa")
    assert len(ra) == len(rb) == 1 and ra[0].record["record"] == rb[0].record["record"]
    assert {ra[0].record["outcome"], rb[0].record["outcome"]} == {"win", "loss"}
    run(60 * 20, lambda: all(m.link.session.state is State.OVER for m in machines))
    assert host.link.session.state is State.OVER and host.link.session.agreed
    assert sum(r.turns for r in robots) == len(a.game.turns)
    assert a.match.divergences == b.match.divergences == 0


def test_the_movers_own_unit_declares_its_time_out(tmp_path: Path) -> None:
    machines, robots, run = pair(tmp_path, {"clock": "30s", "setup": "default"})
    games = [m.game_scene().game for m in machines]
    silver = next(i for i, g in enumerate(games) if g.human_side == 1)
    robots[silver].idle = True  # Silver lets 30 s pass on its first turn
    run(60 * 120, lambda: all(g.reported for g in games))
    for g in games:
        assert g.phase == "over" and g.game.result is not None
        assert g.game.result.reason == "time" and g.game.result.winner == 0
    flagged = [p.seat for p in games[silver].match.history][-1]
    assert flagged == 1  # the flag came from Silver's own seat


def test_each_unit_records_the_result_once_and_only_once_every_unit_agrees(
    tmp_path: Path,
) -> None:
    """Rule G8: the unit whose player ends the match (here Gold resigns) knows the end
    first, yet records it only once the session has `agreed` (both units sent the same
    final digest); then each unit records it exactly once."""
    machines, robots, run = pair(tmp_path, {"clock": "0:30/5/100/3/0/0", "setup": "default"})
    games = [m.game_scene().game for m in machines]
    gold = next(i for i, g in enumerate(games) if g.human_side == 0)
    robots[gold].resigns = True
    early: set[int] = set()  # units that recorded before their session agreed
    ended_unagreed: set[int] = set()  # units seen with the match over, not yet agreed

    def watch() -> bool:
        for n, (m, g) in enumerate(zip(machines, games, strict=True)):
            if g.match.over and not m.link.session.agreed:
                ended_unagreed.add(n)
            if g.reported and not m.link.session.agreed:
                early.add(n)
        return all(g.reported for g in games)

    run(60 * 120, watch)
    assert all(g.reported for g in games) and early == set()
    assert gold in ended_unagreed  # the resigning unit did wait for the partner's digest
    for g in games:
        assert g.game.result is not None and g.game.result.reason == "resignation"
    run(60 * 5, lambda: False)  # more ticks after the end record nothing more
    for m, g in zip(machines, games, strict=True):
        records = m.store.list_records("arimaa")
        assert len(records) == 1 and m.store.get_stats("arimaa")["played"] == 1
        assert records[0].record["outcome"] == ("loss" if g.human_side == 0 else "win")
