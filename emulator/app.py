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
import logging
import os
import secrets
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from emulator.audio import make_audio
from emulator.clip import CLIP_FORMATS, CLIP_SECONDS, write_clip
from emulator.display import WindowDisplay
from emulator.keymap import EmuInput, KeymapError, load_keymap
from emulator.layout import DEFAULT_GAP, LAYOUTS, Kind, Layout, LayoutError, fit_scale
from emulator.messages import shown_path
from emulator.quiet import captured_stderr
from emulator.rewind import History, Rewinder
from emulator.soundtrack import SoundLog
from emulator.states import STATE_SLOTS, read_slot, read_slot_quietly, thumbnail, write_slot
from emulator.viewport import Mode
from firmware import storage
from firmware.arguments import STDOUT, CommandError
from firmware.boot import BootConfig, boot, check_store_path, start_logging
from firmware.boot_arguments import apply_movie_args, movie_argument, profile_of
from firmware.checkpoint import Checkpoint, capture, restore
from firmware.game_api import Cartridge
from firmware.instances import Instance, user_data_dir
from firmware.instances import claim as claim_instance
from firmware.loop import FixedStepLoop
from firmware.machine import SEED_LIMIT, Machine
from firmware.movie import Movie, MoviePlayer, MovieRecorder
from hal.clock import MonotonicClock
from hal.interfaces import TICK_HZ, Clock, Hal, InputSource, RawInput

log = logging.getLogger("twinfold")

