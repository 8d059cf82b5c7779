"""The battery from the kernel's power_supply class, read from stand-in sysfs trees (P-HW-8):
a battery, a charger, none, one that vanishes, and nonsense in its files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hal.backends.device.battery import SysfsBattery
from hal.backends.device.config import BatteryConfig, parse_config
from hal.interfaces import BatteryReading, NoBattery
from handheld.app import build_battery


def supply(root: Path, name: str, **files: str | bytes) -> Path:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    for key, value in files.items():
        data = value if isinstance(value, bytes) else (value + "\n").encode()
        (folder / key).write_bytes(data)
    return folder


def test_a_discharging_battery_and_the_charger(tmp_path: Path) -> None:
    supply(tmp_path, "AC", type="Mains", online="0")
    bat = supply(tmp_path, "BAT0", type="Battery", capacity="57", status="Discharging")
    battery = SysfsBattery(tmp_path)
    assert battery.read() == BatteryReading(57, False)
    for status in ("Charging", "Full"):
        (bat / "status").write_text(status + "\n")
        assert battery.read() == BatteryReading(57, True)
    (bat / "status").write_text("Not charging\n")
    assert battery.read() == BatteryReading(57, False)
    (tmp_path / "AC" / "online").write_text("1\n")  # on the charger, whatever the status says
    assert battery.read() == BatteryReading(57, True)


def test_no_battery_an_empty_bay_or_no_tree_reads_none(tmp_path: Path) -> None:
    assert SysfsBattery(tmp_path / "absent").read() is None
    supply(tmp_path, "usb", type="USB", online="1")
    assert SysfsBattery(tmp_path).read() is None
    supply(tmp_path, "BAT0", type="Battery", present="0", capacity="80")
    assert SysfsBattery(tmp_path).read() is None
    supply(tmp_path, "BAT1", type="Battery", present="1", capacity="81", status="Unknown")
    assert SysfsBattery(tmp_path).read() == BatteryReading(81, True)  # usb online
    assert SysfsBattery(tmp_path, name="BAT1").read() == BatteryReading(81, True)
    assert SysfsBattery(tmp_path, name="usb").read() is None  # not a battery


def test_a_battery_that_disappears_reads_none(tmp_path: Path) -> None:
    bat = supply(tmp_path, "BAT0", type="Battery", capacity="40", status="Discharging")
    battery = SysfsBattery(tmp_path)
    assert battery.read() == BatteryReading(40, False)
    shutil.rmtree(bat)
    assert battery.read() is None
    supply(tmp_path, "BAT0", type="Battery", status="Discharging")  # back, without capacity
    assert battery.read() is None


@pytest.mark.parametrize(
    "capacity", ["", "abc", "-3", "101", "250", "12.5", " 4 2", "0x20", b"\xff\xfe", "²"]
)
def test_nonsense_capacity_reads_none(tmp_path: Path, capacity: str | bytes) -> None:
    supply(tmp_path, "BAT0", type="Battery", capacity=capacity, status="Discharging")
    assert SysfsBattery(tmp_path).read() is None


def test_device_toml_battery_section(tmp_path: Path) -> None:
    config, problems = parse_config(
        {"battery": {"low_percent": 20, "critical_percent": 4, "poll_seconds": 1,
                     "root": str(tmp_path), "name": "BAT0"}}
    )
    assert problems == []
    assert config.battery == BatteryConfig(True, str(tmp_path), "BAT0", 20, 4, 1.0)
    battery = build_battery(config.battery)
    assert isinstance(battery, SysfsBattery) and battery.root == tmp_path
    assert (battery.policy.low, battery.policy.critical, battery.policy.poll_ticks) == (20, 4, 60)
    assert isinstance(build_battery(BatteryConfig(enabled=False)), NoBattery)
    config, problems = parse_config({"battery": {"low_percent": 5, "critical_percent": 9}})
    assert problems == [
        "battery.critical_percent (9) must be below battery.low_percent (5); using the"
        " defaults for both"
    ]
    assert (config.battery.low_percent, config.battery.critical_percent) == (15, 5)
    config, problems = parse_config({"battery": {"low_percent": 0, "poll_seconds": "x"}})
    assert len(problems) == 2 and config.battery == BatteryConfig()


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    capacity=st.binary(max_size=12) | st.integers(-1000, 1000).map(lambda n: str(n).encode()),
    status=st.binary(max_size=16) | st.sampled_from([b"Charging", b"Full", b"Discharging"]),
)
def test_any_bytes_in_the_files_read_as_a_sane_reading_or_none(
    tmp_path: Path, capacity: bytes, status: bytes
) -> None:
    supply(tmp_path, "BAT0", type="Battery", capacity=capacity, status=status)
    reading = SysfsBattery(tmp_path).read()
    if reading is not None:
        assert isinstance(reading.percent, int) and 0 <= reading.percent <= 100
        assert str(reading.percent) == capacity.decode("ascii").strip().lstrip("0").rjust(1, "0")
