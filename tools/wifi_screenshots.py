"""Render the README's Wi-Fi game pictures (issue 32): the Wi-Fi game screen of a unit that
hosts its own network, and of one looking for it (in Japanese).

    .venv/bin/python tools/wifi_screenshots.py   # docs/img/wifi-hosting.png, ja/wifi-joining.png

A headless machine has no Wi-Fi (hal/wifi.py `NoWifi`), so this script hands it a stand-in
control whose report is fixed: the screen shows exactly what the service makes of it.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from firmware.headless import build_machine  # noqa: E402 (the checkout on sys.path first)
from firmware.scenes.wifi import WifiScene  # noqa: E402
from firmware.wifi import WifiService  # noqa: E402
from hal.link.hotspot import HOST_ADDRESS, derive, joiner_address  # noqa: E402
from hal.wifi import WifiControl, WifiStatus  # noqa: E402
from tools.screenshots import compose  # noqa: E402

SSID = derive().ssid
SHOTS = {
    "wifi-hosting": ("en", WifiStatus("host", "hosting", SSID, HOST_ADDRESS, stations=2)),
    "wifi-joining": (
        "ja",
        WifiStatus("join", "joining", SSID, joiner_address("b8:27:eb:12:34:56")),
    ),
}


class Reported(WifiControl):
    def __init__(self, report: WifiStatus) -> None:
        self.report = report

    def request(self, role: str) -> str | None:
        return None

    def status(self) -> WifiStatus | None:
        return self.report


def render(name: str) -> Path:
    language, report = SHOTS[name]
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "store.db"
        first = build_machine(Path(tmp) / "setup", store_path=store)
        first.settings.language = language
        first.save_settings()
        first.store.close()
        m = build_machine(Path(tmp) / "run", store_path=store)
        m.wifi = WifiService(Reported(report))
        m.wifi.start(report.role, 0)
        m.wifi.follow(report, 1)
        m.push(WifiScene(m))
        m.render()
        out = ROOT / "docs/img" / ("ja/" if language == "ja" else "") / f"{name}.png"
        pygame.image.save(compose(m.top, m.bottom), str(out))
        m.store.close()
    return out


def main(names: list[str]) -> int:
    for name in names or SHOTS:
        print(render(name).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
