"""The network part of the two-unit check (issue 32), run by pair_check.py on the two units
it has booted, after their match over the joined UARTs (no boot of its own).

1. **lan:// on a wire.** Each raspi3b has a USB network adapter (QEMU's `usb-net`), the
   two joined by a `dgram` netdev on two Unix sockets (nothing leaves this machine). A
   two-unit cable has no DHCP server, so each unit gets an address by hand; then a
   Twinfold unit on each (`twinfold headless --link lan://?iface=IFACE`, with a player at
   its controls: tests/firmware/link/lan_player.py) finds the other with nothing typed,
   pairs and plays a whole Reversi game; both dumps hold the same finished game. The guest's
   kernel binds the adapter (QEMU's usb-net, USB id 0525:a4a2) with `cdc_subset` under a
   random MAC, so the check finds it by that USB id and gives it the MAC QEMU was told.
2. **A unit's own Wi-Fi network** (mac80211_hwsim, Debian's simulated 802.11 radios) inside
   ONE unit: two radios, the second moved into a network namespace. The host side is the
   real path: the `twinfold` user starts `twinfold-wifi-host@wlan0.service` (polkit lets
   it), which takes wlan0 from systemd-networkd and the unit's own `wpa_supplicant@wlan0`
   (set up here with a made-up home network) and runs hostapd. The joining side runs the
   same helper (`--standalone`: networkd does not reach into a namespace) with
   wpa_supplicant. A Twinfold unit in each namespace pairs and plays over lan://; then the
   service is stopped and the unit's networking must be as it was: no hosted address,
   networkd managing wlan0 again, `wpa_supplicant@wlan0` running again.
"""

from __future__ import annotations

import json
import shlex
import time
from pathlib import Path

from qemu_check import CheckFailed, Guest, log

HERE = Path(__file__).resolve().parent
PLAYER = HERE.parents[1] / "tests/firmware/link/lan_player.py"
# in the guest at the same depth below a folder as in the checkout (it finds no checkout
# there and uses the installed firmware)
GUEST_PLAYER = "/tmp/tf/tests/firmware/link/lan_player.py"
GAME = ["c4", "c3", "c2", "b4", "a5", "f4", "g4", "c5", "d6"]  # lan_player's game
PYTHON = "/opt/twinfold/venv/bin/python"
MATCH_SECONDS = 1500  # the two units to the end of their game (pairing included)
NET_SECONDS = 300  # the hosted network up, the other unit on it
MACS = ("52:54:00:77:00:01", "52:54:00:77:00:02")
WIRED = ("10.77.0.1", "10.77.0.2")


def qemu_args(index: int, work: Path) -> list[str]:
    """Unit `index`'s USB network adapter, joined to the other unit's."""
    me, other = work / f"lan{index}.sock", work / f"lan{1 - index}.sock"
    netdev = f"dgram,id=lan,local.type=unix,local.path={me},remote.type=unix,remote.path={other}"
    return ["-netdev", netdev, "-device", f"usb-net,netdev=lan,mac={MACS[index]}"]


