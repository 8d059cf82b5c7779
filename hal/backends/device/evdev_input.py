"""Buttons, touch, lid and power from the kernel's evdev devices (P-HW-2..4, P-BE-3).

Devices are found by name and capabilities: anything that sends a mapped key, the power key,
`SW_LID`, a D-pad hat, or is a touch panel (`ABS_X` + `ABS_Y` + `BTN_TOUCH`). Each is opened
non-blocking and grabbed, so its keys never reach the console. Every tick `poll` drains what
arrived since the last one, so reading never waits.

Nothing that happens between two polls is lost (issue 17): the state after every
`SYN_REPORT` goes to the platform's `hal.latch.InputLatch`, and `poll` reports what it says.
A button pressed and released inside one frame is held for that frame; a stylus that touched
down and lifted inside one frame is a short touch at its first point (held for `touch_frames`
polls, so it outlasts the resistive filter's settling samples).

Loose cables: a device that fails while reading is dropped (its buttons released, the stylus
lifted, the lid taken as open) and the directory is scanned again every `rescan_seconds`, so
a device that comes back, or was absent at start, is picked up without a restart.

POWER: a short press (released before `long_press_seconds`) is reported as one tick of
`power_pressed` when it is released (the firmware sleeps or wakes); holding it that long asks
the firmware to quit (`quit_requested`) and sets `shutdown_requested`, which the device
runner turns into the configured shutdown command after a clean stop.
"""

from __future__ import annotations

import errno
import fcntl
import glob
import logging
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from evdev import ecodes

from hal.backends.device.config import InputConfig
from hal.interfaces import Button, InputSource, RawInput, RawTouch
from hal.latch import InputLatch

log = logging.getLogger("twinfold")

MAX_READS_PER_TICK = 16
RAW_MAX = 4095.0  # touch readings are scaled to the 12-bit range TouchFilterConfig expects
HAT_BUTTONS = {
    ecodes.ABS_HAT0X: (Button.LEFT, Button.RIGHT),
    ecodes.ABS_HAT0Y: (Button.UP, Button.DOWN),
}
# A gamepad's X/Y axes (a stick, or the D-pad of pads that report it as axes) count as the
# D-pad beyond this fraction of the way from the centre to either end.
STICK_BUTTONS = {ecodes.ABS_X: (Button.LEFT, Button.RIGHT), ecodes.ABS_Y: (Button.UP, Button.DOWN)}
STICK_THRESHOLD = 0.5


class EvdevDevice(Protocol):
    """The part of `evdev.InputDevice` this backend uses (tests stand in for it)."""

    path: str
    name: str

    def capabilities(self, verbose: bool = ..., absinfo: bool = ...) -> dict[int, list[Any]]: ...
    def absinfo(self, axis_num: int) -> Any: ...
    def read(self) -> Iterable[Any]: ...
    def active_keys(self, verbose: bool = ...) -> list[int]: ...
    def grab(self) -> None: ...
    def close(self) -> None: ...


def list_event_devices(directory: str) -> list[str]:
    """The event device nodes in `directory` (like `evdev.list_devices`, tolerant of a
    directory that does not exist yet)."""
    return sorted(glob.glob(os.path.join(directory, "event*")))


def open_event_device(path: str) -> EvdevDevice:
    from evdev import InputDevice

    # evdev types capabilities() by overloads on `verbose` and `path` as str | bytes; the
    # protocol states the one call this backend makes
    return InputDevice(path)  # type: ignore[return-value]


@dataclass
class _Axis:
    low: float
    high: float

    def scaled(self, value: float) -> float:
        if self.high <= self.low:
            return float(value)
        return (value - self.low) * RAW_MAX / (self.high - self.low)

    def fraction(self, value: float) -> float:
        if self.high <= self.low:
            return 1.0 if value > 0 else 0.0
        return min(1.0, max(0.0, (value - self.low) / (self.high - self.low)))


