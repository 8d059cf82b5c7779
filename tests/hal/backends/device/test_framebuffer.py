"""`twinfold device --frames N` against ordinary files: the panels hold exactly the frames
`twinfold headless` renders (same game, seed, tick), in both pixel formats, every rotation,
two panels and one; an unchanged frame writes nothing."""

from __future__ import annotations

import struct
from pathlib import Path

import pygame
import pytest

from firmware.cli import main
from hal.backends.device.config import DisplayConfig, PanelConfig
from hal.backends.device.framebuffer import FramebufferDisplay

GAME, SEED, FRAMES = "pop", 7, 12


@pytest.fixture(scope="module")
def headless_frames(tmp_path_factory) -> tuple[list[tuple[int, int, int]], ...]:
    """The reference: what `twinfold headless` shows after FRAMES ticks (top, bottom)."""
    shots = tmp_path_factory.mktemp("shots")
    args = ["headless", "--game", GAME, "--seed", str(SEED), "--frames", str(FRAMES)]
    assert main([*args, "--shots", str(shots)]) == 0
    out = []
    for name in ("top", "bottom"):
        surf = pygame.image.load(str(shots / f"{name}.png"))
        assert surf.get_size() == (256, 192)
        data = pygame.image.tobytes(surf, "RGB")
        out.append([tuple(data[i : i + 3]) for i in range(0, len(data), 3)])
    return tuple(out)


