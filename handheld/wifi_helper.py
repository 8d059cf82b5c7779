"""The root side of a handheld's own Wi-Fi network (issue 32): host it (hostapd) or join it
(wpa_supplicant), then give the unit's networking back as it was.

usage: python -m handheld.wifi_helper {host,join,stop} IFACE [--standalone] [--run DIR]
                                      [--config FILE] [--boot FILE]

Run by systemd as `twinfold-wifi-host@wlan0.service` / `twinfold-wifi-join@wlan0.service`
(deploy/wifi/), which the firmware starts and stops through polkit (it runs as the
unprivileged `twinfold` user and may start and stop only these two units). `host` and
`join` run in the foreground until SIGTERM, then restore; `stop` (the units' ExecStopPost)
restores after a crash too, and does nothing to an interface that was not taken.

Taking the interface: systemd stops the unit's own `wpa_supplicant@IFACE` (the units
conflict with it); a runtime network file makes systemd-networkd leave IFACE alone (else its
DHCP client and its cleanup of foreign addresses would fight ours); the home network's
address goes, the hosted network's comes (hal/link/hotspot.py), and hostapd or
wpa_supplicant runs with settings derived from the `lan://` channel in device.toml.
Restoring: our address goes, the runtime file goes, networkd reconfigures IFACE (DHCP as
before) and `wpa_supplicant@IFACE` starts again if the unit has a Wi-Fi network set up.
`--standalone` skips networkd and systemd (a network namespace of the QEMU check, where
neither reaches).

The state (`RUN/IFACE.json`: role, state, ssid, address, stations, error) is what the
firmware shows; it never holds the passphrase (the settings files that do are 0600).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from hal.link.hotspot import (
    HOST_ADDRESS,
    LAN_GROUPS,
    Hotspot,
    channel_of,
    derive,
    hostapd_conf,
    joiner_address,
    prefix,
    wpa_conf,
)

ROOT = Path(os.environ.get("TWINFOLD_ROOT", "/"))  # prefixes every path, for the tests
RUN_DIR = ROOT / "run/twinfold-wifi"
NETWORKD_DIR = ROOT / "run/systemd/network"
DEVICE_FILES = (ROOT / "run/twinfold/device.toml", ROOT / "etc/twinfold/device.toml")
BOOT_FILE = ROOT / "boot/firmware/twinfold.toml"
WPA_CONF = "etc/wpa_supplicant/wpa_supplicant-{iface}.conf"
ROLES = ("host", "join")
PROGRAMS = {"host": "hostapd", "join": "wpa_supplicant"}


@dataclass
class Status:
    """What RUN/IFACE.json says (the firmware reads it: firmware/wifi.py)."""

    role: str = ""
    state: str = "off"  # off, starting, hosting, joining, joined, failed
    ssid: str = ""
    address: str = ""
    stations: list[str] = field(default_factory=list)  # host: the units that joined
    error: str = ""


def follow(role: str, line: str, status: Status) -> bool:
    """Update `status` from one line of hostapd's or wpa_supplicant's output; True when it
    changed. hostapd: AP-ENABLED, AP-DISABLED, AP-STA-(DIS)CONNECTED MAC; wpa_supplicant:
    CTRL-EVENT-CONNECTED / -DISCONNECTED, a refused passphrase (reason=WRONG_KEY)."""
    before = asdict(status)
    words = line.split()
    if role == "host":
        if "AP-ENABLED" in words:
            status.state, status.error = "hosting", ""
        elif "AP-DISABLED" in words:
            status.state = "starting"
        elif "AP-STA-CONNECTED" in words:
            mac = words[words.index("AP-STA-CONNECTED") + 1 :][:1]
            status.stations = sorted({*status.stations, *mac})
        elif "AP-STA-DISCONNECTED" in words:
            mac = words[words.index("AP-STA-DISCONNECTED") + 1 :][:1]
            status.stations = [s for s in status.stations if s not in mac]
    else:
        if "CTRL-EVENT-CONNECTED" in words:
            status.state, status.error = "joined", ""
        elif "CTRL-EVENT-DISCONNECTED" in words:
            status.state = "joining"
        elif "CTRL-EVENT-SSID-TEMP-DISABLED" in words and "reason=WRONG_KEY" in words:
            status.state, status.error = "joining", "wrong passphrase (another channel word?)"
    return asdict(status) != before


def networkd_file(iface: str) -> Path:
    return NETWORKD_DIR / f"05-twinfold-wifi-{iface}.network"


NETWORKD_UNMANAGED = """# Twinfold's Wi-Fi helper (handheld/wifi_helper.py): {iface} hosts or
# joins a match's network; this file goes when that network stops.
[Match]
Name={iface}

