"""The launcher (P-FW-1): game tiles on the lower screen; description and record above."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import pygame

from firmware.game_api import Cartridge
from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.scene import Scene, hit
from hal.interfaces import Button

if TYPE_CHECKING:
    from firmware.scene import Host

log = logging.getLogger("twinfold")

COLS, ROWS = 3, 2
TILE_W, TILE_H = 76, 62
PER_PAGE = COLS * ROWS


def icon_surface(cartridge: Cartridge) -> pygame.Surface:
    """The game's 32x32 icon; a game whose icon raises (one installed as a package) gets a
    plain tile instead, logged: the launcher, which every game shares, keeps running."""
    surf = pygame.Surface((32, 32), pygame.SRCALPHA)
    try:
        cartridge.draw_icon(surf)
    except Exception as exc:
        log.warning("game %s: its icon failed to draw (%s); a plain tile instead",
                    cartridge.id, exc)
        log.info("game %s: the icon's failure", cartridge.id, exc_info=exc)
        surf.fill((0, 0, 0, 0))
        pygame.draw.rect(surf, pal.PANEL_LO, surf.get_rect(), border_radius=6)
    return surf


def saved_badge(surface: pygame.Surface, pos: tuple[int, int]) -> None:
    """A saved game waits: a small floppy disk (10x10) at `pos`."""
    x, y = pos
    pygame.draw.rect(surface, pal.OUTLINE, (x, y, 10, 10), border_radius=1)
    surface.fill(pal.ACCENT, (x + 1, y + 1, 8, 8))
    surface.fill(pal.WHITE, (x + 3, y + 1, 4, 3))  # the shutter
    surface.fill(pal.OUTLINE, (x + 5, y + 1, 1, 2))
    surface.fill(pal.PANEL_HI, (x + 2, y + 6, 6, 3))  # the label


def tile_lines(title: str, width: int) -> list[str]:
    """A tile's title: one line when it fits, else two split at the space that balances
    them best, else wrapped in two; a title that still does not fit is shortened on purpose,
    with a visible "…" (never cut by the tile's edge)."""
    if text.size(title)[0] <= width:
        return [title]
    words = title.split(" ")
    splits = [
        [" ".join(words[:i]), " ".join(words[i:])] for i in range(1, len(words))
    ]
    fitting = [pair for pair in splits if all(text.size(p)[0] <= width for p in pair)]
    if fitting:
        return min(fitting, key=lambda pair: max(text.size(p)[0] for p in pair))
    lines = text.wrap(title, width)
    if len(lines) <= 2 and all(text.size(line)[0] <= width for line in lines):
        return lines
    return [text.fit(title, width)]


class LauncherScene(Scene):
    name = "launcher"

    def __init__(self, machine: Host, selected: str | None = None) -> None:
        super().__init__(machine)
        self.ids = list(machine.cartridges)
        self.selected = selected if selected in self.ids else (self.ids[0] if self.ids else None)
        self.page = self.ids.index(self.selected) // PER_PAGE if self.selected else 0
        self.t = 0
        self._icons: dict[str, pygame.Surface] = {}
        self._stats_for: str | None = None
        self._stats_cache: dict[str, Any] = {}

    @property
    def pages(self) -> int:
        return max(1, (len(self.ids) + PER_PAGE - 1) // PER_PAGE)

    def _tile_rect(self, slot: int) -> pygame.Rect:
        col, row = slot % COLS, slot // COLS
        return pygame.Rect(10 + col * (TILE_W + 5), 21 + row * (TILE_H + 4), TILE_W, TILE_H)

    def hotspots(self) -> dict[str, pygame.Rect]:
        spots: dict[str, pygame.Rect] = {}
        for slot, gid in enumerate(self.ids[self.page * PER_PAGE : (self.page + 1) * PER_PAGE]):
            spots[f"game:{gid}"] = self._tile_rect(slot)
        spots["button:settings"] = pygame.Rect(10, 160, 66, 26)
        spots["button:records"] = pygame.Rect(81, 160, 66, 26)
        if self.selected:
            spots["button:play"] = pygame.Rect(152, 160, 94, 26)
        if self.pages > 1:
            spots["button:page"] = pygame.Rect(200, 2, 50, 13)
        if self._versus_ok():
            spots["button:versus"] = pygame.Rect(130, 1, 62, 16)  # (a Japanese label)
        return spots

    def _versus_ok(self) -> bool:
        """Versus is offered for games that support it while the radio is on."""
        if self.selected is None or self.machine.link is None:
            return False
        return self.machine.cartridges[self.selected].versus

    def update(self, inp: InputState) -> None:
        self.t += 1
        if Button.L in inp.pressed or Button.R in inp.pressed:
            self._turn_page()
        name = hit(self.hotspots(), inp)
        if name is None:
            # START, or A on the selected (highlighted) tile, plays it like the Play button
            # (issue 34, item 11). With the D-pad cursor shown, A taps what it points at.
            if inp.pressed & {Button.START, Button.A} and self.selected:
                self._play()
            return
        self.machine.play("select")
        if name.startswith("game:"):
            gid = name.split(":", 1)[1]
            if gid == self.selected and inp.touch_down:
                self._play()
            self.selected = gid
        elif name == "button:play":
            self._play()
        elif name == "button:settings":
            from firmware.scenes.settings import SettingsScene

            self.machine.push(SettingsScene(self.machine))
        elif name == "button:records":
            from firmware.scenes.records import RecordsScene

            self.machine.push(RecordsScene(self.machine, self.selected))
        elif name == "button:page":
            self._turn_page()
        elif name == "button:versus" and self.selected is not None:
            from firmware.scenes.versus import VersusMenuScene

            self.machine.push(VersusMenuScene(self.machine, self.selected))

    def _turn_page(self) -> None:
        self.page = (self.page + 1) % self.pages

    def _play(self) -> None:
        if self.selected is None:
            return
        cartridge = self.machine.cartridges[self.selected]
        if cartridge.id in self.machine.saved:
            saved = self.machine.store.load_suspend(cartridge.id)
            if saved is not None:
                from firmware.scenes.prompts import ResumeScene

                meta = saved.meta if isinstance(saved.meta, dict) else {}
                state = saved.state if isinstance(saved.state, dict) else {}
                self.machine.push(
                    ResumeScene(
                        self.machine,
                        cartridge.id,
                        state,
                        meta,
                        at_boot=False,
                        new_game=self._play,
                    )
                )
                return
        if cartridge.options:
            from firmware.scenes.setup import SetupScene

            self.machine.push(SetupScene(self.machine, cartridge))
        else:
            self.machine.start_game(cartridge.id, {})

    def _stats(self, gid: str) -> dict[str, Any]:
        """The selected game's statistics, read from the store once per selection."""
        if self._stats_for != gid:
            self._stats_for, self._stats_cache = gid, self.machine.store.get_stats(gid)
        return self._stats_cache

    def on_enter(self) -> None:
        self._stats_for = None

    def _icon(self, gid: str) -> pygame.Surface:
        if gid not in self._icons:
            self._icons[gid] = icon_surface(self.machine.cartridges[gid])
        return self._icons[gid]

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        self._draw_top(top)
        widgets.background(bottom)
        page_note = f"{self.page + 1}/{self.pages}" if self.pages > 1 else ""
        version = self.machine.version_note
        if version is not None:  # which version runs, when it is an update or a rollback's
            page_note = "  ".join(n for n in (self.machine.tr(*version), page_note) if n)
        widgets.title_bar(bottom, "TWINFOLD", page_note)
        spots = self.hotspots()
        for name, rect in spots.items():
            if not name.startswith("game:"):
                continue
            gid = name.split(":", 1)[1]
            cart = self.machine.cartridges[gid]
            chosen = gid == self.selected
            face = pal.PANEL_HI if chosen else pal.PANEL
            widgets.bevel_rect(bottom, rect, face, radius=4, depth=2)
            if chosen:
                pygame.draw.rect(bottom, pal.ACCENT, rect.inflate(2, 2), 2, border_radius=5)
            bob = -1 if chosen and (self.t // 15) % 2 else 0
            title = self.machine.tr(cart.title, cart.title_ja)
            lines = tile_lines(title, rect.w - 6)
            # Japanese lines are 12 rows: two of them sit close, and lift the icon to make room
            japanese = any(text.size(line)[1] > text.GLYPH_H for line in lines)
            pitch = text.JA_H if japanese else text.line_pitch(lines, minimum=9)
            lines_top = rect.bottom - 2 - pitch * len(lines) if japanese else None
            icon_y = rect.y + 5 if lines_top is None else min(rect.y + 5, lines_top - 34)
            bottom.blit(self._icon(gid), (rect.centerx - 16, icon_y + bob))
            if gid in self.machine.saved:
                saved_badge(bottom, (rect.right - 13, rect.y + 3))
            if lines_top is None:
                y = rect.bottom - 4 - pitch * len(lines) + (pitch - text.size(lines[0])[1])
            else:
                y = lines_top + text.JA_SHIFT  # draw's y is the Latin capitals' top
            for line in lines:
                text.draw(
                    bottom,
                    line,
                    (rect.centerx, y),
                    pal.TEXT if chosen else pal.TEXT_DIM,
                    align="center",
                    shadow=pal.OUTLINE,
                )
                y += pitch
        tr = self.machine.tr
        widgets.button(bottom, spots["button:settings"], tr("Settings", "せってい"))
        widgets.button(bottom, spots["button:records"], tr("Records", "きろく"))
        if "button:versus" in spots:
            widgets.button(bottom, spots["button:versus"], tr("Versus", "たいせん"), face=pal.TEAL)
        if "button:play" in spots:
            widgets.button(
                bottom, spots["button:play"], tr("Play ▶", "あそぶ ▶"), face=pal.ACCENT_LO
            )
        if not self.ids:
            text.draw(
                bottom,
                tr("No games installed", "ゲームがありません"),
                (128, 90),
                pal.TEXT_DIM,
                align="center",
            )

    def _draw_top(self, top: pygame.Surface) -> None:
        widgets.background(top)
        tr = self.machine.tr
        if self.selected is None:
            text.draw(top, "TWINFOLD", (128, 80), pal.ACCENT, scale=3, align="center")
            return
        cart = self.machine.cartridges[self.selected]
        big = pygame.transform.scale(self._icon(cart.id), (64, 64))
        panel = pygame.Rect(6, 6, 244, 180)
        widgets.panel(top, panel)
        top.blit(big, (14, 14))
        title = tr(cart.title, cart.title_ja)
        scale = 2 if text.size(title, 2)[0] <= 160 else 1
        text.draw(top, title, (86, 18), pal.ACCENT, scale=scale, shadow=pal.OUTLINE)
        lo, hi = cart.players
        players = f"{lo}" if lo == hi else f"{lo}-{hi}"
        line = tr(f"Players: {players}", f"{players}にん")
        if cart.link_units is not None:
            lo_u, hi_u = cart.link_units
            units = f"{lo_u}" if lo_u == hi_u else f"{lo_u}-{hi_u}"
            line += tr(f"  Link: {units}", f"・つうしん {units}だい")
        text.draw(top, line, (86, 46), pal.TEXT_DIM)
        stats = self._stats(cart.id)
        played = stats.get("played", 0)
        line = tr(f"Played {played}", f"プレイ {played}")
        if played:
            line += tr(f"  Won {stats.get('wins', 0)}", f"  かち {stats.get('wins', 0)}")
            if stats.get("best_score") is not None:
                line += tr(f"  Best {stats['best_score']}", f"  ベスト {stats['best_score']}")
        # Japanese lines are 12 rows (Latin 9): these two start higher, clear of each other
        tall = text.is_tall(line)
        text.draw(top, line, (86, 58 if tall else 62), pal.TEAL, valign="top")
        if cart.id in self.machine.saved:
            saved_badge(top, (86, 72))
            text.draw(
                top,
                tr("A saved game is waiting", "つづきが あります"),
                (100, 71 if tall else 73),
                pal.ACCENT,
                valign="top",
            )
        pygame.draw.line(top, pal.PANEL_HI, (14, 84), (241, 84))
        desc = tr(cart.description, cart.description_ja)
        text.draw_block(top, text.wrap(desc, 226)[:7], (16, 90), pal.TEXT)

    def dump(self) -> dict[str, object]:
        return {
            "selected": self.selected,
            "games": self.ids,
            "page": self.page,
            "saved": sorted(self.machine.saved),
        }
