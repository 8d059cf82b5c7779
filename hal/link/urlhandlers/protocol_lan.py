"""`lan://[CHANNEL][?channel=NAME&iface=NAME&port=N]`: the link over a local network (Wi-Fi
or wired) as a pyserial port, so the firmware opens it as it opens a UART (issue 32).

Every write goes out as one UDP datagram to the channel's multicast group on the local
segment; every unit that opened the same channel and port on that segment hears it (2 to 4
units play; any number may listen in the lobby). Nothing is typed: no addresses, no host to
start, no server. `twinfold emu --link lan://` uses the defaults: channel "twinfold", port
40404, and the interface of the route to the group (or, without such a route, e.g. two
computers joined by one cable, the first interface that is up and does multicast).

Why multicast rather than broadcast: the group is chosen per channel (239.255.76.N, the
organisation-local scope of RFC 2365, TTL 1 so no router forwards it), so the network cards
of the other computers on the Wi-Fi drop the traffic in hardware instead of every kernel
taking every frame of a match; units of other channels never see it; several units on one
computer hear each other (IP_MULTICAST_LOOP), two emulators included; and it needs no
subnet address (a directed broadcast) or default route (255.255.255.255) to be right. Home
Wi-Fi carries multicast as it carries mDNS. Every frame goes to the group, paired traffic
too: the transport stays a byte pipe that parses nothing, and DATA frames are sealed
(firmware/link/packet.py), so the others on the segment learn nothing from them.

A datagram is `b"TWL1" | crc32(channel) (4) | sender (4 random bytes per open) | frames`.
The sender part drops a unit's own datagrams (the loop above returns them); the channel
checksum drops another channel's datagrams that share the group (250 groups). Anything
else that arrives (a datagram not of this format) counts as `noise`, which the radio adds
to its `rejected["crc"]`. At most MAX_PER_PUMP datagrams are taken per call (the radio
calls twice a tick): a flood fills the kernel's buffer and is dropped there, and the
number of frames a forger gets checked per second stays bounded (see packet.py's tag
arithmetic).
"""

from __future__ import annotations

import contextlib
import os
import socket
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from serial.serialutil import SerialException

from hal.link.datagram import DatagramPort, query_options

DEFAULT_CHANNEL = "twinfold"
DEFAULT_PORT = 40404
MAGIC = b"TWL1"
HEADER = struct.Struct("!4s4s4s")
MAX_PAYLOAD = 1400  # below the Ethernet/Wi-Fi MTU less IP/UDP headers: never fragmented
MAX_PER_PUMP = 256
IFF_UP, IFF_LOOPBACK, IFF_MULTICAST = 0x1, 0x8, 0x1000
SYS_NET = Path("/sys/class/net")


@dataclass(frozen=True)
class LanOptions:
    channel: str = DEFAULT_CHANNEL
    iface: str = ""  # "": the route's interface (see `pick_interface`)
    port: int = DEFAULT_PORT

    @property
    def group(self) -> str:
        """The channel's multicast group: 239.255.76.1 .. 239.255.76.250."""
        return f"239.255.76.{zlib.crc32(self.channel.encode()) % 250 + 1}"

    @property
    def tag(self) -> bytes:
        return zlib.crc32(self.channel.encode()).to_bytes(4, "big")


def _channel(text: str) -> str:
    if not 1 <= len(text) <= 32 or not text.isprintable():
        raise ValueError("1 to 32 printable characters")
    return text


def _port(text: str) -> int:
    value = int(text)
    if not 1024 <= value <= 65535:
        raise ValueError("a UDP port from 1024 to 65535")
    return value


def _iface(text: str) -> str:
    if not text or "/" in text or len(text) > 15:
        raise ValueError("an interface name such as eth0 or wlan0")
    return text


OPTIONS = {"channel": _channel, "iface": _iface, "port": _port}


def parse_url(url: str) -> LanOptions:
    """The options of a lan:// URL; ValueError naming what is wrong, in one line."""
    parts = urlsplit(url)
    if parts.scheme != "lan":
        raise ValueError(f"not a lan:// URL: {url!r}")
    values = query_options("lan", parts.query, OPTIONS)
    named = (parts.netloc + parts.path).strip("/")
    if named:
        if "channel" in values and values["channel"] != named:
            other = values["channel"]
            raise ValueError(f"lan://{named} names another channel than channel={other}")
        try:
            values["channel"] = _channel(named)
        except ValueError as exc:
            raise ValueError(f"lan:// channel {named!r}: {exc}") from None
    return LanOptions(**values)


