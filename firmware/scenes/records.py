"""Finished games stored for a title: a list, newest first; a replay where the game has one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.scene import Scene, hit
from hal.interfaces import Button

if TYPE_CHECKING:
    from firmware.scene import Host

ROWS = 6


class RecordsScene(Scene):
    name = "records"

    def __init__(self, machine: Host, game_id: str | None) -> None:
        super().__init__(machine)
        self.game_id = game_id
        stored = machine.store.list_records(game_id) if game_id else []
        self.records = [r.record for r in stored if isinstance(r.record, dict)]
        self.offset = 0

    def hotspots(self) -> dict[str, pygame.Rect]:
        spots = {}
        for i in range(min(ROWS, len(self.records) - self.offset)):
            spots[f"record:{self.offset + i}"] = pygame.Rect(10, 20 + i * 24, 236, 21)
        spots["button:back"] = pygame.Rect(10, 166, 70, 22)
        if self.offset > 0:
            spots["button:up"] = pygame.Rect(150, 166, 44, 22)
        if self.offset + ROWS < len(self.records):
            spots["button:down"] = pygame.Rect(202, 166, 44, 22)
        return spots

    def update(self, inp: InputState) -> None:
        name = hit(self.hotspots(), inp)
        if name == "button:back" or Button.B in inp.pressed:
            self.machine.pop()
        elif name == "button:up":
            self.offset = max(0, self.offset - ROWS)
        elif name == "button:down":
            self.offset += ROWS
        elif name and name.startswith("record:"):
            self._open(int(name.split(":")[1]))

    def _open(self, index: int) -> None:
        cart = self.machine.cartridges.get(self.game_id or "")
        replay = getattr(cart, "replay", None)
        if cart is None or replay is None:
            return
        from firmware.scenes.game_scene import GameScene

        record = self.records[index]
        seed = record.get("seed") if isinstance(record, dict) else None
        if not (isinstance(seed, int) and seed >= 0):
            seed = None  # a record from before seeds were stored: any seed will do
        ctx = self.machine.new_context(cart, cart.resolve_options({}), seed)
        self.machine.push(GameScene(self.machine, cart, ctx, replay(ctx, record)))

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        tr = self.machine.tr
        cart = self.machine.cartridges.get(self.game_id or "")
        title = tr(cart.title, cart.title_ja) if cart else ""
        widgets.background(top)
        widgets.panel(top, pygame.Rect(12, 30, 232, 132))
        text.draw(top, tr("Records", "きろく"), (128, 42), pal.ACCENT, scale=2, align="center")
        text.draw(top, title, (128, 70), pal.TEXT, align="center")
        stats = self.machine.store.get_stats(self.game_id) if self.game_id else {}
        n = len(self.records)
        text.draw(
            top,
            tr(f"{n} finished game{'s' * (n != 1)}", f"{n} ゲーム"),
            (128, 90),
            pal.TEXT_DIM,
            align="center",
        )
        if stats.get("played"):
            line = (
                f"W {stats.get('wins', 0)}  L {stats.get('losses', 0)}  D {stats.get('draws', 0)}"
            )
            text.draw(top, line, (128, 104), pal.TEAL, align="center")
        widgets.background(bottom)
        widgets.title_bar(bottom, tr("Records", "きろく"), title)
        spots = self.hotspots()
        for name, rect in spots.items():
            if name.startswith("record:"):
                rec = self.records[int(name.split(":")[1])]
                widgets.bevel_rect(bottom, rect, pal.PANEL_HI)
                english = str(rec.get("summary") or rec.get("outcome") or "game")
                summary = tr(english, str(rec.get("summary_ja") or english))
                text.draw(bottom, text.fit(summary, rect.w - 12), (rect.x + 6, rect.y + 6),
                          pal.TEXT)
        if not self.records:
            text.draw(
                bottom,
                tr("No finished games yet", "まだきろくがありません"),
                (128, 80),
                pal.TEXT_DIM,
                align="center",
            )
        widgets.button(bottom, spots["button:back"], tr("Back", "もどる"))
        if "button:up" in spots:
            widgets.button(bottom, spots["button:up"], "↑")
        if "button:down" in spots:
            widgets.button(bottom, spots["button:down"], "↓")

    def dump(self) -> dict[str, object]:
        return {"game": self.game_id, "records": len(self.records), "offset": self.offset}