def decode(path: Path, width: int, height: int, bpp: int, stride: int) -> list[list[tuple]]:
    """Read a framebuffer file back into rows of (r, g, b) (independent of the backend)."""
    data = path.read_bytes()
    rows = []
    for y in range(height):
        row = data[y * stride : y * stride + width * bpp // 8]
        if bpp == 16:
            values = struct.unpack(f"<{width}H", row)
            rows.append([((v >> 11) << 3, ((v >> 5) & 63) << 2, (v & 31) << 3) for v in values])
        else:  # XRGB8888, little-endian: B, G, R, X in memory
            rows.append([(row[i + 2], row[i + 1], row[i]) for i in range(0, len(row), 4)])
    return rows


def quantise(rgb: tuple[int, int, int], bpp: int) -> tuple[int, int, int]:
    r, g, b = rgb
    return (r & 0xF8, g & 0xFC, b & 0xF8) if bpp == 16 else (r, g, b)


def logical_point(nx: int, ny: int, lw: int, lh: int, rotate: int) -> tuple[int, int]:
    """Which point of the upright picture lands on native pixel (nx, ny) when the picture is
    turned `rotate` degrees clockwise onto the panel."""
    if rotate == 0:
        return nx, ny
    if rotate == 90:
        return ny, lh - 1 - nx
    if rotate == 180:
        return lw - 1 - nx, lh - 1 - ny
    return lw - 1 - ny, nx


def check_panel(path, native, bpp, stride, rotate, placements) -> None:
    """`placements`: [(screen pixels, x, y)] of the 256x192 screens on the upright picture."""
    width, height = native
    lw, lh = (height, width) if rotate in (90, 270) else (width, height)
    rows = decode(path, width, height, bpp, stride)
    bad = 0
    for ny in range(height):
        row = rows[ny]
        for nx in range(width):
            lx, ly = logical_point(nx, ny, lw, lh, rotate)
            want = (0, 0, 0)
            for pixels, ox, oy in placements:
                if ox <= lx < ox + 256 and oy <= ly < oy + 192:
                    want = quantise(pixels[(ly - oy) * 256 + (lx - ox)], bpp)
            bad += row[nx] != want
    assert bad == 0, f"{bad} pixels differ"


def write_config(tmp_path: Path, body: str) -> Path:
    config = tmp_path / "device.toml"
    config.write_text(
        body
        + f"""
[input]
scan_dir = "{tmp_path / "no-input"}"
[radio]
enabled = false
[system]
data_dir = "{tmp_path / "data"}"
audio = false
model_file = "{tmp_path / "no-model"}"
"""
    )
    return config


def run_device(config: Path) -> None:
    """The unit booted into GAME on a store started before: like headless, no first-start
    language question (a new store asks it first: firmware/scenes/boot.py)."""
    from firmware.settings import Settings
    from firmware.storage import Store

    data = Path(config).parent / "data"
    data.mkdir(exist_ok=True)
    with Store.open(data / "store.db") as store:
        store.set_setting("settings", Settings().to_json())
    args = ["device", "--config", str(config), "--frames", str(FRAMES)]
    assert main([*args, "--game", GAME, "--seed", str(SEED)]) == 0


@pytest.mark.parametrize("bpp", [16, 32])
@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_two_panels_show_the_headless_frames(tmp_path, framebuffer, headless_frames, bpp, rotate):
    top, bottom = headless_frames
    # ILI9341-style panels: 240x320 native, landscape when turned 90 or 270 degrees; at 0 and
    # 180 a 320x240 panel. The lower panel's stride has padding at the end of each row.
    native = (240, 320) if rotate in (90, 270) else (320, 240)
    pad = 64
    upper_dev, upper_sys = framebuffer(tmp_path, "fb0", *native, bpp)
    lower_stride = native[0] * bpp // 8 + pad
    lower_dev, lower_sys = framebuffer(tmp_path, "fb1", *native, bpp, lower_stride)
    config = write_config(
        tmp_path,
        f"""
[display.upper]
device = "{upper_dev}"
sysfs = "{upper_sys}"
rotate = {rotate}
[display.lower]
device = "{lower_dev}"
sysfs = "{lower_sys}"
rotate = {rotate}
""",
    )
    run_device(config)
    # a 320x240 upright picture: the screen centred at (32, 24)
    check_panel(upper_dev, native, bpp, native[0] * bpp // 8, rotate, [(top, 32, 24)])
    check_panel(lower_dev, native, bpp, lower_stride, rotate, [(bottom, 32, 24)])


@pytest.mark.parametrize("bpp", [16, 32])
@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_one_panel_shows_both_screens(tmp_path, framebuffer, headless_frames, bpp, rotate):
    top, bottom = headless_frames
    # A 320x480 panel (ILI9488-style), upright in portrait; both screens stacked, 16 px apart.
    native = (480, 320) if rotate in (90, 270) else (320, 480)
    dev, sysfs = framebuffer(tmp_path, "fb0", *native, bpp)
    config = write_config(
        tmp_path,
        f"""
[display]
mode = "one"
layout = "vertical"
gap = 16
[display.panel]
device = "{dev}"
sysfs = "{sysfs}"
rotate = {rotate}
""",
    )
    run_device(config)
    # 256 x (192 + 16 + 192) centred on 320x480: x 32, y 40; the lower screen at y 248
    check_panel(dev, native, bpp, native[0] * bpp // 8, rotate, [(top, 32, 40), (bottom, 32, 248)])


def make_display(tmp_path, framebuffer, bpp=16, rotate=0):
    dev0, sys0 = framebuffer(tmp_path, "fb0", 320, 240, bpp)
    dev1, sys1 = framebuffer(tmp_path, "fb1", 320, 240, bpp)
    config = DisplayConfig(
        upper=PanelConfig(str(dev0), str(sys0), rotate),
        lower=PanelConfig(str(dev1), str(sys1), rotate),
    )
    return FramebufferDisplay(config), (dev1, sys1)


def screens() -> tuple[pygame.Surface, pygame.Surface]:
    a, b = pygame.Surface((256, 192)), pygame.Surface((256, 192))
    a.fill((200, 30, 40))
    b.fill((10, 120, 250))
    return a, b


@pytest.mark.parametrize("rotate", [0, 90])
def test_a_still_frame_writes_nothing(tmp_path, framebuffer, rotate):
    display, (lower_dev, _) = make_display(tmp_path, framebuffer, rotate=rotate)
    a, b = screens()
    display.present(a, b)
    first = display.last_written
    assert first == 2 * 320 * 240 * 2  # the first frame fills both panels
    before = lower_dev.read_bytes()
    display.present(a, b)
    assert display.last_written == 0 and display.bytes_written == first
    assert lower_dev.read_bytes() == before


def test_only_changed_rows_are_written(tmp_path, framebuffer):
    display, (lower_dev, _) = make_display(tmp_path, framebuffer)
    a, b = screens()
    display.present(a, b)
    b.set_at((5, 100), (255, 255, 255))
    b.set_at((6, 101), (255, 255, 255))
    display.present(a, b)
    assert display.last_written == 2 * 320 * 2  # two rows of the lower panel, nothing else
    data = lower_dev.read_bytes()
    y, x = 24 + 100, 32 + 5
    assert data[(y * 320 + x) * 2 : (y * 320 + x) * 2 + 2] == b"\xff\xff"


def test_blank_darkens_the_panels_and_switches_them_off(tmp_path, framebuffer):
    display, (lower_dev, lower_sys) = make_display(tmp_path, framebuffer)
    a, b = screens()
    display.present(a, b)
    display.blank()
    assert set(lower_dev.read_bytes()) == {0}
    assert (lower_sys / "blank").read_text().strip() == "4"
    display.present(a, b)
    assert (lower_sys / "blank").read_text().strip() == "0"


def test_a_backlight_device_is_used_when_configured(tmp_path, framebuffer):
    dev, sysfs = framebuffer(tmp_path, "fb0", 320, 240, 16)
    light = tmp_path / "backlight"
    light.mkdir()
    (light / "bl_power").write_text("0\n")
    config = DisplayConfig(mode="one", panel=PanelConfig(str(dev), str(sysfs), 0, str(light)))
    display = FramebufferDisplay(config)
    display.blank()
    assert (light / "bl_power").read_text().strip() == "4"
    assert (sysfs / "blank").read_text().strip() == "0"  # the fb itself is left alone


def test_a_missing_panel_is_skipped_and_found_later(tmp_path, framebuffer):
    now = [0.0]
    config = DisplayConfig(
        upper=PanelConfig(str(tmp_path / "fb0"), str(tmp_path / "sys" / "fb0")),
        lower=PanelConfig(str(tmp_path / "fb1"), str(tmp_path / "sys" / "fb1")),
    )
    display = FramebufferDisplay(config, clock=lambda: now[0])
    a, b = screens()
    display.present(a, b)  # nothing there: no error
    assert display.last_written == 0
    framebuffer(tmp_path, "fb0", 320, 240, 16)
    now[0] = 1.0
    display.present(a, b)
    assert display.last_written == 0  # not looked for again yet
    now[0] = 2.5
    display.present(a, b)
    assert display.last_written == 320 * 240 * 2


def test_unsupported_pixel_format_is_reported(tmp_path, framebuffer, caplog):
    dev, sysfs = framebuffer(tmp_path, "fb0", 320, 240, 24)
    display = FramebufferDisplay(DisplayConfig(mode="one", panel=PanelConfig(str(dev), str(sysfs))))
    assert display.panels["panel"] is None
    assert "24 bits per pixel" in caplog.text


def test_the_visible_mode_wins_over_a_taller_virtual_size(tmp_path, framebuffer):
    dev, sysfs = framebuffer(tmp_path, "fb0", 320, 480, 16)  # double-height for panning
    (sysfs / "stride").write_text("640\n")
    (sysfs / "modes").write_text("U:320x240p-0\n")
    display = FramebufferDisplay(DisplayConfig(mode="one", panel=PanelConfig(str(dev), str(sysfs))))
    panel = display.panels["panel"]
    assert panel is not None and panel.info.height == 240 and panel.logical_size == (320, 240)
    assert dev.stat().st_size == 640 * 240
