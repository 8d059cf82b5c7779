"""The byte link over pyserial (P-HW-5): a UART radio on the device (`/dev/serial0`), a USB
adapter (`/dev/ttyUSB0`), a pty in tests, the simulated radio `air://CHANNEL?...`, or the
local network `lan://` (issue 32).

Never blocks a tick: the port is opened with `timeout=0` and `write_timeout=0`; bytes the
driver cannot take at once wait in a bounded buffer here and go out on later calls.
"""

from __future__ import annotations

import io
import logging
import select
from typing import Any

import serial

from hal.interfaces import ByteLink

log = logging.getLogger("twinfold.link")

HANDLERS = "hal.link.urlhandlers"
MAX_BACKLOG = 4096  # bytes queued here at most (about 4 s of air at 9600 baud)


def register_handlers() -> None:
    """Make `air://` and `lan://` known to pyserial's `serial_for_url`."""
    if HANDLERS not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append(HANDLERS)


class LinkError(Exception):
    """The link could not be opened; the message says why in one line."""


OWN_SCHEMES = ("air://", "lan://")  # ours: datagram ports whose writes never block


def open_port(url: str, baud: int = 9600, exclusive: bool | None = None) -> serial.SerialBase:
    """The port of `url`; LinkError (one line) if it cannot be opened. `exclusive`: lock a
    device node against a second opener (the handheld's radio)."""
    register_handlers()
    # A device node is written non-blocking; pyserial's other URL handlers (loop://,
    # socket://) take a write timeout of 0 as "always late", and never block anyway.
    write_timeout = 0 if "://" not in url or url.startswith(OWN_SCHEMES) else None
    extra: dict[str, Any] = {} if exclusive is None else {"exclusive": exclusive}
    try:
        return serial.serial_for_url(
            url, baudrate=baud, timeout=0, write_timeout=write_timeout, **extra
        )
    except (serial.SerialException, ValueError, OSError) as exc:
        raise LinkError(f"cannot open the link {url}: {exc}") from None


class SerialLink(ByteLink):
    """A pyserial port as the HAL's unreliable byte link."""

    def __init__(self, port: serial.SerialBase) -> None:
        self.port: Any = port  # a pyserial port class: in_waiting / out_waiting are on those
        port.timeout = 0
        self._out = bytearray()
        self.dropped = 0  # bytes thrown away because the backlog was full

    @classmethod
    def open(cls, url: str, baud: int = 9600) -> SerialLink:
        return cls(open_port(url, baud))

    def write(self, data: bytes) -> None:
        if len(self._out) + len(data) > MAX_BACKLOG:
            self.dropped += len(data)  # the radio could never send it in time anyway
            return
        self._out += data
        self._flush()

    def _writable(self) -> bool:
        """True unless the port's descriptor says a write would block: pyserial's non-blocking
        write retries on EAGAIN in a loop, so it is only called when the driver has room."""
        try:
            fd = self.port.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            return True  # not a file (air://, loop://): its write never blocks
        try:
            return bool(select.select([], [fd], [], 0)[1])
        except (OSError, ValueError):
            return False

    def _flush(self) -> None:
        if not self._out or not self._writable():
            return
        try:
            n = self.port.write(bytes(self._out))
        except serial.SerialTimeoutException:
            n = 0
        except (serial.SerialException, OSError) as exc:
            log.warning("link write failed: %s", exc)
            self._out.clear()
            return
        del self._out[: n or 0]

    def read(self) -> bytes:
        self._flush()
        try:
            n = self.port.in_waiting
            return self.port.read(n) if n else b""
        except (serial.SerialException, OSError) as exc:
            log.warning("link read failed: %s", exc)
            return b""

    def out_waiting(self) -> int:
        try:
            queued = int(self.port.out_waiting)
        except (serial.SerialException, OSError, AttributeError, NotImplementedError):
            queued = 0
        return len(self._out) + queued

    def receiving(self) -> bool:
        """The simulated radio knows; a UART radio does not say (bytes mid-frame are the
        stack's own hint, see Radio.tick)."""
        try:
            return bool(getattr(self.port, "receiving", False))
        except (serial.SerialException, OSError):
            return False

    def kind(self) -> str:
        """ "network" for `lan://`, "radio" for a UART (and its simulation `air://`)."""
        return str(getattr(self.port, "link_kind", "radio"))

    def noise(self) -> int:
        return int(getattr(self.port, "noise", 0))

    def refresh(self) -> None:
        """A network port is opened again, so `lan://` picks its interface and joins its
        group there anew (the unit's own Wi-Fi network has come up, or gone: issue 32); what
        was in flight is lost as in a radio burst, and the link stack retransmits."""
        if self.kind() != "network":
            return
        try:
            self.port.close()
            self.port.open()
        except (serial.SerialException, OSError) as exc:
            log.warning("link: reopening %s failed: %s", self.port.portstr, exc)

    def describe(self) -> str:
        """What the Settings screen shows after the link's kind: the port, or the network's
        channel and interface."""
        opts = getattr(self.port, "opts", None)
        if opts is not None and self.kind() == "network":
            where = getattr(self.port, "interface", "") or "auto"
            return f"{opts.channel} @ {where}"
        return str(getattr(self.port, "portstr", "") or getattr(self.port, "port", ""))

    def close(self) -> None:
        self.port.close()
