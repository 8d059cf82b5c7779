"""The firmware end to end on the headless backend: scenes, lid, crash guard, determinism."""

from __future__ import annotations

import json
import random

import pygame
import pytest

from firmware.game_api import Cartridge, Game
from firmware.machine import Machine
from firmware.testing import machine_from_movie, run, tap_script
from hal.interfaces import Button, RawInput


def centre(machine: Machine, name: str) -> tuple[int, int]:
    return machine.scene.hotspots()[name].center


def tap(machine: Machine, name: str) -> None:
    """Tap a hotspot of the current scene through the real input path."""
    x, y = centre(machine, name)
    start = machine.tick
    machine.hal.input.script = tap_script({start: (x, y)})
    run(machine, 5)


def press(machine: Machine, button: Button, ticks: int = 2) -> None:
    start = machine.tick
    machine.hal.input.script = lambda t: RawInput(
        held=frozenset({button}) if start <= t < start + ticks else frozenset()
    )
    run(machine, ticks + 2)


def test_boot_reaches_launcher_with_games(tmp_path):
    m = machine_from_movie(tmp_path)
    run(m, 100)
    assert m.scene.name == "launcher"
    dump = m.dump()
    assert "game:pop" in dump["hotspots"] and "button:settings" in dump["hotspots"]
    assert dump["frame"] == 100


def test_launcher_starts_a_game_and_start_pauses(tmp_path):
    m = machine_from_movie(tmp_path)
    run(m, 100)
    tap(m, "game:pop")  # the launcher lists Reversi first; a tap selects the demo
    assert m.scene.selected == "pop"
    tap(m, "button:play")
    assert m.scene.name == "pop"
    press(m, Button.START)
    assert m.scene.name == "pause"
    tap(m, "item:quit")
    assert m.scene.name == "launcher"


def walk_cursor_to(m, target: str) -> None:  # type: ignore[no-untyped-def]
    """Steer the cursor with the D-pad alone to `target`, turning the launcher's page (with
    the cursor and A) while the target is on another one."""
    for _ in range(40):
        spots = m.dump()["hotspots"]
        if m.cursor.current == target:
            return
        goal = target if target in spots else "button:page"
        if m.cursor.current == goal:
            press(m, Button.A)
            continue
        (x, y, w, h), (cx, cy, cw, ch) = spots[goal], spots[m.cursor.current]
        dx, dy = (x + w / 2) - (cx + cw / 2), (y + h / 2) - (cy + ch / 2)
        if abs(dy) > abs(dx):
            press(m, Button.DOWN if dy > 0 else Button.UP)
        else:
            press(m, Button.RIGHT if dx > 0 else Button.LEFT)
    raise AssertionError(f"the cursor never reached {target}")


def test_dpad_cursor_alone_starts_a_game(tmp_path):
    m = machine_from_movie(tmp_path)
    run(m, 100)
    # Select the demo with the cursor, move it onto Play and press A: buttons alone must
    # work (P-FW-4). The first press shows the cursor on the first tile (Reversi).
    press(m, Button.DOWN)
    assert m.cursor.current == "game:reversi"
    walk_cursor_to(m, "game:pop")
    press(m, Button.A)
    assert m.scene.selected == "pop"
    for _ in range(4):
        press(m, Button.DOWN)
        press(m, Button.RIGHT)
    assert m.cursor.current == "button:play"
    press(m, Button.A)
    assert m.scene.name == "pop"


def test_lid_close_suspends_blanks_and_reopen_resumes_exactly(tmp_path):
    m = machine_from_movie(tmp_path, game="pop", seed=5)
    run(m, 200)
    before = m.frame_hash()
    state_before = m.game_scene().game.save_state()
    m.hal.input.script = lambda t: RawInput(lid_closed=True)
    run(m, 50)
    assert m.lid_closed and m.hal.display.blanked
    saved = m.store.load_suspend()
    assert saved is not None and saved.game_id == "pop" and saved.state == state_before
    m.hal.input.script = lambda t: RawInput()
    m.step()  # the opening tick wakes the unit; the game continues on the next one
    m.render()
    assert m.frame_hash() == before
    assert m.game_scene().game.save_state() == state_before
    m.step()
    assert m.game_scene().game.save_state()["game"]["tick"] == state_before["game"]["tick"] + 1


def test_lid_screens_identical_before_and_after(tmp_path):
    m = machine_from_movie(tmp_path, game="pop", seed=9)
    run(m, 120)
    m.render()
    before = m.frame_hash()
    m.hal.input.script = lambda t: RawInput(lid_closed=True)
    run(m, 30, draw=False)
    m.hal.input.script = lambda t: RawInput()
    m.step()
    m.render()
    assert m.frame_hash() == before


