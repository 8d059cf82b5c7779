"""A handheld's own Wi-Fi network for a match (issue 32): its name, its passphrase, the
addresses on it and the hostapd / wpa_supplicant settings, all derived from the `lan://`
channel, so nothing is typed and only units that know the channel join.

Why derived from the channel: the units that play together already share it (`lan://NAME`
in device.toml's `[radio] port`, "twinfold" by default), and the Versus lobby only lists
units of the same channel anyway. The network's name is `Twinfold-XXXXX` (five base32
letters of an HMAC of the channel: a unit finds its channel's network among others without
a list to choose from); the WPA2 passphrase is 24 more base32 letters of another HMAC.
Who does not know the channel word cannot compute the passphrase, so cannot join; but the
passphrase is only as strong as the word: with the default "twinfold" every Twinfold unit
joins (a party), and a private word makes a private network. (WPA2-PSK's handshake can be
guessed offline, so a short word is weak against a determined neighbour; the match itself
stays sealed under the pairing keys whoever is on the network, see firmware/link/packet.py.)

Addresses need no DHCP server: the hosting unit is 10.47.0.1/16, a joining unit takes
10.47.X.Y from a hash of its interface's MAC (never .0.0, .0.1 or .255.255): four units
collide with a chance of about 1 in 10 000, and `lan://` needs nothing but a source address
on the segment and a route for its multicast groups (LAN_GROUPS; TTL 1 does the rest).

Pure functions only: the root helper (handheld/wifi_helper.py) writes and runs what these
return, and the firmware shows the name (firmware/wifi.py).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import re
from dataclasses import dataclass

from hal.link.urlhandlers.protocol_lan import DEFAULT_CHANNEL, parse_url

SSID_PREFIX = "Twinfold-"
SUBNET = ipaddress.IPv4Network("10.47.0.0/16")
HOST_ADDRESS = "10.47.0.1"
# every lan:// channel's multicast group (protocol_lan.LanOptions.group): routed to the
# hosted network's interface while it is on, so `lan://` sends there with no default route
LAN_GROUPS = "239.255.76.0/24"
RADIO_CHANNEL = 6  # 2.4 GHz: every Pi with Wi-Fi has it (the Zero 2 W has nothing else)
_KEY = b"twinfold-hotspot-v1"
_COUNTRY = re.compile(r"[A-Z]{2}")
_MAC = re.compile(r"[0-9a-f]{2}(:[0-9a-f]{2}){5}")


@dataclass(frozen=True)
class Hotspot:
    """The network of a channel: its name and WPA2 passphrase."""

    channel: str
    ssid: str
    passphrase: str


def _letters(label: bytes, channel: str, count: int) -> str:
    mac = hmac.new(_KEY, label + b"\x00" + channel.encode(), hashlib.sha256).digest()
    return base64.b32encode(mac).decode()[:count]


def derive(channel: str = DEFAULT_CHANNEL) -> Hotspot:
    """The network of `channel` (the same on every unit that knows the channel)."""
    return Hotspot(
        channel=channel,
        ssid=SSID_PREFIX + _letters(b"ssid", channel, 5),
        passphrase=_letters(b"psk", channel, 24).lower(),
    )


def channel_of(port: str) -> str:
    """The `lan://` channel of device.toml's `[radio] port` (the default channel for a
    radio module's port or a bad URL: hosting still works, under the default name)."""
    if not port.startswith("lan:"):
        return DEFAULT_CHANNEL
    try:
        return parse_url(port).channel
    except ValueError:
        return DEFAULT_CHANNEL


def joiner_address(mac: str) -> str:
    """A joining unit's address on the hosted network, from its interface's MAC."""
    mac = mac.strip().lower()
    if not _MAC.fullmatch(mac):
        raise ValueError(f"not a MAC address: {mac!r}")
    digest = hashlib.sha256(mac.encode()).digest()
    span = SUBNET.num_addresses - 3  # neither .0.0, .0.1 (the host) nor .255.255
    return str(SUBNET.network_address + 2 + int.from_bytes(digest[:4], "big") % span)


def prefix(address: str) -> str:
    """`address/16`, as `ip addr add` takes it."""
    return f"{address}/{SUBNET.prefixlen}"


def _country(country: str) -> str:
    country = country.strip().upper()
    return country if _COUNTRY.fullmatch(country) else ""


def hostapd_conf(iface: str, spot: Hotspot, country: str = "", control: str = "") -> str:
    """hostapd's settings: an 802.11g access point on RADIO_CHANNEL, WPA2-PSK with CCMP only,
    stations allowed to hear each other (the match's multicast goes station to station)."""
    lines = [
        f"interface={iface}",
        "driver=nl80211",
        f"ssid={spot.ssid}",
        "hw_mode=g",
        f"channel={RADIO_CHANNEL}",
        "auth_algs=1",
        "ignore_broadcast_ssid=0",
        "ap_isolate=0",
        "max_num_sta=8",
        "wpa=2",
        "wpa_key_mgmt=WPA-PSK",
        "rsn_pairwise=CCMP",
        f"wpa_passphrase={spot.passphrase}",
    ]
    if _country(country):
        lines += [f"country_code={_country(country)}", "ieee80211d=1"]
    if control:
        lines.append(f"ctrl_interface={control}")
    return "\n".join(lines) + "\n"


def wpa_conf(spot: Hotspot, country: str = "", control: str = "") -> str:
    """wpa_supplicant's settings: join only this network, WPA2 (RSN, CCMP) with the derived
    passphrase; `scan_ssid=1` finds it even while its beacons are few."""
    lines = []
    if control:
        lines.append(f"ctrl_interface={control}")
    if _country(country):
        lines.append(f"country={_country(country)}")
    lines += [
        "network={",
        f'    ssid="{spot.ssid}"',
        f'    psk="{spot.passphrase}"',
        "    key_mgmt=WPA-PSK",
        "    proto=RSN",
        "    pairwise=CCMP",
        "    group=CCMP",
        "    scan_ssid=1",
        "}",
    ]
    return "\n".join(lines) + "\n"
