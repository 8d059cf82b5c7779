"""The serial transport over a pty pair: a whole pairing and Reversi game through pyserial;
the one left when the partner's unit is killed finishes against the computer (issue 33)."""

from __future__ import annotations

import os
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pygame

from firmware.boot import BootConfig, boot
from firmware.link.reliable import LOST_TICKS
from firmware.link.session import State
from firmware.scenes.versus import LobbyScene, start_versus
from firmware.storage import Store
from games.reversi.robot import Robot
from hal.backends.headless import headless_hal
from hal.interfaces import ByteLink
from hal.link.serial_link import SerialLink


class MasterLink(ByteLink):
    """The pty's master end as a byte link (the other end is a real pyserial port)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def read(self) -> bytes:
        try:
            return os.read(self.fd, 4096)
        except BlockingIOError:
            return b""


@contextmanager
def pty_units(tmp_path: Path) -> Iterator[list[Any]]:
    """Hana and Ken, each a firmware unit played by a Reversi robot, on the two ends of a
    pty (Ken's through pyserial), Hana hosting and Ken joining."""
    pygame.init()
    master, slave = os.openpty()
    tty.setraw(master)
    port = SerialLink.open(os.ttyname(slave), baud=9600)
    links: list[ByteLink] = [MasterLink(master), port]
    machines = []
    for name, link in zip(("Hana", "Ken"), links, strict=True):
        robot = Robot()
        hal = headless_hal(tmp_path / name, robot)
        hal.link = link
        config = BootConfig(log=False, seed=0, show_boot=False, link_name=name)
        m = boot(hal, config, store=Store.open_in_memory())
        m.link.auto_accept = True
        robot.machine = m
        machines.append(m)
    host, guest = machines
    try:
        start_versus(host, "host", "reversi", {})
        start_versus(guest, "join", "reversi", {})
        assert isinstance(guest.scene, LobbyScene)
        guest.scene.auto_join = True
        yield machines
    finally:
        port.close()
        os.close(master)
        os.close(slave)


def test_a_pairing_and_a_whole_game_over_a_pty(tmp_path: Path) -> None:
    with pty_units(tmp_path) as machines:
        host, guest = machines
        for _ in range(60 * 600):
            for m in machines:
                m.step()
            games = [m.game_scene() for m in machines]
            if all(g is not None and g.game.reported for g in games):
                break
        a, b = (m.game_scene().game for m in machines)
        assert a.game.over and a.game.moves == b.game.moves
        assert host.link.radio.id in guest.link.radio.paired()
        assert host.link.session.state is State.OVER and guest.link.session.agreed


def test_the_one_left_of_two_finishes_against_the_computer_over_a_pty(tmp_path: Path) -> None:
    """Issue 33, item 4: Ken's unit is killed mid-game (it stops dead: no goodbye); Hana's
    waits the grace period with the time left shown, is offered to finish alone or leave,
    finishes against the computer, and its record names Ken and then the computer."""
    with pty_units(tmp_path) as machines:
        host = machines[0]

        def moves() -> int:
            scene = host.game_scene()
            return len(scene.game.game.moves) if scene is not None else 0

        for _ in range(60 * 300):
            for m in machines:
                m.step()
            if moves() >= 4:
                break
        assert moves() >= 4
        host.link.session.grace_ticks = 120
        for _ in range(LOST_TICKS + 120):  # Ken's unit is not stepped from now on
            host.step()
            if host.scene.name == "waiting":
                break
        assert host.scene.name == "waiting" and host.scene.dump()["time_left"] <= 120
        for _ in range(240):
            host.step()
            if host.scene.name == "alone":
                break
        assert host.scene.name == "alone" and host.scene.message == "The link to Ken is lost."
        host.scene.finish()
        for _ in range(60 * 300):
            host.step()
            if host.store.list_records("reversi"):
                break
        record = host.store.list_records("reversi")[0].record
        assert record["seat_parts"]["1"][0] == ["Ken", 0]
        assert record["seat_parts"]["1"][-1][0] == "computer"
        assert host.game_scene().game.game.over and host.link.session.alone