def test_suspended_game_is_offered_at_next_boot_and_resumes(tmp_path):
    store = tmp_path / "s.db"
    m = machine_from_movie(tmp_path, game="pop", seed=3, store_path=store)
    run(m, 150)
    state = m.game_scene().game.save_state()
    m.suspend_game()
    m.store.close()
    m2 = machine_from_movie(tmp_path, store_path=store)
    run(m2, 100)
    assert m2.scene.name == "resume"
    tap(m2, "item:continue")
    assert m2.scene.name == "pop"
    assert m2.game_scene().game.game.s.tick >= state["game"]["tick"]


def test_same_movie_twice_gives_identical_frames(tmp_path):
    rng = random.Random(1)
    lines = ["# twinfold movie 1"]
    frame = 0
    for _ in range(60):
        frame += rng.randrange(3, 20)
        lines.append(f"{frame} tap {rng.randrange(256)} {rng.randrange(192)}")
        if rng.random() < 0.2:
            lines.append(f"{frame + 1} press {rng.choice(['UP', 'DOWN', 'LEFT', 'RIGHT', 'A'])}")
            lines.append(f"{frame + 3} release UP")
    movie = "\n".join(lines) + "\n"

    def hashes(sub):
        d = tmp_path / sub
        d.mkdir()
        m = machine_from_movie(d, movie, seed=11)
        out = []
        for _ in range(frame + 10):
            m.step()
            m.render()
            out.append(m.frame_hash())
        return out

    assert hashes("a") == hashes("b")


class Exploding(Game):
    def update(self, inp):
        if self.ctx.tick > 5:
            raise RuntimeError("boom")

    def draw(self, top, bottom):
        top.fill((0, 0, 0))

    def save_state(self):
        return {}

    def load_state(self, state):
        return None


def test_crashing_game_shows_error_and_returns_to_launcher(tmp_path, caplog):
    cart = Cartridge(
        id="boom", title="Boom", description="", draw_icon=lambda s: None, create=Exploding
    )
    m = machine_from_movie(tmp_path)
    m.cartridges = {"boom": cart}
    m.start_game("boom", {})
    run(m, 20)
    assert m.scene.name == "error"
    assert "RuntimeError: boom" in (m.last_error or "")
    assert any("boom" in r.getMessage() for r in caplog.records)
    press(m, Button.A)
    assert m.scene.name == "launcher"


def test_crash_trace_is_written_to_the_log_file(tmp_path):
    import logging

    from firmware.logs import setup_logging

    path = setup_logging(tmp_path)
    try:
        cart = Cartridge(id="boom", title="Boom", description="", draw_icon=lambda s: None,
                         create=Exploding)
        m = machine_from_movie(tmp_path)
        m.cartridges = {"boom": cart}
        m.start_game("boom", {})
        run(m, 20)
        for handler in logging.getLogger("twinfold").handlers:
            handler.flush()
        logged = path.read_text()
        assert "Traceback" in logged and "RuntimeError: boom" in logged
    finally:
        for handler in list(logging.getLogger("twinfold").handlers):
            logging.getLogger("twinfold").removeHandler(handler)
            handler.close()


def test_headless_command_writes_dump_and_shots(tmp_path):
    from firmware.cli import main

    movie = tmp_path / "m.txt"
    movie.write_text("# twinfold movie 1\n0 press A\n3 release A\n")
    dump = tmp_path / "d.json"
    rc = main(
        [
            "headless",
            "--movie",
            str(movie),
            "--frames",
            "120",
            "--shots",
            str(tmp_path / "shots"),
            "--dump",
            str(dump),
        ]
    )
    assert rc == 0
    data = json.loads(dump.read_text())
    assert data["frame"] == 120 and data["scene"] == "launcher"
    img = pygame.image.load(str(tmp_path / "shots" / "bottom.png"))
    assert img.get_size() == (256, 192)


@pytest.mark.parametrize(
    "argv",
    [
        ["headless", "--game", "nope"],
        ["headless", "--frames", "0"],
        ["headless", "--option", "novalue"],
        ["headless", "--movie", "/nonexistent/movie.txt"],
        ["headless", "--game", "pop", "--option", "speed=9"],
    ],
)
def test_bad_arguments_are_one_line_errors(argv, capsys):
    from firmware.cli import main

    try:
        rc = main(argv)
    except SystemExit as exc:
        rc = exc.code
    assert rc == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error" in err[0]


def test_malformed_movie_names_the_line(tmp_path, capsys):
    from firmware.cli import main

    movie = tmp_path / "bad.txt"
    movie.write_text("# twinfold movie 1\n0 press A\n5 jump 3\n")
    assert main(["headless", "--movie", str(movie)]) == 2
    err = capsys.readouterr().err
    assert "line 3" in err


def test_touch_on_swapped_screens_is_not_given_to_the_game(tmp_path):
    m = machine_from_movie(tmp_path)
    m.settings.swap = True
    run(m, 100)
    x, y = centre(m, "button:settings")
    m.hal.input.script = tap_script({m.tick: (x, y)})
    run(m, 5)
    assert m.scene.name == "launcher"
