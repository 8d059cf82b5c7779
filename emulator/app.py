"""`twinfold emu` / `python -m emulator`: the firmware in a desktop window (P-BE-2, P-EMU).

The app owns the window, the event queue and the hotkeys; the firmware runs unchanged on a
`Hal` made of the window (`WindowDisplay`), keyboard/mouse/gamepads (`EmuInput`, possibly
replaced by a movie while one plays) and a real monotonic clock, driven by the firmware's
`FixedStepLoop`. Hotkeys act between loop passes, so the game never sees them.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import logging
import os
import secrets
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The window's class (X11 WM_CLASS, Wayland app id), by which desktops group windows, is
# always "twinfold": SDL would take the program's file name (`cli.py` under run.py). Set
# before anything starts SDL's video (reading the keymap's key names may).
os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "twinfold")
os.environ.setdefault("SDL_VIDEO_WAYLAND_WMCLASS", "twinfold")

import pygame

from emulator.audio import make_audio
from emulator.display import WindowDisplay
from emulator.keymap import EmuInput, KeymapError, load_keymap
from emulator.layout import DEFAULT_GAP, Layout, LayoutError, fit_scale
from emulator.quiet import captured_stderr
from firmware import storage
from firmware.arguments import STDOUT, CommandError
from firmware.boot import BootConfig, boot, check_store_path, start_logging
from firmware.boot_arguments import apply_movie_args, movie_argument, profile_of
from firmware.game_api import Cartridge
from firmware.instances import Instance, user_data_dir
from firmware.instances import claim as claim_instance
from firmware.loop import FixedStepLoop
from firmware.machine import SEED_LIMIT, Machine
from firmware.movie import Movie, MoviePlayer, MovieRecorder
from hal.clock import MonotonicClock
from hal.interfaces import Clock, Hal, InputSource, RawInput

log = logging.getLogger("twinfold")

FAST_FORWARD_SPEED = 4
STATUS_SECONDS = 3.0
QUIT_CONFIRM_SECONDS = 2.0
STATE_SLOTS = 4
STATE_FORMAT = "twinfold-state-1"


def default_data_dir() -> Path:
    """The per-user data directory: store, keymap, screenshots, movies, state slots, log."""
    return user_data_dir()


def timestamp() -> str:
    return dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")[:-3]


class SessionInput(InputSource):
    """What the machine polls: a movie's frames while one plays, else the live devices.

    While recording, every tick's input is handed to the recorder, so the movie holds
    exactly what the firmware saw (movie frames after the movie's end come from the user).
    """

    def __init__(self, live: EmuInput) -> None:
        self.live = live
        self.player: MoviePlayer | None = None
        self.movie_end = -1
        self.recorder: MovieRecorder | None = None

    def play(self, movie: Movie | None) -> None:
        self.player = MoviePlayer(movie) if movie is not None else None
        self.movie_end = movie.last_frame if movie is not None else -1

    def playing(self, tick: int) -> bool:
        return self.player is not None and tick <= self.movie_end

    def poll(self, tick: int) -> RawInput:
        if self.player is not None and tick <= self.movie_end:
            raw = replace(self.player.input_at(tick), quit_requested=self.live.quit_requested)
        else:
            raw = self.live.poll(tick)
        if self.recorder is not None:
            self.recorder.feed(raw)
        return raw


class TimedMachine:
    """The loop's view of the machine: forwards to the current one (reset swaps it) and
    measures the host time each frame costs, for the overlay."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._work = 0.0
        self.frame_costs: collections.deque[float] = collections.deque(maxlen=60)
        self.present_times: collections.deque[float] = collections.deque(maxlen=61)

    def _timed(self, fn: Any) -> None:
        t0 = time.perf_counter()
        fn()
        self._work += time.perf_counter() - t0

    def step(self) -> None:
        self._timed(self.app.machine.step)

    def render(self) -> None:
        self._timed(self.app.machine.render)

    def present(self) -> None:
        self._timed(self.app.machine.present)
        self.frame_costs.append(self._work)
        self._work = 0.0
        self.present_times.append(time.perf_counter())

    def fps(self) -> float:
        times = self.present_times
        if len(times) < 2 or times[-1] <= times[0]:
            return 0.0
        return (len(times) - 1) / (times[-1] - times[0])


class App:
    """One emulator session. Tests drive it pass by pass with a simulated clock."""

    def __init__(
        self,
        args: argparse.Namespace,
        *,
        clock: Clock | None = None,
        data_dir: Path | None = None,
        cartridges: dict[str, Cartridge] | None = None,
    ) -> None:
        self.args = args
        self.cartridges = cartridges
        store_path = Path(args.store) if args.store else None
        # Every running emulator is its own unit (firmware/instances.py): its store is held
        # from here to the end, a second emulator on the same data directory becomes the
        # next instance, and an explicit --store in use is refused naming its holder.
        self.instance: Instance | None = None
        self._held: Path | None = None
        if store_path is not None:
            check_store_path(store_path)
            self._hold(store_path)
        if data_dir is None and store_path is None:
            self.instance = self._claim_instance(default_data_dir())
            data_dir = self.instance.data_dir
        elif data_dir is None:
            assert store_path is not None
            data_dir = store_path.parent
        self.data_dir = data_dir
        keymap_dir = self.instance.base if self.instance is not None else data_dir
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._let_go()
            raise CommandError(f"cannot create the data directory {data_dir}: {exc}") from None
        try:
            self._start(args, data_dir, keymap_dir, clock)
        except BaseException:
            self._let_go()
            raise

    def _hold(self, store_path: Path) -> None:
        try:
            storage.acquire(store_path)
        except storage.StoreError as exc:
            raise CommandError(str(exc)) from None
        self._held = store_path

    def _claim_instance(self, base: Path) -> Instance:
        try:
            instance = claim_instance(base)
        except storage.StoreError as exc:
            raise CommandError(str(exc)) from None
        if instance.number > 1:
            print(
                f"twinfold emu: another emulator is running on {base}; this one is"
                f" {instance.label}, with its own store, log and states in"
                f" {instance.data_dir}",
                file=sys.stderr,
            )
        return instance

    def _let_go(self) -> None:
        """Give up the store's lock (at the end, or when starting failed)."""
        if self.instance is not None:
            self.instance.release()
        if self._held is not None:
            storage.release(self._held)
            self._held = None

    def _start(
        self, args: argparse.Namespace, data_dir: Path, keymap_dir: Path, clock: Clock | None
    ) -> None:
        self.movie = movie_argument(args.movie) if args.movie else None
        if self.movie is not None:
            apply_movie_args(args, self.movie, args.movie)
        if args.record:
            self._check_record_path(Path(args.record), force=bool(getattr(args, "force", False)))
        try:
            self.keymap = load_keymap(keymap_dir)
        except KeymapError as exc:
            raise CommandError(str(exc)) from None
        # A recording must replay exactly, so a session that records pins its seed.
        self.seed: int | None = args.seed
        # A desktop has a spare core: computer players search in a worker process there.
        spare = (os.cpu_count() or 1) > 1
        self.profile = profile_of(args, "desktop-worker" if spare else "desktop")
        if args.record and self.seed is None:
            self.seed = secrets.randbelow(SEED_LIMIT)
        self.clock = clock or MonotonicClock()
        self.log_path = start_logging(data_dir)
        if self.instance is not None and self.instance.number > 1:
            log.info("emulator %s in %s", self.instance.label, data_dir)
        _open_video()
        pygame.joystick.init()
        layout = self._initial_layout()
        try:
            with captured_stderr("the video library"):
                self.display = WindowDisplay(layout)
        except pygame.error as exc:
            raise CommandError(f"cannot open a window: {exc}") from None
        self.link = None
        if getattr(args, "link", None):  # the radio: air://CHANNEL?... or a serial port
            from hal.link.serial_link import LinkError, SerialLink

            try:
                self.link = SerialLink.open(args.link)
            except LinkError as exc:
                pygame.display.quit()
                raise CommandError(str(exc)) from None
        self.live = EmuInput(self.keymap, self.display.geometry)
        self.input = SessionInput(self.live)
        self.hal = Hal(
            name="emulator",
            display=self.display,
            input=self.input,
            clock=self.clock,
            data_dir=data_dir,
        )
        if self.link is not None:
            self.hal.link = self.link
        with captured_stderr("the audio library"):
            audio = make_audio()
        if audio is not None:
            self.hal.audio = audio
        try:
            self.machine = self._boot()
        except CommandError:
            pygame.display.quit()
            raise
        self.store = self.machine.store
        if args.swap:
            self.machine.settings.swap = True
        self.timed = TimedMachine(self)
        self.loop = FixedStepLoop(self.timed, self.clock)
        self.overlay = False
        self.passes = 0
        self.quitting = False
        self._shut = False
        self._status_until = 0.0
        self._quit_armed_until = -1.0
        self.record_path: Path | None = None
        if args.record:
            self.start_recording(Path(args.record), reset=False)
        self._sync_layout()
        self._update_title()

    # ------------------------------------------------------------------ building
    def _initial_layout(self) -> Layout:
        args = self.args
        gap = DEFAULT_GAP if args.gap is None else args.gap
        try:
            if args.scale is None:
                desktop = pygame.display.get_desktop_sizes() or [(1024, 768)]
                dw, dh = desktop[0]
                bounds = (int(dw * 0.9), int(dh * 0.85))  # leave room for the title bar, dock
                scale = fit_scale(args.layout, min(max(gap, 0), 256), bounds)
            else:
                scale = args.scale
            return Layout(args.layout, scale, gap, swap=bool(args.swap))
        except LayoutError as exc:
            raise CommandError(str(exc)) from None

    def boot_config(self) -> BootConfig:
        args = self.args
        return BootConfig(
            store_path=Path(args.store) if args.store else None,
            log_dir=self.data_dir,
            game=args.game,
            options=dict(args.option),
            seed=self.seed,
            cartridges=self.cartridges,
            profile=self.profile,
        )

    def _boot(self) -> Machine:
        """A freshly powered-on machine (boot options, seed and movie from the arguments);
        the first boot opens the store and the log, a reset reuses them."""
        self.input.play(self.movie)
        store = getattr(self, "store", None)
        machine = boot(self.hal, self.boot_config(), store=store)
        name = getattr(self.args, "name", None)
        if name and machine.link is not None:
            machine.link.rename(name)
        return machine

    @staticmethod
    def _check_record_path(path: Path, *, force: bool) -> None:
        """Refuse, before the window opens, a --record path that would lose or not keep data."""
        if str(path) == STDOUT:
            return
        if path.is_dir():
            raise CommandError(f"cannot record to {path}: it is a folder")
        if path.exists() and not force:
            raise CommandError(
                f"{path} exists; pass --force to replace it, or choose another file name"
            )
        folder = path.resolve().parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise CommandError(f"cannot write the movie {path}: no writable folder")

    # ------------------------------------------------------------------ running
    def run(self, frames: int | None = None) -> int:
        """Pass after pass until the window closes, quit is asked for, or `frames` passes."""
        self.loop.resync()
        try:
            while not self.quitting:
                self.pass_once()
                if frames is not None and self.passes >= frames:
                    break
        finally:
            self.shutdown()
        return 0

    def pass_once(self) -> int:
        """Events and hotkeys, then one loop pass (owed ticks, one present, the wait)."""
        self.process_events()
        if self.quitting:
            return 0
        self._update_hud()
        steps = self.loop.pass_once()
        self.passes += 1
        if self.machine.quit_requested or self.live.quit_requested:
            self.quitting = True
        self._sync_layout()
        self._update_title()
        if steps == 0:
            self.display.redraw()
        return steps

    def process_events(self) -> None:
        lid_was_closed = self.live.lid_closed
        for action, pressed in self.live.handle_all(pygame.event.get()):
            self.hotkey(action, pressed)
        if self.live.lid_closed != lid_was_closed:
            self.say("lid closed: the game is suspended" if self.live.lid_closed else "lid open")
        if self.live.quit_requested:
            self.quitting = True

    def shutdown(self) -> None:
        """Save what must survive: a recording in progress and the running game (resume)."""
        if self._shut:
            return
        self._shut = True
        if self.input.recorder is not None:
            self.stop_recording()
        self.machine.suspend_game()
        if self.machine.link is not None:
            self.machine.link.shutdown()  # a versus partner is told at once
        self.store.close()
        self._let_go()
        if self.link is not None:
            self.link.close()
        pygame.display.quit()

    # ------------------------------------------------------------------ hotkeys
    def hotkey(self, action: str, pressed: bool) -> None:
        if action == "fast_forward":
            self.loop.speed = FAST_FORWARD_SPEED if pressed else 1
            return
        if not pressed:
            return
        if action.startswith("save_state_"):
            self.save_state(int(action.rsplit("_", 1)[1]))
        elif action.startswith("load_state_"):
            self.load_state(int(action.rsplit("_", 1)[1]))
        else:
            getattr(self, f"_hk_{action}")()

    def _hk_pause(self) -> None:
        self.loop.paused = not self.loop.paused
        if not self.loop.paused:
            self.loop.resync()
        self.say("paused (P resumes, N advances one frame)" if self.loop.paused else "resumed")

    def _hk_frame_advance(self) -> None:
        if not self.loop.paused:
            self.loop.paused = True
            self.say("paused")
        self.timed.step()
        self.timed.render()
        self.timed.present()

    def _hk_screenshot(self) -> None:
        path = self.data_dir / "screenshots" / f"twinfold-{timestamp()}.png"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(self.display.screenshot(), str(path))
        except (OSError, pygame.error) as exc:
            self.say(f"screenshot failed: {exc}")
            return
        self.display.flash()
        self.say(f"screenshot {path}")
        log.info("screenshot saved to %s", path)

    def _hk_record(self) -> None:
        if self.input.recorder is None:
            self.start_recording(self.data_dir / "movies" / f"twinfold-{timestamp()}.movie")
        else:
            self.stop_recording()

    def _hk_reset(self) -> None:
        if self.input.recorder is not None:
            self.stop_recording()
        self.reset()
        self.say("reset")

    def _hk_overlay(self) -> None:
        self.overlay = not self.overlay

    def _hk_layout(self) -> None:
        self.set_layout(self.display.layout.next_kind())
        self.say(f"layout: {self.display.layout.kind}")

    def _hk_focus(self) -> None:
        layout = self.display.layout.toggle_focus()
        self.set_layout(layout)
        if layout.kind == "hybrid":
            self.say(f"large screen: {layout.focus}")
        elif layout.kind == "single":
            self.say(f"showing the {layout.focus} screen")
        else:
            self.say("this key picks the large screen in hybrid and the shown one in single")

    def _hk_swap(self) -> None:
        self.machine.settings.swap = not self.machine.settings.swap
        self.machine.save_settings()
        self._sync_layout()
        self.say("screens swapped" if self.machine.settings.swap else "screens not swapped")

    def _hk_scale_up(self) -> None:
        self.set_layout(self.display.layout.with_scale(self.display.layout.scale + 1))

    def _hk_scale_down(self) -> None:
        self.set_layout(self.display.layout.with_scale(self.display.layout.scale - 1))

    def _hk_quit(self) -> None:
        now = self.clock.now()
        if now <= self._quit_armed_until:
            self.quitting = True
        else:
            self._quit_armed_until = now + QUIT_CONFIRM_SECONDS
            self.say("press again within 2 s to quit")

    def _hk_quit_now(self) -> None:
        self.quitting = True

    # ------------------------------------------------------------------ actions
    def say(self, message: str) -> None:
        """A short status line along the bottom of the window."""
        self.display.status = message
        self._status_until = self.clock.now() + STATUS_SECONDS

    def reset(self) -> None:
        """Power cycle: a new machine on the same store, boot options and seed."""
        self.machine = self._boot()
        if self.args.swap:
            self.machine.settings.swap = True
        self.loop.resync()

    def set_layout(self, layout: Layout) -> None:
        previous = self.display.layout
        try:
            self.display.set_layout(layout)
        except pygame.error as exc:  # e.g. a window larger than the system allows
            self.say(f"cannot show that layout: {exc}")
            self.display.set_layout(previous)
        self.live.geometry = self.display.geometry

    def _sync_layout(self) -> None:
        """Follow the firmware's swap setting (the settings screen may change it)."""
        swap = self.machine.settings.swap
        if self.display.layout.swap != swap:
            self.set_layout(self.display.layout.with_swap(swap))

    def start_recording(self, path: Path, *, reset: bool = True) -> None:
        """Record from power-on: movies replay from boot, so recording starts with a reset
        (with a pinned seed, which the movie's `# args:` line keeps)."""
        if self.seed is None:
            self.seed = secrets.randbelow(SEED_LIMIT)
        if reset:
            self.reset()
        self.input.recorder = MovieRecorder()
        self.record_path = path
        self.say(f"recording to {path}")

    def stop_recording(self) -> Path | None:
        recorder, path = self.input.recorder, self.record_path
        self.input.recorder = None
        self.record_path = None
        if recorder is None or path is None:
            return None
        movie = replace(recorder.movie(), args=self.movie_args())
        text = movie.to_text(comment=self.replay_hint(path))
        if str(path) == STDOUT:
            sys.stdout.write(text)
            sys.stdout.flush()
            return path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:
            self.say(f"could not write the movie: {exc}")
            log.error("could not write movie %s: %s", path, exc)
            return None
        self.say(f"movie saved: {path}")
        log.info("movie saved to %s", path)
        return path

    def movie_args(self) -> tuple[str, ...]:
        """The arguments that reproduce this session (a recording's `# args:` line)."""
        args: list[str] = []
        if self.args.game:
            args += ["--game", self.args.game]
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        for key, value in self.args.option:
            args += ["--option", f"{key}={value}"]
        args += ["--profile", self.profile.name]
        return tuple(args)

    def replay_hint(self, path: Path) -> str:
        """How to replay a recording of this session (a comment in the movie)."""
        return (
            f"recorded by twinfold emu; replay: twinfold headless --movie {path.name} "
            f"(or twinfold emu --movie {path.name})"
        )

    def slot_path(self, slot: int) -> Path:
        return self.data_dir / "states" / f"slot-{slot}.json"

    def save_state(self, slot: int) -> bool:
        snapshot = self.machine.snapshot()
        if snapshot is None:
            self.say("no game is running: nothing to save")
            return False
        data = {"format": STATE_FORMAT, "tick": self.machine.tick, "snapshot": snapshot}
        path = self.slot_path(slot)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(json.dumps(data), encoding="utf-8")
            os.replace(tmp, path)
        except (OSError, TypeError, ValueError) as exc:
            self.say(f"could not save slot {slot}: {exc}")
            return False
        self.say(f"saved state slot {slot}")
        return True

    def load_state(self, slot: int) -> bool:
        if self.input.recorder is not None:
            self.say("stop recording first: a movie cannot contain a state load")
            return False
        path = self.slot_path(slot)
        if not path.exists():
            self.say(f"state slot {slot} is empty")
            return False
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
                raise ValueError("not a Twinfold state slot")
            self.machine.restore(data["snapshot"])
        except Exception as exc:  # a bad slot, or a game refusing its state: say so
            self.say(f"cannot load state slot {slot}: {exc}")
            log.warning("state slot %s not loaded: %s", path, exc)
            return False
        self.say(f"loaded state slot {slot}")
        return True

    # ------------------------------------------------------------------ display
    def _update_hud(self) -> None:
        if self.display.status and self.clock.now() > self._status_until:
            self.display.status = ""
        if not self.overlay:
            self.display.hud = []
            return
        costs = self.timed.frame_costs
        avg = 1000 * sum(costs) / len(costs) if costs else 0.0
        worst = 1000 * max(costs) if costs else 0.0
        flags = []
        if self.loop.paused:
            flags.append("PAUSED")
        if self.loop.speed > 1:
            flags.append(f"FF x{self.loop.speed}")
        if self.input.recorder is not None:
            flags.append("REC")
        if self.input.playing(self.machine.tick):
            flags.append("MOVIE")
        self.display.hud = [
            f"{self.timed.fps():5.1f} FPS",
            f"frame {avg:5.2f} ms avg {worst:5.2f} max",
            f"tick {self.machine.tick} dropped {self.loop.stats.dropped_ticks}",
            *([" ".join(flags)] if flags else []),
        ]

    def _update_title(self) -> None:
        self.display.set_title(window_title(self))


def window_title(app: App) -> str:
    game = app.machine.game_scene()
    what = game.cartridge.title if game is not None else app.machine.scene.name
    parts = [f"Twinfold - {what}"]
    if app.instance is not None and app.instance.number > 1:
        parts.append(f"({app.instance.label})")
    if app.loop.paused:
        parts.append("[paused]")
    if app.input.recorder is not None:
        parts.append("[rec]")
    return " ".join(parts)


def _open_video() -> None:
    """Start SDL's video (the mixer is opened separately: see emulator.audio).

    Without a desktop SDL falls back to an invisible "offscreen" window; unless that was asked
    for (SDL_VIDEODRIVER, as the tests do), say so instead of running where nobody can see.
    """
    try:
        with captured_stderr("the video library"):
            pygame.display.init()
    except pygame.error as exc:
        raise CommandError(f"cannot open a window: {exc}") from None
    driver = pygame.display.get_driver()
    if driver in ("offscreen", "dummy") and not os.environ.get("SDL_VIDEODRIVER"):
        pygame.display.quit()
        raise CommandError(
            "no desktop to open a window on (DISPLAY / WAYLAND_DISPLAY not set); "
            "`twinfold headless` runs without one"
        )


def run_from_args(args: argparse.Namespace) -> int:
    """The `emu` command's handler (also `python -m emulator`)."""
    app = App(args)

    def terminate(signum: int, frame: object) -> None:
        app.live.quit_requested = True  # SIGTERM: shut down cleanly, like closing the window

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        return app.run(frames=args.frames)
    finally:
        signal.signal(signal.SIGTERM, previous)
