"""Framebuffer panels (P-BE-3): `/dev/fbN` devices written through mmap.

Each physical panel is a Linux framebuffer whose geometry and pixel format come from its
sysfs directory (`virtual_size`, `bits_per_pixel`, `stride`; `modes` when the driver
allocates more lines than it shows). A frame is composed on a
"canvas" of the panel's size as mounted (its rotation undone), in the panel's own pixel
format, so SDL converts to RGB565 or XRGB8888 in C while blitting; the canvas is turned to the
panel's native orientation and only the rows that differ from the previous frame are copied
into the mapping. A still screen therefore costs no writes at all, which matters on SPI
panels whose driver (DRM's fbdev emulation, deferred I/O) sends every touched page.

Two layouts: two panels (one framebuffer each, the 256x192 screen centred at the largest
whole scale that fits), or one panel showing both screens placed by `hal.layout` (the
emulator's layouts). Paths are configuration, so the whole backend runs unchanged against
ordinary files with a sysfs-like directory beside them (tests, benchmarks).
"""

from __future__ import annotations

import logging
import mmap
import os
import re
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame

from hal.backends.device.config import DisplayConfig, PanelConfig
from hal.interfaces import SCREEN_H, SCREEN_W, Display
from hal.layout import Layout, LayoutError, fit_scale

log = logging.getLogger("twinfold")

RETRY_SECONDS = 2.0  # how often a missing panel is looked for again
# (bits per pixel) -> the SDL surface masks of the framebuffer's pixel format
FORMATS: dict[int, tuple[str, tuple[int, int, int, int]]] = {
    16: ("RGB565", (0xF800, 0x07E0, 0x001F, 0)),
    32: ("XRGB8888", (0xFF0000, 0x00FF00, 0x0000FF, 0)),
}


class PanelError(Exception):
    """A framebuffer that cannot be used (missing, unreadable sysfs, unsupported format)."""


@dataclass(frozen=True, slots=True)
class FbInfo:
    """What sysfs says about one framebuffer."""

    width: int
    height: int
    bpp: int
    stride: int

    @property
    def size(self) -> int:
        return self.stride * self.height

    @property
    def format_name(self) -> str:
        return FORMATS[self.bpp][0]


def sysfs_dir(panel: PanelConfig) -> Path:
    """The panel's sysfs directory: configured, or the one of the device its path names."""
    if panel.sysfs:
        return Path(panel.sysfs)
    return Path("/sys/class/graphics") / Path(os.path.realpath(panel.device)).name


def read_info(directory: Path) -> FbInfo:
    """Geometry and pixel format from a framebuffer's sysfs directory."""

    def read(name: str) -> str:
        try:
            return (directory / name).read_text().strip()
        except OSError as exc:
            raise PanelError(f"cannot read {directory / name}: {exc.strerror or exc}") from None

    try:
        w_text, _, h_text = read("virtual_size").partition(",")
        width, height = int(w_text), int(h_text)
        bpp = int(read("bits_per_pixel"))
    except ValueError:
        raise PanelError(f"{directory}: virtual_size / bits_per_pixel are not numbers") from None
    if bpp not in FORMATS:
        raise PanelError(f"{directory}: {bpp} bits per pixel (supported: 16 RGB565, 32 XRGB8888)")
    if not (0 < width <= 8192 and 0 < height <= 8192):
        raise PanelError(f"{directory}: implausible size {width}x{height}")
    # A driver may allocate more lines than the panel shows (yres_virtual for panning): the
    # first video mode, when sysfs lists one, is the visible part.
    if (directory / "modes").exists():
        found = re.search(r"(\d+)x(\d+)", read("modes"))
        if found and 0 < int(found[1]) <= width and 0 < int(found[2]) <= height:
            width, height = int(found[1]), int(found[2])
    stride = width * bpp // 8
    if (directory / "stride").exists():
        try:
            stride = int(read("stride"))
        except ValueError:
            raise PanelError(f"{directory}/stride is not a number") from None
    if stride < width * bpp // 8:
        raise PanelError(f"{directory}: stride {stride} is shorter than a row")
    return FbInfo(width, height, bpp, stride)


