"""Saved games are never lost without a word (issue 24, item 2): each game keeps its own
saved game; the launcher shows one waiting; starting that game offers Continue or New game,
and New game, Restart and Quit ask before discarding it; starting other games, a crash, a
link game and a lid close in another game keep it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from firmware.machine import Machine
from firmware.testing import machine_from_movie, run, tap_script
from hal.interfaces import Button, RawInput


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.init()


def tap(m: Machine, name: str) -> None:
    """Tap a hotspot of the current scene through the real input path."""
    spots = m.scene.hotspots()
    assert name in spots, (m.scene.name, sorted(spots))
    before = m.hal.input.script
    m.hal.input.script = tap_script({m.tick: spots[name].center})
    run(m, 6)
    m.hal.input.script = before


def press(m: Machine, button: Button) -> None:
    start, before = m.tick, m.hal.input.script
    m.hal.input.script = lambda t: RawInput(
        held=frozenset({button}) if start <= t < start + 2 else frozenset()
    )
    run(m, 5)
    m.hal.input.script = before


def save_and_quit(m: Machine) -> dict[str, Any]:
    """START, "Save and quit": returns the state that was saved."""
    state: dict[str, Any] = m.game_scene().game.save_state()
    press(m, Button.START)
    assert m.scene.name == "pause"
    tap(m, "item:save")
    assert m.scene.name == "launcher"
    return state


def play_from_launcher(m: Machine, game_id: str) -> None:
    """Select a game's tile and tap Play (options, if any, at their defaults)."""
    launcher = m.scene
    assert launcher.name == "launcher"
    launcher.selected = game_id  # type: ignore[attr-defined]
    tap(m, "button:play")
    if m.scene.name == "setup":
        tap(m, "item:start")


@pytest.fixture
def saved_arimaa(tmp_path: Path) -> tuple[Machine, dict[str, Any]]:
    """A unit with an Arimaa game saved and quit (the issue's first step)."""
    m = machine_from_movie(tmp_path, game="arimaa", seed=4, store_path=tmp_path / "s.db")
    run(m, 30)
    return m, save_and_quit(m)


def test_other_games_played_and_quit_keep_the_saved_game(saved_arimaa) -> None:  # type: ignore[no-untyped-def]
    m, state = saved_arimaa
    for game in ("pop", "reversi"):
        play_from_launcher(m, game)
        run(m, 20)
        assert m.game_scene().cartridge.id == game
        press(m, Button.START)
        tap(m, "item:quit")  # no saved game of its own: quits at once
        assert m.scene.name == "launcher"
    play_from_launcher(m, "pop")
    m.suspend_game()  # a lid close in another game saves that game only
    m.to_launcher()
    saved = m.store.load_suspend("arimaa")
    assert saved is not None and saved.state == state
    assert m.store.suspended_ids() == {"arimaa", "pop"}


def test_the_launcher_shows_a_saved_game_waiting(saved_arimaa) -> None:  # type: ignore[no-untyped-def]
    m, _ = saved_arimaa
    assert m.scene.dump()["saved"] == ["arimaa"]
    m.render()
    launcher = m.scene
    rect = launcher.hotspots()["game:arimaa"]
    other = launcher.hotspots()["game:reversi"]

    def badge_pixels(r: pygame.Rect) -> int:
        from firmware.gfx import palette as pal

        corner = pygame.Rect(r.right - 13, r.y + 3, 10, 10)
        return sum(
            1
            for x in range(corner.x, corner.right)
            for y in range(corner.y, corner.bottom)
            if m.bottom.get_at((x, y))[:3] == pal.ACCENT[:3]
        )

    assert badge_pixels(rect) > 20 and badge_pixels(other) == 0


def test_starting_the_saved_game_offers_continue_or_new_game(saved_arimaa) -> None:  # type: ignore[no-untyped-def]
    m, state = saved_arimaa
    play_from_launcher(m, "arimaa")
    assert m.scene.name == "resume"
    assert sorted(m.scene.hotspots()) == ["item:back", "item:continue", "item:new"]
    tap(m, "item:continue")
    assert m.game_scene() is not None and m.game_scene().game.save_state() == state


def test_new_game_asks_before_discarding_and_no_keeps_it(saved_arimaa) -> None:  # type: ignore[no-untyped-def]
    m, _ = saved_arimaa
    play_from_launcher(m, "arimaa")
    tap(m, "item:new")
    assert m.scene.name == "confirm"
    tap(m, "item:no")
    assert m.scene.name == "resume" and m.store.load_suspend("arimaa") is not None
    tap(m, "item:new")
    tap(m, "item:yes")
    assert m.store.load_suspend("arimaa") is None
    if m.scene.name == "setup":
        tap(m, "item:start")
    assert m.scene.name == "arimaa" and m.game_scene().owns_slot  # a new game