[Link]
Unmanaged=yes
"""


def take_commands(iface: str, address: str) -> list[list[str]]:
    """What makes IFACE ours (after networkd was told to leave it): no other IPv4 address,
    up, the hosted network's address, the lan:// groups routed there."""
    return [
        ["ip", "-4", "addr", "flush", "dev", iface],
        ["ip", "link", "set", iface, "up"],
        ["ip", "addr", "add", prefix(address), "dev", iface],
        ["ip", "route", "replace", LAN_GROUPS, "dev", iface],
    ]


def give_back_commands(iface: str, address: str, standalone: bool, wpa: bool) -> list[list[str]]:
    """What gives IFACE back: our route and address removed; unless standalone, networkd reloaded
    (the runtime file is gone by then) and IFACE reconfigured by it (DHCP as before), and
    the unit's own Wi-Fi (`wpa` : it has one set up) started again."""
    out = [
        ["ip", "route", "del", LAN_GROUPS, "dev", iface],
        ["ip", "addr", "del", prefix(address), "dev", iface],
    ]
    if not standalone:
        out += [["networkctl", "reload"], ["networkctl", "reconfigure", iface]]
        if wpa:
            out.append(["systemctl", "start", "--no-block", f"wpa_supplicant@{iface}.service"])
    return out


def program_command(role: str, iface: str, conf: Path) -> list[str]:
    """hostapd or wpa_supplicant in the foreground; their lines go to a pipe, where the C
    library would hold them back a whole buffer, so `stdbuf -oL` (coreutils) makes them
    come line by line."""
    if role == "host":
        cmd = ["hostapd", str(conf)]
    else:
        cmd = ["wpa_supplicant", "-D", "nl80211", "-i", iface, "-c", str(conf)]
    return (["stdbuf", "-oL", "-eL"] if shutil.which("stdbuf") else []) + cmd


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def settings(device_files: Sequence[Path], boot_file: Path) -> tuple[Hotspot, str]:
    """The network of the unit's channel (device.toml's [radio] port) and its Wi-Fi country
    (twinfold.toml's [wifi] country, "" when unset)."""
    port = ""
    for path in device_files:
        radio = read_toml(path).get("radio")
        if isinstance(radio, dict):
            port = str(radio.get("port", ""))
            break
    wifi = read_toml(boot_file).get("wifi")
    country = str(wifi.get("country", "")) if isinstance(wifi, dict) else ""
    return derive(channel_of(port)), country


def mac_of(iface: str) -> str:
    return (ROOT / f"sys/class/net/{iface}/address").read_text().strip()


Run = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)