class Panel:
    """One framebuffer: its mapping, the canvas to draw on, and the last frame written."""

    def __init__(self, config: PanelConfig) -> None:
        self.config = config
        self.sysfs = sysfs_dir(config)
        self.info = read_info(self.sysfs)
        info = self.info
        try:
            fd = os.open(config.device, os.O_RDWR)
        except OSError as exc:
            raise PanelError(f"cannot open {config.device}: {exc.strerror or exc}") from None
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode) and os.fstat(fd).st_size < info.size:
                os.ftruncate(fd, info.size)  # a stand-in file: make it as large as the panel
            self.map = mmap.mmap(fd, info.size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        except (OSError, ValueError) as exc:
            raise PanelError(f"cannot map {config.device}: {exc}") from None
        finally:
            os.close(fd)
        _, masks = FORMATS[info.bpp]
        turned = config.rotate in (90, 270)
        logical = (info.height, info.width) if turned else (info.width, info.height)
        # The canvas is in the framebuffer's own format: blitting into it converts in C.
        self.canvas = pygame.Surface(logical, 0, info.bpp, masks)
        self.canvas.fill((0, 0, 0))
        self.row_bytes = info.width * info.bpp // 8
        self.previous: bytes | None = None
        self.source: tuple[bytes, ...] | None = None  # the screens the canvas was drawn from
        self.bytes_written = 0
        self.backlight_on: bool | None = None

    @property
    def logical_size(self) -> tuple[int, int]:
        return self.canvas.get_size()

    def new_source(self, *screens: pygame.Surface) -> bool:
        """Whether these screens differ from the ones last drawn (a still frame skips the
        conversion as well as the writes)."""
        key = tuple(screen.get_buffer().raw for screen in screens)
        if key == self.source:
            return False
        self.source = key
        return True

    def flush(self) -> int:
        """Write the canvas's changed rows to the framebuffer; returns the bytes written."""
        native = self.canvas
        if self.config.rotate:
            native = pygame.transform.rotate(self.canvas, -self.config.rotate)
        data = native.get_buffer().raw
        previous = self.previous
        if data == previous:
            return 0
        pitch, rb, stride, mm = native.get_pitch(), self.row_bytes, self.info.stride, self.map
        height = self.info.height
        written = 0
        y = 0
        while y < height:
            start = y * pitch
            if previous is not None and data[start : start + rb] == previous[start : start + rb]:
                y += 1
                continue
            first = y  # a run of changed rows: one copy when the row layouts agree
            y += 1
            while y < height and (
                previous is None
                or data[y * pitch : y * pitch + rb] != previous[y * pitch : y * pitch + rb]
            ):
                y += 1
            if pitch == stride:
                mm[first * stride : y * stride] = data[first * pitch : y * pitch]
                written += (y - first) * stride
            else:
                for row in range(first, y):
                    mm[row * stride : row * stride + rb] = data[row * pitch : row * pitch + rb]
                    written += rb
        self.previous = data
        self.bytes_written += written
        return written

    def set_backlight(self, on: bool) -> None:
        """Light or darken the panel: its backlight device if configured, else fb blanking."""
        if self.backlight_on == on:
            return
        self.backlight_on = on
        if self.config.backlight:
            target, value = Path(self.config.backlight) / "bl_power", "0" if on else "4"
        else:
            target, value = self.sysfs / "blank", "0" if on else "4"
        if not target.exists():
            return  # a panel without a switchable light
        try:
            target.write_text(value + "\n")
        except OSError as exc:
            log.warning("display: cannot switch %s: %s", target, exc)

    def close(self) -> None:
        self.map.close()


def centred_scale(logical: tuple[int, int], size: tuple[int, int]) -> int:
    """The largest whole scale at which `size` fits inside `logical` (at least 1)."""
    return max(1, min(logical[0] // size[0], logical[1] // size[1]))


class FramebufferDisplay(Display):
    """The device's panels as the HAL `Display`."""

    def __init__(
        self, config: DisplayConfig, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.config = config
        self._now = clock
        names = ("panel",) if config.mode == "one" else ("upper", "lower")
        self.panels: dict[str, Panel | None] = {name: None for name in names}
        self._next_try: dict[str, float] = {name: 0.0 for name in names}
        self._said: dict[str, str] = {}
        self.presented = 0
        self.blanked = False
        self.last_written = 0
        for name in names:
            self._open(name)

    @property
    def bytes_written(self) -> int:
        return sum(p.bytes_written for p in self.panels.values() if p is not None)

    def _open(self, name: str) -> Panel | None:
        """Open a panel that is not open yet (retried every few seconds while it is missing)."""
        panel = self.panels[name]
        if panel is not None:
            return panel
        now = float(self._now())
        if now < self._next_try[name]:
            return None
        self._next_try[name] = now + RETRY_SECONDS
        config: PanelConfig = getattr(self.config, name)
        try:
            panel = Panel(config)
        except PanelError as exc:
            if self._said.get(name) != str(exc):
                self._said[name] = str(exc)
                log.warning("display: %s panel unavailable: %s", name, exc)
            return None
        self._said.pop(name, None)
        info = panel.info
        log.info(
            "display: %s panel %s %dx%d %s rotate %d",
            name, config.device, info.width, info.height, info.format_name, config.rotate,
        )  # fmt: skip
        self.panels[name] = panel
        return panel

    def _one_panel_layout(self, logical: tuple[int, int]) -> Layout:
        cfg = self.config
        kind = cfg.layout
        gap = cfg.gap
        try:
            scale = cfg.scale or fit_scale(kind, gap, logical)
            return Layout(kind, scale, gap)
        except LayoutError as exc:
            log.warning("display: %s; using the vertical layout at scale 1", exc)
            return Layout("vertical", 1, 0)

    def present(self, upper: pygame.Surface, lower: pygame.Surface) -> None:
        self.presented += 1
        self.blanked = False
        written = 0
        if self.config.mode == "one":
            panel = self._open("panel")
            if panel is not None and not panel.new_source(upper, lower):
                panel.set_backlight(True)
            elif panel is not None:
                geometry = self._one_panel_layout(panel.logical_size).geometry()
                ox = (panel.logical_size[0] - geometry.size[0]) // 2
                oy = (panel.logical_size[1] - geometry.size[1]) // 2
                for which, rect in geometry.panels():
                    source = upper if which == "upper" else lower
                    _place(panel.canvas, source, (ox + rect.x, oy + rect.y), rect.scale)
                panel.set_backlight(True)
                written += panel.flush()
        else:
            for name, source in (("upper", upper), ("lower", lower)):
                panel = self._open(name)
                if panel is None or not panel.new_source(source):
                    if panel is not None:
                        panel.set_backlight(True)
                    continue
                lw, lh = panel.logical_size
                scale = centred_scale((lw, lh), (SCREEN_W, SCREEN_H))
                at = ((lw - SCREEN_W * scale) // 2, (lh - SCREEN_H * scale) // 2)
                _place(panel.canvas, source, at, scale)
                panel.set_backlight(True)
                written += panel.flush()
        self.last_written = written

    def blank(self) -> None:
        """Lid closed or asleep: the panels go black and their lights off."""
        written = 0
        for name in self.panels:
            panel = self._open(name)
            if panel is None:
                continue
            panel.canvas.fill((0, 0, 0))
            panel.source = None
            written += panel.flush()
            panel.set_backlight(False)
        self.blanked = True
        self.last_written = written

    def close(self) -> None:
        for panel in self.panels.values():
            if panel is not None:
                panel.close()


def _place(canvas: pygame.Surface, source: pygame.Surface, at: tuple[int, int], scale: int) -> None:
    if scale == 1:
        canvas.blit(source, at)
    else:
        w, h = source.get_size()
        canvas.blit(pygame.transform.scale(source, (w * scale, h * scale)), at)
