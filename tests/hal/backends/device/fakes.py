"""Stand-ins for the device backend's hardware: evdev devices, framebuffers with sysfs.

Fixtures for the driver tests here and the handheld's tests (tests/handheld/), whose
conftest files import them."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from evdev import InputEvent, ecodes
from evdev.device import AbsInfo


class FakeDevice:
    """The `evdev.InputDevice` surface the backend uses, fed with real `InputEvent`s."""

    def __init__(
        self,
        path: str,
        name: str,
        caps: dict[int, list[int]],
        absinfo: dict[int, AbsInfo] | None = None,
        switches: tuple[int, ...] = (),
    ) -> None:
        self.path = path
        self.name = name
        self.caps = caps
        self.abs = absinfo or {}
        self.switches = list(switches)
        self.queue: list[InputEvent] = []
        self.gone = False
        self.grabbed = False
        self.closed = False
        self.time = 0.0
        self.batch = 1 << 30  # events one read returns at most (the kernel hands out batches)

    def capabilities(self, verbose: bool = False, absinfo: bool = True) -> dict[int, list[Any]]:
        return {k: list(v) for k, v in self.caps.items()}

    def absinfo(self, code: int) -> AbsInfo:
        return self.abs[code]

    def active_keys(self, verbose: bool = False) -> list[int]:
        return []

    def active_switches(self) -> list[int]:
        return list(self.switches)

    def grab(self) -> None:
        self.grabbed = True

    def close(self) -> None:
        self.closed = True

    def read(self) -> Iterator[InputEvent]:
        # Like evdev: a generator whose first step does the read (and raises).
        if self.gone:
            raise OSError(errno.ENODEV, "No such device")
        if not self.queue:
            raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
        events, self.queue = self.queue[: self.batch], self.queue[self.batch :]
        yield from events

    # helpers for tests --------------------------------------------------------------
    def emit(self, etype: int, code: int, value: int) -> None:
        self.time += 0.001
        sec = int(self.time)
        self.queue.append(InputEvent(sec, int((self.time - sec) * 1e6), etype, code, value))

    def syn(self) -> None:
        self.emit(ecodes.EV_SYN, ecodes.SYN_REPORT, 0)

    def key(self, code: int, value: int) -> None:
        self.emit(ecodes.EV_KEY, code, value)
        self.syn()


def gpio_keys(path: str = "/fake/event0") -> FakeDevice:
    """The reference build's gpio-keys device: buttons, POWER and the lid switch."""
    keys = [
        ecodes.BTN_DPAD_UP, ecodes.BTN_DPAD_DOWN, ecodes.BTN_DPAD_LEFT, ecodes.BTN_DPAD_RIGHT,
        ecodes.BTN_EAST, ecodes.BTN_SOUTH, ecodes.BTN_NORTH, ecodes.BTN_WEST,
        ecodes.BTN_TL, ecodes.BTN_TR, ecodes.BTN_START, ecodes.BTN_SELECT, ecodes.KEY_POWER,
    ]  # fmt: skip
    return FakeDevice(path, "twinfold-keys", {ecodes.EV_KEY: keys, ecodes.EV_SW: [ecodes.SW_LID]})


def ads7846(path: str = "/fake/event1") -> FakeDevice:
    """The kernel's ads7846 driver: 12-bit X/Y, 8-bit pressure, BTN_TOUCH."""
    return FakeDevice(
        path,
        "ADS7846 Touchscreen",
        {
            ecodes.EV_KEY: [ecodes.BTN_TOUCH],
            ecodes.EV_ABS: [ecodes.ABS_X, ecodes.ABS_Y, ecodes.ABS_PRESSURE],
        },
        {
            ecodes.ABS_X: AbsInfo(0, 0, 4095, 0, 0, 0),
            ecodes.ABS_Y: AbsInfo(0, 0, 4095, 0, 0, 0),
            ecodes.ABS_PRESSURE: AbsInfo(0, 0, 255, 0, 0, 0),
        },
    )


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Bus:
    """The set of plugged-in devices the backend's lister and opener see."""

    def __init__(self, *devices: FakeDevice) -> None:
        self.plugged: dict[str, FakeDevice] = {d.path: d for d in devices}
        self.opened: list[str] = []

    def lister(self) -> list[str]:
        return sorted(self.plugged)

    def opener(self, path: str) -> FakeDevice:
        if path not in self.plugged:
            raise OSError(errno.ENOENT, "No such file or directory")
        self.opened.append(path)
        return self.plugged[path]


@pytest.fixture
def fakes() -> Any:
    """The stand-in classes and factories (test modules cannot import conftest directly)."""

    class Namespace:
        Device = FakeDevice
        Clock = FakeClock
        Bus = Bus

    Namespace.gpio_keys = staticmethod(gpio_keys)  # type: ignore[attr-defined]
    Namespace.ads7846 = staticmethod(ads7846)  # type: ignore[attr-defined]
    return Namespace


def make_framebuffer(
    root: Path, name: str, width: int, height: int, bpp: int, stride: int | None = None
) -> tuple[Path, Path]:
    """An ordinary file standing in for /dev/fbN, with a sysfs-like directory beside it."""
    sysfs = root / "sys" / name
    sysfs.mkdir(parents=True)
    (sysfs / "virtual_size").write_text(f"{width},{height}\n")
    (sysfs / "bits_per_pixel").write_text(f"{bpp}\n")
    (sysfs / "stride").write_text(f"{stride or width * bpp // 8}\n")
    (sysfs / "blank").write_text("0\n")
    device = root / name
    device.write_bytes(b"")
    return device, sysfs


@pytest.fixture
def framebuffer() -> Any:
    return make_framebuffer