WINDOW_EVENTS = (pygame.WINDOWSIZECHANGED, pygame.WINDOWRESIZED, pygame.WINDOWEXPOSED)
FAST_FORWARD_SPEED = 4
# Hotkeys that act on the machine's state: not while rewinding (the machine is then at the
# end of the rebuilt segment, not at the frame on screen).
CHANGES_THE_MACHINE = frozenset(
    {*(f"save_state_{n}" for n in range(1, 5)), *(f"load_state_{n}" for n in range(1, 5))}
    | {"undo_load_state", "reset", "record", "clip", "frame_advance"}
)
STATUS_SECONDS = 3.0
QUIT_CONFIRM_SECONDS = 2.0


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
        # While the rewind history replays: its recorded input instead of all of the above.
        self.override: Callable[[int], RawInput] | None = None
        self.history: History | None = None  # told every polled input (rewind, clips)

    def play(self, movie: Movie | None) -> None:
        self.player = MoviePlayer(movie) if movie is not None else None
        self.movie_end = self.player.end if self.player is not None else -1

    def landed(self, tick: int, request: int, poll: int) -> None:
        """A computer's late answer was applied (firmware.match.pacing): into the movie
        being recorded, so it replays at the same tick."""
        if self.recorder is not None:
            self.recorder.computer(tick, request, poll)

    def playing(self, tick: int) -> bool:
        return self.player is not None and tick <= self.movie_end

    def poll(self, tick: int) -> RawInput:
        if self.override is not None:
            return self.override(tick)
        if self.player is not None and tick <= self.movie_end:
            raw = replace(self.player.input_at(tick), quit_requested=self.live.quit_requested)
        else:
            raw = self.live.poll(tick)
        if self.recorder is not None:
            self.recorder.feed(raw)
        if self.history is not None:
            self.history.record(tick, raw)
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
        self._timed(self.app.step)

    def render(self) -> None:
        if not self.app.rewinder.active:  # a rewound frame comes drawn from the history
            self._timed(self.app.machine.render)

    def present(self) -> None:
        self._timed(self.app.present)
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
        self.clip_format = str(getattr(args, "clip_format", "gif"))
        if CLIP_FORMATS[self.clip_format][0] == ".mp4":
            from emulator.video import load_av

            load_av()  # no PyAV: say so now, not when the clip hotkey is pressed
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
                self.display = WindowDisplay(
                    layout,
                    split=args.layout == "windows",
                    mode="fit" if getattr(args, "fit", False) else "integer",
                    fullscreen=bool(getattr(args, "fullscreen", False)),
                )
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
        self.live = EmuInput(self.keymap, self.display)
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
        self.history = History()
        self.undo_point: Checkpoint | None = None  # the machine a state load replaced
        self._paused_before_picker = False
        self.input.history = self.history
        self.rewinder = Rewinder(self.history, self.input)
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
            # windows: each window shows one panel; the layout key then turns to vertical
            kind: Kind = "single" if args.layout == "windows" else args.layout
            if args.scale is None:
                desktop = pygame.display.get_desktop_sizes() or [(1024, 768)]
                dw, dh = desktop[0]
                bounds = (int(dw * 0.9), int(dh * 0.85))  # leave room for the title bar, dock
                if args.layout == "windows":
                    bounds = (bounds[0] // 2, bounds[1])
                scale = fit_scale(kind, min(max(gap, 0), 256), bounds)
            else:
                scale = args.scale
            if args.layout == "windows":
                kind = "vertical"  # what the layout key turns back into
            return Layout(kind, scale, gap, swap=bool(args.swap))
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
            # a person at the window: a first start offers the language choice, and --game
            # with a saved game of it waiting offers Continue / New game (not during a movie)
            ask_language=self.movie is None,
            offer_resume=self.movie is None,
        )

    def _boot(self) -> Machine:
        """A freshly powered-on machine (boot options, seed and movie from the arguments);
        the first boot opens the store and the log, a reset reuses them."""
        self.input.play(self.movie)
        store = getattr(self, "store", None)
        machine = boot(self.hal, self.boot_config(), store=store)
        machine.pacing.script = self.input.player  # a movie's late worker answers
        machine.pacing.recorder = self.input.landed  # and a recording's
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
        events = pygame.event.get()
        for event in events:
            if event.type == pygame.WINDOWCLOSE:  # either window of two: quit, like one
                self.live.quit_requested = True
            elif event.type in WINDOW_EVENTS:
                self.display.window_event(event)
        for action, pressed in self.live.handle_all(events):
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
        self.display.close()
        pygame.display.quit()

    # ------------------------------------------------------------------ hotkeys
    def hotkey(self, action: str, pressed: bool) -> None:
        if action == "fast_forward":
            self.loop.speed = FAST_FORWARD_SPEED if pressed else 1
            return
        if action == "rewind":
            self.start_rewind() if pressed else self.stop_rewind()
            return
        if not pressed:
            return
        if self.rewinder.active and action in CHANGES_THE_MACHINE:
            self.say("release the rewind key first")
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
        self.say(f"screenshot {shown_path(path)}")
        log.info("screenshot saved to %s", path)

    def _hk_undo_load_state(self) -> None:
        self.undo_load_state()

    def _hk_clip(self) -> None:
        self.save_clip()

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
        """Next layout; after the last of one window, two windows (then back to the first)."""
        layout = self.display.layout
        if self.display.split:
            self.set_layout(layout.with_kind(LAYOUTS[0]), split=False)
        elif layout.kind == LAYOUTS[-1]:
            self.set_layout(layout, split=True)
        else:
            self.set_layout(layout.next_kind())
        self.say(f"layout: {self.layout_name()}")

    def layout_name(self) -> str:
        return "windows" if self.display.split else self.display.layout.kind

    def _hk_fullscreen(self) -> None:
        if self.display.split:
            self.say("fullscreen needs one window (F7 changes the layout)")
            return
        self.display.set_fullscreen(not self.display.fullscreen)
        self.say("fullscreen" if self.display.fullscreen else "windowed")

    def _hk_fit_mode(self) -> None:
        mode: Mode = "fit" if self.display.mode == "integer" else "integer"
        self.display.set_mode(mode)
        self.say("largest fit" if mode == "fit" else "whole-number scale (crisp pixels)")

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

    # ------------------------------------------------------------------ rewind
    def step(self) -> None:
        """One tick forward (recording the rewind history), or one frame back."""
        if self.rewinder.active:
            if not self.rewinder.back(self.machine):
                self.say("rewind: this is as far back as the history goes")
            return
        if self.in_link_match():
            self.history.clear()  # nothing from a link match can be rewound into
        else:
            self.history.before_step(self.machine)
        self.machine.step()

    def present(self) -> None:
        frame = self.rewinder.frame() if self.rewinder.active else None
        if frame is None:
            self.machine.present()
        elif frame.blank:
            self.display.blank()
        else:
            upper, lower = (frame.bottom, frame.top) if frame.swap else (frame.top, frame.bottom)
            self.display.present(upper, lower)

    def in_link_match(self) -> bool:
        """A versus session is open: the other unit cannot go back with this one."""
        link = self.machine.link
        return link is not None and link.session is not None

    def start_rewind(self) -> bool:
        if self.in_link_match():
            self.say("no rewind during a link match: the other unit cannot rewind with you")
            return False
        if self.input.recorder is not None:
            self.say("stop recording first: a movie cannot contain a rewind")
            return False
        if not self.rewinder.start(self.machine):
            self.say("nothing to rewind yet")
            return False
        self.say("rewinding (release to play on)")
        return True

    def stop_rewind(self) -> None:
        if self.rewinder.active:
            position = self.rewinder.stop(self.machine)
            self.loop.resync()
            self.say(f"playing on from frame {position}")

    def save_clip(self, seconds: int = CLIP_SECONDS) -> Path | None:
        """The last `seconds` of play as a clip in `clips/` (GIF, APNG or MP4 with sound:
        `--clip-format`), replayed from the rewind history at the window's layout and
        scale; the game then goes on unchanged."""
        oldest = self.history.oldest
        if self.rewinder.active or oldest is None or self.machine.tick <= oldest:
            self.say(
                "nothing to clip yet"
                if not self.in_link_match()
                else "no clips during a link match: the history is not kept"
            )
            return None
        end = self.machine.tick
        start = max(oldest, end - seconds * TICK_HZ)
        extension, mp4 = CLIP_FORMATS[self.clip_format]
        path = self.data_dir / "clips" / f"twinfold-{timestamp()}{extension}"
        layout = self.display.layout
        if self.display.split:  # one window per screen: the clip shows them as vertical
            layout = layout.with_kind("vertical")
        geometry = layout.geometry()
        now = capture(self.machine)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            sound = SoundLog(lambda: self.machine.tick)
            frames = self.history.frames(self.machine, self.input, start, end, sound)
            write_clip(frames, path, geometry, sound=sound, mp4=mp4)
        except (OSError, ValueError, CommandError) as exc:
            self.say(f"clip failed: {exc}")
            log.warning("clip not saved: %s", exc)
            return None
        finally:
            restore(self.machine, now)
            self.loop.resync()
        self.say(f"clip {shown_path(path)}")
        log.info("clip of frames %d..%d saved to %s", start, end, path)
        return path

    # ------------------------------------------------------------------ actions
    def say(self, message: str) -> None:
        """A short status line along the bottom of the window."""
        self.display.status = message
        self._status_until = self.clock.now() + STATUS_SECONDS

    def reset(self) -> None:
        """Power cycle: a new machine on the same store, boot options and seed."""
        self.rewinder.cancel()
        self.history.clear()
        self.machine = self._boot()
        if self.args.swap:
            self.machine.settings.swap = True
        self.loop.resync()

    def set_layout(self, layout: Layout, *, split: bool | None = None) -> None:
        previous, was_split = self.display.layout, self.display.split
        try:
            self.display.set_layout(layout, split=split)
        except pygame.error as exc:  # e.g. a window larger than the system allows
            self.say(f"cannot show that layout: {exc}")
            self.display.set_layout(previous, split=was_split)

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
        self.say(f"recording to {shown_path(path)}")

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
        self.say(f"movie saved: {shown_path(path)}")
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
        self.machine.render()  # the thumbnail shows the state saved, drawn now
        thumb = thumbnail(self.machine.top, self.machine.bottom)
        try:
            write_slot(self.slot_path(slot), snapshot, self.machine.tick, thumb)
        except (OSError, TypeError, ValueError) as exc:
            self.say(f"could not save slot {slot}: {exc}")
            return False
        self.say(f"saved state slot {slot}")
        self._refresh_picker()
        return True

    def load_state(self, slot: int) -> bool:
        """Load a slot; the state it replaces is kept for `undo_load_state`."""
        if self.input.recorder is not None:
            self.say("stop recording first: a movie cannot contain a state load")
            return False
        path = self.slot_path(slot)
        if not path.exists():
            self.say(f"state slot {slot} is empty")
            return False
        replaced = capture(self.machine)
        try:
            found = read_slot(path, slot)
            assert found.snapshot is not None  # read_slot refuses a slot without one
            self.machine.restore(found.snapshot)
        except Exception as exc:  # a bad slot, or a game refusing its state: say so
            restore(self.machine, replaced)  # whatever the failed load did is undone
            self.say(f"cannot load state slot {slot}: {exc}")
            log.warning("state slot %s not loaded: %s", path, exc)
            return False
        self.undo_point = replaced
        self.history.clear()
        self.close_picker()
        self.say(f"loaded state slot {slot} ({self.keys_for('undo_load_state')} undoes it)")
        return True

    def undo_load_state(self) -> bool:
        """Put back the machine a state load replaced, exactly as it was."""
        if self.undo_point is None:
            self.say("no state load to undo")
            return False
        if self.input.recorder is not None:
            self.say("stop recording first: a movie cannot contain a state load")
            return False
        restore(self.machine, self.undo_point)
        self.undo_point = None
        self.history.clear()
        self.loop.resync()
        self.say("state load undone")
        return True

    def keys_for(self, action: str) -> str:
        """The first key bound to a hotkey, as the keymap names it (for messages)."""
        keys = self.keymap.source.get("hotkeys", {}).get(action, [])
        keys = [keys] if isinstance(keys, str) else keys
        return keys[0] if keys else action

    # ------------------------------------------------------------------ slot picker
    def _hk_state_picker(self) -> None:
        if self.display.picker is not None:
            self.close_picker()
        else:
            self._paused_before_picker = self.loop.paused
            self.loop.paused = True
            self._refresh_picker(force=True)

    def _refresh_picker(self, force: bool = False) -> None:
        if self.display.picker is None and not force:
            return
        titles = {c.id: c.title for c in self.machine.cartridges.values()}
        slots = [read_slot_quietly(self.slot_path(n), n) for n in range(1, STATE_SLOTS + 1)]
        self.display.picker = (slots, titles)

    def close_picker(self) -> None:
        if self.display.picker is None:
            return
        self.display.picker = None
        self.loop.paused = self._paused_before_picker
        self.loop.resync()

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
