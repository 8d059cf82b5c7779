"""systemd's notify protocol (sd_notify) without libsystemd: one datagram per message.

The unit is `Type=notify` with `WatchdogSec`: the firmware says `READY=1` once the first
frame is up, `WATCHDOG=1` from the frame loop at half the watchdog interval (so a loop that
hangs stops pinging and systemd restarts the service), and `STOPPING=1` when it shuts down.
Outside systemd (no `NOTIFY_SOCKET`) every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger("twinfold")


class Notifier:
    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        env = os.environ if environ is None else environ
        self._clock = clock
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):  # abstract namespace
            address = "\0" + address[1:]
        self.address = address or None
        self.interval: float | None = None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.interval = int(usec) / 1e6 / 2  # ping at twice the rate systemd demands
        self._next_ping = float("-inf")
        self._sock: socket.socket | None = None
        self._failed = False
        self.ready_sent = False

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, message: str) -> bool:
        """Send one notification; False (and one log line) if the socket refuses it."""
        if self.address is None:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message.encode(), self.address)
        except OSError as exc:
            if not self._failed:
                self._failed = True
                log.warning("service: cannot notify systemd (%s): %s", self.address, exc)
            return False
        return True

    def ready(self, status: str = "") -> None:
        if not self.ready_sent:
            self.ready_sent = True
            self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def frame(self) -> None:
        """Called from the frame loop: a watchdog ping when one is due."""
        if self.interval is None:
            return
        now = self._clock()
        if now >= self._next_ping:
            self._next_ping = now + self.interval
            self.send("WATCHDOG=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
