"""Run by test_quit.py in a subprocess (dummy video driver): a live emulator session whose
computer players search in worker processes saves a clip, then the person quits with the
quit key. The test reads this process's stderr, which the worker processes share."""

from __future__ import annotations

import sys
from pathlib import Path

import pygame

from emulator.app import App
from firmware.cli import build_parser
from firmware.match import worker
from firmware.movie import MoviePlayer, load_movie
from tests.emulator.test_app import StepClock, key_event, started_before
from tests.emulator.test_rewind_worker import GAME, MOVIE


def main() -> None:
    out = Path(sys.argv[1])
    quit_key = sys.argv[2]  # "ctrl+q", or "escape" (pressed twice)
    args = build_parser().parse_args(
        ["emu", "--store", str(started_before(out / "store.db")), "--scale", "1", *GAME]
    )
    pygame.display.init()
    app = App(args, clock=StepClock())
    app.live.poll = MoviePlayer(load_movie(str(MOVIE))).input_at  # type: ignore[method-assign]
    for _ in range(900):  # the computers think in their workers
        app.pass_once()
    assert list(worker._LIVE), "no worker process was started"
    pygame.event.post(key_event(pygame.KEYDOWN, "c"))
    app.pass_once()
    clips = list((out / "clips").glob("twinfold-*"))
    assert clips, "no clip was saved"
    for _ in range(30):  # play on a little after the clip, as a person would
        app.pass_once()
    key, mod = ("q", pygame.KMOD_CTRL) if quit_key == "ctrl+q" else ("escape", 0)
    for _ in range(1 if quit_key == "ctrl+q" else 2):
        pygame.event.post(key_event(pygame.KEYDOWN, key, mod))
        pygame.event.post(key_event(pygame.KEYUP, key, mod))
    app.run(frames=app.passes + 100)
    assert app.quitting, "the quit key did not quit"
    print("quit", flush=True)


if __name__ == "__main__":
    main()
