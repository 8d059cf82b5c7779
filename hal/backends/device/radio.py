"""The radio (P-HW-5): the UART radio module as the HAL's unreliable `ByteLink`.

Opened with pyserial's `serial_for_url` (so `loop://` and `socket://` URLs serve tests and
bench rigs), never blocking: reads take what is waiting, writes hand over what the driver
accepts. A port that cannot be opened, or fails later (a USB adapter pulled), leaves the
radio off (`NoLink` behaviour) with one log line; the firmware keeps running.

When the link stack's serial transport (hal/link) lands on main, `open_radio` should return
it instead; this class is the minimal byte pipe the HAL contract asks for.
"""

from __future__ import annotations

import logging
from typing import Any

from hal.backends.device.config import RadioConfig
from hal.interfaces import ByteLink, NoLink

log = logging.getLogger("twinfold")


class SerialLink(ByteLink):
    def __init__(self, port: Any, name: str) -> None:
        self.port: Any = port
        self.name = name

    def _fail(self, exc: Exception) -> None:
        log.warning("radio: %s failed (%s); the radio is off", self.name, exc)
        try:
            self.port.close()
        except Exception:  # already broken; closing is best effort
            log.debug("radio: close failed", exc_info=True)
        self.port = None

    def write(self, data: bytes) -> None:
        if self.port is None or not data:
            return
        import serial

        try:
            self.port.write(data)
        except serial.SerialTimeoutException:
            return  # the driver's buffer is full: the bytes are lost, as radio bytes may be
        except Exception as exc:  # pyserial raises SerialException or OSError subclasses
            self._fail(exc)

    def read(self) -> bytes:
        if self.port is None:
            return b""
        try:
            waiting = self.port.in_waiting
            return bytes(self.port.read(waiting)) if waiting else b""
        except Exception as exc:
            self._fail(exc)
            return b""

    def close(self) -> None:
        if self.port is not None:
            self.port.close()
            self.port = None


def open_radio(config: RadioConfig) -> ByteLink:
    """The configured serial port as a ByteLink; `NoLink` when disabled or unavailable."""
    if not config.enabled:
        return NoLink()
    import serial

    try:
        # A device node is written non-blocking (write_timeout 0); pyserial's URL handlers
        # (loop://, socket://) treat 0 as "always late", so they get blocking writes.
        write_timeout = None if "://" in config.port else 0
        port = serial.serial_for_url(
            config.port, baudrate=config.baud, timeout=0, write_timeout=write_timeout,
            exclusive=True,
        )  # fmt: skip
    except (serial.SerialException, OSError, ValueError) as exc:
        log.warning("radio: cannot open %s: %s; the radio is off", config.port, exc)
        return NoLink()
    log.info("radio: %s at %d baud", config.port, config.baud)
    return SerialLink(port, config.port)
