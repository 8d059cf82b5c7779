#!/usr/bin/env python3
"""Read a kernel module's .modinfo (vermagic, depends, alias ...) without kmod.

usage: modinfo.py [-F FIELD] MODULE.ko

Why not modinfo(8): the build host (or a container) may have no kmod, and the modules are
built for another architecture; the ELF section is all that is needed. Prints every
field as `key=value` (a key may repeat), or with -F the values of one field, one a line.
Exit status 1 when the file is not an ELF module with a .modinfo section.
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path


class NotAModule(ValueError):
    """The file is not an ELF object with a .modinfo section."""


def modinfo(data: bytes) -> list[tuple[str, str]]:
    """The (key, value) pairs of an ELF object's .modinfo section, in order."""
    if data[:4] != b"\x7fELF" or len(data) < 64:
        raise NotAModule("not an ELF file")
    bits, order = data[4], data[5]
    if bits not in (1, 2) or order not in (1, 2):
        raise NotAModule("not an ELF32/ELF64 file")
    end = "<" if order == 1 else ">"
    try:
        if bits == 2:
            (shoff,) = struct.unpack_from(end + "Q", data, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x3A)
            layout, fields = end + "IIQQQQIIQQ", (0, 4, 5)  # name, offset, size
        else:
            (shoff,) = struct.unpack_from(end + "I", data, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x2E)
            layout, fields = end + "IIIIIIIIII", (0, 4, 5)
        sections = []
        for index in range(shnum):
            entry = struct.unpack_from(layout, data, shoff + index * shentsize)
            sections.append(tuple(entry[i] for i in fields))
        _, names_at, names_size = sections[shstrndx]
        names = data[names_at : names_at + names_size]
    except (struct.error, IndexError) as error:
        raise NotAModule(f"broken ELF headers ({error})") from None
    for name_at, offset, size in sections:
        if names[name_at : names.find(b"\0", name_at)] == b".modinfo":
            pairs = []
            for item in data[offset : offset + size].split(b"\0"):
                if b"=" in item:
                    key, _, value = item.decode("utf-8", "replace").partition("=")
                    pairs.append((key, value))
            return pairs
    raise NotAModule("no .modinfo section")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-F", "--field")
    parser.add_argument("module", type=Path)
    args = parser.parse_args(argv)
    try:
        pairs = modinfo(args.module.read_bytes())
    except (OSError, NotAModule) as error:
        print(f"modinfo.py: {args.module}: {error}", file=sys.stderr)
        return 1
    for key, value in pairs:
        if args.field is None:
            print(f"{key}={value}")
        elif key == args.field:
            print(value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
