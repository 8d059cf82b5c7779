"""`twinfold emu`: registered through the `twinfold.commands` entry point (pyproject.toml),
so the firmware's command line never imports the emulator."""

from __future__ import annotations

import argparse

from emulator.layout import DEFAULT_GAP, MAX_GAP, MAX_SCALE
from firmware.arguments import OneLineParser, count_argument
from firmware.boot_arguments import add_boot_arguments, add_link_arguments, frames_argument


def register(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    emu = sub.add_parser(
        "emu",
        help="open the emulator window",
        description="The firmware in a desktop window: keyboard, mouse as stylus, gamepads, "
        "layouts, movies, save states. `python -m emulator` is the same command.",
    )
    add_boot_arguments(emu, "store.db in the data directory, ~/.local/share/twinfold")
    emu.add_argument(
        "--layout",
        choices=("vertical", "horizontal", "hybrid", "single"),
        default="vertical",
        help="how the two screens sit in the window (default: vertical)",
    )
    emu.add_argument(
        "--scale",
        type=count_argument(1, MAX_SCALE),
        default=None,
        metavar="N",
        help=f"integer scale 1..{MAX_SCALE} (default: the largest that fits the desktop)",
    )
    emu.add_argument(
        "--gap",
        type=count_argument(0, MAX_GAP),
        default=None,
        metavar="PX",
        help=f"window pixels between the screens, 0..{MAX_GAP} (default: {DEFAULT_GAP})",
    )
    emu.add_argument("--swap", action="store_true", help="start with the screens swapped")
    emu.add_argument(
        "--movie", metavar="FILE", help="play this input movie (its '# args:' line applies)"
    )
    emu.add_argument(
        "--record",
        metavar="FILE",
        help="record an input movie to FILE from power-on ('-': standard output, on quit); "
        "an existing FILE needs --force",
    )
    emu.add_argument(
        "--force", action="store_true", help="let --record replace an existing file"
    )
    add_link_arguments(emu)
    frames_argument(emu, "quit after this many frames", "run until the window closes")
    emu.set_defaults(handler=_emu)


def _emu(args: argparse.Namespace) -> int:
    from emulator.app import run_from_args

    return run_from_args(args)