def wait_until(guest: Guest, command: str, what: str, seconds: float) -> str:
    """Poll a guest command until it succeeds (its output), or fail naming `what`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return guest.sh(command, 60)
        except CheckFailed as exc:
            if time.monotonic() > deadline:
                raise CheckFailed(f"{guest.name}: {what} (after {seconds:.0f} s): {exc}") from None
        time.sleep(5)


def start_unit(guest: Guest, folder: str, name: str, role: str, url: str, netns: str = "") -> None:
    """A headless Twinfold unit with a player, in the background; its dump and log in
    `folder`."""
    args = ["1", "2", "--", "headless", "--link", url, "--game", "reversi", "--versus", role]
    args += ["--accept-pairing", "--name", name, "--until-over", "--frames", "200000"]
    args += ["--store", f"{folder}/store.db", "--dump", f"{folder}/dump.json"]
    cmd = shlex.join([PYTHON, GUEST_PLAYER, *args])
    if netns:
        cmd = f"ip netns exec {netns} {cmd}"
    env = "SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1"
    guest.sh(f"rm -rf {folder} && mkdir -p {folder} && "
             f"(env {env} {cmd} > {folder}/log.txt 2>&1 &)", 60)  # fmt: skip


def finish_match(units: list[tuple[Guest, str, str]], logs: Path, label: str) -> None:
    """Wait for both units' dumps; both hold the same finished game, each the other's
    partner."""
    deadline = time.monotonic() + MATCH_SECONDS
    dumps = []
    for guest, folder, name in units:
        left = max(60.0, deadline - time.monotonic())
        try:
            wait_until(guest, f"test -s {folder}/dump.json", f"{label}: no dump", left)
        except CheckFailed as exc:
            tail = guest.sh(f"tail -n 30 {folder}/log.txt; ip -br addr", 60)
            raise CheckFailed(f"{exc}; {name}'s log ends:\n{tail}") from None
        text = guest.sh(f"cat {folder}/dump.json", 60)
        (logs / f"{guest.name}-{label}.json").write_text(text)
        dumps.append(json.loads(text))
    for (guest, folder, name), dump, other in zip(units, dumps, ("Bob", "Ann"), strict=True):
        game, link = dump.get("game") or {}, dump.get("link") or {}
        got = (game.get("moves"), game.get("status"), link.get("partner"), link.get("state"))
        if got != (GAME, "over", other, "over"):
            tail = guest.sh(f"tail -n 20 {folder}/log.txt", 60)
            raise CheckFailed(f"{label}: {name} ended with {got}; its log ends:\n{tail}")
    if dumps[0]["game"].get("board") != dumps[1]["game"].get("board"):
        raise CheckFailed(f"{label}: the two boards differ")


def put_player(guest: Guest) -> None:
    guest.sh("mkdir -p /tmp/tf/tests/firmware/link", 30)
    guest.put(GUEST_PLAYER, PLAYER.read_text())


USB_STATE = (
    "ls /sys/class/net; cat /sys/class/net/*/address; "
    "dmesg | grep -i -E 'usb|rndis|cdc' | tail -n 30"
)
# QEMU's usb-net is a Linux USB gadget to the guest (0525:a4a2): Debian's kernel binds its
# data interface with `cdc_subset` (interface 0's probe fails with -22, then cdc_ether's
# with -16: its data interface is taken) and names it usb0 under a random MAC, not the one
# QEMU was given, so the adapter is found by the USB id of the device behind the interface.
FIND_ADAPTER = (
    "for n in /sys/class/net/*; do u=$(readlink -f $n/device/..); "
    'if [ "$(cat $u/idVendor 2>/dev/null):$(cat $u/idProduct 2>/dev/null)" = 0525:a4a2 ]; '
    "then echo ${n##*/}; fi; done"
)
ADAPTER_SECONDS = 180  # the adapter's interface after the boot (it is there at READY)


def wired_match(guests: list[Guest], logs: Path) -> str:
    """Both units' USB network adapters up with an address each (a missing adapter fails,
    its guest's USB state kept in --logs as *-usb-net.log), then a whole match over
    lan:// on that wire; returns the first unit's address (the Wi-Fi check keeps it)."""
    started = time.monotonic()
    ifaces = []
    for guest, mac, address in zip(guests, MACS, WIRED, strict=True):
        put_player(guest)
        try:
            found = wait_until(guest, f"{FIND_ADAPTER} | grep .", "no USB network adapter",
                               ADAPTER_SECONDS)  # fmt: skip
        except CheckFailed:
            (logs / f"{guest.name}-usb-net.log").write_text(guest.sh(USB_STATE, 120))
            kept = f"{guest.name}-usb-net.log"
            raise CheckFailed(
                f"{guest.name}: no USB network adapter (0525:a4a2) after {ADAPTER_SECONDS} s "
                f"(kept {kept})"
            ) from None
        iface = found.split()[0]
        # its MAC as QEMU was told (the kernel's is random): logs and captures name each unit
        guest.sh(f"ip link set {iface} down && ip link set {iface} address {mac} && "
                 f"ip link set {iface} up && ip addr replace {address}/24 brd + dev {iface}",
                 60)  # fmt: skip
        wait_until(guest, f"ip -br link show {iface} | grep -q -w UP", f"{iface} not up", 60)
        ifaces.append(iface)
    log(f"net: the USB network adapters are {ifaces[0]} and {ifaces[1]} ({WIRED[0]}, {WIRED[1]})")
    for guest, iface, (name, role) in zip(
        guests, ifaces, (("Ann", "host"), ("Bob", "join")), strict=True
    ):  # fmt: skip
        start_unit(guest, "/tmp/tf-wired", name, role, f"lan://?iface={iface}")
    finish_match([(g, "/tmp/tf-wired", n) for g, n in zip(guests, ("Ann", "Bob"), strict=True)],
                 logs, "wired")  # fmt: skip
    log(f"net: two units paired and played Reversi over lan:// on a wire "
        f"in {time.monotonic() - started:.0f} s")  # fmt: skip
    return WIRED[0]


