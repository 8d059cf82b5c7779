"""The emulator app with a dummy video driver, driven by posted pygame events.

A probe game records every input the firmware hands it, so each test checks what really
reached the game: touches at exact lower-screen pixels, buttons, nothing from hotkeys.
The clock is simulated, so one pass of the loop is exactly one tick.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from emulator.app import App, window_title
from emulator.layout import Layout
from firmware.arguments import CommandError
from firmware.boot import BootConfig, boot
from firmware.cli import build_parser
from firmware.cli import main as cli_main
from firmware.game_api import Cartridge, Game, GameContext
from firmware.input import InputState
from firmware.movie import MoviePlayer, load_movie
from firmware.storage import Store
from hal.backends.headless import headless_hal
from hal.interfaces import SCREEN_H, SCREEN_W, Button


class Probe(Game):
    """Remembers what it was given; draws its tick count and touch so screens differ."""

    uses_dpad = True

    def __init__(self, ctx: GameContext) -> None:
        super().__init__(ctx)
        self.count = 0
        self.seen: list[InputState] = []

    def update(self, inp: InputState) -> None:
        self.count += 1
        self.seen.append(inp)

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        top.fill((self.count % 256, 40, 90))
        bottom.fill((20, self.count % 256, 60))
        last = self.seen[-1] if self.seen else None
        if last is not None and last.touch is not None:
            bottom.fill((255, 255, 0), (last.touch.x, last.touch.y, 1, 1))

    def save_state(self) -> dict[str, Any]:
        return {"count": self.count}

    def load_state(self, state: dict[str, Any]) -> None:
        if not isinstance(state.get("count"), int):
            raise ValueError("count must be a whole number")
        self.count = state["count"]


PROBE = Cartridge(
    id="probe",
    title="Probe Game",
    description="records its input",
    draw_icon=lambda surface: None,
    create=Probe,
)
CARTS = {"probe": PROBE}


class StepClock:
    """A simulated clock (sleeping advances it), so each loop pass runs exactly one tick."""

    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.t += seconds


def started_before(store: Path) -> Path:
    """A store whose unit has been started before (its settings saved), so the window does
    not first ask the language, as it does on a new store; returns the path."""
    from firmware.settings import Settings

    with Store.open(store) as opened:
        opened.set_setting("settings", Settings().to_json())
    return store


def make_app(tmp_path: Path, *extra: str) -> App:
    store = started_before(tmp_path / "store.db")
    args = build_parser().parse_args(
        ["emu", "--store", str(store), "--scale", "1", "--gap", "4", *extra]
    )
    pygame.display.init()
    pygame.event.clear()
    return App(args, clock=StepClock(), cartridges=CARTS)  # type: ignore[arg-type]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = make_app(tmp_path, "--game", "probe")
    yield a
    a.shutdown()


def probe(app: App) -> Probe:
    scene = app.machine.game_scene()
    assert scene is not None
    return scene.game


def key_event(kind: int, name: str, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(kind, key=pygame.key.key_code(name), mod=mod)


def press(app: App, name: str, mod: int = 0, passes: int = 1) -> None:
    """Post a key down, run `passes` passes, post the key up, run one more."""
    pygame.event.post(key_event(pygame.KEYDOWN, name, mod))
    for _ in range(passes):
        app.pass_once()
    pygame.event.post(key_event(pygame.KEYUP, name, mod))
    app.pass_once()


def run(app: App, passes: int) -> None:
    for _ in range(passes):
        app.pass_once()


LAYOUT_CASES = [
    ("vertical", "bottom", False),
    ("horizontal", "bottom", False),
    ("hybrid", "bottom", False),
    ("hybrid", "top", False),
    ("single", "bottom", False),
    ("vertical", "bottom", True),
    ("hybrid", "top", True),
    ("single", "top", True),
]


@pytest.mark.parametrize(("kind", "focus", "swap"), LAYOUT_CASES)
def test_mouse_clicks_reach_the_game_at_the_right_pixel(
    tmp_path: Path, kind: str, focus: str, swap: bool
) -> None:
    extra = ["--game", "probe", "--layout", kind, "--scale", "2"] + (["--swap"] if swap else [])
    app = make_app(tmp_path, *extra)
    try:
        app.set_layout(Layout(kind, 2, 4, swap=swap, focus=focus))  # type: ignore[arg-type]
        geo = app.display.geometry
        assert geo.lower is not None
        targets = [(0, 0), (255, 191), (100, 50), (37, 163)]
        for x, y in targets:
            wx, wy = geo.to_window(x, y)
            # the last window pixel of the block maps to the same panel pixel
            bx, by, bw, bh = geo.lower_block(x, y)
            for pos in ((wx, wy), (bx + bw - 1, by + bh - 1)):
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
                run(app, 2)
                seen = probe(app).seen[-1]
                assert seen.raw_touch is not None
                assert (seen.raw_touch.x, seen.raw_touch.y) == (x, y)
                if swap:  # the firmware ignores touches on the swapped (top) image
                    assert seen.touch is None
                else:
                    assert seen.touch is not None and (seen.touch.x, seen.touch.y) == (x, y)
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
                run(app, 1)
                assert probe(app).seen[-1].touch is None
        # and what the window shows there is the lower panel's pixel the game drew
        wx, wy = geo.to_window(37, 163)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(wx, wy), button=1))
        run(app, 2)
        shown = app.display.window_pixels().get_at((wx, wy))
        assert tuple(shown)[:3] == tuple(app.display.lower.get_at((37, 163)))[:3]
        logical = app.machine.top if swap else app.machine.bottom
        assert tuple(app.display.lower.get_at((37, 163))) == tuple(logical.get_at((37, 163)))
    finally:
        app.shutdown()


def test_clicks_off_the_lower_panel_are_not_touches(app: App) -> None:
    geo = app.display.geometry
    assert geo.upper is not None
    for pos in ((geo.upper.x + 5, geo.upper.y + 5), (0, geo.upper.bottom + 1)):  # upper, gap
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        run(app, 2)
        assert probe(app).seen[-1].touch is None
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def test_keys_reach_the_game_as_buttons_and_hotkeys_do_not(app: App) -> None:
    run(app, 3)
    pygame.event.post(key_event(pygame.KEYDOWN, "x"))
    pygame.event.post(key_event(pygame.KEYDOWN, "left"))
    run(app, 1)
    seen = probe(app).seen[-1]
    assert seen.held == {Button.A, Button.LEFT}
    assert seen.pressed == {Button.A, Button.LEFT}
    pygame.event.post(key_event(pygame.KEYUP, "x"))
    run(app, 1)
    assert probe(app).seen[-1].released == {Button.A}
    press(app, "f10")  # overlay: a hotkey, never a button
    assert all(not s.held - {Button.LEFT} for s in probe(app).seen[-3:])
    assert app.overlay and app.display.hud and "FPS" in app.display.hud[0]


def test_click_and_key_tap_within_one_frame_reach_the_game(app: App) -> None:
    """Issue 17: a press and release that both arrive before the next tick still count."""
    run(app, 2)
    geo = app.display.geometry
    pos = geo.to_window(40, 60)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    pygame.event.post(key_event(pygame.KEYDOWN, "x"))
    pygame.event.post(key_event(pygame.KEYUP, "x"))
    run(app, 3)
    tap, after = probe(app).seen[-3], probe(app).seen[-2]
    assert tap.touch_down and tap.touch is not None and (tap.touch.x, tap.touch.y) == (40, 60)
    assert tap.pressed == {Button.A}
    assert after.touch_up and after.released == {Button.A}
    assert probe(app).seen[-1].touch is None and probe(app).seen[-1].held == frozenset()


def test_five_instant_clicks_are_five_touches(app: App) -> None:
    pos = app.display.geometry.to_window(10, 10)
    for _ in range(5):
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        run(app, 2)
    assert sum(inp.touch_down for inp in probe(app).seen) == 5


def test_pause_and_frame_advance(app: App) -> None:
    run(app, 5)
    press(app, "p")
    tick = app.machine.tick
    run(app, 30)
    assert app.machine.tick == tick and app.loop.paused
    assert "[paused]" in window_title(app)
    for i in range(1, 4):
        press(app, "n")
        assert app.machine.tick == tick + i
    press(app, "p")
    run(app, 10)
    assert not app.loop.paused and app.machine.tick > tick + 3 + 9


def test_frame_advance_pauses_a_running_game(app: App) -> None:
    run(app, 5)
    pygame.event.post(key_event(pygame.KEYDOWN, "n"))
    app.pass_once()
    tick = app.machine.tick
    run(app, 10)
    assert app.loop.paused and app.machine.tick == tick


def test_fast_forward_runs_several_ticks_per_pass(app: App) -> None:
    run(app, 3)
    pygame.event.post(key_event(pygame.KEYDOWN, "tab"))
    app.pass_once()
    tick = app.machine.tick
    run(app, 10)
    assert app.machine.tick - tick >= 10 * 4
    pygame.event.post(key_event(pygame.KEYUP, "tab"))
    app.pass_once()
    tick = app.machine.tick
    run(app, 10)
    assert app.machine.tick - tick == 10


def test_screenshot_is_native_both_screens_with_a_flash(app: App) -> None:
    run(app, 10)
    upper, lower = app.display.upper.copy(), app.display.lower.copy()  # what is on screen
    pygame.event.post(key_event(pygame.KEYDOWN, "f12"))
    app.pass_once()
    shots = list((app.data_dir / "screenshots").glob("*.png"))
    assert len(shots) == 1
    image = pygame.image.load(str(shots[0]))
    assert image.get_size() == (SCREEN_W, 2 * SCREEN_H)
    for x, y in ((0, 0), (200, 150)):
        assert tuple(image.get_at((x, y)))[:3] == tuple(upper.get_at((x, y)))[:3]
        assert tuple(image.get_at((x, SCREEN_H + y)))[:3] == tuple(lower.get_at((x, y)))[:3]
    # the window itself flashed white (the panels are dark in the probe's colours)
    assert min(tuple(app.display.window_pixels().get_at((5, 5)))[:3]) > 150
    run(app, 20)
    assert min(tuple(app.display.window_pixels().get_at((5, 5)))[:3]) < 150


def test_recording_starts_at_power_on_and_replays_headless(app: App, tmp_path: Path) -> None:
    run(app, 20)
    press(app, "f11")  # start: the machine restarts, so the movie is from boot
    assert app.input.recorder is not None
    start_tick = app.machine.tick
    assert start_tick <= 2
    press(app, "x", passes=5)
    geo = app.display.geometry
    wx, wy = geo.to_window(90, 60)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(wx, wy), button=1))
    run(app, 4)
    wx2, wy2 = geo.to_window(91, 62)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(wx2, wy2), buttons=(1, 0, 0)))
    run(app, 3)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(wx2, wy2), button=1))
    run(app, 3)
    press(app, "f11")  # stop
    movies = list((app.data_dir / "movies").glob("*.movie"))
    assert len(movies) == 1 and app.input.recorder is None
    recorded = [(s.held, s.touch) for s in probe(app).seen]
    movie = load_movie(str(movies[0]))
    text = movies[0].read_text()
    assert "press A" in text and "touch 90 60" in text and " 91 62" in text
    # the movie carries its arguments: the game, the seed the recording pinned and the
    # device profile (which paces computer players)
    assert app.seed is not None
    profile = app.profile.name
    assert movie.args == ("--game", "probe", "--seed", str(app.seed), "--profile", profile)
    assert text.splitlines()[1] == f"# args: --game probe --seed {app.seed} --profile {profile}"
    assert f"replay: twinfold headless --movie {movies[0].name}" in text.splitlines()[2]
    # replay on the headless backend from boot: the game sees the same inputs
    player = MoviePlayer(movie)
    store = Store.open(tmp_path / "replay.db")
    config = BootConfig(log=False, seed=0, cartridges=CARTS, game="probe")
    machine = boot(headless_hal(tmp_path, player.input_at), config, store=store)
    for _ in range(len(recorded)):
        machine.step()
    replayed = [(s.held, s.touch) for s in machine.game_scene().game.seen]
    store.close()
    # the recording's last tick ran after the stop key was read, so compare what both saw
    assert replayed[: len(recorded) - 2] == recorded[: len(recorded) - 2]


def test_record_flag_writes_the_movie_on_quit(tmp_path: Path) -> None:
    target = tmp_path / "out.movie"
    app = make_app(tmp_path, "--game", "probe", "--record", str(target))
    run(app, 3)
    press(app, "z", passes=3)
    app.shutdown()
    movie = load_movie(str(target))
    assert any(ev.verb == "press" and ev.button is Button.B for ev in movie.events)


def test_record_refuses_an_existing_file_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 17: --record never replaces a movie without a word."""
    target = tmp_path / "keep.movie"
    target.write_text("# twinfold movie 1\n0 press A\n")
    argv = ["emu", "--store", str(tmp_path / "s.db"), "--frames", "3", "--record", str(target)]
    assert cli_main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "exists" in err[0] and "--force" in err[0]
    assert target.read_text() == "# twinfold movie 1\n0 press A\n"  # untouched
    assert cli_main([*argv, "--force"]) == 0
    assert target.read_text().startswith("# twinfold movie 1\n# args: --seed ")


