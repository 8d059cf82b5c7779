"""Issue 34, item 7: every message the window shows fits in it, at every scale and layout,
at the default window size and at the smallest window: wrapped onto more lines, and a path
shortened in its middle so the clip's or screenshot's file name is always whole."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from emulator.app import App
from emulator.display import WindowDisplay
from emulator.layout import LAYOUTS, Layout
from emulator.messages import ELLIPSIS, message_lines, shown_path
from emulator.states import PICKER_TITLE, draw_picker, picker_header
from firmware.cli import build_parser
from firmware.gfx import text
from tests.emulator.test_app import StepClock, started_before

CLIP = "twinfold-20261128-035125-123.gif"
MESSAGES = [
    f"clip /home/someone-with-a-long-name/.local/share/twinfold/instance-2/clips/{CLIP}",
    f"clip ~/.local/share/twinfold/clips/{CLIP}",
    "screenshot ~/.local/share/twinfold/screenshots/twinfold-20261128-035125-123.png",
    "no rewind during a link match: the other unit cannot rewind with you",
    "no clips during a link match: the history is not kept",
    "loaded state slot 4 (ctrl+z undoes it)",
    "paused (P resumes, N advances one frame)",
    "stop recording first: a movie cannot contain a state load",
]
SMALLEST = (128, 96)  # the window's minimum size


def window_sizes() -> list[tuple[str, tuple[int, int]]]:
    sizes = [("smallest", SMALLEST)]
    for kind in LAYOUTS:
        for scale in range(1, 9):
            sizes.append((f"{kind}-x{scale}", Layout(kind, scale, 8).geometry().size))
    return sizes


def text_scale(size: tuple[int, int]) -> int:
    return 2 if size[0] >= 512 else 1


def drawn_box(layer: pygame.Surface) -> pygame.Rect:
    """Where anything was drawn on the decoration layer."""
    return layer.get_bounding_rect(min_alpha=1)


@pytest.fixture
def display() -> WindowDisplay:
    pygame.display.init()
    shown = WindowDisplay(Layout("vertical", 1, 8))
    yield shown
    shown.close()


@pytest.mark.parametrize("message", MESSAGES)
def test_every_message_fits_every_window(display: WindowDisplay, message: str) -> None:
    display.status = message
    for label, size in window_sizes():
        layer = display._decorations(size, decorate=True)
        assert layer is not None
        box = drawn_box(layer)
        # the box stays inside the window with its margin: no line runs off an edge
        assert box.x >= 1 and box.y >= 1, (label, box)
        assert box.right <= size[0] - 1 and box.bottom <= size[1] - 1, (label, size, box)
        lines = display.status_lines(size, text_scale(size))
        room = size[0] - 8 - 4 * text_scale(size)
        assert all(text.size(line, text_scale(size))[0] <= room for line in lines), label
        shown = " ".join(lines)
        if "/" in message:  # the file name is whole, whatever was shortened
            name = message.rsplit("/", 1)[1]
            assert name in shown or size == SMALLEST, (label, lines)
        elif ELLIPSIS not in shown:  # nothing left out: every word is there
            assert shown == message, (label, lines)


def test_at_the_default_window_size_the_issues_messages_are_whole(tmp_path: Path) -> None:
    store = started_before(tmp_path / "store.db")
    pygame.display.init()
    app = App(build_parser().parse_args(["emu", "--store", str(store)]), clock=StepClock())
    try:
        for scale in (None, *range(1, 9)):  # the window as it opens, then every scale
            if scale is not None:
                app.set_layout(app.display.layout.with_scale(scale))
            size = app.display.screens[0].output_size()
            for message in MESSAGES:
                app.say(message)
                lines = app.display.status_lines(size, text_scale(size))
                if "/" not in message:
                    assert " ".join(lines) == message, (scale, lines)
                else:
                    assert CLIP in " ".join(lines) or "screenshot" in message
    finally:
        app.shutdown()


def test_the_slot_pickers_header_is_whole_at_every_size() -> None:
    pygame.display.init()
    slots: list[object] = ["not a Twinfold state slot: the file is damaged beyond repair"] * 4
    for label, size in window_sizes():
        layer = draw_picker(size, slots, {})  # type: ignore[arg-type]
        scale = 2 if size[0] >= 2 * 256 and size[1] >= 2 * 192 else 1
        header = picker_header(size[0], scale)
        assert " ".join(header) == PICKER_TITLE, label  # nothing left out
        assert all(text.size(line, scale)[0] <= size[0] - 8 * scale for line in header)
        # and the header's text pixels stop short of the window's right edge
        rows = pygame.Rect(0, 0, size[0], 4 * scale + len(header) * 10 * scale)
        lit = [
            x
            for x in range(size[0] - 4 * scale, size[0])
            for y in range(rows.top, rows.bottom)
            if layer.get_at((x, y))[:3] == (236, 240, 248)
        ]
        assert not lit, label


@given(
    st.text(alphabet=st.sampled_from("abc/-. xyz0123456789"), min_size=1, max_size=200),
    st.integers(min_value=20, max_value=900),
    st.integers(min_value=1, max_value=2),
)
def test_message_lines_always_fit_and_keep_the_file_name(
    message: str, width: int, scale: int
) -> None:
    lines = message_lines(message, width, scale)
    assert lines and all(text.size(line, scale)[0] <= width for line in lines)
    last = message.split(" ")[-1]
    name = last.rsplit("/", 1)[-1]
    if "/" in last and name and text.size(ELLIPSIS + "/" + name, scale)[0] <= width:
        assert lines[-1].endswith(name)


def test_shown_path_abbreviates_the_home_folder(tmp_path: Path) -> None:
    inside = Path.home() / ".local" / "share" / "twinfold" / "clips" / CLIP
    assert shown_path(inside) == f"~/.local/share/twinfold/clips/{CLIP}"
    assert shown_path(Path("-")) == "standard output"
