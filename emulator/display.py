"""The emulator's windows as a HAL `Display` (P-BE-2): both panels, scaled by the GPU.

Each window is a pygame-ce `Window` with an SDL renderer (`pygame._sdl2.video`): the two
256x192 panels are uploaded as textures once per presented frame and the renderer scales
them into the window with nearest-neighbour sampling, so a window of any size costs the
same on the CPU. The window can be resized freely; `emulator.viewport` places the panels
in it (the largest integer scale by default, or the largest fit), with an even bezel.
Fullscreen uses the desktop's resolution. On a high-DPI display the renderer's output has
more pixels than the window has points; the mouse is mapped through that ratio.

`--layout windows` shows each panel in its own window (placed and sized apart); the lower
one takes the stylus, and keys reach the firmware from either.

Emulator-only decorations (the FPS overlay, status messages, the slot picker, the
screenshot flash) are drawn on a layer over the panels, never into them, so screenshots and
the firmware's screens stay untouched.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import pygame
from pygame._sdl2.video import Renderer, Texture

from emulator.layout import Layout, Panel
from emulator.messages import message_lines
from emulator.states import Slot, draw_picker
from emulator.viewport import Mode, Placement, place, place_one, point_to_pixel
from emulator.x11 import window_manager_running
from firmware.gfx import text
from hal.interfaces import SCREEN_H, SCREEN_SIZE, SCREEN_W, Display

BACKDROP = (54, 56, 66)  # the window around and between the panels
HUD_TEXT = (236, 240, 248)
HUD_BACK = (0, 0, 0, 170)
FLASH_FRAMES = 10
SPLIT_GAP = 32  # points between the two windows of the `windows` arrangement
MARGIN = 4  # between a message box and the window's edge

# Panel pixels stay square blocks whatever the size: no filtering when textures scale.
os.environ["SDL_RENDER_SCALE_QUALITY"] = "nearest"


@dataclass
class Screen:
    """One OS window, its renderer, and the panels it shows (one or both)."""

    window: pygame.Window
    renderer: Renderer
    panels: tuple[Panel, ...]
    textures: dict[Panel, Texture] = field(default_factory=dict)
    placement: Placement = field(default_factory=lambda: Placement((1, 1), None, None))

    @classmethod
    def open(cls, title: str, size: tuple[int, int], panels: tuple[Panel, ...]) -> Screen:
        window = pygame.Window(title, size, resizable=True, allow_high_dpi=True)
        renderer = Renderer(window)
        screen = cls(window, renderer, panels)
        for panel in panels:
            screen.textures[panel] = Texture(renderer, SCREEN_SIZE, streaming=True)
        return screen

    def output_size(self) -> tuple[int, int]:
        """The renderer's output in pixels (more than the window's points on high DPI):
        the viewport reset to the whole output, which is what SDL then reports."""
        self.renderer.set_viewport(None)
        viewport = self.renderer.get_viewport()
        return (viewport.w, viewport.h)

    def pixel_of(self, x: float, y: float) -> tuple[int, int]:
        """The output pixel under a mouse position given in window points."""
        return point_to_pixel(x, y, self.window.size, self.output_size())

    def close(self) -> None:
        self.textures.clear()
        self.window.destroy()


class WindowDisplay(Display):
    """The emulator's window(s) showing the two physical panels in a layout."""

    def __init__(
        self,
        layout: Layout,
        title: str = "Twinfold",
        *,
        split: bool = False,
        mode: Mode = "integer",
        fullscreen: bool = False,
    ) -> None:
        self.upper = pygame.Surface(SCREEN_SIZE)
        self.lower = pygame.Surface(SCREEN_SIZE)
        self.presented = 0
        self.blanked = False
        self.hud: list[str] = []  # top-left overlay lines (FPS, frame time)
        self.status: str = ""  # a one-line message along the bottom edge
        self.picker: tuple[list[Slot | str], dict[str, str]] | None = None  # slots shown
        self._flash = 0
        self._title = title
        self.layout = layout
        self.split = split
        self.mode: Mode = mode
        self.fullscreen = fullscreen
        self._windowed: tuple[tuple[int, int], tuple[int, int]] | None = None  # before fullscreen
        self._bare_fullscreen = False  # fullscreen made by hand (an X server without a manager)
        self.screens: list[Screen] = []
        self._open()

    # ---------------------------------------------------------------- window control
    def natural_size(self, panel: Panel | None = None) -> tuple[int, int]:
        """A window's size at the layout's scale (one panel's, for split windows)."""
        if panel is not None:
            return (SCREEN_W * self.layout.scale, SCREEN_H * self.layout.scale)
        return self.layout.geometry().size

    def _open(self) -> None:
        """(Re)create the windows for the current arrangement."""
        for screen in self.screens:
            screen.close()
        self.screens = []
        if self.split:
            for panel in ("upper", "lower"):
                name = "upper screen" if panel == "upper" else "lower screen (stylus)"
                screen = Screen.open(
                    f"{self._title} - {name}", self.natural_size(panel), (panel,)
                )
                self.screens.append(screen)
            self._place_side_by_side()
        else:
            self.screens.append(
                Screen.open(self._title, self.natural_size(), ("upper", "lower"))
            )
        for screen in self.screens:
            minimum = (SCREEN_W // 2, SCREEN_H // 2)
            screen.window.minimum_size = minimum
        if self.fullscreen and not self.split:
            self._enter_fullscreen(self.screens[0].window)
        self.relayout()

    def _place_side_by_side(self) -> None:
        """Split windows start next to each other, the upper one on the left."""
        upper, lower = self.screens
        x, y = upper.window.position
        lower.window.position = (x + upper.window.size[0] + SPLIT_GAP, y)

    def relayout(self) -> None:
        """Place the panels in each window's current size (after any resize)."""
        for screen in self.screens:
            size = screen.output_size()
            if len(screen.panels) == 1:
                screen.placement = place_one(screen.panels[0], size, self.mode)
            else:
                screen.placement = place(self.layout, size, self.mode)

    def set_layout(self, layout: Layout, *, split: bool | None = None) -> None:
        """Switch layout, scale or arrangement. A windowed window takes the new layout's
        natural size; a resized one keeps its size unless the scale changed."""
        split = self.split if split is None else split
        if layout == self.layout and split == self.split:
            return
        scale_changed = layout.scale != self.layout.scale
        kind_changed = (
            layout.kind != self.layout.kind
            or layout.focus != self.layout.focus
            or layout.gap != self.layout.gap  # the natural size grows or shrinks with the gap
        )
        self.layout = layout
        if split != self.split:
            self.split = split
            self._open()
        elif not self.fullscreen and (scale_changed or kind_changed):
            for screen in self.screens:
                one = screen.panels[0] if len(screen.panels) == 1 else None
                screen.window.size = self.natural_size(one)
        self.relayout()
        self.redraw()

    def set_fullscreen(self, on: bool) -> None:
        """Fullscreen at the desktop's resolution (the single window; split windows stay);
        leaving it gives the window back the size and place it had before."""
        if self.split:
            self.fullscreen = on
            return
        if on == self.fullscreen:
            return
        self.fullscreen = on
        window = self.screens[0].window
        if on:
            self._enter_fullscreen(window)
        else:
            self._leave_fullscreen(window)
        self.relayout()
        self.redraw()

    def _enter_fullscreen(self, window: pygame.Window) -> None:
        """The window manager's fullscreen; on an X server without one (where SDL would
        report a fullscreen window that never came: issue 34, item 8), the window is moved
        and sized to cover the screen by the emulator itself."""
        self._windowed = (window.size, window.position)
        if pygame.display.get_driver() == "x11" and not window_manager_running():
            desktop = pygame.display.get_desktop_sizes() or [window.size]
            self._bare_fullscreen = True
            window.position = (0, 0)
            window.size = desktop[0]
        else:
            window.set_fullscreen(desktop=True)

    def _leave_fullscreen(self, window: pygame.Window) -> None:
        size, position = self._windowed or (self.natural_size(), None)
        if not self._bare_fullscreen:
            window.set_windowed()
        self._bare_fullscreen = False
        window.size = size
        if position is not None:
            window.position = position

    def set_mode(self, mode: Mode) -> None:
        self.mode = mode
        self.relayout()
        self.redraw()

    def window_event(self, event: pygame.event.Event) -> None:
        """Follow a window being resized, moved between displays or exposed."""
        if event.type in (pygame.WINDOWSIZECHANGED, pygame.WINDOWRESIZED, pygame.WINDOWEXPOSED):
            self.relayout()
            self.redraw()

    def set_title(self, title: str) -> None:
        if title != self._title:
            self._title = title
            if self.split:
                self.screens[0].window.title = f"{title} - upper screen"
                self.screens[1].window.title = f"{title} - lower screen (stylus)"
            else:
                self.screens[0].window.title = title

    @property
    def title(self) -> str:
        return self._title

    def flash(self) -> None:
        """Start the white flash that confirms a screenshot."""
        self._flash = FLASH_FRAMES

    def close(self) -> None:
        for screen in self.screens:
            screen.close()
        self.screens = []

    # ---------------------------------------------------------------- the stylus
    @property
    def lower_screen(self) -> Screen:
        """The window showing the lower panel."""
        return next(s for s in self.screens if "lower" in s.panels)

    @property
    def geometry(self) -> Placement:
        """Where the lower panel is in its window (pixels)."""
        return self.lower_screen.placement

    def to_lower(
        self, x: float, y: float, window: pygame.Window | None = None
    ) -> tuple[int, int] | None:
        """The lower-panel pixel under mouse position (x, y) in `window`'s points (None:
        the window showing the lower panel); None off the lower panel."""
        screen = self.lower_screen
        if window is not None and window is not screen.window:
            return None
        return screen.placement.to_lower(*screen.pixel_of(x, y))

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
        """Draw panels and decorations into every window and show them."""
        for index, screen in enumerate(self.screens):
            self._compose(screen, decorate=index == 0)
            screen.renderer.present()
        if self._flash > 0:
            self._flash -= 1

    def _compose(self, screen: Screen, *, decorate: bool) -> None:
        renderer = screen.renderer
        renderer.draw_color = (*BACKDROP, 255)
        for bezel in screen.placement.bezel():  # not a full clear: each pixel once
            renderer.fill_rect(bezel.as_tuple())
        for name, rect in screen.placement.panels():
            texture = screen.textures[name]
            texture.update(self.upper if name == "upper" else self.lower)
            texture.draw(dstrect=rect.as_tuple())
        if decorate or self.split:
            layer = self._decorations(screen.output_size(), decorate=decorate)
            if layer is not None:
                overlay = Texture.from_surface(renderer, layer)
                overlay.blend_mode = pygame.BLENDMODE_BLEND
                overlay.draw()

    def _decorations(self, size: tuple[int, int], *, decorate: bool) -> pygame.Surface | None:
        """The overlay layer (None when there is nothing to show on this window)."""
        if not (self._flash or (decorate and (self.hud or self.status or self.picker))):
            return None
        layer = pygame.Surface(size, pygame.SRCALPHA)
        if decorate and self.picker is not None:
            layer.blit(draw_picker(size, *self.picker), (0, 0))
        text_scale = 2 if size[0] >= 2 * SCREEN_W else 1
        room = size[0] - 2 * MARGIN - 4 * text_scale  # a line's width inside its box
        if decorate and self.hud:
            hud = [text.fit(line, room, text_scale) for line in self.hud]
            self._text_box(layer, hud, (MARGIN, MARGIN), text_scale)
        if decorate and self.status:
            lines = self.status_lines(size, text_scale)
            height = self._box_height(lines, text_scale)
            self._text_box(layer, lines, (MARGIN, size[1] - height - MARGIN), text_scale)
        if self._flash > 0:
            layer.fill((255, 255, 255, int(255 * self._flash / FLASH_FRAMES)))
        return layer

    def status_lines(self, size: tuple[int, int], scale: int) -> list[str]:
        """The status message in lines that fit a window of `size` (wrapped; a long path
        shortened in its middle, its file name kept), as many as the window has room for."""
        room = size[0] - 2 * MARGIN - 4 * scale
        line_h = text.LINE_H * scale
        most = max(1, (size[1] - 2 * MARGIN - 3 * scale) // line_h)
        return message_lines(self.status, room, scale, most)

    @staticmethod
    def _box_height(lines: list[str], scale: int) -> int:
        return text.LINE_H * scale * len(lines) + 3 * scale

    @staticmethod
    def _text_box(layer: pygame.Surface, lines: list[str], at: tuple[int, int], scale: int) -> None:
        rendered = [text.render(line, HUD_TEXT, scale) for line in lines]
        width = max(s.get_width() for s in rendered) + 4 * scale
        line_h = text.LINE_H * scale  # (a line of the 5x7 font and its spacing)
        box = pygame.Surface((width, line_h * len(rendered) + 3 * scale), pygame.SRCALPHA)
        box.fill(HUD_BACK)
        for i, surf in enumerate(rendered):
            box.blit(surf, (2 * scale, 2 * scale + i * line_h))
        layer.blit(box, at)

    # -------------------------------------------------------------------- captures
    def screenshot(self) -> pygame.Surface:
        """Both panels at native resolution, upper above lower (256x384), as presented."""
        shot = pygame.Surface((SCREEN_W, 2 * SCREEN_H))
        shot.blit(self.upper, (0, 0))
        shot.blit(self.lower, (0, SCREEN_H))
        return shot

    def window_pixels(self, index: int = 0) -> pygame.Surface:
        """What window `index` shows, read back from its renderer (tests, checks)."""
        screen = self.screens[index]
        flash = self._flash
        self._compose(screen, decorate=index == 0)
        self._flash = flash
        pixels: pygame.Surface = screen.renderer.to_surface()
        return pixels
