"""State slots on disk, with what a person needs to choose one: a thumbnail and the time.

A slot file (`states/slot-N.json`) holds the machine's `snapshot()` (the running game), the
tick, when it was saved and a half-size PNG of both screens (base64), written atomically.
`SlotPicker` draws the four slots as a small overlay so a person sees what a slot holds
before loading it.
"""

from __future__ import annotations

import base64
import datetime as dt
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from emulator.messages import message_lines
from firmware.gfx import text
from hal.interfaces import SCREEN_H, SCREEN_W

STATE_FORMAT = "twinfold-state-1"
STATE_SLOTS = 4
THUMB_SIZE = (SCREEN_W // 2, SCREEN_H)  # both screens at half size, upper above lower

PICKER_BACK = (16, 18, 26, 230)
PICKER_CELL = (44, 48, 62)
PICKER_TEXT = (236, 240, 248)
PICKER_DIM = (150, 156, 170)
PICKER_TITLE = "State slots: F1..F4 load, Shift+F1..F4 save"


class SlotError(ValueError):
    """A slot that cannot be read or used (the message says why)."""


def thumbnail(top: pygame.Surface, bottom: pygame.Surface) -> pygame.Surface:
    """Both logical screens at half size, top above bottom."""
    thumb = pygame.Surface(THUMB_SIZE)
    half = (SCREEN_W // 2, SCREEN_H // 2)
    thumb.blit(
        pygame.transform.smoothscale(top.convert(24) if top.get_bitsize() < 24 else top, half),
        (0, 0),
    )
    thumb.blit(
        pygame.transform.smoothscale(
            bottom.convert(24) if bottom.get_bitsize() < 24 else bottom, half
        ),
        (0, half[1]),
    )
    return thumb


def _png(surface: pygame.Surface) -> str:
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, "png")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


@dataclass
class Slot:
    """What a slot file says (no file: `empty`)."""

    number: int
    empty: bool = True
    game: str = ""
    tick: int = 0
    saved_at: str = ""  # local time, ISO format to the second
    thumb: pygame.Surface | None = None
    snapshot: dict[str, Any] | None = None


def write_slot(path: Path, snapshot: dict[str, Any], tick: int, thumb: pygame.Surface) -> None:
    """Write a slot atomically (a failure leaves the old slot as it was)."""
    data = {
        "format": STATE_FORMAT,
        "tick": tick,
        "saved_at": dt.datetime.now().isoformat(timespec="seconds"),
        "thumbnail": _png(thumb),
        "snapshot": snapshot,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def read_slot(path: Path, number: int) -> Slot:
    """The slot at `path`; SlotError for a damaged or foreign file."""
    if not path.exists():
        return Slot(number)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SlotError(f"cannot read it: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise SlotError("not a Twinfold state slot")
    snapshot = data.get("snapshot")
    if not isinstance(snapshot, dict):
        raise SlotError("not a Twinfold state slot")
    thumb = None
    if isinstance(data.get("thumbnail"), str):  # slots saved before thumbnails have none
        try:
            raw = base64.b64decode(data["thumbnail"], validate=True)
            thumb = pygame.image.load(io.BytesIO(raw), "thumb.png")
        except (ValueError, pygame.error):
            thumb = None
    tick = data.get("tick")
    return Slot(
        number,
        empty=False,
        game=str(snapshot.get("game", "")),
        tick=tick if isinstance(tick, int) else 0,
        saved_at=str(data.get("saved_at", "")),
        thumb=thumb,
        snapshot=snapshot,
    )


def read_slot_quietly(path: Path, number: int) -> Slot | str:
    """The slot, or the reason it cannot be read (for the picker)."""
    try:
        return read_slot(path, number)
    except SlotError as exc:
        return str(exc)


def picker_header(width: int, scale: int) -> list[str]:
    """The picker's header in the lines a window `width` pixels wide needs."""
    return message_lines(PICKER_TITLE, width - 8 * scale, scale)


def draw_picker(
    size: tuple[int, int], slots: list[Slot | str], titles: dict[str, str]
) -> pygame.Surface:
    """The slot picker: the four slots in a row or a 2x2 grid, each with its thumbnail,
    its load key, the game and the time it was saved, on a translucent window-size layer."""
    width, height = size
    layer = pygame.Surface(size, pygame.SRCALPHA)
    layer.fill(PICKER_BACK)
    scale = 2 if width >= 2 * SCREEN_W and height >= 2 * SCREEN_H else 1
    line_h = text.size("M", scale)[1] + scale
    columns = 4 if width >= 2.4 * height else 2
    rows = -(-len(slots) // columns)
    pad = 4 * scale
    # the header on as many lines as the window's width needs (issue 34, item 7)
    titles_shown = picker_header(width, scale)
    for i, title in enumerate(titles_shown):
        layer.blit(text.render(title, PICKER_TEXT, scale), (pad, pad + i * line_h))
    header = line_h * len(titles_shown) + pad
    cell_w = (width - pad * (columns + 1)) // columns
    cell_h = (height - header - pad * (rows + 1)) // rows
    for index, slot in enumerate(slots):
        col, row = index % columns, index // columns
        x = pad + col * (cell_w + pad)
        y = header + pad + row * (cell_h + pad)
        pygame.draw.rect(layer, PICKER_CELL, (x, y, cell_w, cell_h))
        number = index + 1
        lines = [f"F{number}  slot {number}"]
        if isinstance(slot, str):
            lines.append(f"damaged: {slot}")
        elif slot.empty:
            lines.append("empty")
        else:
            lines.append(titles.get(slot.game, slot.game))
            lines.append(slot.saved_at.replace("T", " "))
        most = max(1, (cell_h - 4 * scale) // line_h)  # the lines the cell has room for
        shown: list[tuple[str, tuple[int, int, int]]] = []
        for i, line in enumerate(lines):
            color = PICKER_TEXT if i == 0 else PICKER_DIM
            left = most - len(shown)
            if left > 0:
                wrapped = message_lines(line, cell_w - 4 * scale, scale, left)
                shown += [(part, color) for part in wrapped]
        for i, (part, color) in enumerate(shown):
            layer.blit(
                text.render(part, color, scale), (x + 2 * scale, y + 2 * scale + i * line_h)
            )
        thumb = slot.thumb if isinstance(slot, Slot) else None
        top = y + 2 * scale + len(shown) * line_h
        room = (cell_w - 4 * scale, y + cell_h - top - 2 * scale)
        if thumb is not None and room[0] > 8 and room[1] > 8:
            factor = min(room[0] / THUMB_SIZE[0], room[1] / THUMB_SIZE[1])
            if factor >= 1:
                factor = int(factor)
            shown_size = (max(1, int(THUMB_SIZE[0] * factor)), max(1, int(THUMB_SIZE[1] * factor)))
            picture = pygame.transform.scale(thumb, shown_size)
            layer.blit(picture, (x + (cell_w - shown_size[0]) // 2, top))
    return layer

