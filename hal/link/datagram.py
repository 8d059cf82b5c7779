"""What the datagram transports (`air://`, `lan://`) share below their URL handlers: a
pyserial port whose bytes arrive as datagrams, and the parsing of a URL's query options.

A pyserial port is a byte stream; these transports receive whole datagrams, so a port
keeps what arrived in one buffer and serves `read`/`in_waiting` from it. The link's frames
are self-delimiting (firmware/link/framing.py), so the datagram boundaries need not survive.
Each transport module (`hal/link/urlhandlers/protocol_*.py`) adds only its `open`, its
`write` and its `_pump` (what to do with the socket).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl

from serial.serialutil import PortNotOpenError, SerialBase, SerialException


def query_options(
    scheme: str, query: str, known: Mapping[str, Callable[[str], Any]]
) -> dict[str, Any]:
    """`a=1&b=x` parsed by the converters in `known`; ValueError naming a bad option (an
    unknown one lists those there are)."""
    out: dict[str, Any] = {}
    for key, text in parse_qsl(query, keep_blank_values=True):
        convert = known.get(key)
        if convert is None:
            raise ValueError(f"unknown {scheme}:// option {key!r} (options: {', '.join(known)})")
        try:
            out[key] = convert(text)
        except ValueError as exc:
            detail = f": {exc}" if str(exc) and text not in str(exc) else ""
            raise ValueError(f"{scheme}:// option {key} has a bad value {text!r}{detail}") from None
    return out


class DatagramPort(SerialBase):
    """A pyserial port on one UDP socket, fed by `_pump` (datagrams into `_buf`); never
    blocks on write."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._sock: socket.socket | None = None
        self._buf = bytearray()
        super().__init__(*args, **kwargs)

    def _url_to_open(self) -> str:
        """The URL `open` is to open (pyserial's checks first)."""
        if self.is_open:
            raise SerialException("Port is already open.")
        if self.portstr is None:
            raise SerialException("Port must be configured before it can be used.")
        return str(self.portstr)

    def _live(self) -> socket.socket:
        """The open socket; PortNotOpenError once closed."""
        if self._sock is None:
            raise PortNotOpenError()
        return self._sock

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        self.is_open = False

    def _pump(self) -> None:
        """Take in what has arrived (appending to `_buf`); raise PortNotOpenError if closed."""
        raise NotImplementedError

    def _reconfigure_port(self) -> None:
        return None

    @property
    def in_waiting(self) -> int:
        self._pump()
        return len(self._buf)

    def read(self, size: int = 1) -> bytes:
        timeout = self.timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            self._pump()
            if len(self._buf) >= size or (deadline is not None and time.monotonic() >= deadline):
                break
            time.sleep(0.002)
        data = bytes(self._buf[:size])
        del self._buf[:size]
        return data

    def reset_input_buffer(self) -> None:
        if self.is_open:
            self._pump()
        self._buf.clear()

    def reset_output_buffer(self) -> None:
        return None

    def flush(self) -> None:
        return None
