"""The unit's own Wi-Fi network for a match, as the firmware sees it (issue 32): ask for it
to be hosted, joined or stopped, and read how it is going. The handheld's backend does it
through systemd and a root helper (hal/backends/device/wifi.py, handheld/wifi_helper.py);
the emulator and headless have none (`NoWifi`: nothing is shown, movies do not change).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

ROLES = ("host", "join")


@dataclass(frozen=True)
class WifiStatus:
    """What the helper reports: its role ("host", "join", ""), its state ("off",
    "starting", "hosting", "joining", "joined", "failed"), the network's name, this unit's
    address on it, the units on a hosted network, and a failure's reason in one line."""

    role: str = ""
    state: str = "off"
    ssid: str = ""
    address: str = ""
    stations: int = 0
    error: str = ""


class WifiControl(ABC):
    """Starts and stops the unit's own Wi-Fi network; never blocks for long (a request is
    handed to the system and its outcome read later from `status`)."""

    @property
    def present(self) -> bool:
        """False: this unit cannot host or join a network of its own (nothing is offered)."""
        return True

    @abstractmethod
    def request(self, role: str) -> str | None:
        """Host ("host"), join ("join") or stop ("off"): None when handed over, else why
        not, in one line."""

    @abstractmethod
    def status(self) -> WifiStatus | None:
        """The latest report, or None when there is none to read."""


class NoWifi(WifiControl):
    @property
    def present(self) -> bool:
        return False

    def request(self, role: str) -> str | None:
        return "no Wi-Fi control on this unit"

    def status(self) -> WifiStatus | None:
        return None