@dataclass
class _Open:
    """One opened device and what it currently reports."""

    device: EvdevDevice
    touch: bool
    axes: dict[int, _Axis] = field(default_factory=dict)
    has_btn_touch: bool = False
    held: set[Button] = field(default_factory=set)
    hats: dict[int, int] = field(default_factory=dict)
    sticks: dict[int, _Axis] = field(default_factory=dict)  # non-touch X/Y axes: a D-pad
    # the touch state being assembled until the next SYN_REPORT
    x: float | None = None
    y: float | None = None
    pressure: float | None = None
    pen: bool = False
    dropping: bool = False  # after SYN_DROPPED: ignore events until the next SYN_REPORT


class EvdevInput(InputSource):
    """The device backend's `InputSource`."""

    def __init__(
        self,
        config: InputConfig,
        *,
        lister: Callable[[], list[str]] | None = None,
        opener: Callable[[str], EvdevDevice] = open_event_device,
        clock: Callable[[], float] = time.monotonic,
        touch_frames: int = 1,
    ) -> None:
        """`touch_frames`: polls a touch shorter than a frame is reported for (see
        `InputLatch.touch_frames`; the device passes its touch filter's settle_samples + 1)."""
        self.config = config
        self._list = lister or (lambda: list_event_devices(config.scan_dir))
        self._opener = opener
        self._clock = clock
        self.keymap: dict[int, Button] = {getattr(ecodes, k): b for k, b in config.keys.items()}
        self.power_code: int = getattr(ecodes, config.power_key)
        self.devices: dict[str, _Open] = {}
        self._unwanted: dict[str, tuple[int, int]] = {}  # path -> (inode, ctime) when judged
        self._next_scan = float("-inf")
        self._latch = InputLatch(touch_frames=touch_frames)  # edges between two polls
        self._touch: RawTouch | None = None
        self._touch_owner: str | None = None
        self.lid_closed = False
        self._lid_owner: str | None = None
        self._power_down_at: float | None = None
        self._power_path: str | None = None  # the device whose POWER is down
        self._power_pulse = False
        self._long_fired = False
        self.shutdown_requested = False
        self.quit_requested = False  # set from outside (SIGTERM) to stop cleanly

    # ------------------------------------------------------------------ discovery
    def scan(self) -> None:
        """Open every wanted device that is not open yet."""
        try:
            paths = self._list()
        except OSError as exc:
            log.warning("input: cannot list devices: %s", exc)
            return
        for path in paths:
            if path in self.devices:
                continue
            stamp = _stamp(path)
            if self._unwanted.get(path) == stamp and stamp is not None:
                continue
            self._try_open(path, stamp)

    def _try_open(self, path: str, stamp: tuple[int, int] | None) -> None:
        try:
            device = self._opener(path)
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ENODEV):
                # Said once: tried again only when the node changes (a udev rule fixing
                # its permissions changes its ctime).
                log.warning("input: cannot open %s: %s", path, exc)
                if stamp is not None:
                    self._unwanted[path] = stamp
            return
        try:
            name = device.name
            caps = device.capabilities(absinfo=False)
            keys = set(caps.get(ecodes.EV_KEY, []))
            axes = set(caps.get(ecodes.EV_ABS, []))
            switches = set(caps.get(ecodes.EV_SW, []))
            touch = {ecodes.ABS_X, ecodes.ABS_Y} <= axes and ecodes.BTN_TOUCH in keys
            mapped = bool(keys & (set(self.keymap) | {self.power_code}))
            useful = touch or mapped or ecodes.SW_LID in switches or bool(axes & set(HAT_BUTTONS))
            if not useful or not self.config.wants(name):
                if stamp is not None:
                    self._unwanted[path] = stamp
                device.close()
                return
            opened = _Open(device, touch=touch, has_btn_touch=ecodes.BTN_TOUCH in keys)
            if touch:
                for code in (ecodes.ABS_X, ecodes.ABS_Y, ecodes.ABS_PRESSURE):
                    if code in axes:
                        info = device.absinfo(code)
                        opened.axes[code] = _Axis(float(info.min), float(info.max))
            elif mapped:  # a gamepad: its X/Y axes steer the D-pad
                for code in STICK_BUTTONS:
                    if code in axes:
                        info = device.absinfo(code)
                        opened.sticks[code] = _Axis(float(info.min), float(info.max))
            if self.config.grab:
                try:
                    device.grab()
                except OSError as exc:
                    log.warning("input: cannot grab %s (%s): %s", path, name, exc)
            if ecodes.SW_LID in switches:
                self._lid_owner = path
                self.lid_closed = ecodes.SW_LID in _active_switches(device)
            opened.held = {self.keymap[k] for k in _active_keys(device) if k in self.keymap}
        except OSError as exc:
            log.warning("input: %s vanished while opening: %s", path, exc)
            _close(device)
            return
        self.devices[path] = opened
        roles = [r for r, on in (("touch", touch), ("lid", ecodes.SW_LID in switches)) if on]
        log.info("input: using %s (%s)%s", path, name, f" as {', '.join(roles)}" if roles else "")

    def drop(self, path: str, reason: str) -> None:
        """Forget a device that failed: release what it held; it is looked for again later."""
        opened = self.devices.pop(path, None)
        if opened is None:
            return
        log.warning("input: lost %s (%s): %s", path, getattr(opened.device, "name", "?"), reason)
        _close(opened.device)
        if self._touch_owner == path:
            self._touch = None
            self._touch_owner = None
        if self._lid_owner == path:
            self.lid_closed = False
            self._lid_owner = None
        if path == self._power_path:
            self._power_down_at = None
        self._next_scan = float("-inf")

    # ------------------------------------------------------------------ events
    def _key(self, path: str, opened: _Open, code: int, value: int) -> None:
        if code == self.power_code:
            if value == 1:
                self._power_down_at = self._clock()
                self._power_path = path
                self._long_fired = False
            elif value == 0 and self._power_down_at is not None:
                if not self._long_fired:
                    self._power_pulse = True
                self._power_down_at = None
            return
        if opened.touch and code == ecodes.BTN_TOUCH:
            opened.pen = value != 0
            return
        button = self.keymap.get(code)
        if button is None or value == 2:  # unmapped, or the kernel's autorepeat
            return
        if value:
            opened.held.add(button)
        else:
            opened.held.discard(button)

    def _abs(self, opened: _Open, code: int, value: int) -> None:
        stick = opened.sticks.get(code)
        if code in HAT_BUTTONS or stick is not None:
            low, high = HAT_BUTTONS[code] if stick is None else STICK_BUTTONS[code]
            if stick is not None:  # -1 .. 1 from one end to the other
                span = stick.high - stick.low
                centred = (2 * (value - stick.low) / span - 1) if span > 0 else 0.0
                value = -1 if centred < -STICK_THRESHOLD else 1 if centred > STICK_THRESHOLD else 0
            opened.hats[code] = value
            for button, on in ((low, value < 0), (high, value > 0)):
                if on:
                    opened.held.add(button)
                else:
                    opened.held.discard(button)
            return
        if not opened.touch:
            return
        if code == ecodes.ABS_X:
            opened.x = float(value)
        elif code == ecodes.ABS_Y:
            opened.y = float(value)
        elif code == ecodes.ABS_PRESSURE:
            opened.pressure = float(value)

    def _report(self, path: str, opened: _Open) -> None:
        """SYN_REPORT: the device's state is consistent; commit its touch sample."""
        if not opened.touch:
            return
        pressure_axis = opened.axes.get(ecodes.ABS_PRESSURE)
        pen = opened.pen if opened.has_btn_touch else bool(opened.pressure)
        if not pen or opened.x is None or opened.y is None:
            self._touch = None
            if self._touch_owner == path:
                self._touch_owner = None
            return
        x_axis, y_axis = opened.axes[ecodes.ABS_X], opened.axes[ecodes.ABS_Y]
        pressure = None
        if pressure_axis is not None and opened.pressure is not None:
            pressure = pressure_axis.fraction(opened.pressure)
        self._touch = RawTouch(x_axis.scaled(opened.x), y_axis.scaled(opened.y), pressure)
        self._touch_owner = path

    def _resync(self, opened: _Open) -> None:
        """After SYN_DROPPED the kernel's queue overflowed: read the state afresh."""
        device = opened.device
        active = set(_active_keys(device))
        opened.held = {self.keymap[k] for k in active if k in self.keymap}
        if opened.touch:
            opened.pen = ecodes.BTN_TOUCH in active
            for code in (ecodes.ABS_X, ecodes.ABS_Y, ecodes.ABS_PRESSURE):
                if code in opened.axes:
                    self._abs(opened, code, device.absinfo(code).value)

    def _drain(self, path: str, opened: _Open) -> None:
        """Everything waiting on one device (one read returns at most a kernel batch, so read
        until the device says there is no more; bounded, in case it never stops talking)."""
        for _ in range(MAX_READS_PER_TICK):
            if not self._read_batch(path, opened):
                return

    def _read_batch(self, path: str, opened: _Open) -> bool:
        """One read; False when nothing (more) was waiting or the device failed."""
        try:
            for event in opened.device.read():
                etype, code, value = event.type, event.code, event.value
                if etype == ecodes.EV_SYN:
                    if code == ecodes.SYN_DROPPED:
                        opened.dropping = True
                    elif code == ecodes.SYN_REPORT:
                        if opened.dropping:
                            opened.dropping = False
                            self._resync(opened)
                        self._report(path, opened)
                        self._latch.observe(self._held(), self._touch)
                elif opened.dropping:
                    continue
                elif etype == ecodes.EV_KEY:
                    self._key(path, opened, code, value)
                elif etype == ecodes.EV_ABS:
                    self._abs(opened, code, value)
                elif etype == ecodes.EV_SW and code == ecodes.SW_LID:
                    self.lid_closed = bool(value)
                    self._lid_owner = path
        except BlockingIOError:
            return False  # nothing (more) waiting
        except OSError as exc:
            self.drop(path, exc.strerror or str(exc))
            return False
        finally:
            # a batch cut off before its SYN_REPORT still counts (a key's edge is never lost)
            self._latch.observe(self._held(), self._touch)
        return True

    def _held(self) -> frozenset[Button]:
        """The buttons down on every open device together."""
        held: set[Button] = set()
        for opened in self.devices.values():
            held |= opened.held
        return frozenset(held)

    # ------------------------------------------------------------------ the tick
    def poll(self, tick: int) -> RawInput:
        now = self._clock()
        if now >= self._next_scan:
            self._next_scan = now + self.config.rescan_seconds
            self.scan()
        for path, opened in list(self.devices.items()):
            self._drain(path, opened)
        held, touch, _ = self._latch.report(self._held(), self._touch)
        power = self._power_pulse
        self._power_pulse = False
        down_at = self._power_down_at
        if (
            down_at is not None
            and not self._long_fired
            and now - down_at >= self.config.long_press_seconds
        ):
            self._long_fired = True
            self.shutdown_requested = True
            log.info("input: POWER held %.1f s: shutting down", now - down_at)
        return RawInput(
            held=held,
            touch=touch,
            lid_closed=self.lid_closed,
            power_pressed=power,
            quit_requested=self.quit_requested or self.shutdown_requested,
        )

    def close(self) -> None:
        for path in list(self.devices):
            _close(self.devices.pop(path).device)


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_ctime_ns)


def _active_keys(device: EvdevDevice) -> list[int]:
    try:
        return list(device.active_keys())
    except (AttributeError, OSError):
        return []


def _active_switches(device: EvdevDevice) -> list[int]:
    """Switches currently on (EVIOCGSW; python-evdev has no call for it). A stand-in device
    may offer `active_switches()` instead."""
    query = getattr(device, "active_switches", None)
    if query is not None:
        return list(query())
    fd = getattr(device, "fd", None)
    if fd is None:
        return []
    size = 8  # bytes: room for SW_MAX + 1 bits
    request = (2 << 30) | (size << 16) | (ord("E") << 8) | 0x1B  # _IOR('E', 0x1b, len)
    try:
        bits = fcntl.ioctl(fd, request, bytes(size))
    except OSError:
        return []
    return [code for code in range(size * 8) if bits[code // 8] >> (code % 8) & 1]


def _close(device: EvdevDevice) -> None:
    try:
        device.close()
    except Exception:  # closing a vanished device may fail in many ways; it is gone anyway
        log.debug("input: closing a device failed", exc_info=True)
