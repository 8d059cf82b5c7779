"""The wired part of the two-unit network check (deploy/image/net_check.py, issue 32) without
QEMU: the guest's USB network adapter is found by the USB id of the device behind the
interface (the kernel's cdc_subset names QEMU's usb-net usb0 under a random MAC), given
QEMU's MAC and its address, and the check FAILS, never skips, when the adapter is missing or
the match over it does not end in the same finished game. The shell that finds the adapter
runs for real here, on a stand-in of the guest's sysfs laid out as the kernel lays it out."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.deploy import image_scripts

GAME = ["c4", "c3", "c2", "b4", "a5", "f4", "g4", "c5", "d6"]


net_check = image_scripts.load("net_check")


def sysfs(tmp: Path, adapters: dict[str, tuple[str, str]]) -> Path:
    """/sys as the guest's kernel shows it: /sys/class/net/IFACE/device is the USB
    interface (1-1.N:1.1), whose parent is the USB device with idVendor and idProduct; lo
    has no device."""
    net = tmp / "sys/class/net"
    (net / "lo").mkdir(parents=True)
    for n, (iface, usb_id) in enumerate(adapters.items()):
        device = tmp / f"sys/devices/usb1/1-1/1-1.{n + 2}"
        (device / f"1-1.{n + 2}:1.1").mkdir(parents=True)
        vendor, product = usb_id.split(":")
        (device / "idVendor").write_text(vendor + "\n")
        (device / "idProduct").write_text(product + "\n")
        (net / iface).mkdir()
        (net / iface / "device").symlink_to(device / f"1-1.{n + 2}:1.1")
        (net / iface / "address").write_text("3a:7e:e3:9e:a5:2e\n")  # random (cdc_subset)
    return tmp / "sys/class/net"


class FakeGuest:
    """A unit whose shell answers the wired match's commands: the adapter's search runs in
    a real shell on the stand-in sysfs; `ip` is recorded; the dump is the one given."""

    def __init__(self, name: str, net: Path, dump: dict[str, Any]) -> None:
        self.name = name
        self.net = net
        self.dump = dump
        self.commands: list[str] = []

    def put(self, path: str, text: str) -> None:
        self.commands.append(f"put {path}")

    def sh(self, command: str, seconds: float = 60) -> str:
        self.commands.append(command)
        if "idVendor" in command:
            shell = command.replace("/sys/class/net", str(self.net))
            done = subprocess.run(["sh", "-c", shell], capture_output=True, text=True)
            if done.returncode != 0:
                raise net_check.CheckFailed(f"{self.name}: `{command}` failed: {done.stdout}")
            return done.stdout
        if command.startswith("ip -br link show"):
            return "usb0             UP             52:54:00:77:00:01 <BROADCAST,MULTICAST,UP>\n"
        if command.startswith("cat ") and command.endswith("dump.json"):
            return json.dumps(self.dump)
        return ""


def dump(partner: str, status: str = "over") -> dict[str, Any]:
    return {
        "game": {"moves": GAME, "status": status, "board": ["x"]},
        "link": {"partner": partner, "state": "over"},
    }


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net_check.time, "sleep", lambda _seconds: None)
    monkeypatch.setattr(net_check, "log", lambda _text: None)


def test_the_adapter_is_found_by_its_usb_id_and_given_qemu_s_mac_and_its_address(
    tmp_path: Path,
) -> None:
    guests = []
    for n, (name, partner) in enumerate((("ann", "Bob"), ("bob", "Ann"))):
        # a USB Ethernet of another make first: only QEMU's usb-net (0525:a4a2) is taken
        net = sysfs(tmp_path / name, {"eth0": "0424:ec00", f"usb{n}": "0525:a4a2"})
        guests.append(FakeGuest(name, net, dump(partner)))
    assert net_check.wired_match(guests, tmp_path) == "10.77.0.1"
    for guest, iface, mac, address in zip(
        guests, ("usb0", "usb1"), net_check.MACS, net_check.WIRED, strict=True
    ):
        setup = next(c for c in guest.commands if c.startswith("ip link set"))
        assert f"ip link set {iface} address {mac}" in setup
        assert f"ip addr replace {address}/24 brd + dev {iface}" in setup
        started = next(c for c in guest.commands if "headless" in c)
        assert f"lan://?iface={iface}" in started


def test_a_unit_without_the_adapter_fails_the_check_and_keeps_its_usb_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(net_check, "ADAPTER_SECONDS", 0)
    ann = FakeGuest("ann", sysfs(tmp_path / "ann", {"usb0": "0525:a4a2"}), dump("Bob"))
    bob = FakeGuest("bob", sysfs(tmp_path / "bob", {"eth0": "0424:ec00"}), dump("Ann"))
    with pytest.raises(net_check.CheckFailed, match="bob: no USB network adapter"):
        net_check.wired_match([ann, bob], tmp_path)
    assert (tmp_path / "bob-usb-net.log").exists()
    assert not any("headless" in c for c in ann.commands)  # no match started


def test_a_match_that_does_not_end_over_the_wire_fails_the_check(tmp_path: Path) -> None:
    ann = FakeGuest("ann", sysfs(tmp_path / "ann", {"usb0": "0525:a4a2"}), dump("Bob"))
    stuck = dump("Ann", status="playing")
    bob = FakeGuest("bob", sysfs(tmp_path / "bob", {"usb0": "0525:a4a2"}), stuck)
    with pytest.raises(net_check.CheckFailed, match="wired: Bob ended with"):
        net_check.wired_match([ann, bob], tmp_path)
