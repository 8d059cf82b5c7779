"""The systemd service side: sd_notify READY / WATCHDOG / STOPPING from the frame loop, a
long POWER press shutting down cleanly, sleep and the lid, SIGTERM-style quits."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from device_config import config_file
from evdev import ecodes

from firmware.settings import Settings
from firmware.storage import Store
from hal.backends.device.config import DeviceConfig, DisplayConfig, InputConfig, PanelConfig
from hal.backends.device.evdev_input import EvdevInput
from hal.backends.device.framebuffer import FramebufferDisplay
from hal.backends.device.notify import Notifier
from hal.clock import MonotonicClock
from hal.interfaces import Hal, InputSource, RawInput
from handheld.app import BootOptions, DeviceRunner, boot


class HangingInput(InputSource):
    """Input that can make the frame loop hang (a stuck tick) and release it again;
    `hanging` is set once the loop is inside the stuck tick, so a test waits for the hang
    itself, not for a guessed time (a loaded machine may not run the loop for a second)."""

    def __init__(self) -> None:
        self.running = threading.Event()
        self.running.set()
        self.hanging = threading.Event()
        self.quit = False

    def poll(self, tick: int) -> RawInput:
        if not self.running.is_set():
            self.hanging.set()
        self.running.wait()
        return RawInput(quit_requested=self.quit)


def panels(tmp_path: Path, framebuffer) -> DisplayConfig:
    dev0, sys0 = framebuffer(tmp_path, "fb0", 320, 240, 16)
    dev1, sys1 = framebuffer(tmp_path, "fb1", 320, 240, 16)
    return DisplayConfig(
        upper=PanelConfig(str(dev0), str(sys0)), lower=PanelConfig(str(dev1), str(sys1))
    )


def started_before(store: Store) -> None:
    """A unit started before (its settings saved): no first-start language question before
    the boot game (firmware/scenes/boot.py)."""
    store.set_setting("settings", Settings().to_json())


def make_runner(tmp_path, framebuffer, input_source, **kwargs):
    config = DeviceConfig(display=panels(tmp_path, framebuffer))
    hal = Hal(
        name="device",
        display=FramebufferDisplay(config.display),
        input=input_source,
        clock=MonotonicClock(),
        data_dir=tmp_path,
    )
    store = Store.open(tmp_path / "store.db")
    started_before(store)
    machine = boot(hal, store, config, kwargs.pop("options", BootOptions()))
    return DeviceRunner(hal, machine, **kwargs)


def receive(sock: socket.socket, seconds: float) -> list[str]:
    """Every message that arrives within `seconds`; with 0, only those already queued."""
    out = []
    end = time.monotonic() + seconds
    while True:
        sock.settimeout(max(end - time.monotonic(), 0.0))  # 0: non-blocking
        try:
            out.append(sock.recv(4096).decode())
        except (TimeoutError, BlockingIOError):
            return out


def receive_until(
    sock: socket.socket, done: Callable[[list[str]], bool], deadline: float = 60.0
) -> list[str]:
    """Messages until `done(messages)` holds; fails after a generous `deadline` (a loaded
    machine may not run the sender for seconds, so no test counts pings per second)."""
    out: list[str] = []
    end = time.monotonic() + deadline
    while not done(out):
        left = end - time.monotonic()
        assert left > 0, f"gave up waiting after {deadline} s; received {out}"
        sock.settimeout(left)
        try:
            out.append(sock.recv(4096).decode())
        except TimeoutError:
            continue
    return out


def test_ready_once_watchdog_while_running_none_while_hung(tmp_path, framebuffer):
    address = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    inp = HangingInput()
    notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "100000"})
    runner = make_runner(tmp_path, framebuffer, inp, notifier=notifier)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    try:
        messages = receive_until(sock, lambda m: m.count("WATCHDOG=1") >= 5)
        assert messages[0].startswith("READY=1")
        inp.running.clear()  # the next tick hangs
        assert inp.hanging.wait(60)
        receive(sock, 0)  # the pings sent before the loop got stuck
        hung = receive(sock, 0.6)
        assert hung == []  # a hung loop stops pinging: systemd will restart it
        inp.running.set()
        resumed = receive_until(sock, lambda m: "WATCHDOG=1" in m)
        inp.quit = True
        thread.join(5)
        assert not thread.is_alive()
        rest = receive(sock, 0)  # the loop has ended: all it sent is queued
        everything = messages + resumed + rest
        assert sum(m.startswith("READY=1") for m in everything) == 1
        assert rest[-1] == "STOPPING=1"
    finally:
        inp.running.set()
        inp.quit = True
        thread.join(5)
        sock.close()


def test_abstract_socket_address_and_no_socket():
    assert Notifier({"NOTIFY_SOCKET": "@twinfold/x"}).address == "\0twinfold/x"
    quiet = Notifier({})
    assert not quiet.enabled and quiet.send("READY=1") is False
    other_pid = Notifier({"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"})
    assert other_pid.interval is None  # the watchdog belongs to another process


def test_long_power_press_saves_the_game_and_runs_the_shutdown_command(
    tmp_path, framebuffer, fakes
):
    keys = fakes.gpio_keys()
    bus = fakes.Bus(keys)
    clock = fakes.Clock()
    inp = EvdevInput(
        InputConfig(shutdown_command=("echo", "bye")),
        lister=bus.lister,
        opener=bus.opener,
        clock=clock,
    )
    ran: list[list[str]] = []
    runner = make_runner(
        tmp_path,
        framebuffer,
        inp,
        options=BootOptions(game="pop", seed=3),
        run_command=ran.append,
    )
    machine = runner.machine
    for _ in range(5):
        machine.step()
    keys.key(ecodes.KEY_POWER, 1)
    machine.step()
    clock.t += 2.5
    assert runner.run() == 0
    assert ran == [["echo", "bye"]]
    store = Store.open(tmp_path / "store.db")
    try:
        suspended = store.load_suspend()
        assert suspended is not None and suspended.game_id == "pop"  # resumes at the next boot
    finally:
        store.close()


def test_short_power_press_sleeps_and_wakes_with_the_panels_dark(tmp_path, framebuffer, fakes):
    keys = fakes.gpio_keys()
    bus = fakes.Bus(keys)
    clock = fakes.Clock()
    inp = EvdevInput(InputConfig(), lister=bus.lister, opener=bus.opener, clock=clock)
    runner = make_runner(tmp_path, framebuffer, inp, options=BootOptions(game="pop"))
    machine, display = runner.machine, runner.hal.display

    def frame() -> None:
        machine.step()
        machine.render()
        machine.present()

    frame()
    keys.key(ecodes.KEY_POWER, 1)
    frame()
    keys.key(ecodes.KEY_POWER, 0)
    frame()
    assert machine.asleep and display.blanked
    assert (tmp_path / "sys" / "fb1" / "blank").read_text().strip() == "4"
    assert set((tmp_path / "fb1").read_bytes()) == {0}
    frame()
    assert display.last_written == 0  # asleep: nothing more is written
    keys.key(ecodes.KEY_POWER, 1)
    keys.key(ecodes.KEY_POWER, 0)  # a quick tap inside one frame still wakes it
    frame()
    frame()
    assert not machine.asleep and not display.blanked
    assert (tmp_path / "sys" / "fb1" / "blank").read_text().strip() == "0"
    runner.stop()


def test_lid_close_suspends_and_blanks(tmp_path, framebuffer, fakes):
    keys = fakes.gpio_keys()
    bus = fakes.Bus(keys)
    inp = EvdevInput(InputConfig(), lister=bus.lister, opener=bus.opener, clock=fakes.Clock())
    runner = make_runner(tmp_path, framebuffer, inp, options=BootOptions(game="pop"))
    machine = runner.machine
    keys.emit(ecodes.EV_SW, ecodes.SW_LID, 1)
    keys.syn()
    machine.step()
    machine.render()
    machine.present()
    assert machine.lid_closed and runner.hal.display.blanked
    assert machine.store.load_suspend() is not None
    runner.stop()


@pytest.mark.parametrize("frames", [1, 7])
def test_frames_stops_after_exactly_that_many_ticks(tmp_path, framebuffer, frames):
    inp = HangingInput()
    runner = make_runner(tmp_path, framebuffer, inp, frames=frames)
    runner.run()
    assert runner.machine.tick == frames


def test_the_command_under_a_systemd_like_parent_stops_cleanly_on_sigterm(tmp_path, framebuffer):
    """`twinfold device` as the unit runs it: notify socket, watchdog, SIGTERM -> game saved."""
    import os
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    config = config_file(tmp_path, framebuffer, '[boot]\ngame = "pop"\n')
    (tmp_path / "data").mkdir(exist_ok=True)
    with Store.open(tmp_path / "data" / "store.db") as store:
        started_before(store)
    address = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    env = {
        **os.environ,
        "PYTHONPATH": str(root),
        "NOTIFY_SOCKET": address,
        "WATCHDOG_USEC": "400000",
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware.cli", "device", "--config", str(config)],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        sock.settimeout(20.0)  # Python and pygame start slowly on a loaded machine
        first = [sock.recv(4096).decode()]
        assert first and first[0].startswith("READY=1"), first
        receive_until(sock, lambda m: m.count("WATCHDOG=1") >= 2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
        assert proc.returncode == 0, err
        assert receive(sock, 0)[-1:] == ["STOPPING=1"]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        sock.close()
    store = Store.open(tmp_path / "data" / "store.db")
    try:
        suspended = store.load_suspend()
        assert suspended is not None and suspended.game_id == "pop"
    finally:
        store.close()


def test_an_empty_battery_saves_the_game_and_runs_the_shutdown_command(tmp_path, framebuffer):
    """Issue 35, item 4: as a long POWER press does, from a stand-in sysfs tree."""
    from hal.backends.device.battery import SysfsBattery
    from hal.interfaces import BatteryPolicy

    root = tmp_path / "power_supply" / "BAT0"
    root.mkdir(parents=True)
    (root / "type").write_text("Battery\n")
    (root / "status").write_text("Discharging\n")
    (root / "capacity").write_text("3\n")
    config = DeviceConfig(
        display=panels(tmp_path, framebuffer), input=InputConfig(shutdown_command=("echo", "off"))
    )
    hal = Hal(
        name="device",
        display=FramebufferDisplay(config.display),
        input=HangingInput(),
        clock=fakes_clock(),
        data_dir=tmp_path,
        battery=SysfsBattery(root.parent, policy=BatteryPolicy(poll_ticks=2)),
    )
    store = Store.open(tmp_path / "store.db")
    started_before(store)
    machine = boot(hal, store, config, BootOptions(game="pop", seed=3))
    ran: list[list[str]] = []
    runner = DeviceRunner(
        hal, machine, run_command=ran.append, shutdown_command=config.input.shutdown_command
    )
    assert runner.run() == 0  # stops by itself: the battery asked for it
    assert ran == [["echo", "off"]] and machine.shutdown_requested
    with Store.open(tmp_path / "store.db") as reopened:
        suspended = reopened.load_suspend()
        assert suspended is not None and suspended.game_id == "pop"


def fakes_clock():
    """A clock that runs as fast as the loop asks (no real waiting)."""

    class Fast:
        t = 0.0

        def now(self) -> float:
            return self.t

        def sleep(self, seconds: float) -> None:
            self.t += seconds

    return Fast()
