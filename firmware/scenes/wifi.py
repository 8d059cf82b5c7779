"""Wi-Fi game (issue 32): the unit hosts a Wi-Fi network of its own for a match, or joins
the one another unit hosts, so two handhelds play Versus over `lan://` with no router and
no radio module. Opened from Settings and from the Versus menu, where the unit has Wi-Fi
(firmware/wifi.py; hal/wifi.py). The network's name and passphrase come from the `lan://`
channel, so nothing is typed: units of the same channel find it by themselves."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.scenes.menu import MenuItem, MenuScene

if TYPE_CHECKING:
    from firmware.scene import Host

STATES = {
    "off": ("off", "オフ"),
    "starting": ("starting...", "じゅんびちゅう..."),
    "hosting": ("hosting", "ひらいています"),
    "joining": ("looking for the host...", "さがしています..."),
    "joined": ("joined", "つながりました"),
    "stopping": ("stopping...", "とめています..."),
    "failed": ("failed", "しっぱい"),
}
ROW_X, ROW_RIGHT = 24, 232


def wifi_offered(machine: Host) -> bool:
    """The unit can host or join a network of its own (the handheld with Wi-Fi)."""
    return machine.wifi.present


def open_wifi(machine: Host) -> None:
    machine.push(WifiScene(machine))


class WifiScene(MenuScene):
    name = "wifi"
    back_key = "back"

    def __init__(self, machine: Host) -> None:
        super().__init__(machine)
        tr = machine.tr
        self.title = tr("Wi-Fi game", "Wi-Fiで たいせん")
        self.items = [
            MenuItem("host", lambda: tr("Host a network", "ネットワークを ひらく"), self.host),
            MenuItem("join", lambda: tr("Join a network", "ネットワークに はいる"), self.join),
            MenuItem("stop", lambda: tr("Stop", "とめる"), self.stop),
            MenuItem("back", lambda: tr("Back", "もどる"), machine.pop, face=pal.ACCENT_LO),
        ]

    def host(self) -> None:
        self.machine.wifi.start("host", self.machine.tick)

    def join(self) -> None:
        self.machine.wifi.start("join", self.machine.tick)

    def stop(self) -> None:
        self.machine.wifi.stop(self.machine.tick)

    def rows(self) -> list[tuple[str, str]]:
        tr, wifi = self.machine.tr, self.machine.wifi
        rows = [(tr("State", "じょうたい"), tr(*STATES.get(wifi.state, STATES["off"])))]
        if wifi.active:
            rows.append((tr("Network", "ネットワーク"), wifi.ssid or "-"))
            rows.append((tr("Address", "アドレス"), wifi.address or "-"))
        if wifi.state == "hosting":
            rows.append((tr("Units joined", "はいった ほんたい"), str(wifi.stations)))
        return rows

    def note(self) -> str:
        tr, wifi = self.machine.tr, self.machine.wifi
        if wifi.state == "failed":
            return tr(f"It did not work: {wifi.error}", f"うまく いきません: {wifi.error}")
        if wifi.state in ("hosting", "joined"):
            return tr(
                "Now choose Versus in a game: the units on this network find each other.",
                "ゲームで たいせんを えらんでね。このネットワークの ほんたいが みつかります。",
            )
        return tr(
            "One unit hosts, the others join: units of the same channel find the network "
            "by themselves. Stop gives the unit's Wi-Fi back.",
            "1だいが ひらいて ほかの ほんたいが はいります。とめると もとの Wi-Fiに もどります。",
        )

    def draw_top(self, top: pygame.Surface) -> None:
        widgets.background(top)
        widgets.panel(top, pygame.Rect(8, 8, 240, 176))
        tr = self.machine.tr
        text.draw(
            top,
            tr("WI-FI GAME", "Wi-Fiで たいせん"),
            (128, 18),
            pal.ACCENT,
            scale=2,
            align="center",
            shadow=pal.OUTLINE,
        )
        rows = self.rows()
        pitch = text.line_pitch([cell for row in rows for cell in row], minimum=14)
        for i, (label, value) in enumerate(rows):
            y = 46 + i * pitch
            text.draw(top, label, (ROW_X, y), pal.TEXT_DIM)
            room = ROW_RIGHT - ROW_X - text.size(label)[0] - 8
            text.draw(top, text.fit(value, room), (ROW_RIGHT, y), pal.TEXT, align="right")
        color = pal.ACCENT if self.machine.wifi.state != "failed" else pal.DANGER
        lines = text.wrap(self.note(), ROW_RIGHT - ROW_X)
        text.draw_block(top, lines, (ROW_X, 50 + len(rows) * pitch), color)

    def dump(self) -> dict[str, object]:
        return {"wifi": self.machine.wifi.dump(), **super().dump()}
