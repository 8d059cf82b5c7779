"""The unit's own Wi-Fi network for a match, as the firmware keeps it (issue 32): a small
state machine over what the player asked for and what the system reports.

The player hosts a network (Settings > Wi-Fi game, or the Versus menu), or joins the one a
unit of the same channel hosts, then plays Versus over `lan://` as on any network; Stop
gives the unit's networking back as it was. The work is the system's (hal/wifi.py: on the
handheld, systemd units running a root helper); this service only asks, then reads the
reports every POLL_TICKS ticks while anything is on:

    off ──host/join──▶ starting ──report──▶ hosting | joining ⇄ joined
     ▲                    │ no report in START_TICKS, or failed      │
     │                    ▼                                          │
     └──(report off)── stopping ◀──stop── failed ◀──report failed──┘ (any state: stop)

`joining` has no deadline (the other unit may not host yet; the helper keeps looking);
`starting` has one, so a network that never comes up is said to have failed instead of
spinning forever. A report of "off" while hosting or joined (someone stopped the unit's
service) returns to off. Time is counted in ticks, so a test drives it exactly.
"""

from __future__ import annotations

from hal.wifi import ROLES, WifiControl, WifiStatus

POLL_TICKS = 30  # two reads a second
START_TICKS = 60 * 60  # a minute for the system to bring the network up
UP = {"host": "hosting", "join": "joined"}


class WifiService:
    """What the screens show: `state`, `role`, `ssid`, `address`, `stations`, `error`."""

    def __init__(self, control: WifiControl) -> None:
        self.control = control
        self.state = "off"
        self.role = ""
        self.ssid = ""
        self.address = ""
        self.stations = 0
        self.error = ""
        self._asked_at = 0

    @property
    def present(self) -> bool:
        return self.control.present

    @property
    def up(self) -> bool:
        """The network is there to play on (hosting, or joined)."""
        return self.state in ("hosting", "joined")

    @property
    def active(self) -> bool:
        """A network of the unit's own is on, or on its way."""
        return self.state not in ("off", "failed")

    def start(self, role: str, tick: int) -> None:
        """Host ("host") or join ("join") a network; a refusal is `failed` with its reason."""
        if role not in ROLES:
            raise ValueError(f"no such Wi-Fi role: {role!r}")
        if self.active and self.role == role:
            return
        error = self.control.request(role)
        self.role, self._asked_at = role, tick
        self.ssid = self.address = ""
        self.stations = 0
        if error:
            self.state, self.error = "failed", error
        else:
            self.state, self.error = "starting", ""

    def stop(self, tick: int) -> None:
        """Give the unit's networking back (from any state; nothing to do when off)."""
        if self.state == "off":
            return
        error = self.control.request("off")
        self._asked_at = tick
        if error:
            self.state, self.error = "failed", error
        else:
            self.state, self.error = "stopping", ""

    def tick(self, tick: int) -> bool:
        """Read the system's report on poll ticks while anything is on. True when the
        network under the unit has just changed (its own came up, or it has been given
        back): a network link must find its interface again."""
        if self.state in ("off", "failed") or tick % POLL_TICKS:
            return False
        before = self.state
        self.follow(self.control.status(), tick)
        return self.state != before and (self.up or self.state == "off")

    def follow(self, report: WifiStatus | None, tick: int) -> None:
        """One report applied (None: nothing readable yet)."""
        waited = tick - self._asked_at
        if self.state == "stopping":
            if report is None or report.state in ("off", "failed"):
                self.state, self.ssid, self.address, self.stations = "off", "", "", 0
            return
        if report is None or report.role not in ("", self.role):
            if self.state == "starting" and waited > START_TICKS:
                self._fail("the network did not start")
            return
        if report.state == "failed":
            self._fail(report.error or "the network stopped")
            return
        self.ssid, self.address, self.stations = report.ssid, report.address, report.stations
        if report.state in (UP[self.role], "joining"):
            self.state = report.state
        elif report.state == "off" and self.state != "starting":
            self.state = "off"  # stopped from outside
        elif self.state == "starting" and waited > START_TICKS:
            self._fail("the network did not start")

    def _fail(self, why: str) -> None:
        self.state, self.error = "failed", why

    def dump(self) -> dict[str, object]:
        return {
            "state": self.state,
            "role": self.role,
            "ssid": self.ssid,
            "address": self.address,
            "stations": self.stations,
            "error": self.error,
        }
