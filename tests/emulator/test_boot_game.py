"""`emu --game ID` as a person meets it (issue 34, item 10): a new store asks the language
first (as the README promises for every first start), and a saved game of that game waiting
is offered with Continue / New game, as the launcher offers it, instead of a fresh game that
could not be saved beside it. A movie (and headless) still boots straight into the game."""

from __future__ import annotations

from pathlib import Path

import pygame

from emulator.app import App
from firmware.boot import BootConfig, boot
from firmware.cli import build_parser
from firmware.storage import Store
from hal.backends.headless import headless_hal
from tests.emulator.test_app import CARTS, StepClock, make_app, probe, run


def app_on(store: Path, *extra: str) -> App:
    args = build_parser().parse_args(["emu", "--store", str(store), "--scale", "1", *extra])
    pygame.display.init()
    pygame.event.clear()
    return App(args, clock=StepClock(), cartridges=CARTS)  # type: ignore[arg-type]


def tap(app: App, name: str) -> None:
    """Click the centre of the current scene's hotspot `name` in the window."""
    x, y = app.machine.scene.hotspots()[name].center
    pos = app.display.geometry.to_window(x, y)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    run(app, 2)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    run(app, 2)


def saved_probe(tmp_path: Path, count: int = 40) -> Path:
    """A store with a saved game of the probe game, left after `count` ticks by quitting."""
    app = make_app(tmp_path, "--game", "probe")
    try:
        run(app, count)
        saved = probe(app).count
    finally:
        app.shutdown()  # quitting the window saves the running game
    assert saved >= count - 2
    return tmp_path / "store.db"


def test_a_new_store_asks_the_language_before_the_boot_game(tmp_path: Path) -> None:
    app = app_on(tmp_path / "new.db", "--game", "probe")
    try:
        run(app, 3)
        assert app.machine.scene.name == "language"
        assert app.machine.game_scene() is None
        tap(app, "lang:ja")
        assert app.machine.settings.language == "ja"
        game = app.machine.game_scene()
        assert game is not None and game.cartridge.id == "probe"
    finally:
        app.shutdown()
    with Store.open(tmp_path / "new.db") as store:
        assert store.get_setting("settings", None)["language"] == "ja"


def test_a_waiting_saved_game_is_offered_continue_resumes_it(tmp_path: Path) -> None:
    store = saved_probe(tmp_path)
    app = app_on(store, "--game", "probe")
    try:
        run(app, 3)
        assert app.machine.scene.name == "resume"
        assert set(app.machine.scene.hotspots()) >= {"item:continue", "item:new"}
        tap(app, "item:continue")
        assert probe(app).count >= 38  # the saved game, not a fresh one
        assert app.machine.saved_game_at_risk() == "probe"  # it owns its slot again
    finally:
        app.shutdown()
    with Store.open(store) as s:  # and quitting saved it again, further on
        saved = s.load_suspend("probe")
        assert saved is not None and saved.state["count"] > 40


def test_new_game_asks_then_starts_fresh_and_replaces_the_saved_one(tmp_path: Path) -> None:
    store = saved_probe(tmp_path)
    app = app_on(store, "--game", "probe")
    try:
        run(app, 3)
        tap(app, "item:new")
        assert app.machine.scene.name == "confirm"
        tap(app, "item:yes")
        assert probe(app).count < 10
        assert "probe" not in app.machine.saved
        run(app, 5)
    finally:
        app.shutdown()
    with Store.open(store) as s:
        saved = s.load_suspend("probe")
        assert saved is not None and saved.state["count"] < 20


def test_headless_and_movies_still_boot_straight_into_the_game(tmp_path: Path) -> None:
    """Input movies mean the same on every store: no question before the boot game."""
    store = saved_probe(tmp_path)
    config = BootConfig(store_path=store, log=False, game="probe", cartridges=CARTS)
    machine = boot(headless_hal(tmp_path), config)
    try:
        game = machine.game_scene()
        assert game is not None and machine.scene is game and game.game.count == 0
        assert not game.owns_slot  # the saved game is kept, not replaced
    finally:
        machine.store.close()
    app = app_on(store, "--game", "probe", "--movie", str(movie(tmp_path)))
    try:
        run(app, 3)
        assert app.machine.game_scene() is not None and probe(app).count < 5
    finally:
        app.shutdown()


def movie(tmp_path: Path) -> Path:
    path = tmp_path / "m.movie"
    path.write_text("# twinfold movie 1\n5 press A\n6 release A\n")
    return path
