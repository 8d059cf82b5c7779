"""The HAL contract: what every backend (headless, desktop emulator, Raspberry Pi) provides.

The firmware sees only these types. A backend turns its hardware into one `RawInput` per
tick and shows two finished 256x192 images per presented frame; everything else (edge
detection, key repeat, touch filtering, swap, layouts of firmware screens) happens above.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hal.wifi import NoWifi, WifiControl

if TYPE_CHECKING:
    import pygame

SCREEN_W = 256
SCREEN_H = 192
SCREEN_SIZE = (SCREEN_W, SCREEN_H)
TICK_HZ = 60


class Button(enum.Enum):
    """The handheld's buttons (P-HW-3). Names are the movie-file spelling."""

    UP = "UP"
    DOWN = "DOWN"
    LEFT = "LEFT"
    RIGHT = "RIGHT"
    A = "A"
    B = "B"
    X = "X"
    Y = "Y"
    L = "L"
    R = "R"
    START = "START"
    SELECT = "SELECT"


@dataclass(frozen=True, slots=True)
class RawTouch:
    """One touch-panel reading before calibration and filtering.

    `x`, `y` are in the panel's raw units (ADC counts on the device; already pixels in the
    emulator, whose calibration is the identity). `pressure` is None where the hardware has
    none. NaN or out-of-range values may occur; the touch pipeline drops them.
    """

    x: float
    y: float
    pressure: float | None = None


@dataclass(frozen=True, slots=True)
class RawInput:
    """Everything a backend reports for one tick."""

    held: frozenset[Button] = frozenset()
    touch: RawTouch | None = None  # None: stylus up
    lid_closed: bool = False
    power_pressed: bool = False
    quit_requested: bool = False  # window closed / SIGTERM: shut down cleanly


@dataclass(frozen=True, slots=True)
class TouchPoint:
    """A filtered, calibrated stylus position in bottom-screen pixels (P-HW-2)."""

    x: int
    y: int
    pressure: float | None = None


class InputSource(ABC):
    """Buttons, touch, lid and power, sampled once per tick.

    A backend whose devices deliver events (pygame, evdev) must not lose presses shorter
    than a frame: it feeds every state change to a `hal.latch.InputLatch` and reports what
    the latch says (a press and release between two polls is held for one tick).
    """

    @abstractmethod
    def poll(self, tick: int) -> RawInput: ...


class Display(ABC):
    """Two physical panels. `upper` and `lower` are what each panel shows (swap already done)."""

    @abstractmethod
    def present(self, upper: pygame.Surface, lower: pygame.Surface) -> None: ...

    def blank(self) -> None:  # noqa: B027 - optional hook with a do-nothing default
        """Turn the panels dark (lid closed). Default: present nothing new."""


class Audio(ABC):
    """Short sound effects (P-HW-6). Silence is a valid implementation."""

    @abstractmethod
    def play(self, effect: str, volume: float) -> None: ...


class SilentAudio(Audio):
    def play(self, effect: str, volume: float) -> None:
        return None


class ByteLink(ABC):
    """The peer radio as an unreliable byte pipe (P-HW-5). The link stack sits above it."""

    @abstractmethod
    def write(self, data: bytes) -> None: ...

    @abstractmethod
    def read(self) -> bytes:
        """Bytes received since the last call (possibly none); never blocks."""

    def out_waiting(self) -> int:
        """Bytes written but not yet on the air (the link stack holds back while the radio's
        buffer is full, so a slow radio never builds up seconds of latency)."""
        return 0

    def receiving(self) -> bool:
        """True while another unit's transmission is arriving (carrier sense: the stack
        waits for it to end before it starts its own). False where it cannot be known."""
        return False

    def kind(self) -> str:
        """ "radio" (a UART radio module, or its simulation) or "network" (datagrams on a
        local network): the link stack sizes its authentication tags by it (the rate at
        which a forger can try differs by orders of magnitude), the Settings screen names it."""
        return "radio"

    def describe(self) -> str:
        """Where the link goes, for the Settings screen after its kind (a port, a channel
        and interface); "" if there is nothing to say."""
        return ""

    def noise(self) -> int:
        """Transport units received so far that were not the link's at all (a datagram of
        another format): counted with the frames that failed their CRC."""
        return 0

    def refresh(self) -> None:
        """The unit's networks changed (its own Wi-Fi network came up or went): a network
        link finds its interface again. Nothing to do for a radio."""
        return None


class NoLink(ByteLink):
    """A unit with its radio off: writes vanish, nothing arrives."""

    def write(self, data: bytes) -> None:
        return None

    def read(self) -> bytes:
        return b""


@dataclass(frozen=True)
class BatteryReading:
    """One reading of the battery (P-HW-8): its charge in percent (0..100) and whether it
    is being charged (or full on the charger)."""

    percent: int
    charging: bool


@dataclass(frozen=True)
class BatteryPolicy:
    """When the firmware warns and when it saves and shuts down (device.toml `[battery]`):
    `low` and `critical` in percent, a reading every `poll_ticks` ticks."""

    low: int = 15
    critical: int = 5
    poll_ticks: int = 120


class Battery(ABC):
    """The unit's battery (P-HW-8). The firmware reads it every `policy.poll_ticks` ticks and
    judges the readings itself (a gauge can vanish, jump or report nonsense)."""

    policy = BatteryPolicy()

    @property
    def present(self) -> bool:
        """False: this unit has no battery at all (never read, nothing drawn)."""
        return True

    @abstractmethod
    def read(self) -> BatteryReading | None:
        """The current reading, or None when there is none that makes sense now (no battery
        found, unreadable, out of range); never raises, never blocks."""


class NoBattery(Battery):
    """The headless backend and the emulator: mains power, no battery shown (determinism:
    nothing is read and nothing drawn, so movies and screenshots do not change)."""

    @property
    def present(self) -> bool:
        return False

    def read(self) -> BatteryReading | None:
        return None


class Clock(ABC):
    """Monotonic seconds; simulated in tests so a slow host can be modelled exactly."""

    @abstractmethod
    def now(self) -> float: ...

    @abstractmethod
    def sleep(self, seconds: float) -> None: ...


@dataclass
class Hal:
    """A backend: the bundle of devices the firmware runs on."""

    name: str
    display: Display
    input: InputSource
    clock: Clock
    data_dir: Path  # where the store (SQLite) and logs live
    audio: Audio = field(default_factory=SilentAudio)
    link: ByteLink = field(default_factory=NoLink)
    battery: Battery = field(default_factory=NoBattery)
    wifi: WifiControl = field(default_factory=NoWifi)  # a match's own network (hal/wifi.py)
    realtime: bool = True  # False: run ticks as fast as the CPU allows (headless)
