"""The firmware's own subcommands: `emu`, `headless`, `device` (P-4)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    emu = sub.add_parser("emu", help="open the emulator window")
    emu.set_defaults(handler=_not_yet)
    headless = sub.add_parser("headless", help="run the firmware without a window")
    headless.set_defaults(handler=_not_yet)
    device = sub.add_parser("device", help="run on the Raspberry Pi backends")
    device.set_defaults(handler=_not_yet)


def _not_yet(args: argparse.Namespace) -> int:
    from firmware.cli import CommandError

    raise CommandError(f"{args.command} is being built")
