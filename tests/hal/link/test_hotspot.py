"""A handheld's own Wi-Fi network (hal/link/hotspot.py): the name and passphrase every unit
of a channel derives alike and no other channel shares, valid hostapd / wpa_supplicant
settings, addresses on the network."""

from __future__ import annotations

import ipaddress
import re

from hypothesis import given
from hypothesis import strategies as st

from hal.link.hotspot import (
    HOST_ADDRESS,
    LAN_GROUPS,
    SUBNET,
    channel_of,
    derive,
    hostapd_conf,
    joiner_address,
    wpa_conf,
)
from hal.link.urlhandlers.protocol_lan import LanOptions

channels = st.text(
    alphabet=st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")),
    min_size=1,
    max_size=32,
)


def conf(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


@given(channels)
def test_every_channel_gets_a_valid_name_and_passphrase(channel: str) -> None:
    spot = derive(channel)
    assert spot == derive(channel)  # every unit of the channel derives the same
    assert re.fullmatch(r"Twinfold-[A-Z2-7]{5}", spot.ssid)
    assert re.fullmatch(r"[a-z2-7]{24}", spot.passphrase)  # WPA: 8..63 printable


@given(channels)
def test_every_channels_group_is_routed_to_the_hosted_network(channel: str) -> None:
    group = ipaddress.IPv4Address(LanOptions(channel=channel).group)
    assert group in ipaddress.IPv4Network(LAN_GROUPS)


def test_channels_get_different_networks() -> None:
    spots = [derive(f"room{i}") for i in range(200)]
    assert len({s.ssid for s in spots}) == 200
    assert len({s.passphrase for s in spots}) == 200
    assert derive().ssid == derive("twinfold").ssid


def test_the_channel_comes_from_the_radio_port() -> None:
    assert channel_of("lan://club") == "club"
    assert channel_of("lan://?channel=club&iface=wlan0") == "club"
    assert channel_of("lan://") == "twinfold"
    assert channel_of("/dev/serial0") == "twinfold"  # a radio module: the default network
    assert channel_of("lan://?bogus=1") == "twinfold"


def test_hostapd_settings_are_wpa2_ccmp_with_stations_hearing_each_other() -> None:
    spot = derive("club")
    got = conf(hostapd_conf("wlan0", spot, "gb"))
    assert got["interface"] == "wlan0" and got["driver"] == "nl80211"
    assert got["ssid"] == spot.ssid and got["wpa_passphrase"] == spot.passphrase
    assert (got["wpa"], got["wpa_key_mgmt"], got["rsn_pairwise"]) == ("2", "WPA-PSK", "CCMP")
    assert "wpa_pairwise" not in got  # no TKIP
    assert got["ap_isolate"] == "0"  # the match's multicast goes from station to station
    assert got["country_code"] == "GB"
    assert "country_code" not in conf(hostapd_conf("wlan0", spot, "Great Britain"))
    assert "country_code" not in conf(hostapd_conf("wlan0", spot, ""))


def test_wpa_supplicant_settings_join_only_that_network() -> None:
    spot = derive("club")
    text = wpa_conf(spot, "JP", control="/run/x")
    assert text.count("network={") == 1
    assert f'ssid="{spot.ssid}"' in text and f'psk="{spot.passphrase}"' in text
    assert "proto=RSN" in text and "pairwise=CCMP" in text and "key_mgmt=WPA-PSK" in text
    assert text.startswith("ctrl_interface=/run/x\ncountry=JP\n")


@given(st.binary(min_size=6, max_size=6))
def test_a_joining_unit_takes_an_address_of_the_network_but_never_the_hosts(raw: bytes) -> None:
    mac = ":".join(f"{b:02x}" for b in raw)
    address = ipaddress.IPv4Address(joiner_address(mac.upper()))
    assert address in SUBNET
    assert address not in (SUBNET.network_address, SUBNET.broadcast_address)
    assert str(address) != HOST_ADDRESS
    assert joiner_address(mac) == str(address)  # the same every time


def test_a_bad_mac_is_refused_in_one_line() -> None:
    for bad in ("", "00:11:22:33:44", "zz:11:22:33:44:55", "00-11-22-33-44-55"):
        try:
            joiner_address(bad)
        except ValueError as exc:
            assert "\n" not in str(exc) and "MAC" in str(exc)
        else:
            raise AssertionError(bad)
