"""The evdev backend fed with real `evdev.InputEvent`s (real `ecodes`) through stand-in devices."""

from __future__ import annotations

import os

import pytest
from evdev import ecodes

from hal.backends.device.config import InputConfig
from hal.backends.device.evdev_input import EvdevInput
from hal.interfaces import Button, RawTouch
from hal.touch import Calibration, TouchFilterConfig, TouchPipeline


def make_input(fakes, *devices, **config):
    bus = fakes.Bus(*devices)
    clock = fakes.Clock()
    inp = EvdevInput(InputConfig(**config), lister=bus.lister, opener=bus.opener, clock=clock)
    return inp, bus, clock


def test_buttons_are_held_while_down_and_grabbed(fakes):
    keys = fakes.gpio_keys()
    inp, _, _ = make_input(fakes, keys)
    assert inp.poll(0).held == frozenset()
    assert keys.grabbed
    keys.key(ecodes.BTN_EAST, 1)
    keys.key(ecodes.BTN_DPAD_LEFT, 1)
    assert inp.poll(1).held == {Button.A, Button.LEFT}
    keys.key(ecodes.BTN_EAST, 2)  # the kernel's autorepeat changes nothing
    assert inp.poll(2).held == {Button.A, Button.LEFT}
    keys.key(ecodes.BTN_EAST, 0)
    assert inp.poll(3).held == {Button.LEFT}


def test_every_default_code_maps_to_its_button(fakes):
    keys = fakes.gpio_keys()
    inp, _, _ = make_input(fakes, keys)
    inp.poll(0)
    expected = {
        ecodes.BTN_DPAD_UP: Button.UP, ecodes.BTN_DPAD_DOWN: Button.DOWN,
        ecodes.BTN_DPAD_LEFT: Button.LEFT, ecodes.BTN_DPAD_RIGHT: Button.RIGHT,
        ecodes.BTN_EAST: Button.A, ecodes.BTN_SOUTH: Button.B, ecodes.BTN_NORTH: Button.X,
        ecodes.BTN_WEST: Button.Y, ecodes.BTN_TL: Button.L, ecodes.BTN_TR: Button.R,
        ecodes.BTN_START: Button.START, ecodes.BTN_SELECT: Button.SELECT,
    }  # fmt: skip
    for tick, (code, button) in enumerate(expected.items(), start=1):
        keys.key(code, 1)
        assert inp.poll(tick).held == {button}
        keys.key(code, 0)
        inp.poll(tick)


def test_a_press_and_release_inside_one_frame_is_seen_for_that_frame(fakes):
    keys = fakes.gpio_keys()
    inp, _, _ = make_input(fakes, keys)
    inp.poll(0)
    keys.key(ecodes.BTN_SOUTH, 1)
    keys.key(ecodes.BTN_SOUTH, 0)
    assert inp.poll(1).held == {Button.B}
    assert inp.poll(2).held == frozenset()


def test_gamepad_hat_is_the_dpad(fakes):
    from evdev.device import AbsInfo

    stick = AbsInfo(0, -32768, 32767, 16, 128, 0)
    pad = fakes.Device(
        "/fake/event5",
        "Generic USB Gamepad",
        {
            ecodes.EV_KEY: [ecodes.BTN_SOUTH, ecodes.BTN_EAST],
            ecodes.EV_ABS: [ecodes.ABS_X, ecodes.ABS_Y, ecodes.ABS_HAT0X, ecodes.ABS_HAT0Y],
        },
        {ecodes.ABS_X: stick, ecodes.ABS_Y: stick},
    )
    inp, _, _ = make_input(fakes, pad)
    inp.poll(0)
    pad.emit(ecodes.EV_ABS, ecodes.ABS_HAT0X, -1)
    pad.emit(ecodes.EV_ABS, ecodes.ABS_HAT0Y, 1)
    pad.syn()
    assert inp.poll(1).held == {Button.LEFT, Button.DOWN}
    assert inp.poll(1).touch is None  # a stick's ABS_X/ABS_Y is not a touch panel
    pad.emit(ecodes.EV_ABS, ecodes.ABS_HAT0X, 0)
    pad.syn()
    assert inp.poll(2).held == {Button.DOWN}


