"""The launcher with buttons alone (issue 34, item 11): A on the highlighted tile starts its
game as the Play button does; with the D-pad cursor shown, A taps what the cursor is on."""

from __future__ import annotations

from pathlib import Path

from firmware.machine import Machine
from firmware.testing import machine_from_movie, run
from hal.interfaces import Button, RawInput


def press(m: Machine, button: Button) -> None:
    start = m.tick
    m.hal.input.script = lambda t: RawInput(
        held=frozenset({button}) if start <= t < start + 2 else frozenset()
    )
    run(m, 5)


def at_launcher(tmp_path: Path) -> Machine:
    m = machine_from_movie(tmp_path)
    run(m, 100)
    assert m.scene.name == "launcher"
    return m


def test_a_on_the_selected_tile_opens_its_game(tmp_path: Path) -> None:
    m = at_launcher(tmp_path)
    selected = m.scene.selected  # type: ignore[attr-defined]
    press(m, Button.A)
    # Reversi has options: its setup screen, as after the Play button
    assert m.scene.name == "setup"
    assert m.scene.dump()["game"] == selected


def test_a_on_a_game_without_options_starts_it(tmp_path: Path) -> None:
    m = at_launcher(tmp_path)
    m.scene.selected = "pop"  # type: ignore[attr-defined]
    press(m, Button.A)
    game = m.game_scene()
    assert game is not None and game.cartridge.id == "pop"


def test_with_the_cursor_shown_a_taps_the_cursor_target(tmp_path: Path) -> None:
    """The cursor on the Settings button: A opens Settings, not the selected game."""
    m = at_launcher(tmp_path)
    press(m, Button.DOWN)  # shows the cursor on the first hotspot (the first tile)
    assert m.cursor.visible
    spots = m.scene.hotspots()
    while m.cursor.current != "button:settings":
        before = m.cursor.current
        press(m, Button.DOWN if spots[m.cursor.current].y < 150 else Button.LEFT)
        assert m.cursor.current != before, "the cursor cannot reach Settings"
    press(m, Button.A)
    assert m.scene.name == "settings"
