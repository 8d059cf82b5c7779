"""Two firmware instances, each driven by its own input movie, play a whole Reversi game
over a lossy in-memory medium: the same final board, records and results on both."""

from __future__ import annotations

from pathlib import Path

import pygame

from firmware.scenes.versus import LobbyScene, start_versus
from firmware.testing import machine_from_movie
from games.reversi.scene import layout
from hal.link.air import Impairments
from hal.link.memory import MemoryMedium

# The shortest complete game: Black wipes White out in nine plies.
GAME = ["c4", "c3", "c2", "b4", "a5", "f4", "g4", "c5", "d6"]
BASE = 300  # five seconds to pair and agree on the start
SLOT = 150  # one ply per 2.5 s: room for retransmissions at 10% loss


def movie(colour: int) -> str:
    """Taps for this colour's plies, repeated through each ply's slot (a tap while the
    partner is to move, or on an occupied square, changes nothing)."""
    lines = ["# twinfold movie 1"]
    for index, square in enumerate(GAME):
        if index % 2 != colour:
            continue
        x, y = layout.SQUARE_RECTS[square].center
        for k in range(0, SLOT - 20, 10):
            lines.append(f"{BASE + index * SLOT + k} tap {x} {y}")
    return "\n".join(lines) + "\n"


def test_movies_drive_a_whole_game_to_the_same_end(tmp_path: Path) -> None:
    pygame.init()
    clock = {"t": 0.0}
    imp = Impairments(
        baud=9600, loss=0.1, corrupt=0.002, dup=0.01, delay_ms=20, jitter_ms=10, seed=21
    )
    medium = MemoryMedium(imp, lambda: clock["t"])
    machines = []
    for colour, name in enumerate(("Hana", "Ken")):
        m = machine_from_movie(tmp_path / name, movie(colour), link=medium.attach(), link_name=name)
        m.to_launcher()
        m.link.auto_accept = True
        machines.append(m)
    host, guest = machines
    start_versus(host, "host", "reversi", {})
    start_versus(guest, "join", "reversi", {})
    assert isinstance(guest.scene, LobbyScene)
    guest.scene.auto_join = True
    for tick in range(BASE + SLOT * len(GAME) + 300):
        clock["t"] = tick / 60
        for m in machines:
            m.step()
    dumps = [m.dump() for m in machines]
    assert [d["game"]["moves"] for d in dumps] == [GAME, GAME]
    assert dumps[0]["game"]["board"] == dumps[1]["game"]["board"]
    assert [d["game"]["seat"] for d in dumps] == ["black", "white"]
    records = [m.store.list_records("reversi") for m in machines]
    assert len(records[0]) == len(records[1]) == 1
    ra, rb = records[0][0].record, records[1][0].record
    assert ra["game"] == rb["game"] and ra["result"] == rb["result"]
    assert ra["players"] == rb["players"] == {"black": "Hana", "white": "Ken"}
    assert (ra["outcome"], rb["outcome"]) == ("win", "loss")  # Black wiped White out
    assert host.store.get_stats("reversi")["wins"] == 1
    assert guest.store.get_stats("reversi")["losses"] == 1