def test_snes_style_usb_pad_with_an_axis_dpad(fakes):
    """The cheap generic pads: joystick button codes, the D-pad as 0..255 X/Y axes."""
    from evdev.device import AbsInfo

    axis = AbsInfo(127, 0, 255, 0, 15, 0)
    pad = fakes.Device(
        "/fake/event6",
        "DragonRise Inc.   Generic   USB  Joystick  ",
        {
            ecodes.EV_KEY: [ecodes.BTN_TRIGGER, ecodes.BTN_THUMB, ecodes.BTN_THUMB2,
                            ecodes.BTN_TOP, ecodes.BTN_TOP2, ecodes.BTN_PINKIE,
                            ecodes.BTN_BASE3, ecodes.BTN_BASE4],
            ecodes.EV_ABS: [ecodes.ABS_X, ecodes.ABS_Y],
        },
        {ecodes.ABS_X: axis, ecodes.ABS_Y: axis},
    )  # fmt: skip
    inp, _, _ = make_input(fakes, pad)
    inp.poll(0)
    assert pad.grabbed
    pad.emit(ecodes.EV_ABS, ecodes.ABS_X, 0)
    pad.emit(ecodes.EV_ABS, ecodes.ABS_Y, 255)
    pad.emit(ecodes.EV_KEY, ecodes.BTN_THUMB, 1)
    pad.emit(ecodes.EV_KEY, ecodes.BTN_BASE4, 1)
    pad.syn()
    raw = inp.poll(1)
    assert raw.held == {Button.LEFT, Button.DOWN, Button.A, Button.START}
    assert raw.touch is None
    pad.emit(ecodes.EV_ABS, ecodes.ABS_X, 127)
    pad.emit(ecodes.EV_ABS, ecodes.ABS_Y, 150)  # inside the dead zone
    pad.syn()
    assert inp.poll(2).held == {Button.A, Button.START}


def test_configured_keyboard_keys_and_removed_defaults(fakes):
    kbd = fakes.Device(
        "/fake/event7", "USB Keyboard", {ecodes.EV_KEY: [ecodes.KEY_Z, ecodes.KEY_ENTER]}
    )
    keys = {"KEY_Z": Button.A}
    inp, _, _ = make_input(fakes, kbd, keys=keys)
    inp.poll(0)
    kbd.key(ecodes.KEY_Z, 1)
    kbd.key(ecodes.KEY_ENTER, 1)
    assert inp.poll(1).held == {Button.A}


def test_devices_without_anything_useful_are_left_alone(fakes):
    mouse = fakes.Device("/fake/event3", "USB Mouse", {ecodes.EV_KEY: [ecodes.BTN_LEFT]})
    hdmi = fakes.Device("/fake/event4", "vc4-hdmi-0", {ecodes.EV_KEY: [ecodes.KEY_POWER]})
    inp, _, _ = make_input(fakes, mouse, hdmi)
    inp.poll(0)
    assert inp.devices == {}
    assert not mouse.grabbed and mouse.closed
    assert not hdmi.grabbed and hdmi.closed  # ignored by name, though it has KEY_POWER


def test_names_restrict_which_devices_are_used(fakes):
    keys, touch = fakes.gpio_keys(), fakes.ads7846()
    inp, _, _ = make_input(fakes, keys, touch, names=("ADS7846*",))
    inp.poll(0)
    assert list(inp.devices) == [touch.path]


def touch_at(dev, x: int, y: int, pressure: int, down: bool = True) -> None:
    dev.emit(ecodes.EV_ABS, ecodes.ABS_X, x)
    dev.emit(ecodes.EV_ABS, ecodes.ABS_Y, y)
    dev.emit(ecodes.EV_ABS, ecodes.ABS_PRESSURE, pressure)
    if down:
        dev.emit(ecodes.EV_KEY, ecodes.BTN_TOUCH, 1)
    dev.syn()


def lift(dev) -> None:
    dev.emit(ecodes.EV_ABS, ecodes.ABS_PRESSURE, 0)
    dev.emit(ecodes.EV_KEY, ecodes.BTN_TOUCH, 0)
    dev.syn()