def _flags(name: str) -> int:
    try:
        return int((SYS_NET / name / "flags").read_text().strip(), 16)
    except (OSError, ValueError):
        return 0


def pick_interface(opts: LanOptions) -> tuple[int, str]:
    """(ifindex, name) to send and join on: the named one; else 0 (the kernel's route to
    the group) when there is such a route; else the first interface that is up, is not the
    loopback and does multicast. ValueError when there is none."""
    if opts.iface:
        try:
            return socket.if_nametoindex(opts.iface), opts.iface
        except OSError:
            raise ValueError(f"lan:// has no interface named {opts.iface!r} here") from None
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect((opts.group, opts.port))
        return 0, ""
    except OSError:
        pass
    finally:
        probe.close()
    names = sorted(os.listdir(SYS_NET)) if SYS_NET.is_dir() else []
    for name in names:
        flags = _flags(name)
        if flags & IFF_UP and flags & IFF_MULTICAST and not flags & IFF_LOOPBACK:
            return socket.if_nametoindex(name), name
    raise ValueError(
        "lan:// finds no network here (no interface is up); join one, or name it: lan://?iface=NAME"
    )


def _mreqn(group: str, ifindex: int) -> bytes:
    """struct ip_mreqn: the group, any local address, the interface by index."""
    return struct.pack("=4s4si", socket.inet_aton(group), socket.inet_aton("0.0.0.0"), ifindex)


class Serial(DatagramPort):
    """A pyserial port on the local network's multicast group of a channel."""

    link_kind = "network"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.opts = LanOptions()
        self.interface = ""
        self.noise = 0  # datagrams that were not the link's
        self._me = b""
        super().__init__(*args, **kwargs)

    def open(self) -> None:
        url = self._url_to_open()
        try:
            opts = parse_url(url)
            ifindex, name = pick_interface(opts)
        except ValueError as exc:
            raise SerialException(str(exc)) from None
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # units on one computer
            sock.bind((opts.group, opts.port))  # only this group's datagrams on the port
            mreqn = _mreqn(opts.group, ifindex)
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreqn)
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, mreqn)
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)  # this segment only
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            where = f" on {name}" if name else ""
            raise SerialException(
                f"lan://{opts.channel}{where}: {exc.strerror or exc} (port {opts.port})"
            ) from None
        self._sock, self.opts, self.interface = sock, opts, name
        self._me = os.urandom(4)
        self.is_open = True

    def _pump(self) -> None:
        sock, tag = self._live(), self.opts.tag
        for _ in range(MAX_PER_PUMP):
            try:
                packet = sock.recv(2048)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                continue
            frames = unwrap(packet, tag, self._me)
            if frames is None:
                self.noise += 1
            else:
                self._buf += frames

    @property
    def out_waiting(self) -> int:
        return 0  # handed to the kernel at once

    def write(self, data: Any) -> int:
        sock = self._live()
        data = bytes(data)
        head = HEADER.pack(MAGIC, self.opts.tag, self._me)
        for chunk in split_frames(data, MAX_PAYLOAD):
            # no network right now, or the socket's buffer is full: the datagram is lost,
            # as a radio burst would be; the link stack retransmits
            with contextlib.suppress(OSError):
                sock.sendto(head + chunk, (self.opts.group, self.opts.port))
        return len(data)

    def from_url(self, url: str) -> None:  # pyserial's hook name; parsing happens in open()
        parse_url(url)


def unwrap(datagram: bytes, channel: bytes, me: bytes) -> bytes | None:
    """What a received datagram brings to the byte stream: its frames and a delimiter (a
    datagram is a whole unit here: the delimiter keeps a frame torn in one datagram from
    swallowing the start of the next); b"" for this unit's own datagrams and another
    channel's; None for one not of this format (noise)."""
    if len(datagram) < HEADER.size:
        return None
    magic, their_channel, sender = HEADER.unpack_from(datagram)
    if magic != MAGIC:
        return None
    if their_channel != channel or sender == me:
        return b""
    return datagram[HEADER.size :] + b"\x00"


def split_frames(data: bytes, most: int) -> list[bytes]:
    """`data` in pieces of at most `most` bytes, cut only after a frame's closing zero
    (a frame longer than `most` goes whole: framing.MAX_BODY keeps frames far shorter)."""
    out: list[bytes] = []
    while len(data) > most:
        cut = data.rfind(b"\x00", 0, most) + 1
        if cut <= 0:
            cut = data.find(b"\x00", most) + 1 or len(data)
        out.append(data[:cut])
        data = data[cut:]
    if data:
        out.append(data)
    return out
