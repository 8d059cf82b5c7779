"""Settings for the radio (P-FW-2): the unit's radio name (an on-screen keyboard) and the
paired devices (listed, each can be forgotten)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.scene import Scene, hit
from firmware.scenes.menu import MenuItem, MenuScene
from firmware.settings import RADIO_NAME_MAX
from hal.interfaces import Button

if TYPE_CHECKING:
    from firmware.scene import Host

KEYS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_ "
COLS = 10
KEY_W, KEY_H = 22, 22


def current_name(machine: Host) -> str:
    if machine.link is not None:
        return str(machine.link.radio.name)
    return str(machine.settings.radio_name or "-")


def link_in_use(machine: Host) -> str:
    """The link the unit uses (Settings): the radio module, the network (with its
    interface), or none."""
    tr = machine.tr
    if machine.link is None:
        return tr("off", "なし")
    link = machine.link.radio.link
    if link.kind() == "network":
        where = link.describe().partition(" @ ")[2]
        net = tr("network", "ネットワーク")
        return f"{net} {where}" if where and where != "auto" else net
    return tr("radio module", "むせんモジュール")


class RadioNameScene(Scene):
    """Type the radio name with the stylus, or walk the keys with the D-pad and A."""

    name = "radio-name"

    def __init__(self, machine: Host) -> None:
        super().__init__(machine)
        self.text = machine.settings.radio_name
        self.error = ""

    def hotspots(self) -> dict[str, pygame.Rect]:
        spots = {}
        for i, ch in enumerate(KEYS):
            col, row = i % COLS, i // COLS
            label = "space" if ch == " " else ch
            spots[f"key:{label}"] = pygame.Rect(
                9 + col * (KEY_W + 2), 26 + row * (KEY_H + 2), KEY_W, KEY_H
            )
        spots["button:delete"] = pygame.Rect(9, 128, 76, 24)
        spots["button:cancel"] = pygame.Rect(90, 128, 76, 24)
        spots["button:ok"] = pygame.Rect(171, 128, 76, 24)
        return spots

    def update(self, inp: InputState) -> None:
        if Button.B in inp.pressed:
            self.machine.pop()
            return
        name = hit(self.hotspots(), inp)
        if name is None:
            return
        self.machine.play("select")
        if name.startswith("key:"):
            ch = name[4:]
            ch = " " if ch == "space" else ch
            if len(self.text) < RADIO_NAME_MAX:
                self.text += ch if not self.text or self.text[-1] == " " else ch.lower()
            else:
                self.error = self.machine.tr(
                    f"At most {RADIO_NAME_MAX} letters.", f"{RADIO_NAME_MAX}もじまで"
                )
        elif name == "button:delete":
            self.text, self.error = self.text[:-1], ""
        elif name == "button:cancel":
            self.machine.pop()
        elif name == "button:ok":
            self.save()

    def save(self) -> None:
        name = self.text.strip()
        self.machine.settings.radio_name = name
        self.machine.save_settings()
        if self.machine.link is not None:
            self.machine.link.rename(name)
        self.machine.pop()

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        tr = self.machine.tr
        widgets.background(top)
        widgets.panel(top, pygame.Rect(10, 10, 236, 172))
        text.draw(
            top,
            tr("RADIO NAME", "むせんの なまえ"),
            (128, 22),
            pal.ACCENT,
            scale=2,
            align="center",
            shadow=pal.OUTLINE,
        )
        box = pygame.Rect(28, 64, 200, 30)
        widgets.bevel_rect(top, box, pal.PANEL_LO)
        shown = self.text or tr("(from the unit id)", "(じどう)")
        text.draw(
            top,
            shown,
            (box.x + 8, box.y + 8),
            pal.TEXT if self.text else pal.TEXT_DIM,
            scale=2 if self.text else 1,
        )
        hint = tr(
            "Other units see this name when they look for a game.",
            "ほかの ほんたいに みえる なまえです",
        )
        text.draw_block(top, text.wrap(hint, 210), (128, 110), pal.TEXT_DIM, align="center")
        if self.error:
            text.draw(top, self.error, (128, 150), pal.DANGER, align="center")
        widgets.background(bottom)
        widgets.title_bar(bottom, tr("Radio name", "むせんの なまえ"))
        for name, rect in self.hotspots().items():
            if name.startswith("key:"):
                label = name[4:]
                widgets.button(bottom, rect, "␣" if label == "space" else label)
        spots = self.hotspots()
        widgets.button(bottom, spots["button:delete"], tr("Delete", "けす"))
        widgets.button(bottom, spots["button:cancel"], tr("Cancel", "やめる"))
        widgets.button(bottom, spots["button:ok"], "OK", face=pal.ACCENT_LO)

    def dump(self) -> dict[str, object]:
        return {"text": self.text}


class PairedScene(MenuScene):
    """The units this one is paired with; tapping one offers to forget it."""

    name = "paired"
    back_key = "back"

    def __init__(self, machine: Host) -> None:
        super().__init__(machine)
        self.title = machine.tr("Paired devices", "ペアの ほんたい")
        self._build()

    def _build(self) -> None:
        tr = self.machine.tr
        self.rows = self.machine.store.list_pairings()
        self.items = [self._item(row) for row in self.rows[:5]]
        self.items.append(
            MenuItem("back", lambda: tr("Back", "もどる"), self.machine.pop, face=pal.ACCENT_LO)
        )

    def _item(self, row: dict[str, Any]) -> MenuItem:
        label = f"{row['name']}  ({row['peer']})"
        return MenuItem(f"peer-{row['peer']}", lambda: label, lambda: self.forget(row))

    def forget(self, row: dict[str, Any]) -> None:
        from firmware.scenes.prompts import ConfirmScene

        def do() -> None:
            peer = bytes.fromhex(row["peer"])
            if self.machine.link is not None:
                self.machine.link.radio.forget(peer)
            else:
                self.machine.store.forget_pairing(row["peer"])
            self._build()

        self.machine.push(
            ConfirmScene(
                self.machine,
                self.machine.tr(
                    f"Forget {row['name']}? You will have to pair again to play it.",
                    f"{row['name']} を わすれますか?",
                ),
                do,
            )
        )

    def on_enter(self) -> None:
        self._build()

    def draw_top(self, top: pygame.Surface) -> None:
        tr = self.machine.tr
        widgets.background(top)
        widgets.panel(top, pygame.Rect(10, 10, 236, 172))
        text.draw(
            top,
            tr("PAIRED DEVICES", "ペアの ほんたい"),
            (128, 22),
            pal.ACCENT,
            scale=2,
            align="center",
            shadow=pal.OUTLINE,
        )
        lines = [
            tr(
                f"This unit: {current_name(self.machine)}",
                f"この ほんたい: {current_name(self.machine)}",
            ),
            "",
        ]
        if not self.rows:
            lines.append(
                tr(
                    "No paired units yet. Pair from Versus in the launcher.",
                    "まだ ありません。たいせんから ペアにできます。",
                )
            )
        else:
            lines.append(
                tr(
                    f"{len(self.rows)} paired. Tap one to forget it.",
                    f"{len(self.rows)}だい。タップで わすれる",
                )
            )
        y = 56
        for line in lines:
            for row in text.wrap(line, 216):
                text.draw(top, row, (128, y), pal.TEXT, align="center")
                y += 13

    def dump(self) -> dict[str, object]:
        return {
            "paired": [{"peer": r["peer"], "name": r["name"]} for r in self.rows],
            **super().dump(),
        }