def test_touch_down_move_up_with_pressure(fakes):
    touch = fakes.ads7846()
    inp, _, _ = make_input(fakes, touch)
    assert inp.poll(0).touch is None
    touch_at(touch, 1000, 2000, 204)
    raw = inp.poll(1).touch
    assert raw == RawTouch(1000.0, 2000.0, pytest.approx(204 / 255))
    touch.emit(ecodes.EV_ABS, ecodes.ABS_X, 1100)
    touch.syn()
    assert inp.poll(2).touch.x == 1100.0 and inp.poll(2).touch.y == 2000.0
    assert inp.poll(3).touch is not None  # a resting stylus stays down between reports
    lift(touch)
    assert inp.poll(4).touch is None


def test_a_touch_inside_one_frame_is_a_one_frame_touch(fakes):
    touch = fakes.ads7846()
    inp, _, _ = make_input(fakes, touch)
    inp.poll(0)
    touch_at(touch, 500, 600, 200)
    touch_at(touch, 510, 600, 200, down=False)
    lift(touch)
    raw = inp.poll(1).touch
    assert raw is not None and (raw.x, raw.y) == (500.0, 600.0)  # where it began
    assert inp.poll(2).touch is None


def test_a_quick_tap_outlasts_the_resistive_filters_settling(fakes):
    """The device builds its input with touch_frames = settle_samples + 1, so a tap shorter
    than a frame still reaches the game through the filters that drop the first samples."""
    touch = fakes.ads7846()
    bus, clock = fakes.Bus(touch), fakes.Clock()
    config = TouchFilterConfig.RESISTIVE
    frames = config.settle_samples + 1
    for touch_frames, reaches in ((1, False), (frames, True)):
        inp = EvdevInput(
            InputConfig(),
            lister=bus.lister,
            opener=bus.opener,
            clock=clock,
            touch_frames=touch_frames,
        )
        pipeline = TouchPipeline(Calibration.identity(), config)
        pipeline.process(inp.poll(0).touch)
        touch_at(touch, 100, 80, 200)  # identity calibration: ADC units are pixels
        lift(touch)
        points = [pipeline.process(inp.poll(tick).touch) for tick in range(1, frames + 3)]
        assert any(p is not None for p in points) is reaches
        inp.close()


def test_touch_ranges_are_scaled_to_twelve_bits(fakes):
    from evdev.device import AbsInfo

    touch = fakes.ads7846()
    touch.abs[ecodes.ABS_X] = AbsInfo(0, 100, 1123, 0, 0, 0)
    inp, _, _ = make_input(fakes, touch)
    inp.poll(0)
    touch_at(touch, 1123, 0, 255)
    assert inp.poll(1).touch == RawTouch(4095.0, 0.0, 1.0)


def test_touch_through_filters_and_calibration(fakes):
    """Raw ADC samples -> the resistive filters and a stored calibration -> screen pixels,
    with a spike in the middle of a resting stylus removed."""
    touch = fakes.ads7846()
    inp, _, _ = make_input(fakes, touch)
    # A calibration that maps ADC (0..4095) onto the 256x192 screen, x mirrored.
    cal = Calibration(-256 / 4096, 0.0, 256.0, 0.0, 192 / 4096, 0.0)
    pipeline = TouchPipeline(cal, TouchFilterConfig.RESISTIVE)
    out = []
    samples = [(2048, 2048)] * 4 + [(4000, 100)] + [(2048, 2048)] * 3  # one spike
    for tick, (x, y) in enumerate(samples):
        touch_at(touch, x, y, 200, down=tick == 0)
        out.append(pipeline.process(inp.poll(tick).touch))
    assert out[:2] == [None, None]  # settling
    points = {(p.x, p.y) for p in out[2:]}
    assert points == {(128, 96)}  # the spike never shows
    lift(touch)
    # release grace holds one tick, then the stylus is up
    pipeline.process(inp.poll(99).touch)
    assert pipeline.process(inp.poll(100).touch) is None


def test_light_pressure_is_pen_up_after_filtering(fakes):
    touch = fakes.ads7846()
    inp, _, _ = make_input(fakes, touch)
    pipeline = TouchPipeline(Calibration.identity(), TouchFilterConfig.RESISTIVE)
    results = []
    for tick in range(6):
        touch_at(touch, 100, 100, 5, down=tick == 0)  # 5/255 is below the threshold
        results.append(pipeline.process(inp.poll(tick).touch))
    assert results == [None] * 6


