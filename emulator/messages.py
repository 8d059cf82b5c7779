"""The window's own messages (status line, slot picker) broken to fit the window's width.

A message is wrapped at spaces into as many lines as it needs; a word longer than a whole
line (a path, in practice) is shortened in its middle with "…", keeping its end, so a clip's
or screenshot's file name is always shown whole (issue 34, item 7). Pure text layout in the
firmware's pixel font: the display draws what this returns.
"""

from __future__ import annotations

from pathlib import Path

from firmware.gfx import text

ELLIPSIS = "…"


def width_of(line: str, scale: int) -> int:
    return text.size(line, scale)[0]


def shorten_middle(word: str, width: int, scale: int) -> str:
    """`word` as it is when it fits `width` pixels, else its start, "…" and its end: the end
    kept is the last path part (the file name) whole when that fits, else its last
    characters (the extension survives)."""
    if width_of(word, scale) <= width:
        return word
    cut = word.rfind("/")
    tail = word[cut:] if 0 <= cut < len(word) - 1 else ""
    if tail and width_of(ELLIPSIS + tail, scale) <= width:
        head = word[:cut]
        while head and width_of(head + ELLIPSIS + tail, scale) > width:
            head = head[:-1]
        return head + ELLIPSIS + tail
    end = word
    while end and width_of(ELLIPSIS + end, scale) > width:
        end = end[1:]
    return ELLIPSIS + end


def message_lines(
    message: str, width: int, scale: int = 1, max_lines: int | None = None
) -> list[str]:
    """`message` in lines that each fit `width` pixels (at least one line). With
    `max_lines`, a message longer still ends its last line with "…"."""
    lines: list[str] = []
    line = ""
    for word in message.split(" "):
        word = shorten_middle(word, width, scale)
        trial = f"{line} {word}" if line else word
        if line and width_of(trial, scale) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    lines.append(line)
    if max_lines is not None and len(lines) > max(1, max_lines):
        keep = max(1, max_lines)
        last = " ".join(lines[keep - 1 :])
        lines = [*lines[: keep - 1], text.fit(last, width, scale)]
    return lines


def shown_path(path: Path) -> str:
    """A path as a message shows it: under the home folder as ~/..., the rest as it is."""
    if str(path) == "-":
        return "standard output"
    try:
        return "~/" + str(path.resolve().relative_to(Path.home().resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)
