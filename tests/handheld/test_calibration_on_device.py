"""Settings > Calibrate on the device: the evdev touch controller's raw ADC readings go
through the calibration scene, and the stored fit maps the panel onto the lower screen."""

from __future__ import annotations

import random

from evdev import ecodes

from firmware.scenes.calibration import TARGETS, CalibrationScene
from firmware.storage import Store
from hal.backends.device.config import DeviceConfig, DisplayConfig, InputConfig, PanelConfig
from hal.backends.device.evdev_input import EvdevInput
from hal.backends.device.framebuffer import FramebufferDisplay
from hal.clock import MonotonicClock
from hal.interfaces import Hal
from hal.touch import Calibration
from handheld.app import UNCALIBRATED, BootOptions, boot


def panel_raw(x: float, y: float) -> tuple[int, int]:
    """How this (imaginary) panel is wired: X mirrored, both axes with offsets and gains."""
    return round(3800 - x * 13.5), round(310 + y * 18.2)


def test_calibrating_through_evdev_stores_a_fit_that_maps_the_panel(tmp_path, fakes, framebuffer):
    keys, touch = fakes.gpio_keys(), fakes.ads7846()
    bus = fakes.Bus(keys, touch)
    inp = EvdevInput(InputConfig(), lister=bus.lister, opener=bus.opener, clock=fakes.Clock())
    dev0, sys0 = framebuffer(tmp_path, "fb0", 320, 240, 16)
    dev1, sys1 = framebuffer(tmp_path, "fb1", 320, 240, 16)
    display = DisplayConfig(
        upper=PanelConfig(str(dev0), str(sys0)), lower=PanelConfig(str(dev1), str(sys1))
    )
    hal = Hal("device", FramebufferDisplay(display), inp, MonotonicClock(), tmp_path)
    store = Store.open(tmp_path / "store.db")
    machine = boot(hal, store, DeviceConfig(display=display), BootOptions())
    assert machine.touch.calibration == UNCALIBRATED  # nothing stored yet
    scene = CalibrationScene(machine)
    machine.push(scene)
    rng = random.Random(4)

    def frame() -> None:
        machine.step()
        machine.render()
        machine.present()

    frame()
    for tx, ty in TARGETS:
        rx, ry = panel_raw(tx, ty)
        for i in range(8):  # a noisy resting stylus
            touch.emit(ecodes.EV_ABS, ecodes.ABS_X, rx + rng.randint(-6, 6))
            touch.emit(ecodes.EV_ABS, ecodes.ABS_Y, ry + rng.randint(-6, 6))
            touch.emit(ecodes.EV_ABS, ecodes.ABS_PRESSURE, 180)
            if i == 0:
                touch.emit(ecodes.EV_KEY, ecodes.BTN_TOUCH, 1)
            touch.syn()
            frame()
        touch.emit(ecodes.EV_ABS, ecodes.ABS_PRESSURE, 0)
        touch.emit(ecodes.EV_KEY, ecodes.BTN_TOUCH, 0)
        touch.syn()
        frame()
        frame()
    assert scene.result is not None and scene.residual < 1.0
    keys.key(ecodes.BTN_EAST, 1)  # A: keep it
    frame()
    keys.key(ecodes.BTN_EAST, 0)
    frame()
    assert machine.scene is not scene
    stored = Calibration.from_json(store.get_calibration())
    for x, y in ((10, 10), (200, 40), (128, 96), (250, 190)):
        px, py = stored.apply(*panel_raw(x, y))
        assert abs(px - x) < 1.0 and abs(py - y) < 1.0
    assert machine.touch.calibration == stored  # in use at once
    store.close()