def test_lid_close_and_open(fakes):
    keys = fakes.gpio_keys()
    inp, _, _ = make_input(fakes, keys)
    assert inp.poll(0).lid_closed is False
    keys.emit(ecodes.EV_SW, ecodes.SW_LID, 1)
    keys.syn()
    assert inp.poll(1).lid_closed is True
    assert inp.poll(2).lid_closed is True
    keys.emit(ecodes.EV_SW, ecodes.SW_LID, 0)
    keys.syn()
    assert inp.poll(3).lid_closed is False


def test_lid_already_closed_at_start(fakes):
    keys = fakes.gpio_keys()
    keys.switches = [ecodes.SW_LID]
    inp, _, _ = make_input(fakes, keys)
    assert inp.poll(0).lid_closed is True


def test_power_short_press_is_one_pulse_on_release(fakes):
    keys = fakes.gpio_keys()
    inp, _, clock = make_input(fakes, keys)
    inp.poll(0)
    keys.key(ecodes.KEY_POWER, 1)
    assert inp.poll(1).power_pressed is False
    clock.t += 0.4
    keys.key(ecodes.KEY_POWER, 0)
    first, second = inp.poll(2), inp.poll(3)
    assert first.power_pressed is True and second.power_pressed is False
    assert not first.quit_requested and not inp.shutdown_requested


def test_power_long_press_asks_for_shutdown(fakes):
    keys = fakes.gpio_keys()
    inp, _, clock = make_input(fakes, keys, long_press_seconds=2.0)
    inp.poll(0)
    keys.key(ecodes.KEY_POWER, 1)
    inp.poll(1)
    clock.t += 1.9
    assert inp.poll(2).quit_requested is False
    clock.t += 0.2
    raw = inp.poll(3)
    assert raw.quit_requested and inp.shutdown_requested and not raw.power_pressed
    keys.key(ecodes.KEY_POWER, 0)
    assert inp.poll(4).power_pressed is False  # the release of a long press is no sleep


def test_a_vanishing_device_releases_everything_and_comes_back(fakes):
    keys, touch = fakes.gpio_keys(), fakes.ads7846()
    inp, bus, clock = make_input(fakes, keys, touch, rescan_seconds=1.0)
    inp.poll(0)
    keys.key(ecodes.BTN_EAST, 1)
    keys.emit(ecodes.EV_SW, ecodes.SW_LID, 1)
    keys.syn()
    touch_at(touch, 300, 300, 200)
    raw = inp.poll(1)
    assert raw.held == {Button.A} and raw.lid_closed and raw.touch is not None
    # the cable comes loose mid-stream
    keys.gone = touch.gone = True
    del bus.plugged[keys.path], bus.plugged[touch.path]
    raw = inp.poll(2)
    assert raw.held == frozenset() and not raw.lid_closed and raw.touch is None
    assert keys.closed and touch.closed and inp.devices == {}
    clock.t += 5
    assert inp.poll(3).held == frozenset()  # still gone: the firmware keeps running
    # plugged back in: new device objects at the same paths
    keys2, touch2 = fakes.gpio_keys(), fakes.ads7846()
    bus.plugged = {keys2.path: keys2, touch2.path: touch2}
    inp.poll(4)  # not yet: the next scan is due in a second
    assert inp.devices == {}
    clock.t += 1.0
    inp.poll(5)
    assert set(inp.devices) == {keys2.path, touch2.path} and keys2.grabbed
    keys2.key(ecodes.BTN_NORTH, 1)
    assert inp.poll(6).held == {Button.X}


def test_a_device_absent_at_start_is_picked_up(fakes):
    inp, bus, clock = make_input(fakes)
    assert inp.poll(0) is not None and inp.devices == {}
    keys = fakes.gpio_keys()
    bus.plugged[keys.path] = keys
    clock.t += 1.0
    keys.key(ecodes.BTN_START, 1)
    assert inp.poll(1).held == {Button.START}


def test_syn_dropped_resyncs_from_the_device_state(fakes):
    keys = fakes.gpio_keys()
    inp, _, _ = make_input(fakes, keys)
    inp.poll(0)
    keys.key(ecodes.BTN_EAST, 1)
    inp.poll(1)
    keys.emit(ecodes.EV_SYN, ecodes.SYN_DROPPED, 0)
    keys.emit(ecodes.EV_KEY, ecodes.BTN_SOUTH, 1)  # half a report: must be ignored
    keys.active_keys = lambda verbose=False: [ecodes.BTN_WEST]  # type: ignore[method-assign]
    keys.syn()
    assert inp.poll(2).held == {Button.Y}


