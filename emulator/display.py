"""The emulator window as a HAL `Display` (P-BE-2): both panels, crisp integer scaling.

`present` keeps a native-resolution copy of each physical panel and redraws the window:
every panel pixel becomes an exact `scale` x `scale` block (nearest neighbour, no filtering),
placed where the `Layout` says. Emulator-only decorations (the FPS overlay, status messages,
the screenshot flash) are drawn onto the window, never into the panels, so screenshots and
the firmware's screens stay untouched.
"""

from __future__ import annotations

import pygame

from emulator.layout import Geometry, Layout
from emulator.states import Slot, draw_picker
from firmware.gfx import text
from hal.interfaces import SCREEN_H, SCREEN_SIZE, SCREEN_W, Display

BACKDROP = (54, 56, 66)  # the window around and between the panels
HUD_TEXT = (236, 240, 248)
HUD_BACK = (0, 0, 0, 170)
FLASH_FRAMES = 10


class WindowDisplay(Display):
    """A real pygame window showing the two physical panels in a layout."""

    def __init__(self, layout: Layout, title: str = "Twinfold") -> None:
        self.upper = pygame.Surface(SCREEN_SIZE)
        self.lower = pygame.Surface(SCREEN_SIZE)
        self.presented = 0
        self.blanked = False
        self.hud: list[str] = []  # top-left overlay lines (FPS, frame time)
        self.status: str = ""  # a one-line message along the bottom edge
        self.picker: tuple[list[Slot | str], dict[str, str]] | None = None  # slots shown
        self._flash = 0
        self._title = ""
        self.layout = layout
        self.geometry: Geometry = layout.geometry()
        self._targets: dict[str, pygame.Surface] = {}
        self._backdrop_stale = True
        self.window = self._open(self.geometry)
        self.set_title(title)

    # ---------------------------------------------------------------- window control
    def _open(self, geometry: Geometry) -> pygame.Surface:
        window = pygame.display.set_mode(geometry.size)
        self._place(window, geometry)
        return window

    def _place(self, window: pygame.Surface, geometry: Geometry) -> None:
        """Panel copies in the window's pixel format, and the window areas they scale into."""
        self.upper = self.upper.convert(window)
        self.lower = self.lower.convert(window)
        self._targets = {
            name: window.subsurface(rect.as_tuple()) for name, rect in geometry.panels()
        }
        self._backdrop_stale = True

    def set_layout(self, layout: Layout) -> None:
        """Switch layout or scale; the window is resized to fit exactly."""
        if layout == self.layout:
            return
        old_size = self.geometry.size
        self.layout = layout
        self.geometry = layout.geometry()
        if self.geometry.size != old_size:
            self.window = self._open(self.geometry)
        else:
            self._place(self.window, self.geometry)
        self.redraw()

    def set_title(self, title: str) -> None:
        if title != self._title:
            self._title = title
            pygame.display.set_caption(title)

    @property
    def title(self) -> str:
        return self._title

    def flash(self) -> None:
        """Start the white flash that confirms a screenshot."""
        self._flash = FLASH_FRAMES

    # --------------------------------------------------------------------- Display
    def present(self, upper: pygame.Surface, lower: pygame.Surface) -> None:
        self.upper.blit(upper, (0, 0))
        self.lower.blit(lower, (0, 0))
        self.presented += 1
        self.blanked = False
        self.redraw()

    def blank(self) -> None:
        self.upper.fill((0, 0, 0))
        self.lower.fill((0, 0, 0))
        self.blanked = True
        self.redraw()

    # ---------------------------------------------------------------------- drawing
    def redraw(self) -> None:
        """Compose panels, overlay and flash into the window and show it."""
        window = self.window
        decorated = bool(self.hud or self.status or self._flash or self.picker)
        if self._backdrop_stale or decorated:  # the bezel only needs repainting after these
            window.fill(BACKDROP)
        self._backdrop_stale = decorated
        for name, rect in self.geometry.panels():
            source = self.upper if name == "upper" else self.lower
            if rect.scale == 1:
                window.blit(source, (rect.x, rect.y))
            else:  # nearest neighbour, straight into the window
                pygame.transform.scale(source, (rect.w, rect.h), self._targets[name])
        if self.picker is not None:
            window.blit(draw_picker(window.get_size(), *self.picker), (0, 0))
        text_scale = 2 if window.get_width() >= 2 * SCREEN_W else 1
        if self.hud:
            self._text_box(self.hud, (4, 4), text_scale)
        if self.status:
            line_h = text.size("M", text_scale)[1]
            self._text_box([self.status], (4, window.get_height() - line_h - 8), text_scale)
        if self._flash > 0:
            white = pygame.Surface(window.get_size())
            white.fill((255, 255, 255))
            white.set_alpha(int(255 * self._flash / FLASH_FRAMES))
            window.blit(white, (0, 0))
            self._flash -= 1
        pygame.display.flip()

    def _text_box(self, lines: list[str], at: tuple[int, int], scale: int) -> None:
        rendered = [text.render(line, HUD_TEXT, scale) for line in lines]
        width = max(s.get_width() for s in rendered) + 4 * scale
        line_h = max(s.get_height() for s in rendered) + scale
        box = pygame.Surface((width, line_h * len(rendered) + 3 * scale), pygame.SRCALPHA)
        box.fill(HUD_BACK)
        for i, surf in enumerate(rendered):
            box.blit(surf, (2 * scale, 2 * scale + i * line_h))
        self.window.blit(box, at)

    # -------------------------------------------------------------------- captures
    def screenshot(self) -> pygame.Surface:
        """Both panels at native resolution, upper above lower (256x384), as presented."""
        shot = pygame.Surface((SCREEN_W, 2 * SCREEN_H))
        shot.blit(self.upper, (0, 0))
        shot.blit(self.lower, (0, SCREEN_H))
        return shot
