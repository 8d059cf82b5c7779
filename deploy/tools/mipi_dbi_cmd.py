#!/usr/bin/env python3
"""Compile a panel init-command text file into the firmware file the Linux panel-mipi-dbi
driver loads (`/lib/firmware/<compatible>.bin`).

File format (the driver's): the 15-byte magic "MIPI DBI" + 7 NULs, format version 1, then
`command, number of parameters, parameters...` for each command; a delay is the NOP
command (0x00) with one parameter, the milliseconds (at most 255).

Usage: mipi_dbi_cmd.py INPUT.txt OUTPUT.bin
"""

from __future__ import annotations

import sys
from pathlib import Path

MAGIC = b"MIPI DBI" + bytes(7)
VERSION = 1


class CommandFileError(ValueError):
    pass


def _byte(text: str, line: int) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise CommandFileError(f"line {line}: {text!r} is not a number") from None
    if not 0 <= value <= 255:
        raise CommandFileError(f"line {line}: {text} does not fit in a byte")
    return value


def compile_commands(text: str) -> bytes:
    out = bytearray(MAGIC + bytes([VERSION]))
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        verb, args = words[0], words[1:]
        if verb == "command":
            if not args:
                raise CommandFileError(f"line {number}: command needs a command byte")
            cmd, params = _byte(args[0], number), [_byte(a, number) for a in args[1:]]
            if cmd == 0:
                raise CommandFileError(f"line {number}: command 0x00 is reserved for delays")
            out += bytes([cmd, len(params), *params])
        elif verb == "delay":
            if len(args) != 1:
                raise CommandFileError(f"line {number}: delay takes one number (milliseconds)")
            out += bytes([0, 1, _byte(args[0], number)])
        else:
            raise CommandFileError(f"line {number}: unknown word {verb!r} (command or delay)")
    return bytes(out)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: mipi_dbi_cmd.py INPUT.txt OUTPUT.bin", file=sys.stderr)
        return 2
    source, target = Path(argv[0]), Path(argv[1])
    try:
        data = compile_commands(source.read_text(encoding="utf-8"))
    except (OSError, CommandFileError) as exc:
        print(f"mipi_dbi_cmd.py: {source}: {exc}", file=sys.stderr)
        return 1
    target.write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
