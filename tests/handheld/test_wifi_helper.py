"""The root helper of a handheld's own Wi-Fi network (handheld/wifi_helper.py): the states
it reports from hostapd's and wpa_supplicant's lines, and a whole run with stand-in
programs (`ip`, `networkctl`, `systemctl`, `hostapd`, `wpa_supplicant` that log their
arguments): the interface taken, the program run with 0600 settings, the state file kept
without the passphrase, and everything given back on SIGTERM or when the program fails."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hal.link.hotspot import HOST_ADDRESS, LAN_GROUPS, derive, joiner_address
from handheld.wifi_helper import Status, follow, give_back_commands

ROOT = Path(__file__).resolve().parents[2]
MAC = "02:00:00:00:01:00"


def test_hostapd_lines_make_the_host_states() -> None:
    status = Status("host", "starting")
    assert not follow("host", "wlan0: interface state UNINITIALIZED->ENABLED", status)
    assert follow("host", "wlan0: AP-ENABLED", status) and status.state == "hosting"
    assert follow("host", f"wlan0: AP-STA-CONNECTED {MAC}", status)
    assert status.stations == [MAC]
    assert not follow("host", f"wlan0: AP-STA-CONNECTED {MAC}", status)  # once
    assert follow("host", f"wlan0: AP-STA-DISCONNECTED {MAC}", status) and status.stations == []
    assert follow("host", "wlan0: AP-DISABLED", status) and status.state == "starting"
    assert not follow("host", "wlan0: CTRL-EVENT-CONNECTED", status)  # not hostapd's word


def test_wpa_supplicant_lines_make_the_joining_states() -> None:
    status = Status("join", "joining")
    assert not follow("join", "wlan1: CTRL-EVENT-NETWORK-NOT-FOUND", status)
    wrong = 'wlan1: CTRL-EVENT-SSID-TEMP-DISABLED id=0 ssid="x" auth_failures=1 reason=WRONG_KEY'
    assert follow("join", wrong, status) and "passphrase" in status.error
    connected = "wlan1: CTRL-EVENT-CONNECTED - Connection to 02:00:00:00:00:00 completed"
    assert follow("join", connected, status)
    assert (status.state, status.error) == ("joined", "")
    assert follow("join", "wlan1: CTRL-EVENT-DISCONNECTED bssid=x reason=3", status)
    assert status.state == "joining"


def test_giving_back_restores_networkd_and_the_units_own_wifi() -> None:
    cmds = give_back_commands("wlan0", HOST_ADDRESS, standalone=False, wpa=True)
    assert cmds[:2] == [
        ["ip", "route", "del", LAN_GROUPS, "dev", "wlan0"],
        ["ip", "addr", "del", f"{HOST_ADDRESS}/16", "dev", "wlan0"],
    ]
    assert ["networkctl", "reconfigure", "wlan0"] in cmds
    assert cmds[-1] == ["systemctl", "start", "--no-block", "wpa_supplicant@wlan0.service"]
    assert give_back_commands("wlan0", HOST_ADDRESS, standalone=False, wpa=False)[-1][0] != (
        "systemctl"
    )
    assert give_back_commands("wlan1", "10.47.3.4", standalone=True, wpa=True) == [
        ["ip", "route", "del", LAN_GROUPS, "dev", "wlan1"],
        ["ip", "addr", "del", "10.47.3.4/16", "dev", "wlan1"],
    ]


FAKE = {
    "ip": "",
    "networkctl": "",
    "systemctl": "",
    "hostapd": 'echo "wlan0: AP-ENABLED"; echo "wlan0: AP-STA-CONNECTED {mac}"',
    "wpa_supplicant": 'echo "wlan0: CTRL-EVENT-CONNECTED - Connection to x completed"',
}


def fake_bin(tmp: Path, program_exit: int | None) -> Path:
    """Stand-ins that log their arguments; the program prints its lines, then waits for
    SIGTERM (or exits with `program_exit`)."""
    folder = tmp / "bin"
    folder.mkdir()
    for name, lines in FAKE.items():
        body = f'#!/bin/bash\necho "{name} $*" >> "{tmp}/calls.log"\n'
        if lines:
            body += lines.format(mac=MAC) + "\n"
            if program_exit is None:
                body += "trap 'exit 0' TERM\nwhile :; do sleep 0.05; done\n"
            else:
                body += f"exit {program_exit}\n"
        path = folder / name
        path.write_text(body)
        path.chmod(0o755)
    return folder


def start(
    tmp: Path, role: str, *extra: str, program_exit: int | None = None
) -> subprocess.Popen[str]:
    root = tmp / "root"
    (root / "run/twinfold").mkdir(parents=True)
    (root / "run/twinfold/device.toml").write_text('[radio]\nport = "lan://club"\n')
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/twinfold.toml").write_text('[wifi]\ncountry = "JP"\n')
    (root / "sys/class/net/wlan0").mkdir(parents=True)
    (root / "sys/class/net/wlan0/address").write_text(MAC + "\n")
    path = f"{fake_bin(tmp, program_exit)}:{os.environ['PATH']}"
    env = {**os.environ, "TWINFOLD_ROOT": str(root), "PATH": path}
    cmd = [sys.executable, "-m", "handheld.wifi_helper", role, "wlan0", *extra]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, text=True)


def state_of(tmp: Path) -> dict[str, object]:
    try:
        return json.loads((tmp / "root/run/twinfold-wifi/wlan0.json").read_text())  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return {}


def wait_state(tmp: Path, proc: subprocess.Popen[str], want: str) -> dict[str, object]:
    deadline = time.monotonic() + 60  # generous: a loaded machine
    while state_of(tmp).get("state") != want:
        assert proc.poll() is None or state_of(tmp).get("state") == want, proc.stdout
        assert time.monotonic() < deadline, state_of(tmp)
        time.sleep(0.05)
    return state_of(tmp)


def calls(tmp: Path) -> list[str]:
    return (tmp / "calls.log").read_text().splitlines()


@pytest.mark.parametrize("role", ["host", "join"])
def test_a_whole_run_takes_the_interface_and_gives_it_back(tmp_path: Path, role: str) -> None:
    (tmp_path / "root/etc/wpa_supplicant").mkdir(parents=True)
    (tmp_path / "root/etc/wpa_supplicant/wpa_supplicant-wlan0.conf").write_text("home\n")
    proc = start(tmp_path, role)
    spot = derive("club")
    address = HOST_ADDRESS if role == "host" else joiner_address(MAC)
    got = wait_state(tmp_path, proc, "hosting" if role == "host" else "joined")
    assert (got["ssid"], got["address"]) == (spot.ssid, address)
    assert got["stations"] == ([MAC] if role == "host" else [])
    run = tmp_path / "root/run/twinfold-wifi"
    assert spot.passphrase not in (run / "wlan0.json").read_text()
    settings = next(run.glob("wlan0-*.conf"))
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    assert spot.passphrase in settings.read_text() and "JP" in settings.read_text()
    networkd = tmp_path / "root/run/systemd/network/05-twinfold-wifi-wlan0.network"
    assert "Unmanaged=yes" in networkd.read_text()
    assert calls(tmp_path)[:5] == [
        "networkctl reload",
        "ip -4 addr flush dev wlan0",
        "ip link set wlan0 up",
        f"ip addr add {address}/16 dev wlan0",
        f"ip route replace {LAN_GROUPS} dev wlan0",
    ]
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0
    assert state_of(tmp_path)["state"] == "off"
    assert not networkd.exists()
    assert calls(tmp_path)[-5:] == [
        f"ip route del {LAN_GROUPS} dev wlan0",
        f"ip addr del {address}/16 dev wlan0",
        "networkctl reload",
        "networkctl reconfigure wlan0",
        "systemctl start --no-block wpa_supplicant@wlan0.service",
    ]


def test_a_failing_program_is_reported_and_the_interface_given_back(tmp_path: Path) -> None:
    proc = start(tmp_path, "host", "--standalone", program_exit=1)
    assert proc.wait(timeout=60) == 1
    got = state_of(tmp_path)
    assert (got["state"], got["error"]) == ("failed", "hostapd exited 1")
    assert calls(tmp_path)[-1] == f"ip addr del {HOST_ADDRESS}/16 dev wlan0"
    assert not any(c.startswith(("networkctl", "systemctl")) for c in calls(tmp_path))
    # the units' ExecStopPost after a failure: nothing to give back, the reason stays
    again = start_stop(tmp_path)
    assert again == 0 and state_of(tmp_path)["state"] == "failed"


def start_stop(tmp: Path) -> int:
    env = {
        **os.environ,
        "TWINFOLD_ROOT": str(tmp / "root"),
        "PATH": f"{tmp}/bin:{os.environ['PATH']}",
    }
    before = len(calls(tmp))
    cmd = [sys.executable, "-m", "handheld.wifi_helper", "stop", "wlan0"]
    code = subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode
    assert len(calls(tmp)) == before  # nothing run
    return code


def test_a_bad_interface_name_is_refused_in_one_line(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "handheld.wifi_helper", "host", "../etc"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "not an interface name" in done.stderr
    assert done.stderr.strip().splitlines()[-1].count("\n") == 0
