"""Issue 32: the Wi-Fi game screen in each state and the Settings and Versus menus that offer
it keep every text inside its box, in English and Japanese (the rules of test_text_fit)."""

from __future__ import annotations

import pytest
from screen_sweep import LANGUAGES
from test_text_fit import _problems


class _Wifi:
    """A unit with Wi-Fi whose network reports `report` (firmware/wifi.py's states)."""

    @staticmethod
    def control(report: object) -> object:
        from hal.wifi import WifiControl, WifiStatus

        class Control(WifiControl):
            def request(self, role: str) -> str | None:
                return None

            def status(self) -> WifiStatus | None:
                return report if isinstance(report, WifiStatus) else None

        return Control()


WIFI_STATES = [
    ("off", None),
    ("starting", "host"),
    ("hosting", "host"),
    ("joining", "join"),
    ("joined", "join"),
    ("failed", "host"),
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("state,role", WIFI_STATES, ids=[s for s, _ in WIFI_STATES])
def test_wifi_game_screens_keep_every_text_inside(language, state, role, tmp_path):
    """Issue 32: the Wi-Fi game screen in each state (a long failure's reason included),
    and the Settings and Versus menus that offer it, in both languages."""
    from screen_sweep import machine_in, recording

    from firmware.scenes.settings import SettingsScene
    from firmware.scenes.versus import VersusMenuScene
    from firmware.scenes.wifi import WifiScene
    from firmware.wifi import WifiService
    from hal.wifi import WifiStatus

    error = "hostapd exited 1: nl80211: Could not configure driver mode (Device or resource busy)"
    report = WifiStatus(role or "", state, "Twinfold-K3QZP", "10.47.213.118", 3, error)
    m = machine_in(tmp_path, language)
    try:
        m.wifi = WifiService(_Wifi.control(report))  # type: ignore[arg-type]
        if role:
            m.wifi.start(role, 0)
            m.wifi.follow(report, 1)
        assert m.wifi.state == state
        problems = []
        for scene in (WifiScene(m), SettingsScene(m), VersusMenuScene(m, "reversi")):
            m.push(scene)
            with recording() as rec:
                m.render()
            if not isinstance(scene, WifiScene):
                assert "wifi" in [i.key for i in scene.items]  # offered there
            problems += [f"{scene.name}: {p}" for p in _problems(rec)]
            m.pop()
    finally:
        m.store.close()
    assert not problems, "\n".join(problems)
