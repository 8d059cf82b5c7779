"""The handheld's own Wi-Fi network for a match (issue 32): the firmware, running as the
unprivileged `twinfold` user, starts and stops `twinfold-wifi-host@IFACE.service` or
`twinfold-wifi-join@IFACE.service` (deploy/wifi/; polkit lets it start and stop only
those) and reads the root helper's report, RUN/IFACE.json (handheld/wifi_helper.py).

`systemctl --no-block` hands the job to systemd and returns at once, so the frame loop
and its watchdog never wait for hostapd; what happened is read from the report.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

from hal.wifi import ROLES, WifiControl, WifiStatus

UNIT_DIR = Path("/etc/systemd/system")


class SystemdWifi(WifiControl):
    def __init__(
        self,
        iface: str = "wlan0",
        run_dir: Path = Path("/run/twinfold-wifi"),
        sys_net: Path = Path("/sys/class/net"),
        unit_dir: Path = UNIT_DIR,
        systemctl: Sequence[str] = ("systemctl",),
    ) -> None:
        self.iface = iface
        self.run_dir = run_dir
        self.systemctl = list(systemctl)
        # a Wi-Fi interface, and the units installed (deploy/install.sh)
        self._present = (sys_net / iface / "wireless").is_dir() and (
            unit_dir / "twinfold-wifi-host@.service"
        ).is_file()

    @property
    def present(self) -> bool:
        return self._present

    def unit(self, role: str) -> str:
        return f"twinfold-wifi-{role}@{self.iface}.service"

    def request(self, role: str) -> str | None:
        if role == "off":
            cmd = [*self.systemctl, "stop", "--no-block", *(self.unit(r) for r in ROLES)]
        elif role in ROLES:
            cmd = [*self.systemctl, "start", "--no-block", self.unit(role)]
        else:
            return f"no such Wi-Fi role: {role!r}"
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=10, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"systemctl: {exc}"
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            return lines[0] if lines else f"systemctl exited {done.returncode}"
        return None

    def status(self) -> WifiStatus | None:
        try:
            data = json.loads((self.run_dir / f"{self.iface}.json").read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict):
            return None
        stations = data.get("stations")
        return WifiStatus(
            role=str(data.get("role", "")),
            state=str(data.get("state", "off")),
            ssid=str(data.get("ssid", "")),
            address=str(data.get("address", "")),
            stations=len(stations) if isinstance(stations, list) else 0,
            error=str(data.get("error", ""))[:120],
        )