HOME_WPA = """ctrl_interface=/run/wpa_supplicant
network={
    ssid="home"
    psk="not-a-real-network"
}
"""
JOIN_NS = "tfjoin"
RW_ROOT = "/usr/local/lib/twinfold/with-rw-root"  # the image's: the root writable meanwhile
JOIN_RUN = "/run/tfjoin"


def state(guest: Guest, path: str) -> dict[str, object]:
    try:
        return json.loads(guest.sh(f"cat {path}", 60))  # type: ignore[no-any-return]
    except (CheckFailed, ValueError):
        return {}


DIAGNOSE = (
    "journalctl -b -u 'twinfold-wifi-*' -u 'wpa_supplicant@*' -o short-monotonic --no-pager "
    "| tail -n 80; tail -n 40 /tmp/tf-join-helper.log; ip -br addr; ip route; "
    f"ip -n {JOIN_NS} -br addr; iw dev; networkctl list --no-pager; "
    "tail -n 20 /tmp/tf-wifi-*/log.txt; dmesg | tail -n 30"
)


def hosted_wifi(guest: Guest, logs: Path, wired: str) -> None:
    """The unit's own network (`wired`: its address on the wire, which must stay); on a
    failure what the guest's network looked like is kept in `--logs` (ann-wifi-state.log)."""
    try:
        _hosted_wifi(guest, logs, wired)
    except CheckFailed:
        try:
            text = guest.sh(DIAGNOSE, 180)
        except CheckFailed as exc:
            text = f"(could not be read: {exc})"
        (logs / f"{guest.name}-wifi-state.log").write_text(text)
        raise


