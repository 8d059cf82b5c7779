"""Rewind and clips under the `desktop-worker` profile (issue 26): the computer players
search in a worker process and, in real time, a late answer is applied when it arrives. The
tick it was applied at is kept in the rewind history, so every rewound or clipped frame is
the frame that was shown, however late the worker was then or is during the replay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from emulator.app import App
from firmware.cli import build_parser
from firmware.machine import screens_hash
from tests.emulator.test_app import StepClock, key_event
from tests.emulator.test_rewind import MOVIE, shown_hash


@pytest.fixture
def worker_app(tmp_path: Path) -> Iterator[App]:
    store = str(tmp_path / "store.db")
    argv = ["emu", "--store", store, "--scale", "1", "--movie", str(MOVIE)]
    args = build_parser().parse_args([*argv, "--profile", "desktop-worker"])
    pygame.display.init()
    pygame.event.clear()
    app = App(args, clock=StepClock())  # ticks as fast as the CPU goes: the worker lags
    yield app
    app.shutdown()


def play(app: App, passes: int, shown: dict[int, str]) -> None:
    for _ in range(passes):
        app.pass_once()
        shown[app.machine.tick] = shown_hash(app)


def test_rewound_and_clipped_frames_are_the_frames_shown_with_a_late_worker(
    worker_app: App,
) -> None:
    app = worker_app
    shown: dict[int, str] = {}
    play(app, 900, shown)
    landings = app.history.landings
    assert landings, "no computer move was applied in the worker's time"
    assert any(late for _, _, late in landings.values()), "the worker was never late"
    end = app.machine.tick
    # a clip's replay (the whole history) gives every frame that was shown
    replayed = dict(app.history.frames(app.machine, app.input, end - 600, end))
    assert {p: screens_hash(f.top, f.bottom) for p, f in replayed.items()} == {
        p: shown[p] for p in range(end - 600, end + 1)
    }
    # rewinding shows them backwards, and play goes on from the frame rewound to
    pygame.event.post(key_event(pygame.KEYDOWN, "r"))
    back = []
    for _ in range(300):
        app.pass_once()
        back.append((app.rewinder.position, shown_hash(app)))
    assert all(h == shown[p] for p, h in back)
    pygame.event.post(key_event(pygame.KEYUP, "r"))
    app.pass_once()
    assert app.machine.tick == end - 300 + 1
