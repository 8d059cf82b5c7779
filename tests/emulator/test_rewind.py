"""Rewind (issue 26): held, the game runs backwards frame by frame; released, it plays on, and
every frame equals the frame a plain replay of the same movie shows at that position."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from emulator.app import App
from emulator.clip import movie_machine
from firmware.cli import build_parser
from firmware.machine import Machine, screens_hash
from tests.emulator.test_app import StepClock, key_event, make_app, run

ROOT = Path(__file__).resolve().parents[2]
# A game against three computer players: cards dealt from the seed, moves searched in-loop.
MOVIE = ROOT / "docs" / "movies" / "sevens-play.txt"


def reference_hashes(tmp: Path, frames: int) -> list[str]:
    """frame_hash after k ticks (k = 0..frames) of a plain headless replay of MOVIE."""
    machine = movie_machine(MOVIE, tmp, profile="desktop")
    hashes = [rendered_hash(machine)]
    for _ in range(frames):
        machine.step()
        hashes.append(rendered_hash(machine))
    machine.store.close()
    return hashes


def rendered_hash(machine: Machine) -> str:
    machine.render()
    return machine.frame_hash()


def shown_hash(app: App) -> str:
    """The hash of what the window's panels show (unswapped: upper = top)."""
    return screens_hash(app.display.upper, app.display.lower)


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


def test_rewind_then_play_on_gives_the_frames_of_a_plain_replay(
    movie_app: App, tmp_path: Path
) -> None:
    app = movie_app
    played, back, on = 700, 150, 200
    ref = reference_hashes(tmp_path / "ref", played + on)
    run(app, played)
    assert app.machine.tick == played
    assert app.machine.frame_hash() == ref[played]
    pygame.event.post(key_event(pygame.KEYDOWN, "r"))
    shown = []
    for _ in range(back):
        app.pass_once()
        assert app.rewinder.active
        shown.append((app.rewinder.position, shown_hash(app)))
    # backwards, one frame per tick, each the replay's frame at that position
    assert [p for p, _ in shown] == list(range(played - 1, played - back - 1, -1))
    assert all(h == ref[p] for p, h in shown)
    assert "rewinding" in app.display.status
    pygame.event.post(key_event(pygame.KEYUP, "r"))
    app.pass_once()  # released: the machine is put at the frame shown, then one tick runs
    assert not app.rewinder.active
    assert app.machine.tick == played - back + 1
    for _ in range(on):
        assert app.machine.frame_hash() == ref[app.machine.tick]
        app.pass_once()
    assert app.machine.tick == played - back + 1 + on


def test_rewind_stops_at_the_start_of_the_history(movie_app: App) -> None:
    app = movie_app
    run(app, 40)
    oldest = app.history.oldest
    assert oldest == 0
    pygame.event.post(key_event(pygame.KEYDOWN, "r"))
    run(app, 60)
    assert app.rewinder.position == oldest
    assert "as far back" in app.display.status
    pygame.event.post(key_event(pygame.KEYUP, "r"))
    app.pass_once()
    assert app.machine.tick == oldest + 1


def test_the_history_keeps_a_minute_and_forgets_older_play(movie_app: App) -> None:
    app = movie_app
    history = app.history
    run(app, 62 * 60)
    now = app.machine.tick
    oldest = history.oldest
    assert oldest is not None and now - 62 * 60 <= now - oldest
    assert now - oldest >= 60 * 60  # at least 60 s can be rewound
    assert now - oldest < 60 * 60 + 2 * history.every  # and little more is kept
    assert min(history.inputs) == oldest


def test_rewind_is_refused_during_a_link_match(tmp_path: Path) -> None:
    url = f"air://emu-rewind-{os.getpid()}?loss=0"
    app = make_app(tmp_path, "--game", "probe", "--link", url)
    try:
        run(app, 90)
        assert app.history.oldest is not None  # outside a match the history is kept
        assert app.machine.link is not None
        app.machine.link.new_session()  # a versus session opens: a link match
        run(app, 5)
        assert app.history.oldest is None  # nothing of the match is kept
        tick = app.machine.tick
        pygame.event.post(key_event(pygame.KEYDOWN, "r"))
        run(app, 10)
        assert not app.rewinder.active
        assert "link match" in app.display.status
        assert app.machine.tick == tick + 10  # the game went on forwards
        pygame.event.post(key_event(pygame.KEYUP, "r"))
        app.pass_once()
    finally:
        app.shutdown()


def test_rewind_is_refused_while_recording(tmp_path: Path) -> None:
    app = make_app(tmp_path, "--game", "probe", "--record", str(tmp_path / "m.movie"))
    try:
        run(app, 60)
        assert not app.start_rewind()
        assert "recording" in app.display.status
    finally:
        app.shutdown()


def test_state_hotkeys_wait_while_rewinding(movie_app: App) -> None:
    app = movie_app
    run(app, 100)
    pygame.event.post(key_event(pygame.KEYDOWN, "r"))
    run(app, 10)
    pygame.event.post(key_event(pygame.KEYDOWN, "f1", pygame.KMOD_LSHIFT))
    app.pass_once()
    assert "release the rewind key" in app.display.status
    assert not app.slot_path(1).exists()
    pygame.event.post(key_event(pygame.KEYUP, "f1", pygame.KMOD_LSHIFT))
    pygame.event.post(key_event(pygame.KEYUP, "r"))
    app.pass_once()
    assert app.save_state(1) and app.slot_path(1).exists()