class Helper:
    """One interface's hosted or joined network: take it, run the program, give it back."""

    def __init__(self, iface: str, run_dir: Path, standalone: bool, run: Run = _run) -> None:
        self.iface = iface
        self.run_dir = run_dir
        self.standalone = standalone
        self.run = run
        self.status = Status()
        self.proc: subprocess.Popen[str] | None = None

    @property
    def state_file(self) -> Path:
        return self.run_dir / f"{self.iface}.json"

    def save(self) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.state_file.with_suffix(".new")
        tmp.write_text(json.dumps(asdict(self.status)) + "\n")
        tmp.chmod(0o644)
        tmp.replace(self.state_file)

    def load(self) -> Status:
        try:
            data = json.loads(self.state_file.read_text())
            return Status(**{k: v for k, v in data.items() if k in Status.__dataclass_fields__})
        except (OSError, ValueError, TypeError):
            return Status()

    def must(self, cmd: list[str]) -> None:
        done = self.run(cmd)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: {(done.stderr or done.stdout).strip()}")

    def take(self, role: str, spot: Hotspot, address: str) -> None:
        self.status = Status(role, "starting", spot.ssid, address)
        self.save()
        if not self.standalone:
            NETWORKD_DIR.mkdir(parents=True, exist_ok=True)
            networkd_file(self.iface).write_text(NETWORKD_UNMANAGED.format(iface=self.iface))
            self.run(["networkctl", "reload"])  # no networkd running: nothing to leave
        for cmd in take_commands(self.iface, address):
            self.must(cmd)

    def give_back(self, taken: bool = False) -> None:
        """Idempotent: after a clean stop, a crash, or for an interface never taken (unless
        `taken`: the run that took it gives it back, whatever its state says)."""
        previous = self.load()
        idle = previous.state in ("off", "failed") and not networkd_file(self.iface).exists()
        if idle and not taken:
            return  # nothing taken (a failure's reason stays for the firmware to show)
        networkd_file(self.iface).unlink(missing_ok=True)
        wpa = (ROOT / WPA_CONF.format(iface=self.iface)).exists()
        for cmd in give_back_commands(
            self.iface, previous.address or HOST_ADDRESS, self.standalone, wpa
        ):
            self.run(cmd)  # best effort: the address may be gone with the interface
        self.status = Status()
        self.save()

    def serve(self, role: str, spot: Hotspot, country: str) -> int:
        """Take the interface, run hostapd or wpa_supplicant until it ends or SIGTERM, then
        give the interface back. The exit status is the program's (0 after SIGTERM)."""
        address = HOST_ADDRESS if role == "host" else joiner_address(mac_of(self.iface))
        stopping = False

        def on_term(_sig: int, _frame: FrameType | None) -> None:
            nonlocal stopping
            stopping = True
            if self.proc is not None and self.proc.poll() is None:
                self.proc.terminate()

        signal.signal(signal.SIGTERM, on_term)
        signal.signal(signal.SIGINT, on_term)
        try:
            self.take(role, spot, address)
            self.status.state = "starting" if role == "host" else "joining"
            conf = self.run_dir / f"{self.iface}-{PROGRAMS[role]}.conf"
            text = (
                hostapd_conf(self.iface, spot, country)
                if role == "host"
                else wpa_conf(spot, country)
            )
            fd = os.open(conf, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(text)
            self.save()
            self.proc = subprocess.Popen(
                program_command(role, self.iface, conf),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                print(line.rstrip(), flush=True)  # the journal keeps the program's lines
                if follow(role, line, self.status):
                    self.save()
            code = self.proc.wait()
            if not stopping and code != 0:
                self.status.state, self.status.error = "failed", f"{PROGRAMS[role]} exited {code}"
                self.save()
            return 0 if stopping else code
        except (OSError, RuntimeError, ValueError) as exc:
            self.status.state, self.status.error = "failed", str(exc)
            self.save()
            print(f"wifi_helper: {exc}", file=sys.stderr)
            return 1
        finally:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.terminate()
                self.proc.wait(timeout=10)
            failed = self.load()
            self.give_back(taken=True)
            if failed.state == "failed":  # keep the reason for the firmware to show
                self.status = Status(failed.role, "failed", error=failed.error)
                self.save()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=[*ROLES, "stop"])
    parser.add_argument("iface")
    parser.add_argument(
        "--standalone",
        action="store_true",
        help="leave systemd-networkd and systemd alone (a network namespace)",
    )
    parser.add_argument("--run", type=Path, default=RUN_DIR, help="the state folder")
    parser.add_argument(
        "--config",
        type=Path,
        action="append",
        help="device.toml (its [radio] port names the channel)",
    )
    parser.add_argument("--boot", type=Path, default=BOOT_FILE,
                        help="twinfold.toml (its [wifi] country)")  # fmt: skip
    args = parser.parse_args(argv)
    if not args.iface.isascii() or "/" in args.iface or not 0 < len(args.iface) <= 15:
        parser.error(f"not an interface name: {args.iface!r}")
    helper = Helper(args.iface, args.run, args.standalone)
    if args.action == "stop":
        helper.give_back()
        return 0
    spot, country = settings(args.config or DEVICE_FILES, args.boot)
    print(f"wifi_helper: {args.action} {spot.ssid} on {args.iface}", flush=True)
    return helper.serve(args.action, spot, country)


if __name__ == "__main__":
    sys.exit(main())