def _hosted_wifi(guest: Guest, logs: Path, wired: str) -> None:
    started = time.monotonic()
    out = guest.sh("modprobe mac80211_hwsim radios=2 && sleep 2 && ls /sys/class/ieee80211", 120)
    phys = out.split()
    if len(phys) < 2:
        raise CheckFailed(f"{guest.name}: mac80211_hwsim made no two radios: {out}")
    radios = {p: guest.sh(f"ls /sys/class/ieee80211/{p}/device/net", 30).split()[0] for p in phys}
    (host_phy, host_if), (join_phy, join_if) = sorted(radios.items())[:2]
    log(f"net: mac80211_hwsim radios {host_phy} ({host_if}) and {join_phy} ({join_if})")
    # the unit's own Wi-Fi, as twinfold.toml's [wifi] sets it up: running before the match
    # /etc is on the read-only root (power_layout.sh): written as boot-config writes it
    guest.put("/tmp/home-wpa.conf", HOME_WPA)
    conf = f"/etc/wpa_supplicant/wpa_supplicant-{host_if}.conf"
    guest.sh(f"w={RW_ROOT}; [ -x $w ] || w=; $w install -m 600 /tmp/home-wpa.conf {conf}", 120)
    guest.sh(f"systemctl start wpa_supplicant@{host_if}.service", 120)
    wait_until(guest, f"systemctl is-active wpa_supplicant@{host_if}.service", "no home Wi-Fi", 60)
    guest.sh(f"ip netns add {JOIN_NS} && iw phy {join_phy} set netns name {JOIN_NS} && "
             f"ip -n {JOIN_NS} link set lo up", 60)  # fmt: skip
    unit = f"twinfold-wifi-host@{host_if}.service"
    guest.sh(f"runuser -u twinfold -- systemctl start {unit}", 120)  # polkit's rule
    host_state = f"/run/twinfold-wifi/{host_if}.json"
    wait_until(guest, f"grep -q '\"state\": \"hosting\"' {host_state}", "no hosted network",
               NET_SECONDS)  # fmt: skip
    hosted = state(guest, host_state)
    log(f"net: {host_if} hosts {hosted.get('ssid')} at {hosted.get('address')}")
    helper = f"{PYTHON} -m handheld.wifi_helper join {join_if} --standalone --run {JOIN_RUN}"
    log_to = "> /tmp/tf-join-helper.log 2>&1"
    guest.sh(f"(ip netns exec {JOIN_NS} {helper} {log_to} & echo $! > /tmp/tf-join.pid)", 60)
    join_state = f"{JOIN_RUN}/{join_if}.json"
    wait_until(guest, f"grep -q '\"state\": \"joined\"' {join_state}", "the other radio did not "
               "join", NET_SECONDS)  # fmt: skip
    log(f"net: {join_if} (namespace {JOIN_NS}) joined at {state(guest, join_state).get('address')}")
    if guest.sh(f"systemctl is-active wpa_supplicant@{host_if}.service || true", 60).strip() != (
        "inactive"
    ):
        raise CheckFailed(f"{guest.name}: the unit's own wpa_supplicant still runs while hosting")
    put_player(guest)
    start_unit(guest, "/tmp/tf-wifi-ann", "Ann", "host", f"lan://?iface={host_if}")
    start_unit(guest, "/tmp/tf-wifi-bob", "Bob", "join", f"lan://?iface={join_if}", JOIN_NS)
    finish_match([(guest, "/tmp/tf-wifi-ann", "Ann"), (guest, "/tmp/tf-wifi-bob", "Bob")],
                 logs, "wifi")  # fmt: skip
    log(f"net: two units paired and played Reversi over the unit's own Wi-Fi network "
        f"in {time.monotonic() - started:.0f} s")  # fmt: skip
    guest.sh(f"runuser -u twinfold -- systemctl stop {unit}", 120)
    guest.sh("kill -TERM $(cat /tmp/tf-join.pid)", 60)  # the joining helper gives wlan1 back
    wait_until(guest, f'grep -q \'"state": "off"\' {join_state}', "the joiner not stopped", 120)
    wait_until(guest, f'grep -q \'"state": "off"\' {host_state}', "not given back", 120)
    runtime = f"/run/systemd/network/05-twinfold-wifi-{host_if}.network"
    checks = {
        "the runtime network file is gone": f"test ! -e {runtime}",
        "no hosted address is left": f"! ip -4 addr show dev {host_if} | grep -q 10.47.",
        "networkd manages it again": f"! networkctl list --no-legend {host_if} | grep -q unmanaged",
        "the unit's own Wi-Fi runs again": f"systemctl is-active wpa_supplicant@{host_if}.service",
        "the wire keeps its address": f"ip -4 addr | grep -q {wired}",
    }  # fmt: skip
    for what, command in checks.items():
        wait_until(guest, command, f"after the stop: not so: {what}", 120)
    log(f"net: stopped: {host_if} given back ({', '.join(checks)})")