@pytest.mark.parametrize("item", ["restart", "quit"])
def test_restart_and_quit_ask_before_discarding_the_saved_game(saved_arimaa, item: str) -> None:  # type: ignore[no-untyped-def]
    m, _ = saved_arimaa
    play_from_launcher(m, "arimaa")
    tap(m, "item:continue")
    press(m, Button.START)
    tap(m, f"item:{item}")
    assert m.scene.name == "confirm"
    tap(m, "item:no")
    assert m.scene.name == "pause" and m.store.load_suspend("arimaa") is not None
    tap(m, f"item:{item}")
    tap(m, "item:yes")
    assert m.store.load_suspend("arimaa") is None
    assert m.scene.name == ("arimaa" if item == "restart" else "launcher")


def test_a_crash_keeps_the_saved_game(saved_arimaa) -> None:  # type: ignore[no-untyped-def]
    m, state = saved_arimaa
    play_from_launcher(m, "arimaa")
    tap(m, "item:continue")

    def boom(inp: Any) -> None:
        raise RuntimeError("boom")

    m.game_scene().game.update = boom  # type: ignore[method-assign]
    run(m, 2)
    assert m.scene.name == "error"
    saved = m.store.load_suspend("arimaa")
    assert saved is not None and saved.state == state


def test_a_fresh_start_beside_a_saved_game_never_overwrites_it(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    m = machine_from_movie(tmp_path, game="pop", seed=4, store_path=store)
    run(m, 40)
    state = save_and_quit(m)
    m.store.close()
    # `--game pop` on the same store: a fresh game, not the saved one
    m2 = machine_from_movie(tmp_path, game="pop", seed=9, store_path=store)
    run(m2, 25)
    m2.hal.input.script = lambda t: RawInput(lid_closed=True)
    run(m2, 3)
    assert m2.suspend_game() is False
    saved = m2.store.load_suspend("pop")
    assert saved is not None and saved.state == state


def test_a_link_game_never_touches_the_local_saved_game(tmp_path: Path) -> None:
    from games.reversi.robot import MachinePair
    from hal.link.air import Impairments

    pair = MachinePair(tmp_path, Impairments(baud=9600, delay_ms=20, seed=5))
    host = pair.machines[0]
    host.start_game("reversi", {"mode": "two"})
    run(host, 30)
    game = host.game_scene().game
    tap(host, f"square:{sorted(game.game.legal())[0]}")
    run(host, 60)
    assert game.game.moves  # (the robot of the pair plays on too)
    state = host.game_scene().game.save_state()
    assert host.suspend_game()
    host.to_launcher()
    pair.start()
    assert host.suspend_game() is False  # a lid close in a link game stores nothing
    pair.run(60 * 600, until=lambda: all(g.reported for g in pair.games()))
    assert all(g.game.over for g in pair.games()), [
        (m.scene.name, m.dump()["link"]) for m in pair.machines
    ]
    assert host.store.get_stats("reversi")["played"] == 1  # the link game was recorded
    saved = host.store.load_suspend("reversi")
    assert saved is not None and saved.state == state  # the local one is still waiting


def test_a_store_of_the_old_firmware_offers_its_suspended_game(tmp_path: Path) -> None:
    """Schema 2 (one suspend slot for all games) migrates without loss: the game it held is
    offered at the next start and continues exactly."""
    import json
    import sqlite3

    from firmware import storage

    m = machine_from_movie(tmp_path / "new", game="pop", seed=3, store_path=tmp_path / "n.db")
    run(m, 90)
    state = m.game_scene().game.save_state()
    assert m.suspend_game()
    saved = m.store.load_suspend("pop")
    assert saved is not None
    m.store.close()
    old = tmp_path / "old" / "store.db"
    old.parent.mkdir()
    conn = sqlite3.connect(old, isolation_level=None)
    for step in storage.MIGRATIONS[:2]:
        for statement in step:
            conn.execute(statement)
    conn.execute("UPDATE schema_version SET version = 2")
    conn.execute(
        "INSERT INTO suspend (id, game_id, state, meta, saved_at) VALUES (1, 'pop', ?, ?, 5.0)",
        (json.dumps(saved.state), json.dumps(saved.meta)),
    )
    conn.close()
    booted = machine_from_movie(tmp_path / "old", store_path=old)
    run(booted, 100)
    assert booted.scene.name == "resume" and booted.scene.dump()["suspended"] == "pop"
    booted.scene.activate("item:continue")  # (a tap would run the game on a few ticks)
    assert booted.game_scene().game.save_state() == state
