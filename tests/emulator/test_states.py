"""State slots (issue 26): a load can be undone exactly; slots carry a thumbnail and the time,
shown in the slot picker."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from emulator.app import App
from emulator.states import THUMB_SIZE, read_slot
from firmware.cli import build_parser
from tests.emulator.test_app import StepClock, key_event, run
from tests.emulator.test_rewind import reference_hashes

ROOT = Path(__file__).resolve().parents[2]
MOVIE = ROOT / "docs" / "movies" / "sevens-play.txt"


@pytest.fixture
def movie_app(tmp_path: Path) -> Iterator[App]:
    store = str(tmp_path / "store.db")
    args = build_parser().parse_args(
        ["emu", "--store", store, "--scale", "1", "--movie", str(MOVIE), "--profile", "desktop"]
    )
    pygame.display.init()
    pygame.event.clear()
    app = App(args, clock=StepClock())
    yield app
    app.shutdown()


def rendered(app: App) -> str:
    app.machine.render()
    return app.machine.frame_hash()


def test_undo_of_a_state_load_restores_the_exact_machine(movie_app: App, tmp_path: Path) -> None:
    app = movie_app
    run(app, 300)
    assert app.save_state(1)
    run(app, 400)
    tick, frame, dump = app.machine.tick, rendered(app), app.machine.dump()
    assert app.load_state(1)
    assert app.machine.dump()["game"] != dump["game"]  # the game went back to the slot
    assert "undoes" in app.display.status
    pygame.event.post(key_event(pygame.KEYDOWN, "z", pygame.KMOD_LCTRL))
    pygame.event.post(key_event(pygame.KEYUP, "z", pygame.KMOD_LCTRL))
    app.process_events()
    assert "undone" in app.display.status
    assert app.machine.tick == tick
    assert rendered(app) == frame
    assert app.machine.dump() == dump
    # and it plays on exactly as if the load had never happened
    ref = reference_hashes(tmp_path / "ref", tick + 120)
    for _ in range(120):
        app.pass_once()
        assert rendered(app) == ref[app.machine.tick]
    assert not app.undo_load_state() and "no state load" in app.display.status


def test_a_slot_has_a_thumbnail_and_the_time_and_the_picker_shows_it(
    movie_app: App, tmp_path: Path
) -> None:
    app = movie_app
    run(app, 200)
    assert app.save_state(2)
    slot = read_slot(app.slot_path(2), 2)
    assert not slot.empty and slot.game == "sevens" and slot.tick == 200
    assert slot.saved_at[:4].isdigit() and "T" in slot.saved_at
    assert slot.thumb is not None and slot.thumb.get_size() == THUMB_SIZE
    # the thumbnail is the screens, halved: its top-left pixel is the top screen's
    top = app.machine.top.get_at((0, 0))
    assert tuple(slot.thumb.get_at((0, 0)))[:3] == tuple(top)[:3]
    app.slot_path(3).parent.mkdir(exist_ok=True)
    app.slot_path(3).write_text(json.dumps({"format": "other"}))
    pygame.event.post(key_event(pygame.KEYDOWN, "o", pygame.KMOD_LCTRL))
    pygame.event.post(key_event(pygame.KEYUP, "o", pygame.KMOD_LCTRL))
    app.pass_once()
    assert app.loop.paused and app.display.picker is not None
    slots, _ = app.display.picker
    assert [s if isinstance(s, str) else s.empty for s in slots] == [
        True,
        False,
        "not a Twinfold state slot",
        True,
    ]
    tick = app.machine.tick
    run(app, 5)
    assert app.machine.tick == tick  # the game waits while the picker is open
    pygame.image.save(app.display.window_pixels(), str(tmp_path / "picker.png"))
    assert app.load_state(2)  # loading from the picker closes it and plays on
    assert app.display.picker is None and not app.loop.paused
