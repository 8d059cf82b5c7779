"""Run by test_window_mouse.py inside an Xvfb display: real windows, real clicks (xdotool).

The game draws every lower-panel pixel in a colour that names its coordinates (x, y, 77)
and every upper pixel as (x, y, 200). For each window arrangement the child clicks real
screen points over the window and checks that the touch the game received is exactly the
pixel the X server shows there (read back with XGetImage), and that clicks on anything
else are no touch at all. Prints one line per arrangement; exits 1 with the reason on the
first mismatch.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from emulator.app import App
from firmware.cli import build_parser
from firmware.game_api import Cartridge, GameContext
from hal.interfaces import SCREEN_H, SCREEN_SIZE, SCREEN_W
from tests.emulator.test_app import Probe, started_before
from tests.emulator.test_real_window import grab_screen, window_rect


def coded(blue: int) -> pygame.Surface:
    surf = pygame.Surface(SCREEN_SIZE)
    pixels = pygame.PixelArray(surf)
    for y in range(SCREEN_H):
        for x in range(SCREEN_W):
            pixels[x, y] = (x, y, blue)
    del pixels
    return surf


class Coded(Probe):
    def __init__(self, ctx: GameContext) -> None:
        super().__init__(ctx)
        self.top, self.bottom = coded(200), coded(77)

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        top.blit(self.top, (0, 0))
        bottom.blit(self.bottom, (0, 0))


CODED = Cartridge(id="coded", title="Coded", description="", draw_icon=lambda s: None, create=Coded)


def settle(app: App, passes: int = 12) -> None:
    for _ in range(passes):
        app.pass_once()
        time.sleep(0.01)


WAIT = 60.0  # bounds a wait on a loaded machine; never asserted
PRESSES: list[int] = [0]  # mouse button presses the app has taken from the event queue


def counted(get: Callable[..., list[pygame.event.Event]]) -> Callable[..., Any]:
    """pygame.event.get, counting the mouse presses the app takes: a click is known to have
    arrived (also one off the lower panel, which makes no touch) before the next is made."""

    def get_counting(*args: Any, **kwargs: Any) -> list[pygame.event.Event]:
        events = get(*args, **kwargs)
        PRESSES[0] += sum(e.type == pygame.MOUSEBUTTONDOWN for e in events)
        return events

    return get_counting


def click(display: str, x: int, y: int) -> None:
    env = {"DISPLAY": display, "PATH": "/usr/bin:/bin"}
    subprocess.run(
        ["xdotool", "mousemove", "--sync", str(x), str(y), "click", "1"],
        env=env,
        check=True,
        timeout=30,
    )


def shown_settled(app: App, display: str) -> pygame.Surface:
    """The X screen once it shows what the app drew in every window (sampled points): a
    resized or moved window is drawn anew by the app and then by the X server, in their own
    time on a loaded machine."""
    deadline = time.monotonic() + WAIT
    rng = random.Random(7)  # (its own: the clicks' points stay those of the seed)
    while True:
        settle(app, 2)
        shot = grab_screen(display)
        assert shot is not None, "no libX11 to read the screen"
        bounds = shot.get_rect()
        same = True
        for index, screen in enumerate(app.display.screens):
            drawn = app.display.window_pixels(index)
            wx, wy = screen.window.position
            for _ in range(40):
                px, py = rng.randrange(drawn.get_width()), rng.randrange(drawn.get_height())
                if bounds.collidepoint(wx + px, wy + py):
                    on_screen = tuple(shot.get_at((wx + px, wy + py)))[:3]
                    same = same and on_screen == tuple(drawn.get_at((px, py)))[:3]
        if same:
            return shot
        if time.monotonic() > deadline:
            sys.exit(f"the X screen never showed what the app drew (waited {WAIT:.0f} s)")


def passes_until(app: App, done: Callable[[], bool], what: str) -> None:
    """Loop passes until `done()`, waiting for the X server and the app (a deadline, not a
    count of passes: on a loaded machine an event can take seconds to come)."""
    deadline = time.monotonic() + WAIT
    while not done():
        if time.monotonic() > deadline:
            sys.exit(f"waited {WAIT:.0f} s for {what}")
        app.pass_once()
        time.sleep(0.01)


def check(app: App, display: str, label: str, rng: random.Random) -> None:
    """Click points over every window; compare each touch with the pixel shown there."""
    shot = shown_settled(app, display)
    game = app.machine.game_scene().game
    lower_hits = 0
    for screen in app.display.screens:
        wx0, wy0 = screen.window.position
        ww, wh = screen.window.size
        points = [(rng.randrange(ww), rng.randrange(wh)) for _ in range(6)]
        if "lower" in screen.panels:  # and some surely on the lower panel
            rect = screen.placement.lower
            assert rect is not None
            points += [(rect.x, rect.y), (rect.right - 1, rect.bottom - 1)]
            points += [
                (rng.randrange(rect.x, rect.right), rng.randrange(rect.y, rect.bottom))
                for _ in range(4)
            ]
        for px, py in points:
            sx, sy = wx0 + px, wy0 + py
            if not (0 <= sx < shot.get_width() and 0 <= sy < shot.get_height()):
                continue
            colour = shot.get_at((sx, sy))
            before, presses = len(game.seen), PRESSES[0]
            click(display, sx, sy)
            passes_until(app, lambda p=presses: PRESSES[0] > p, "the click to arrive")
            arrived = len(game.seen)  # the press is in the next tick the game is given
            passes_until(app, lambda n=arrived: len(game.seen) > n + 1, "two more ticks")
            touches = [s.touch for s in game.seen[before:] if s.touch is not None]
            touch = touches[0] if touches else None
            shown = (colour.r, colour.g) if colour.b == 77 else None
            got = (int(touch.x), int(touch.y)) if touch is not None else None
            if got != shown:
                sys.exit(
                    f"{label}: window point {(px, py)} shows lower pixel {shown} "
                    f"(colour {tuple(colour)}), the game was touched at {got}"
                )
            lower_hits += shown is not None
            passes_until(app, lambda: game.seen[-1].touch is None, "the stylus to lift")
    if lower_hits < 4:
        sys.exit(f"{label}: only {lower_hits} clicks landed on the lower panel")
    pygame.image.save(shot, str(Path(OUT) / f"{label}.png"))
    print(f"{label}: ok ({lower_hits} touches)", flush=True)


OUT = "."


def screen_size(display: str) -> tuple[int, int]:
    shot = grab_screen(display)
    assert shot is not None, "no libX11 to read the screen"
    return shot.get_size()


def shown_at(display: str, label: str, expected: tuple[int, int, int, int]) -> None:
    """The window covers exactly `expected` (x, y, w, h) of the X screen, as a person sees
    it: the bounding box of everything not black (Xvfb -br), waited for (a busy machine,
    a window manager that takes its time)."""
    rect = None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        shot = grab_screen(display)
        assert shot is not None, "no libX11 to read the screen"
        rect = window_rect(shot)
        if rect is not None and tuple(rect) == expected:
            print(f"{label}: shown at {expected}", flush=True)
            return
        time.sleep(0.2)
    sys.exit(f"{label}: the window is shown at {rect}, not {expected}")


def keys_in_each_window(app: App, display: str) -> None:
    """With one window per screen, a key pressed while either window has the focus is the
    handheld's button (here `x`, the A button)."""
    from hal.interfaces import Button

    game = app.machine.game_scene().game
    env = {"DISPLAY": display, "PATH": "/usr/bin:/bin"}
    for screen in app.display.screens:
        x, y = screen.window.position
        presses = PRESSES[0]
        subprocess.run(  # focus the window by clicking its bezel corner, then the key
            ["xdotool", "mousemove", str(x + 1), str(y + 1), "click", "1"],
            env=env,
            check=True,
            timeout=30,
        )
        passes_until(app, lambda p=presses: PRESSES[0] > p, "the focusing click")
        before = len(game.seen)
        subprocess.run(["xdotool", "key", "x"], env=env, check=True, timeout=30)
        passes_until(
            app,
            lambda b=before: any(Button.A in s.pressed for s in game.seen[b:]),
            f"the A key to reach the game from the {screen.panels[0]} window",
        )
        print(f"key in the {screen.panels[0]} window: ok", flush=True)


