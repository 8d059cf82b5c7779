"""Rewind and clips under the `desktop-worker` profile (issue 26): the computer players
search in a worker process and, in real time, a late answer is applied when it arrives. The
tick it was applied at is kept in the rewind history, so every rewound or clipped frame is
the frame that was shown, however late the worker was then or is during the replay."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from emulator.app import App
from emulator.clip import movie_machine
from firmware.cli import build_parser
from firmware.machine import screens_hash
from firmware.movie import MoviePlayer, load_movie
from tests.emulator.test_app import StepClock, key_event, started_before
from tests.emulator.test_rewind import MOVIE, shown_hash

# the movie's game, played live: its input comes through the window's input (not --movie,
# whose playback waits for the worker to keep the movie's timing)
GAME = ["--game", "sevens", "--seed", "3", "--option", "seat1=cool", "--option", "seat2=hitman"]
GAME += ["--option", "seat3=coward", "--profile", "desktop-worker"]


def live_app(tmp_path: Path, *extra: str) -> App:
    store = started_before(tmp_path / "store.db")
    args = build_parser().parse_args(["emu", "--store", str(store), "--scale", "1", *GAME, *extra])
    pygame.display.init()
    pygame.event.clear()
    app = App(args, clock=StepClock())  # ticks as fast as the CPU goes: the worker lags
    app.live.poll = MoviePlayer(load_movie(str(MOVIE))).input_at  # type: ignore[method-assign]
    return app


@pytest.fixture
def worker_app(tmp_path: Path) -> Iterator[App]:
    app = live_app(tmp_path)
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


def test_a_movie_recorded_with_a_late_worker_replays_the_frames_shown(tmp_path: Path) -> None:
    """The recorder writes each late answer as a `computer` line; a headless replay of the
    recording applies it at the same tick, so every frame is the one the window showed."""
    out = tmp_path / "rec.movie"
    app = live_app(tmp_path, "--record", str(out))
    shown: dict[int, str] = {0: shown_hash(app)}
    try:
        play(app, 900, shown)
        assert app.stop_recording() == out
    finally:
        app.shutdown()
    movie = load_movie(str(out))
    late = [ev for ev in movie.events if ev.verb == "computer"]
    assert late, "the worker was never late (nothing to check)"
    assert replayed(out, tmp_path / "replay") == [shown[t] for t in range(1, 901)]
    # without its `computer` lines the same movie shows the moves at other ticks
    bare = replace(movie, events=tuple(ev for ev in movie.events if ev.verb != "computer"))
    (tmp_path / "bare.movie").write_text(bare.to_text())
    assert replayed(tmp_path / "bare.movie", tmp_path / "bare") != [shown[t] for t in range(1, 901)]


def replayed(movie: Path, data: Path) -> list[str]:
    """Frame hashes of ticks 1..900 of a headless replay of `movie` (its `# args:`)."""
    machine = movie_machine(movie, data)
    try:
        assert machine.profile.name == "desktop-worker"  # from the movie's `# args:`
        out = []
        for _ in range(900):
            machine.step()
            machine.render()
            out.append(machine.frame_hash())
        return out
    finally:
        machine.store.close()
