"""`twinfold device`: the firmware on the Raspberry Pi backend.

`build_hal` assembles the devices from the config (framebuffer panels, evdev input, SDL
audio where there is a sound device, the serial radio); `boot` is the single place the
machine is created (it becomes one call into the firmware's shared boot path when that
lands); `DeviceRunner` drives the fixed-step loop, pings the systemd watchdog from it, and
on the way out saves the running game, says STOPPING=1 and, after a long POWER press, runs
the shutdown command.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # surfaces only: the panels are framebuffers
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from firmware.boot import BootConfig, open_store
from firmware.boot import boot as firmware_boot
from firmware.loop import FixedStepLoop
from firmware.machine import Machine
from firmware.match.profiles import DEFAULT_PROFILE, DeviceProfile
from firmware.match.profiles import PROFILES as MATCH_PROFILES
from firmware.match.worker import close_all as stop_workers
from firmware.movie import Movie
from firmware.storage import Store
from firmware.store_rescue import StoreNotice
from hal.backends.device.battery import SysfsBattery
from hal.backends.device.config import BatteryConfig, DeviceConfig, InputConfig
from hal.backends.device.evdev_input import EvdevInput
from hal.backends.device.framebuffer import FramebufferDisplay
from hal.backends.device.notify import Notifier
from hal.backends.device.profile import PROFILES as BOARDS
from hal.backends.device.profile import detect_profile
from hal.backends.device.radio import open_radio
from hal.backends.device.wifi import SystemdWifi
from hal.clock import MonotonicClock
from hal.interfaces import (
    SCREEN_H,
    SCREEN_W,
    TICK_HZ,
    Battery,
    BatteryPolicy,
    ByteLink,
    Clock,
    Hal,
    NoBattery,
)
from hal.touch import Calibration, TouchFilterConfig
from handheld.movie_input import MovieInput
from handheld.slots import launcher_note

# The resistive panel's filters; a tap shorter than a frame is held long enough to pass them.
TOUCH_PROFILE = TouchFilterConfig.RESISTIVE

log = logging.getLogger("twinfold")

# Until Settings > Calibrate has been run, the whole 12-bit ADC range spans the screen, so
# the stylus already lands roughly where it points (good enough to reach the calibration).
UNCALIBRATED = Calibration(SCREEN_W / 4096, 0.0, 0.0, 0.0, SCREEN_H / 4096, 0.0)


@dataclass
class BootOptions:
    game: str | None = None
    seed: int | None = None  # None: a fresh seed for every game start
    options: dict[str, str] = field(default_factory=dict)
    store: Path | None = None
    movie: Movie | None = None  # input from this movie until its last event (--movie)
    profile: str | None = None  # the match layer's profile by name (--profile); None: the board's


def build_hal(
    config: DeviceConfig,
    data_dir: Path,
    *,
    input_source: EvdevInput | None = None,
    clock: Clock | None = None,
    link: ByteLink | None = None,
) -> Hal:
    """The device's `Hal` from its config (`link`: a radio opened already, over the
    config's). Missing hardware degrades, it does not stop."""
    from hal.quiet import captured_stderr
    from hal.sdl_audio import make_audio

    display = FramebufferDisplay(config.display)
    hal = Hal(
        name="device",
        display=display,
        input=input_source
        or EvdevInput(config.input, touch_frames=TOUCH_PROFILE.settle_samples + 1),
        clock=clock or MonotonicClock(),
        data_dir=data_dir,
        link=link or open_radio(config.radio),
        battery=build_battery(config.battery),
        wifi=SystemdWifi(),  # a match's own Wi-Fi network, where the unit has Wi-Fi
    )
    if config.system.audio:
        if config.system.audio_device:
            os.environ["AUDIODEV"] = config.system.audio_device  # SDL's ALSA device
        with captured_stderr("the audio library"):  # ALSA's lines go to the log
            audio = make_audio()
        if audio is not None:
            hal.audio = audio
    return hal


def build_battery(config: BatteryConfig) -> Battery:
    """The battery from `[battery]` (P-HW-8): the kernel's power_supply class, or none."""
    if not config.enabled:
        return NoBattery()
    policy = BatteryPolicy(
        low=config.low_percent,
        critical=config.critical_percent,
        poll_ticks=max(1, round(config.poll_seconds * TICK_HZ)),
    )
    return SysfsBattery(Path(config.root), config.name, policy)


# Fraction of the development machine's single-thread Python speed for each board (how the
# figures were estimated: hal/backends/device/profile.py); the one table is the match layer's,
# so the budgets and the boards cannot disagree.
RELATIVE_SPEED: dict[str, float] = {name: MATCH_PROFILES[name].speed for name in BOARDS}


def relative_speed(profile: str) -> float:
    """Fraction of the development machine's speed (1.0 for unknown names: no scaling)."""
    return RELATIVE_SPEED.get(profile, 1.0)


def device_profile(config: DeviceConfig) -> DeviceProfile:
    """The match layer's profile for this board (speed estimate and search mode)."""
    name = detect_profile(config.system.profile, config.system.model_file)
    return MATCH_PROFILES.get(name, DEFAULT_PROFILE)


