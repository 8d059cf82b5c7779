"""The serial transport over a pty pair: a whole pairing and Reversi game through pyserial."""

from __future__ import annotations

import os
import tty

import pygame

from firmware.boot import BootConfig, boot
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


def test_a_pairing_and_a_whole_game_over_a_pty(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pygame.init()
    master, slave = os.openpty()
    tty.setraw(master)
    port = SerialLink.open(os.ttyname(slave), baud=9600)
    links: list[ByteLink] = [MasterLink(master), port]
    machines = []
    robots = []
    for name, link in zip(("Hana", "Ken"), links, strict=True):
        robot = Robot()
        hal = headless_hal(tmp_path / name, robot)
        hal.link = link
        config = BootConfig(log=False, seed=0, show_boot=False, link_name=name)
        m = boot(hal, config, store=Store.open_in_memory())
        m.link.auto_accept = True
        robot.machine = m
        machines.append(m)
        robots.append(robot)
    host, guest = machines
    try:
        start_versus(host, "host", "reversi", {})
        start_versus(guest, "join", "reversi", {})
        assert isinstance(guest.scene, LobbyScene)
        guest.scene.auto_join = True
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
    finally:
        port.close()
        os.close(master)
        os.close(slave)
