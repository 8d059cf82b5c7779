"""Boot: the hinge opens and the logo shines; then any notice, a resume offer or the launcher."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.scene import Scene

if TYPE_CHECKING:
    from firmware.scene import Host

BOOT_TICKS = 90


def left_out_notice(count: int) -> tuple[str, str]:
    """What the player is told of games that could not be loaded (English, Japanese): how
    many; which and why are in the log (a game's own name may have no Japanese)."""
    if count == 1:
        return ("One game could not be loaded and is left out. The log says why.",
                "よみこめない ゲームが 1つ あり、はずしました。りゆうは ログに あります。")
    return (f"{count} games could not be loaded and are left out. The log says why.",
            f"よみこめない ゲームが {count}つ あり、はずしました。りゆうは ログに あります。")


def draw_logo(surface: pygame.Surface, center: tuple[int, int], phase: float) -> None:
    """The Twinfold mark: two panels on a hinge, opened by `phase` (0 closed .. 1 open)."""
    cx, cy = center
    w, h = 44, 30
    lower = pygame.Rect(cx - w // 2, cy + 2, w, h)
    widgets.bevel_rect(surface, lower, (70, 80, 120))
    pygame.draw.rect(surface, pal.TEAL, lower.inflate(-10, -10))
    open_h = max(2, int(h * phase))
    upper = pygame.Rect(cx - w // 2, cy - 2 - open_h, w, open_h)
    widgets.bevel_rect(surface, upper, (70, 80, 120))
    if open_h > 10:
        pygame.draw.rect(surface, pal.ACCENT, upper.inflate(-10, -10))
    pygame.draw.rect(surface, pal.OUTLINE, (cx - w // 2 + 4, cy - 2, w - 8, 4))
    pygame.draw.line(surface, pal.TEXT_DIM, (cx - w // 2 + 5, cy), (cx + w // 2 - 6, cy))


class BootScene(Scene):
    name = "boot"

    def __init__(self, machine: Host) -> None:
        super().__init__(machine)
        self.t = 0

    def update(self, inp: InputState) -> None:
        self.t += 1
        if self.t >= BOOT_TICKS or inp.pressed or inp.touch_down:
            self.finish()

    def finish(self) -> None:
        from firmware.scenes.language import LanguageScene

        if self.machine.ask_language:  # a first start: the language before anything else
            self.machine.ask_language = False
            self.machine.replace(LanguageScene(self.machine, self.open_launcher))
            return
        self.open_launcher()

    def open_launcher(self) -> None:
        """The launcher, then any resume offer and notice, on top of this scene's place."""
        from firmware.scenes.launcher import LauncherScene
        from firmware.scenes.prompts import NoticeScene, ResumeScene

        self.machine.replace(LauncherScene(self.machine))
        suspended = self.machine.store.load_suspend()
        if suspended is not None and suspended.game_id in self.machine.cartridges:
            meta = suspended.meta if isinstance(suspended.meta, dict) else {}
            state = suspended.state if isinstance(suspended.state, dict) else {}
            self.machine.push(ResumeScene(self.machine, suspended.game_id, state, meta))
        notice = self.machine.notice
        if notice is not None:
            self.machine.push(NoticeScene(self.machine, notice.en, ja=notice.ja))
        if self.machine.left_out:
            en, ja = left_out_notice(self.machine.left_out)
            self.machine.push(NoticeScene(self.machine, en, ja=ja))
            self.machine.left_out = 0  # said once

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        phase = min(1.0, self.t / 40)
        eased = 1 - (1 - phase) ** 3
        top.fill(pal.BG)
        bottom.fill(pal.BG)
        draw_logo(top, (128, 84), eased)
        if self.t > 30:
            img = text.render("TWINFOLD", pal.ACCENT, 3)
            x, y = 128 - img.get_width() // 2, 132
            top.blit(text.render("TWINFOLD", pal.OUTLINE, 3), (x + 2, y + 2))
            top.blit(img, (x, y))
            band_x = x - 20 + (self.t - 30) * 5
            band = pygame.Rect(band_x, y, 12, img.get_height())
            clip = top.get_clip()
            top.set_clip(band)
            top.blit(text.render("TWINFOLD", pal.WHITE, 3), (x, y))
            top.set_clip(clip)
        widgets.background(bottom)
        alpha = int(127 + 120 * math.sin(self.t / 8))
        label = text.render(self.machine.tr("Touch the screen", "がめんにタッチ"), pal.TEXT_DIM)
        label.set_alpha(alpha)
        bottom.blit(label, (128 - label.get_width() // 2, 120))
        text.draw(bottom, "v0.1", (250, 180), pal.TEXT_DIM, align="right")


def open_boot_game(machine: Host, game_id: str, options: dict[str, str]) -> None:
    """Boot straight into a game (`--game`, the handheld config's boot game), over the
    launcher, as a person starting it there would meet it (issue 34, item 10): a first
    start asks the language first (when the unit asks it at all), and a saved game of it
    waiting is offered with Continue / New game (when `machine.offer_resume`) instead of a
    fresh game that could not be saved beside it. New game asks before discarding it, then
    starts with `options`; Back leaves the choice in the launcher."""
    from firmware.scenes.language import LanguageScene
    from firmware.scenes.prompts import ResumeScene

    machine.cartridges[game_id].resolve_options(dict(options))  # a bad option: now, not later

    def start() -> None:
        saved = None
        if machine.offer_resume and game_id in machine.saved:
            saved = machine.store.load_suspend(game_id)
        if saved is None:
            machine.start_game(game_id, dict(options))
            return
        meta = saved.meta if isinstance(saved.meta, dict) else {}
        state = saved.state if isinstance(saved.state, dict) else {}
        machine.push(
            ResumeScene(
                machine,
                game_id,
                state,
                meta,
                at_boot=False,
                new_game=lambda: machine.start_game(game_id, dict(options)),
            )
        )

    if machine.ask_language:
        machine.ask_language = False

        def chosen() -> None:
            machine.pop()  # the language screen; the launcher is under it
            start()

        machine.push(LanguageScene(machine, chosen))
        return
    start()