def boot(hal: Hal, store: Store, config: DeviceConfig, options: BootOptions) -> Machine:
    """The device's machine, through the firmware's one boot path (firmware/boot.py).

    With a movie the unit boots as `headless` does for the same movie: exact touch in screen
    pixels (no filter, no calibration) and no first-start language choice, so the movie's
    presses and taps mean the same on every unit and every store."""
    profile = MATCH_PROFILES[options.profile] if options.profile else device_profile(config)
    movie = options.movie is not None
    log.info(
        "device: profile %s (relative speed %.2f, %s)", profile.name, profile.speed, profile.mode
    )
    boot_config = BootConfig(
        log=False,  # the command opened the log already (with its systemd level)
        game=options.game,
        options=options.options,
        seed=options.seed,
        touch_profile=None if movie else TOUCH_PROFILE,
        profile=profile,
        ask_language=not movie,  # a first start offers the language choice
        offer_resume=not movie,  # and a boot game's waiting saved game: Continue / New game
    )
    machine = firmware_boot(hal, boot_config, store=store)
    if not movie:  # an update runs, or one was rolled back (handheld/slots.py, the image)
        machine.version_note, rollback = launcher_note(os.environ)
        if rollback is not None and machine.notice is None:
            machine.notice = StoreNotice(*rollback)
        if machine.version_note is not None:
            log.info("device: version %s", machine.version_note[0])
    if movie:
        machine.touch.set_calibration(Calibration.identity())  # this run only, not stored
    elif store.get_calibration() is None:
        machine.touch.set_calibration(UNCALIBRATED)
    return machine


class _Limited:
    """The loop's view of the machine: no ticks beyond `limit` (for `--frames`)."""

    def __init__(self, machine: Machine, limit: int | None) -> None:
        self.machine = machine
        self.limit = limit

    def step(self) -> None:
        if self.limit is None or self.machine.tick < self.limit:
            self.machine.step()

    def render(self) -> None:
        self.machine.render()

    def present(self) -> None:
        self.machine.present()


class DeviceRunner:
    """One run of the device firmware, from boot to a clean stop."""

    def __init__(
        self,
        hal: Hal,
        machine: Machine,
        *,
        frames: int | None = None,
        notifier: Notifier | None = None,
        run_command: Callable[[list[str]], object] | None = None,
        shutdown_command: tuple[str, ...] | None = None,
    ) -> None:
        self.hal = hal
        self.machine = machine
        self.frames = frames
        self.notifier = notifier or Notifier()
        self.loop = FixedStepLoop(_Limited(machine, frames), hal.clock)
        self._run_command = run_command or _run_shutdown
        if shutdown_command is None:  # the config's, as the input backend holds it
            live = hal.input.live if isinstance(hal.input, MovieInput) else hal.input
            config = live.config if isinstance(live, EvdevInput) else InputConfig()
            shutdown_command = tuple(config.shutdown_command)
        self.shutdown_command = shutdown_command
        self.stopped = False

    def keep_going(self) -> bool:
        """Called once per loop pass: the watchdog ping lives here, so a hung tick stops it."""
        machine = self.machine
        if machine.tick > 0:
            self.notifier.ready(f"running, profile {machine.profile.name}")
            self.notifier.frame()
        if machine.quit_requested:
            return False
        return self.frames is None or machine.tick < self.frames

    def run(self, dump: Path | None = None) -> int:
        """Run until quit, a long POWER press or `frames` ticks; `dump` gets the final state."""
        try:
            self.loop.run(self.keep_going)
            if dump is not None:
                write_dump(self.machine, dump)
        finally:
            self.stop()
        inp = self.hal.input
        if isinstance(inp, MovieInput):
            inp = inp.live
        power = isinstance(inp, EvdevInput) and inp.shutdown_requested
        if power or self.machine.shutdown_requested:  # a long POWER press, an empty battery
            command = list(self.shutdown_command)
            log.info("service: shutting down: %s", " ".join(command))
            self._run_command(command)
        return 0

    def stop(self) -> None:
        """Save what must survive (the running game), then let go of every device."""
        if self.stopped:
            return
        self.stopped = True
        self.notifier.stopping()
        self.machine.suspend_game()
        if self.machine.link is not None:
            self.machine.link.shutdown()  # a versus match's others are told at once
        stop_workers()  # computer players thinking in worker processes
        self.machine.store.close()
        for part in (self.hal.display, self.hal.input, self.hal.link):
            close = getattr(part, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # shutting down: a device that will not close is gone
                    log.debug("closing %r failed", part, exc_info=True)
        self.notifier.close()


def _run_shutdown(command: list[str]) -> object:
    try:
        return subprocess.run(command, check=False, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        log.error("service: shutdown command %s failed: %s", command, exc)
        return None


def write_dump(machine: Machine, path: Path) -> None:
    path.write_text(json.dumps(machine.dump(), indent=1) + "\n")


def start(
    config: DeviceConfig,
    options: BootOptions,
    *,
    frames: int | None = None,
    input_source: EvdevInput | None = None,
    notifier: Notifier | None = None,
    link: ByteLink | None = None,
) -> DeviceRunner:
    """Devices, store and machine, ready to run (the command and the tests use this)."""
    data_dir = Path(config.system.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    # checked, repairs announced; the data directory's own store is Twinfold's whatever it holds.
    # Opened before the devices, so a refused store is the one line said (no panel warnings).
    store = open_store(options.store or data_dir / "store.db", ours=options.store is None)
    try:
        hal = build_hal(config, data_dir, input_source=input_source, link=link)
        if options.movie is not None:
            hal.input = MovieInput(hal.input, options.movie)
        machine = boot(hal, store, config, options)
    except BaseException:
        store.close()
        raise
    return DeviceRunner(hal, machine, frames=frames, notifier=notifier)
