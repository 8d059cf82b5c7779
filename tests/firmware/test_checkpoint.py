"""Machine checkpoints (firmware/checkpoint.py): restored, the machine shows exactly the
frames it showed after the checkpoint the first time, whatever was running (menus, a
computer thinking in-loop or in a worker process, surfaces the scenes keep)."""

from __future__ import annotations

import gc
from pathlib import Path

import pygame
import pytest

from firmware.checkpoint import SurfacePool, capture, restore
from firmware.machine import Machine
from firmware.match.profiles import PROFILES
from firmware.match.seats import ComputerSeat
from firmware.testing import machine_from_movie

ROOT = Path(__file__).resolve().parents[2]


def sevens(tmp: Path, profile: str) -> Machine:
    text = (ROOT / "docs" / "movies" / "sevens-play.txt").read_text()
    options = {"seat1": "cool", "seat2": "hitman", "seat3": "coward"}
    return machine_from_movie(
        tmp, text, game="sevens", seed=3, options=options, profile=PROFILES[profile]
    )


def frames(machine: Machine, n: int) -> list[str]:
    out = []
    for _ in range(n):
        machine.step()
        machine.render()
        out.append(machine.frame_hash())
    return out


@pytest.mark.parametrize("profile", ["desktop", "desktop-worker"])
def test_a_restored_checkpoint_replays_the_same_frames(tmp_path: Path, profile: str) -> None:
    machine = sevens(tmp_path, profile)
    frames(machine, 480)  # a computer is deciding its card
    if profile == "desktop-worker":  # in its worker process: the copy must ask it again
        gc.unfreeze()
        seats = [o for o in gc.get_objects() if isinstance(o, ComputerSeat)]
        assert any(s.use_worker and s.thinking and s.decided is None for s in seats)
    checkpoint = capture(machine)
    first = frames(machine, 400)
    assert len(set(first)) > 5  # the game moved
    restore(machine, checkpoint)
    assert machine.tick == checkpoint.tick
    assert frames(machine, 400) == first
    restore(machine, checkpoint)  # a checkpoint can be restored again
    assert frames(machine, 400) == first
    machine.store.close()


def test_the_pause_menu_and_input_edges_come_back(tmp_path: Path) -> None:
    from firmware.scenes.pause import PauseScene

    machine = sevens(tmp_path, "desktop")
    frames(machine, 100)
    game = machine.game_scene()
    machine.push(PauseScene(machine, game))
    checkpoint = capture(machine)
    machine.to_launcher()
    restore(machine, checkpoint)
    assert isinstance(machine.scene, PauseScene)
    assert machine.scene.machine is machine  # shared, not copied
    assert machine.hal is not None and machine.store is not None
    machine.store.close()


def test_surfaces_are_packed_once_and_restored_by_value(tmp_path: Path) -> None:
    machine = sevens(tmp_path, "desktop")
    frames(machine, 10)
    canvas = pygame.Surface((16, 16), pygame.SRCALPHA)
    canvas.fill((1, 2, 3, 4))
    machine.scene.canvas = canvas  # type: ignore[attr-defined]
    pool = SurfacePool()
    one = capture(machine, pool)
    two = capture(machine, pool)
    assert [id(p) for p in one.packed] == [id(p) for p in two.packed]  # equal pixels: shared
    canvas.fill((9, 9, 9, 9))  # the scene draws on it later
    restore(machine, one)
    restored = machine.scene.canvas  # type: ignore[attr-defined]
    assert restored is not canvas
    assert tuple(restored.get_at((5, 5))) == (1, 2, 3, 4)
    assert restored.get_flags() & pygame.SRCALPHA
    machine.store.close()
