"""The unit's own Wi-Fi network as the firmware keeps it (firmware/wifi.py): the state
machine over the player's requests and the system's reports, driven tick by tick with a
stand-in control; and the handheld's control (hal/backends/device/wifi.py) with a
stand-in systemctl and report file."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from serial.serialutil import SerialException

from firmware.wifi import POLL_TICKS, START_TICKS, WifiService
from hal.backends.device.wifi import SystemdWifi
from hal.wifi import NoWifi, WifiControl, WifiStatus


class FakeControl(WifiControl):
    def __init__(self, refuse: str | None = None) -> None:
        self.requests: list[str] = []
        self.report: WifiStatus | None = None
        self.refuse = refuse

    def request(self, role: str) -> str | None:
        self.requests.append(role)
        return self.refuse

    def status(self) -> WifiStatus | None:
        return self.report


def run(service: WifiService, start: int, ticks: int) -> int:
    for t in range(start, start + ticks):
        service.tick(t)
    return start + ticks


def test_hosting_from_off_to_hosting_and_back() -> None:
    control = FakeControl()
    wifi = WifiService(control)
    assert wifi.present and not wifi.active
    wifi.start("host", 0)
    assert (wifi.state, control.requests) == ("starting", ["host"])
    control.report = WifiStatus("host", "starting", "Twinfold-ABCDE", "10.47.0.1")
    t = run(wifi, 1, 3 * POLL_TICKS)
    assert wifi.state == "starting" and wifi.ssid == "Twinfold-ABCDE"
    control.report = WifiStatus("host", "hosting", "Twinfold-ABCDE", "10.47.0.1", stations=2)
    t = run(wifi, t, POLL_TICKS)
    assert (wifi.state, wifi.stations) == ("hosting", 2)
    wifi.start("host", t)  # again: nothing asked twice
    assert control.requests == ["host"]
    wifi.stop(t)
    assert (wifi.state, control.requests[-1]) == ("stopping", "off")
    t = run(wifi, t, POLL_TICKS)
    assert wifi.state == "stopping"  # the report still says hosting
    control.report = WifiStatus()
    run(wifi, t, POLL_TICKS)
    assert (wifi.state, wifi.ssid, wifi.address, wifi.stations) == ("off", "", "", 0)


def test_joining_waits_for_the_host_without_a_deadline_and_follows_losses() -> None:
    control = FakeControl()
    wifi = WifiService(control)
    wifi.start("join", 0)
    control.report = WifiStatus("join", "joining", "Twinfold-ABCDE", "10.47.1.2")
    t = run(wifi, 1, START_TICKS * 3)
    assert wifi.state == "joining"  # the other unit may not host yet: keep looking
    control.report = WifiStatus("join", "joined", "Twinfold-ABCDE", "10.47.1.2")
    t = run(wifi, t, POLL_TICKS)
    assert (wifi.state, wifi.address) == ("joined", "10.47.1.2")
    control.report = WifiStatus("join", "joining", "Twinfold-ABCDE", "10.47.1.2")
    run(wifi, t, POLL_TICKS)
    assert wifi.state == "joining"


def test_a_network_that_never_comes_up_fails_with_a_reason() -> None:
    control = FakeControl()
    wifi = WifiService(control)
    wifi.start("host", 100)
    t = run(wifi, 101, START_TICKS)
    assert wifi.state == "starting"
    run(wifi, t, 2 * POLL_TICKS)
    assert (wifi.state, wifi.error) == ("failed", "the network did not start")
    assert not wifi.active


def test_a_reported_failure_shows_its_reason_and_stop_recovers() -> None:
    control = FakeControl()
    wifi = WifiService(control)
    wifi.start("host", 0)
    control.report = WifiStatus("host", "failed", error="hostapd exited 1")
    t = run(wifi, 1, POLL_TICKS)
    assert (wifi.state, wifi.error) == ("failed", "hostapd exited 1")
    run(wifi, t, START_TICKS)  # failed: nothing polled, nothing changes
    assert wifi.state == "failed"
    wifi.stop(t)
    assert wifi.state == "stopping"
    run(wifi, t, POLL_TICKS)
    assert wifi.state == "off"  # the report says failed: nothing left running


def test_a_refused_request_fails_at_once() -> None:
    wifi = WifiService(FakeControl(refuse="Access denied"))
    wifi.start("join", 0)
    assert (wifi.state, wifi.error) == ("failed", "Access denied")


def test_stopped_from_outside_returns_to_off_and_another_roles_report_is_ignored() -> None:
    control = FakeControl()
    wifi = WifiService(control)
    wifi.start("host", 0)
    control.report = WifiStatus("join", "joined", "x", "y")  # stale: the other role's
    t = run(wifi, 1, POLL_TICKS)
    assert wifi.state == "starting"
    control.report = WifiStatus("host", "hosting", "x", "10.47.0.1")
    t = run(wifi, t, POLL_TICKS)
    control.report = WifiStatus()
    run(wifi, t, POLL_TICKS)
    assert wifi.state == "off"


states = st.sampled_from(["off", "starting", "hosting", "joining", "joined", "failed"])
reports = st.one_of(st.none(), st.builds(WifiStatus, st.sampled_from(["", "host", "join"]), states))
actions = st.sampled_from(["host", "join", "stop", "tick"])


@given(st.lists(st.tuples(actions, reports), max_size=40))
def test_any_sequence_keeps_a_known_state_and_stop_always_ends_off(
    steps: list[tuple[str, WifiStatus | None]],
) -> None:
    control = FakeControl()
    wifi = WifiService(control)
    t = 0
    for action, report in steps:
        control.report = report
        if action == "stop":
            wifi.stop(t)
        elif action == "tick":
            t = run(wifi, t, POLL_TICKS)
        else:
            wifi.start(action, t)
        assert wifi.state in {
            "off",
            "starting",
            "hosting",
            "joining",
            "joined",
            "stopping",
            "failed",
        }
        assert wifi.state != "failed" or wifi.error
        t += 1
    wifi.stop(t)
    control.report = None
    run(wifi, t, POLL_TICKS)
    assert wifi.state == "off"


def test_headless_and_the_emulator_have_none() -> None:
    wifi = WifiService(NoWifi())
    assert not wifi.present


def test_the_handheld_control_asks_systemd_and_reads_the_helpers_report(tmp_path: Path) -> None:
    (tmp_path / "net/wlan0/wireless").mkdir(parents=True)
    (tmp_path / "units").mkdir()
    (tmp_path / "units/twinfold-wifi-host@.service").write_text("")
    log = tmp_path / "calls"
    systemctl = tmp_path / "systemctl"
    systemctl.write_text(f'#!/bin/sh\necho "$*" >> {log}\n[ "$1" != start ] || [ "$3" != bad ]\n')
    systemctl.chmod(0o755)
    control = SystemdWifi(
        run_dir=tmp_path / "run",
        sys_net=tmp_path / "net",
        unit_dir=tmp_path / "units",
        systemctl=[str(systemctl)],
    )
    assert control.present
    assert control.request("host") is None and control.request("off") is None
    assert log.read_text().splitlines() == [
        "start --no-block twinfold-wifi-host@wlan0.service",
        "stop --no-block twinfold-wifi-host@wlan0.service twinfold-wifi-join@wlan0.service",
    ]
    assert control.request("bogus") is not None
    assert control.status() is None  # no report yet
    (tmp_path / "run").mkdir()
    report = {"role": "host", "state": "hosting", "ssid": "Twinfold-ABCDE",
              "address": "10.47.0.1", "stations": ["02:00:00:00:01:00"], "error": ""}  # fmt: skip
    (tmp_path / "run/wlan0.json").write_text(json.dumps(report))
    assert control.status() == WifiStatus("host", "hosting", "Twinfold-ABCDE", "10.47.0.1", 1)
    (tmp_path / "run/wlan0.json").write_text("[1, 2")
    assert control.status() is None
    refusing = tmp_path / "refusing"
    refusing.write_text("#!/bin/sh\necho 'Failed to start: Access denied' >&2\nexit 4\n")
    refusing.chmod(0o755)
    denied = SystemdWifi(sys_net=tmp_path / "net", unit_dir=tmp_path / "units",
                         systemctl=[str(refusing)])  # fmt: skip
    assert denied.request("join") == "Failed to start: Access denied"  # one line, shown
    assert not SystemdWifi(sys_net=tmp_path / "none", unit_dir=tmp_path / "units").present
    assert not SystemdWifi(sys_net=tmp_path / "net", unit_dir=tmp_path / "none").present


def test_the_network_link_is_told_when_the_network_comes_and_goes() -> None:
    """tick() is True exactly when the unit's network changed (up, then given back): the
    machine then has `lan://` find its interface again (SerialLink.refresh)."""
    control = FakeControl()
    wifi = WifiService(control)
    wifi.start("join", 0)
    control.report = WifiStatus("join", "joining", "x", "10.47.1.2")
    changes = [t for t in range(1, 4 * POLL_TICKS) if wifi.tick(t)]
    assert changes == []
    control.report = WifiStatus("join", "joined", "x", "10.47.1.2")
    changes = [t for t in range(4 * POLL_TICKS, 8 * POLL_TICKS) if wifi.tick(t)]
    assert changes == [4 * POLL_TICKS]
    wifi.stop(8 * POLL_TICKS)
    control.report = WifiStatus()
    changes = [t for t in range(8 * POLL_TICKS, 12 * POLL_TICKS) if wifi.tick(t)]
    assert changes == [8 * POLL_TICKS] and wifi.state == "off"


class Port:
    def __init__(self, kind: str, fail: bool = False) -> None:
        self.link_kind = kind
        self.portstr = "lan://"
        self.calls: list[str] = []
        self.fail = fail
        self.timeout: float | None = None

    def close(self) -> None:
        self.calls.append("close")

    def open(self) -> None:
        self.calls.append("open")
        if self.fail:
            raise SerialException("lan:// finds no network here")


def test_refresh_reopens_a_network_port_only() -> None:
    from hal.link.serial_link import SerialLink

    for kind, want in (("network", ["close", "open"]), ("radio", [])):
        port = Port(kind)
        SerialLink(port).refresh()  # type: ignore[arg-type]
        assert port.calls == want
    failing = Port("network", fail=True)
    SerialLink(failing).refresh()  # type: ignore[arg-type]  # logged, the unit goes on
    assert failing.calls == ["close", "open"]