def main() -> None:
    global OUT
    parser = argparse.ArgumentParser()
    parser.add_argument("display")
    parser.add_argument("out")
    parser.add_argument("cases", choices=("windowed", "fullscreen", "fullscreen-bare"))
    ns = parser.parse_args()
    OUT = ns.out
    rng = random.Random(26)
    pygame.event.get = counted(pygame.event.get)  # type: ignore[assignment]
    store = started_before(Path(ns.out) / "s.db")
    argv = ["emu", "--store", str(store), "--scale", "1", "--game", "coded"]
    args = build_parser().parse_args(argv)
    app = App(args, cartridges={"coded": CODED})
    try:
        if ns.cases.startswith("fullscreen"):
            # with a window manager (which may place windows its own way), or on a bare X
            # server (fullscreen-bare: issue 34, item 8), where the child places the window
            bare = ns.cases == "fullscreen-bare"
            window = app.display.screens[0].window
            if bare:
                window.size, window.position = (600, 800), (40, 30)
            settle(app)
            before = (*window.position, *window.size)
            if bare:  # (a manager places the window where SDL may not know)
                shown_at(ns.display, "windowed", before)
            app.display.set_fullscreen(True)
            check(app, ns.display, "fullscreen", rng)
            shown_at(ns.display, "fullscreen", (0, 0, *screen_size(ns.display)))
            app.display.set_mode("fit")
            check(app, ns.display, "fullscreen-fit", rng)
            app.display.set_fullscreen(False)
            app.display.set_mode("integer")
            # back to the size (and place) it had before, not the layout's natural size
            settle(app)
            assert tuple(window.size) == before[2:], (window.size, before)
            if bare:
                shown_at(ns.display, "left fullscreen", before)
                check(app, ns.display, "windowed-again", rng)
            print(f"left fullscreen: size {before[2:]} again", flush=True)
            return
        window = app.display.screens[0].window
        window.position = (0, 0)
        for size in ((256, 392), (300, 450), (600, 800), (1000, 900)):
            window.size = size
            check(app, ns.display, f"window-{size[0]}x{size[1]}", rng)
        app.display.set_mode("fit")
        window.size = (700, 1000)
        check(app, ns.display, "fit-700x1000", rng)
        app.display.set_mode("integer")
        app.set_layout(app.display.layout, split=True)
        app.display.screens[0].window.position = (0, 0)
        app.display.screens[1].window.position = (400, 100)
        app.display.screens[1].window.size = (600, 500)
        check(app, ns.display, "two-windows", rng)
        keys_in_each_window(app, ns.display)
    finally:
        app.shutdown()


if __name__ == "__main__":
    main()
