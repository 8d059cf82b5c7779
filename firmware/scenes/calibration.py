"""Touch calibration (P-FW-2, P-HW-2): five targets, a least-squares affine fit, stored.

Each target is held until the raw readings settle; their average is the sample. After the
fifth the fit is shown with its residual error; the player keeps it or tries again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from firmware.gfx import palette as pal
from firmware.gfx import text, widgets
from firmware.input import InputState
from firmware.scene import Scene
from hal.interfaces import Button
from hal.touch import Calibration, CalibrationError, TargetSampler

if TYPE_CHECKING:
    from firmware.scene import Host

TARGETS = ((24, 24), (232, 24), (232, 168), (24, 168), (128, 96))


class CalibrationScene(Scene):
    """Hotspot-free on purpose while collecting: the raw stylus is what is being measured."""

    name = "calibration"
    uses_dpad = True

    def __init__(self, machine: Host) -> None:
        super().__init__(machine)
        self._start_over()

    def _start_over(self) -> None:
        """Forget every sample and fit: a fresh run over the five targets (also "retry")."""
        self.pairs: list[tuple[float, float, float, float]] = []
        self.sampler = TargetSampler(self.machine.touch_profile)
        self.result: Calibration | None = None
        self.error: str | None = None
        self.residual = 0.0
        self.t = 0
        self._armed = False  # a stroke already under way when the scene opened is ignored
        self._held = False

    @property
    def index(self) -> int:
        return len(self.pairs)

    def hotspots(self) -> dict[str, pygame.Rect]:
        if self.result is None and self.error is None:
            return {}
        spots = {"button:retry": pygame.Rect(20, 150, 100, 28)}
        if self.result is not None:
            spots["button:save"] = pygame.Rect(136, 150, 100, 28)
        return spots

    def update(self, inp: InputState) -> None:
        self.t += 1
        if Button.B in inp.pressed:
            self.machine.pop()
            return
        if self.result is not None or self.error is not None:
            self._review(inp)
            return
        raw = inp.raw_touch
        if not self._armed:
            self._armed = raw is None
            return
        self._held = raw is not None
        point = self.sampler.feed(raw)
        if point is not None:
            self._take_target(*point)

    def _take_target(self, rx: float, ry: float) -> None:
        """The median raw position of one tap becomes the sample for the current target."""
        tx, ty = TARGETS[self.index]
        self.pairs.append((rx, ry, tx, ty))
        self.machine.play("select")
        if self.index == len(TARGETS):
            self._fit()

    def _fit(self) -> None:
        try:
            self.result = Calibration.fit(self.pairs)
        except CalibrationError as exc:
            self.error = str(exc)
            return
        self.residual = max(self.result.residuals(self.pairs))

    def _review(self, inp: InputState) -> None:
        from firmware.scene import hit

        name = hit(self.hotspots(), inp)
        if name == "button:retry" or (Button.X in inp.pressed):
            self._start_over()
        elif name == "button:save" or (Button.A in inp.pressed and self.result is not None):
            assert self.result is not None
            self.machine.set_calibration(self.result)
            self.machine.pop()

    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None:
        tr = self.machine.tr
        widgets.background(top)
        widgets.panel(top, pygame.Rect(8, 8, 240, 176))
        text.draw(
            top,
            tr("Touch calibration", "タッチのちょうせい"),
            (128, 20),
            pal.ACCENT,
            scale=2 if self.machine.settings.language == "en" else 1,
            align="center",
        )
        bottom.fill((230, 232, 238))
        if self.result is None and self.error is None:
            lines = [
                tr(
                    f"Touch the centre of target {self.index + 1} of {len(TARGETS)}",
                    f"まとの まんなかを タッチ ({self.index + 1}/{len(TARGETS)})",
                ),
                tr("and lift the stylus.", ""),
                "",
                tr("B: cancel", "B: やめる"),
            ]
            self._draw_target(bottom, TARGETS[self.index], self._held)
            for done in TARGETS[: self.index]:
                pygame.draw.circle(bottom, pal.OK, done, 3)
        else:
            if self.result is not None:
                lines = [
                    tr("Fit complete.", "ちょうせいできました。"),
                    tr(
                        f"Largest error: {self.residual:.2f} px",
                        f"さいだいのずれ: {self.residual:.2f} px",
                    ),
                    tr("Save keeps it; Retry starts over.", ""),
                ]
            else:
                lines = [
                    tr("The targets did not give a usable fit:", "しっぱいしました:"),
                    self.error or "",
                    tr("Please try again.", "もういちど。"),
                ]
            for rx, ry, tx, ty in self.pairs:
                pygame.draw.circle(bottom, pal.TEXT_DIM, (tx, ty), 6, 1)
                if self.result is not None:
                    x, y = self.result.apply(rx, ry)
                    pygame.draw.circle(bottom, pal.OK, (round(x), round(y)), 2)
            spots = self.hotspots()
            widgets.button(bottom, spots["button:retry"], tr("Retry", "やりなおす"))
            if "button:save" in spots:
                widgets.button(bottom, spots["button:save"], tr("Save", "ほぞん"), face=pal.OK)
        rows = [row for line in lines for row in text.wrap(line, 220)]
        text.draw_block(top, rows, (128, 56), pal.TEXT, align="center", minimum=12)

    def _draw_target(self, surf: pygame.Surface, pos: tuple[int, int], held: bool) -> None:
        x, y = pos
        color = pal.DANGER if held else (40, 44, 60)
        r = 9 + (self.t // 10) % 2
        pygame.draw.circle(surf, color, pos, r, 1)
        pygame.draw.circle(surf, color, pos, 3, 1)
        pygame.draw.line(surf, color, (x - 14, y), (x + 14, y))
        pygame.draw.line(surf, color, (x, y - 14), (x, y + 14))

    def dump(self) -> dict[str, object]:
        return {
            "target": self.index,
            "residual": round(self.residual, 3),
            "done": self.result is not None,
            "error": self.error,
        }