# ---------------------------------------------------------------------- real uinput devices
UINPUT = os.path.exists("/dev/uinput") and os.access("/dev/uinput", os.W_OK)


@pytest.mark.skipif(not UINPUT, reason="no writable /dev/uinput: real-device scenarios skipped")
def test_the_same_scenarios_through_real_uinput_devices(tmp_path):
    import time

    from evdev import UInput
    from evdev.device import AbsInfo

    caps = {
        ecodes.EV_KEY: [ecodes.BTN_EAST, ecodes.BTN_SOUTH, ecodes.KEY_POWER],
        ecodes.EV_SW: [ecodes.SW_LID],
    }
    touch_caps = {
        ecodes.EV_KEY: [ecodes.BTN_TOUCH],
        ecodes.EV_ABS: [
            (ecodes.ABS_X, AbsInfo(0, 0, 4095, 0, 0, 0)),
            (ecodes.ABS_Y, AbsInfo(0, 0, 4095, 0, 0, 0)),
            (ecodes.ABS_PRESSURE, AbsInfo(0, 0, 255, 0, 0, 0)),
        ],
    }
    with (
        UInput(caps, name="twinfold-test-keys") as keys,
        UInput(touch_caps, name="twinfold-test-touch") as touch,
    ):
        time.sleep(0.3)  # udev creates the nodes
        inp = EvdevInput(InputConfig(names=("twinfold-test-*",), rescan_seconds=0.1))
        inp.poll(0)
        assert len(inp.devices) == 2
        keys.write(ecodes.EV_KEY, ecodes.BTN_EAST, 1)
        keys.write(ecodes.EV_KEY, ecodes.BTN_EAST, 0)  # press and release in one frame
        keys.write(ecodes.EV_SW, ecodes.SW_LID, 1)
        keys.syn()
        touch.write(ecodes.EV_ABS, ecodes.ABS_X, 1000)
        touch.write(ecodes.EV_ABS, ecodes.ABS_Y, 2000)
        touch.write(ecodes.EV_ABS, ecodes.ABS_PRESSURE, 200)
        touch.write(ecodes.EV_KEY, ecodes.BTN_TOUCH, 1)
        touch.syn()
        time.sleep(0.05)
        raw = inp.poll(1)
        assert raw.held == {Button.A} and raw.lid_closed
        assert raw.touch is not None and (raw.touch.x, raw.touch.y) == (1000.0, 2000.0)
        assert inp.poll(2).held == frozenset()
        # power: a short press is one pulse on release
        keys.write(ecodes.EV_KEY, ecodes.KEY_POWER, 1)
        keys.syn()
        keys.write(ecodes.EV_KEY, ecodes.KEY_POWER, 0)
        keys.syn()
        time.sleep(0.05)
        assert inp.poll(3).power_pressed and not inp.poll(4).power_pressed
        # the keys vanish (a loose cable) and come back
        keys.write(ecodes.EV_KEY, ecodes.BTN_SOUTH, 1)
        keys.syn()
        time.sleep(0.05)
        assert inp.poll(5).held == {Button.B}
        keys.close()
        time.sleep(0.3)
        raw = inp.poll(6)
        assert raw.held == frozenset() and not raw.lid_closed
        with UInput(caps, name="twinfold-test-keys") as again:
            time.sleep(0.3)
            inp.poll(7)
            again.write(ecodes.EV_KEY, ecodes.BTN_EAST, 1)
            again.syn()
            time.sleep(0.05)
            assert inp.poll(8).held == {Button.A}
        inp.close()


def test_a_device_that_refuses_to_open_is_reported_once(fakes, tmp_path, caplog):
    import errno

    node = tmp_path / "event9"
    node.write_text("")
    tries = []

    def opener(path):
        tries.append(path)
        raise PermissionError(errno.EACCES, "Permission denied")

    clock = fakes.Clock()
    inp = EvdevInput(
        InputConfig(rescan_seconds=1.0), lister=lambda: [str(node)], opener=opener, clock=clock
    )
    for tick in range(5):
        inp.poll(tick)
        clock.t += 1.0
    assert len(tries) == 1 and caplog.text.count("cannot open") == 1
    import time

    time.sleep(0.03)  # file timestamps are coarse (a few ms): let the change show
    os.utime(node)  # a udev rule changes the node: looked at again
    os.chmod(node, 0o600)
    inp.poll(9)
    assert len(tries) == 2


