"""Settings (P-FW-2): calibration, button test, screen swap, language, volume, radio name,
paired devices, statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.scenes.menu import MenuItem, MenuScene
from firmware.scenes.radio import current_name, link_in_use
from firmware.scenes.wifi import open_wifi, wifi_offered
from firmware.settings import LANGUAGES, MAX_VOLUME

if TYPE_CHECKING:
    from firmware.scene import Host


class SettingsScene(MenuScene):
    name = "settings"
    back_key = "back"

    def __init__(self, machine: Host) -> None:
        super().__init__(machine)
        tr = machine.tr
        s = machine.settings
        self.title = tr("Settings", "せってい")
        self.items = [
            MenuItem(
                "calibrate", lambda: tr("Touch calibration", "タッチのちょうせい"), self.calibrate
            ),
            MenuItem("buttons", lambda: tr("Button test", "ボタンテスト"), self.button_test),
            MenuItem(
                "swap",
                lambda: tr("Swap screens", "がめんいれかえ"),
                value=lambda: tr("On", "オン") if s.swap else tr("Off", "オフ"),
                on_step=self.toggle_swap,
            ),
            MenuItem(
                "language",
                lambda: tr("Language", "ことば"),
                value=lambda: "日本語" if s.language == "ja" else "English",
                on_step=self.step_language,
            ),
            MenuItem(
                "volume",
                lambda: tr("Volume", "おとのおおきさ"),
                value=lambda: "■" * s.volume + "·" * (MAX_VOLUME - s.volume),
                on_step=self.step_volume,
            ),
            MenuItem(
                "radio-name",
                lambda: tr("Radio name", "むせんの なまえ") + ": " + current_name(machine),
                self.radio_name,
            ),
            MenuItem("paired", lambda: tr("Paired devices", "ペアの ほんたい"), self.paired),
            *(  # the unit's own Wi-Fi network for a match, where it has Wi-Fi (issue 32)
                [MenuItem("wifi", lambda: tr("Wi-Fi game", "Wi-Fiで たいせん"), self.wifi)]
                if wifi_offered(machine)
                else []
            ),
            MenuItem("reset", lambda: tr("Reset statistics", "せいせきをけす"), self.reset_stats),
            MenuItem("back", lambda: tr("Back", "もどる"), machine.pop, face=pal.ACCENT_LO),
        ]

    def calibrate(self) -> None:
        from firmware.scenes.calibration import CalibrationScene

        self.machine.push(CalibrationScene(self.machine))

    def button_test(self) -> None:
        from firmware.scenes.buttontest import ButtonTestScene

        self.machine.push(ButtonTestScene(self.machine))

    def radio_name(self) -> None:
        from firmware.scenes.radio import RadioNameScene

        self.machine.push(RadioNameScene(self.machine))

    def paired(self) -> None:
        from firmware.scenes.radio import PairedScene

        self.machine.push(PairedScene(self.machine))

    def wifi(self) -> None:
        open_wifi(self.machine)

    def toggle_swap(self, _delta: int) -> None:
        self.machine.settings.swap = not self.machine.settings.swap
        self.machine.save_settings()

    def step_language(self, delta: int) -> None:
        s = self.machine.settings
        s.language = LANGUAGES[(LANGUAGES.index(s.language) + delta) % len(LANGUAGES)]
        self.machine.save_settings()
        self.title = self.machine.tr("Settings", "せってい")

    def step_volume(self, delta: int) -> None:
        s = self.machine.settings
        s.volume = max(0, min(MAX_VOLUME, s.volume + delta))
        self.machine.save_settings()
        self.machine.play("select")

    def reset_stats(self) -> None:
        from firmware.scenes.prompts import ConfirmScene

        self.machine.push(
            ConfirmScene(
                self.machine,
                self.machine.tr(
                    "Erase the statistics of every game? Records of finished games are kept.",
                    "すべてのせいせきをけしますか?",
                ),
                self.machine.store.reset_stats,
            )
        )

    def draw_top(self, top: pygame.Surface) -> None:
        widgets.background(top)
        widgets.panel(top, pygame.Rect(8, 8, 240, 176))
        tr = self.machine.tr
        s = self.machine.settings
        text.draw(
            top,
            tr("SETTINGS", "せってい"),
            (128, 18),
            pal.ACCENT,
            scale=2,
            align="center",
            shadow=pal.OUTLINE,
        )
        rows = [
            (
                tr("Screens", "がめん"),
                tr("swapped", "いれかえ") if s.swap else tr("normal", "ふつう"),
            ),
            (tr("Language", "ことば"), "日本語" if s.language == "ja" else "English"),
            (tr("Volume", "おと"), f"{s.volume}/{MAX_VOLUME}"),
            (tr("Radio name", "むせんの なまえ"), current_name(self.machine)),
            (tr("Link", "つうしん"), link_in_use(self.machine)),
            (
                tr("Paired units", "ペアの ほんたい"),
                str(len(self.machine.store.list_pairings())),
            ),
            (
                tr("Touch", "タッチ"),
                tr("calibrated", "ちょうせいずみ")
                if self.machine.store.get_calibration()
                else tr("factory", "しょきち"),
            ),
        ]
        pitch = text.line_pitch([cell for row in rows for cell in row], minimum=14)
        for i, (label, value) in enumerate(rows):
            text.draw(top, label, (24, 48 + i * pitch), pal.TEXT_DIM)
            room = 232 - 24 - text.size(label)[0] - 8
            text.draw(top, text.fit(value, room), (232, 48 + i * pitch), pal.TEXT, align="right")
        notes = []
        if s.swap:
            notes.append(
                tr(
                    "Touch stays on the lower panel; use the D-pad and A while the "
                    "screens are swapped.",
                    "いれかえちゅうは じゅうじキーと A で",
                )
            )
        below_rows = 48 + len(rows) * pitch + 4  # notes start under the last row
        text.draw_block(
            top, [r for note in notes for r in text.wrap(note, 216)], (20, below_rows), pal.ACCENT
        )