def test_record_to_standard_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["emu", "--store", str(tmp_path / "s.db"), "--frames", "3", "--record", "-"]
    assert cli_main([*argv, "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# twinfold movie 1\n# args: --seed 5 --profile desktop")


def test_movie_playback_drives_the_game_then_hands_over(tmp_path: Path) -> None:
    path = tmp_path / "in.movie"
    path.write_text("# twinfold movie 1\n2 press Y\n5 release Y\n6 tap 10 20\n")
    app = make_app(tmp_path, "--game", "probe", "--movie", str(path))
    try:
        run(app, 12)
        seen = probe(app).seen
        assert Button.Y in seen[3].held and Button.Y not in seen[6].held
        assert seen[7].touch is not None and (seen[7].touch.x, seen[7].touch.y) == (10, 20)
        pygame.event.post(key_event(pygame.KEYDOWN, "x"))
        run(app, 1)
        assert Button.A in probe(app).seen[-1].held  # after the movie: the keyboard
    finally:
        app.shutdown()


def test_state_slots_save_and_load(app: App) -> None:
    run(app, 10)
    press(app, "f2", pygame.KMOD_LSHIFT)  # save slot 2
    saved = probe(app).count
    assert app.slot_path(2).exists()
    run(app, 15)
    assert probe(app).count > saved
    press(app, "f2")  # load slot 2
    assert probe(app).count <= saved + 2  # restored, then a tick or two ran
    assert "loaded" in app.display.status
    before = probe(app).count
    press(app, "f3")  # an empty slot changes nothing
    assert "empty" in app.display.status and probe(app).count >= before
    app.slot_path(4).write_text("{broken")
    press(app, "f4")
    assert "cannot load" in app.display.status and probe(app).count >= before
    app.slot_path(4).write_text(
        json.dumps({"format": "twinfold-state-1", "snapshot": {"game": "nosuch"}})
    )
    press(app, "f4")
    assert "cannot load" in app.display.status


def test_state_slots_outside_a_game(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    try:
        run(app, 3)
        press(app, "f1", pygame.KMOD_LSHIFT)
        assert "no game" in app.display.status and not app.slot_path(1).exists()
    finally:
        app.shutdown()


def test_reset_boots_again(app: App) -> None:
    run(app, 30)
    old = app.machine
    press(app, "r", pygame.KMOD_LCTRL)
    assert app.machine is not old and app.machine.tick <= 2


def test_layout_scale_and_swap_hotkeys(app: App) -> None:
    size = app.display.screens[0].window.size
    press(app, "f7")  # vertical -> horizontal
    assert app.display.layout.kind == "horizontal"
    assert app.display.screens[0].window.size == (2 * SCREEN_W + 4, SCREEN_H)
    press(app, "=")
    assert app.display.layout.scale == 2
    assert app.display.screens[0].window.size == (4 * SCREEN_W + 4, 2 * SCREEN_H)
    press(app, "-")
    press(app, "-")  # never below 1
    assert app.display.layout.scale == 1
    press(app, "f9")  # swap: the lower panel now shows the game's top screen
    assert app.machine.settings.swap and app.display.layout.swap
    run(app, 2)
    assert tuple(app.display.lower.get_at((3, 3))) == tuple(app.machine.top.get_at((3, 3)))
    for _ in range(2):
        press(app, "f7")  # hybrid, single
    press(app, "f7")  # then one window per screen
    assert app.display.split and len(app.display.screens) == 2
    assert "windows" in app.display.status
    press(app, "f7")  # and back to one window
    assert not app.display.split and app.display.layout.kind == "vertical"
    assert app.display.screens[0].window.size == size


def test_title_shows_the_game(app: App) -> None:
    run(app, 2)
    assert app.display.screens[0].window.title.startswith("Twinfold - Probe Game")


def test_escape_twice_quits_and_the_game_is_suspended(app: App, tmp_path: Path) -> None:
    run(app, 10)
    press(app, "escape")
    assert not app.quitting and "again" in app.display.status
    press(app, "escape")
    assert app.quitting
    count = probe(app).count
    app.shutdown()
    store = Store.open(tmp_path / "store.db")
    suspended = store.load_suspend()
    store.close()
    assert suspended is not None and suspended.game_id == "probe"
    assert suspended.state == {"count": count}


def test_escape_presses_far_apart_do_not_quit(app: App) -> None:
    press(app, "escape")
    run(app, 200)  # more than two seconds of simulated time
    press(app, "escape")
    assert not app.quitting


def test_window_close_ends_run(tmp_path: Path) -> None:
    app = make_app(tmp_path, "--game", "probe")
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert app.run(frames=1000) == 0
    assert app.passes < 5
    store = Store.open(tmp_path / "store.db")
    assert store.load_suspend() is not None
    store.close()


def test_a_few_hundred_frames_with_random_events(app: App) -> None:
    import random

    rng = random.Random(7)
    w, h = app.display.geometry.size
    keys = ["x", "z", "s", "a", "q", "w", "up", "down", "left", "right", "return", "f5"]
    for _ in range(400):
        r = rng.random()
        if r < 0.2:
            name = rng.choice(keys)
            kind = rng.choice([pygame.KEYDOWN, pygame.KEYUP])
            pygame.event.post(key_event(kind, name))
        elif r < 0.4:
            pos = (rng.randrange(w), rng.randrange(h))
            kind = rng.choice([pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP])
            pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
        app.pass_once()
    assert app.passes == 400 and not app.quitting


def test_command_line_runs_and_quits_after_frames(tmp_path: Path) -> None:
    store = tmp_path / "cli" / "store.db"
    assert cli_main(["emu", "--frames", "30", "--store", str(store), "--scale", "1"]) == 0
    assert store.exists() and (store.parent / "twinfold.log").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "nosuch"], "no game"),
        (["--gap", "-1"], "gap"),
        (["--movie", "/nonexistent/m.movie"], "cannot read"),
        (["--link", "radio"], "link"),
        (["--record", "/nonexistent/dir/out.movie"], "cannot write the movie"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code = cli_main(["emu", "--store", str(tmp_path / "s.db"), "--frames", "1", *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_bad_movie_and_keymap_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.movie"
    bad.write_text("# twinfold movie 1\n0 jump\n")
    args = build_parser().parse_args(
        ["emu", "--store", str(tmp_path / "s.db"), "--movie", str(bad)]
    )
    with pytest.raises(CommandError, match="line 2"):
        App(args, clock=StepClock(), cartridges=CARTS)  # type: ignore[arg-type]
    (tmp_path / "keymap.json").write_text('{"keyboard": {"A": ["nosuchkey"]}}')
    args = build_parser().parse_args(["emu", "--store", str(tmp_path / "s.db")])
    with pytest.raises(CommandError, match="nosuchkey"):
        App(args, clock=StepClock(), cartridges=CARTS)  # type: ignore[arg-type]


def test_lid_key_closes_and_opens_the_lid(app: App, tmp_path: Path) -> None:
    run(app, 10)
    count = probe(app).count
    press(app, "f5")
    assert app.machine.lid_closed and app.display.blanked and "lid closed" in app.display.status
    run(app, 20)
    assert probe(app).count == count  # the game does not run while the lid is closed
    assert app.store.load_suspend() is not None
    press(app, "f5")
    run(app, 3)
    assert not app.machine.lid_closed and not app.display.blanked
    assert probe(app).count > count


def test_every_hotkey_action_has_a_handler(app: App) -> None:
    from emulator.keymap import HOTKEYS

    run(app, 3)
    for action in HOTKEYS:
        app.hotkey(action, True)
        app.hotkey(action, False)
        app.pass_once()
    assert app.quitting  # quit_now was among them


@pytest.mark.skipif(sys.platform != "linux", reason="elsewhere SDL finds the desktop itself")
def test_without_a_desktop_the_emulator_says_so(tmp_path: Path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "XDG_RUNTIME_DIR")
    }
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    result = subprocess.run(
        [sys.executable, "-m", "emulator", "--frames", "5", "--store", str(tmp_path / "s.db")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "no desktop" in result.stderr and "Traceback" not in result.stderr
    # only Twinfold's own line: SDL's XDG_RUNTIME_DIR complaint goes to the log
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]


def test_damaged_store_is_announced_on_stderr_and_logged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware.storage import Store

    store = tmp_path / "store.db"
    with Store.open(store) as s:
        for i in range(40):
            s.add_record("pop", {"i": i, "pad": "x" * 1500})
    data = bytearray(store.read_bytes())
    data[4096 + 8 : 4096 + 600] = b"\xa5" * 592  # a damaged page in a Twinfold store
    store.write_bytes(bytes(data))
    assert cli_main(["emu", "--store", str(store), "--frames", "2", "--scale", "1"]) == 0
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "store.db.damaged-1" in lines[0] and "***" not in lines[0]
    assert "store.db.damaged-1" in (tmp_path / "twinfold.log").read_text()


def test_a_file_that_is_not_a_store_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 34, item 12: `emu --store FILE` never renames a person's file."""
    mine = tmp_path / "notes.txt"
    mine.write_bytes(b"garbage, not SQLite" * 200)
    assert cli_main(["emu", "--store", str(mine), "--frames", "2", "--scale", "1"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "notes.txt is not a Twinfold store" in lines[0], lines
    assert mine.read_bytes() == b"garbage, not SQLite" * 200
    left = sorted(p.name for p in tmp_path.iterdir() if p.name != "twinfold.log")
    assert left == ["notes.txt"]


def test_movie_args_line_boots_the_emulator_and_the_command_line_wins(tmp_path: Path) -> None:
    movie = tmp_path / "m.movie"
    movie.write_text("# twinfold movie 1\n# args: --game probe --seed 9\n2 press A\n3 release A\n")
    app = make_app(tmp_path, "--movie", str(movie))
    try:
        assert app.machine.game_scene() is not None
        assert app.machine.dump()["seed"] == 9
    finally:
        app.shutdown()
    app = make_app(tmp_path, "--movie", str(movie), "--seed", "4")
    try:
        assert app.machine.dump()["seed"] == 4
    finally:
        app.shutdown()
