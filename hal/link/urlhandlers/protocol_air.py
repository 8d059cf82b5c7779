"""`air://CHANNEL?baud=9600&loss=0.1&corrupt=0.01&dup=0.01&delay_ms=20&jitter_ms=10&seed=N`:
the simulated radio as a pyserial port (P-LINK-5), so the firmware opens it like a UART.

Every process on one machine that opens the same CHANNEL shares its air. Each binds one UDP
port on 127.0.0.1 out of eight fixed for the channel (derived from the channel's name), and
sends each burst, stamped with its air time, to the other seven: loopback only, no hub to
start, no multicast. The hearing side applies the air model (`hal.link.air`): half-duplex
deafness, collisions, loss, corruption, duplication, delay and jitter, with the impairments
of its own URL. CLOCK_MONOTONIC is system-wide on Linux, so air times of different processes
compare directly.
"""

from __future__ import annotations

import contextlib
import errno
import random
import socket
import struct
import time
import zlib
from typing import Any
from urllib.parse import urlsplit

from serial.serialutil import SerialException

from hal.link.air import Burst, Impairments, Receiver, Transmitter
from hal.link.datagram import DatagramPort

PORT_BASE = 41000  # below Linux's ephemeral range (32768..60999 overlaps; a taken slot is skipped)
SLOTS = 8  # units per channel
CHANNELS = 997
MAGIC = b"AIR1"
HEADER = struct.Struct("!4sdd")


def channel_ports(channel: str) -> range:
    """The eight loopback UDP ports of a channel (the same in every process)."""
    base = PORT_BASE + (zlib.crc32(channel.encode()) % CHANNELS) * SLOTS
    return range(base, base + SLOTS)


def parse_url(url: str) -> tuple[str, Impairments, bool]:
    """(channel, impairments, baud given) from an air:// URL; ValueError if malformed."""
    parts = urlsplit(url)
    if parts.scheme != "air":
        raise ValueError(f"not an air:// URL: {url!r}")
    channel = (parts.netloc + parts.path).strip("/")
    if not channel:
        raise ValueError("air:// needs a channel name, e.g. air://lobby")
    return channel, Impairments.from_query(parts.query), "baud=" in parts.query


class Serial(DatagramPort):
    """A pyserial port on the simulated air."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._ports: range = range(0)
        super().__init__(*args, **kwargs)

    def open(self) -> None:
        url = self._url_to_open()
        try:
            channel, imp, baud_given = parse_url(url)
        except ValueError as exc:
            raise SerialException(str(exc)) from None
        if not baud_given:
            imp = Impairments(**{**imp.__dict__, "baud": int(self.baudrate)})
        self._ports = channel_ports(channel)
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setblocking(False)
        for port in self._ports:
            try:
                sock.bind(("127.0.0.1", port))
                break
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE:
                    sock.close()
                    raise SerialException(f"air://{channel}: {exc}") from None
        else:
            sock.close()
            raise SerialException(f"air://{channel} is full ({SLOTS} units share a channel)")
        self._sock = sock
        self.unit = sock.getsockname()[1]
        self.imp = imp
        self._tx = Transmitter(self.unit, imp)
        self._rx = Receiver(self.unit, imp, random.Random(f"{imp.seed}:{self.unit}"))
        self.is_open = True

    def _pump(self) -> None:
        """Hear every datagram that has arrived, then collect what is due."""
        sock = self._live()
        while True:
            try:
                packet, addr = sock.recvfrom(4096)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:  # e.g. ECONNREFUSED reported for an earlier send on Linux
                continue
            if len(packet) < HEADER.size or addr[0] != "127.0.0.1":
                continue
            magic, start, end = HEADER.unpack_from(packet)
            if magic != MAGIC or addr[1] == self.unit:
                continue
            self._rx.hear(Burst(addr[1], start, end, packet[HEADER.size :]))
        self._buf += self._rx.take(time.monotonic())

    @property
    def receiving(self) -> bool:
        """Carrier sense (`hal.link.air.Receiver.busy`)."""
        self._pump()
        return self._rx.busy(time.monotonic())

    @property
    def out_waiting(self) -> int:
        return self._tx.out_waiting(time.monotonic())

    def write(self, data: Any) -> int:
        sock = self._live()
        data = bytes(data)
        if not data:
            return 0
        burst = self._tx.send(time.monotonic(), data)
        self._rx.transmitting(burst.start, burst.end)
        packet = HEADER.pack(MAGIC, burst.start, burst.end) + data
        for port in self._ports:
            if port == self.unit:
                continue
            # nobody there (refused) or the socket buffer is full: the burst is lost
            with contextlib.suppress(OSError):
                sock.sendto(packet, ("127.0.0.1", port))
        return len(data)

    def from_url(self, url: str) -> None:  # pyserial's hook name; parsing happens in open()
        parse_url(url)
