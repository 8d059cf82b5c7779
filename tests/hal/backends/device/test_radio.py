"""The serial radio as a ByteLink (pyserial URLs stand in for the UART)."""

from __future__ import annotations

import serial

from hal.backends.device.config import RadioConfig
from hal.backends.device.radio import open_radio
from hal.interfaces import NoLink
from hal.link.serial_link import SerialLink


def test_loopback_port_carries_bytes_without_blocking():
    link = open_radio(RadioConfig(port="loop://", baud=9600))
    assert isinstance(link, SerialLink)
    assert link.read() == b""  # nothing waiting: returns at once
    link.write(b"\x00hello\x00")
    assert link.read() == b"\x00hello\x00"
    assert link.read() == b""
    link.close()


def test_disabled_or_missing_port_is_no_link(tmp_path, caplog):
    assert isinstance(open_radio(RadioConfig(enabled=False)), NoLink)
    link = open_radio(RadioConfig(port=str(tmp_path / "ttyNONE")))
    assert isinstance(link, NoLink)
    assert "cannot open" in caplog.text


class BrokenPort:
    in_waiting = 0
    timeout = 0

    def write(self, data: bytes) -> int:
        raise serial.SerialException("device disconnected")

    def read(self, n: int) -> bytes:
        raise serial.SerialException("device disconnected")

    def fileno(self) -> int:
        raise OSError("no descriptor")

    def close(self) -> None:
        pass


def test_a_port_that_fails_keeps_the_firmware_running(caplog):
    link = SerialLink(BrokenPort())
    link.write(b"x")  # logged and dropped: radio bytes may be lost
    assert "link write failed" in caplog.text
    assert link.read() == b""