def test_everything_waiting_is_read_in_one_tick_even_in_small_batches(fakes):
    keys = fakes.gpio_keys()
    keys.batch = 2
    inp, _, _ = make_input(fakes, keys)
    inp.poll(0)
    for code in (ecodes.BTN_EAST, ecodes.BTN_SOUTH, ecodes.BTN_NORTH, ecodes.BTN_WEST):
        keys.key(code, 1)  # 8 events: four reads of two
    assert inp.poll(1).held == {Button.A, Button.B, Button.X, Button.Y}


KEY_CODES = [
    (ecodes.BTN_EAST, Button.A),
    (ecodes.BTN_SOUTH, Button.B),
    (ecodes.BTN_DPAD_UP, Button.UP),
    (ecodes.BTN_START, Button.START),
]


def _steps():
    from hypothesis import strategies as st

    key = st.tuples(st.sampled_from(range(len(KEY_CODES))), st.sampled_from([0, 1, 2]))
    return st.lists(st.one_of(st.just("poll"), key), max_size=60)


def test_held_buttons_follow_the_events_and_no_press_is_lost(fakes):
    """Property: at every poll a button is reported held iff it is down now or was pressed
    since the previous poll, except that a button reported held at the previous poll and
    pressed again since is reported up now and held at the next poll (the release, then the
    new press: the platform latch's rule); nothing raises."""
    from hypothesis import given

    @given(_steps())
    def check(steps):
        keys = fakes.gpio_keys()
        inp, _, _ = make_input(fakes, keys)
        inp.poll(0)
        down: set[Button] = set()
        pressed_since: set[Button] = set()
        reported: set[Button] = set()
        owed: set[Button] = set()  # re-pressed while reported held: shown at the next poll
        tick = 1
        for step in [*steps, "poll", "poll"]:
            if step == "poll":
                again = pressed_since & reported
                want = (down | pressed_since | owed) - again
                assert inp.poll(tick).held == want
                reported, owed, pressed_since = want, again, set()
                tick += 1
                continue
            index, value = step
            code, button = KEY_CODES[index]
            keys.key(code, value)
            if value == 1:
                if button not in down:
                    pressed_since.add(button)
                down.add(button)
            elif value == 0:
                down.discard(button)

    check()


def test_touch_reports_follow_the_pen_and_no_touch_is_lost(fakes):
    """Property: at every poll the touch is the pen's position while it is down; a stroke
    that began and ended since the previous poll shows at its first point; a lift and a new
    stroke since a reported touch show as pen up now and the new stroke at the next poll."""
    from hypothesis import given
    from hypothesis import strategies as st

    coord = st.integers(0, 4095)
    step = st.one_of(
        st.just("poll"), st.just("up"), st.tuples(st.sampled_from(["down", "move"]), coord, coord)
    )

    @given(st.lists(step, max_size=40))
    def check(steps):
        touch = fakes.ads7846()
        inp, _, _ = make_input(fakes, touch)
        inp.poll(0)
        pen = False
        position: tuple[int, int] | None = None
        began: tuple[int, int] | None = None  # first point of a stroke begun since the poll
        reported = False  # the previous poll showed a touch
        owed: tuple[int, int] | None = None  # a new stroke held back behind a lift
        tick = 1
        for item in [*steps, "poll", "poll"]:
            if item == "poll":
                raw = inp.poll(tick)
                tick += 1
                got = None if raw.touch is None else (raw.touch.x, raw.touch.y)
                want = position if pen else None
                if want is None:
                    want = owed
                owed = None
                if began is not None and not reported:
                    want = want or began  # a stroke inside the frame: its first point
                elif began is not None:
                    owed, want = want or began, None  # the lift first, the stroke next
                assert got == (None if want is None else (float(want[0]), float(want[1])))
                began, reported = None, want is not None
            elif item == "up":
                if pen:
                    lift(touch)
                pen = False
            else:
                verb, x, y = item
                if verb == "move" and not pen:
                    continue  # the controller reports no motion with the pen up
                touch_at(touch, x, y, 200, down=not pen)
                if not pen and began is None:
                    began = (x, y)
                pen, position = True, (x, y)

    check()
