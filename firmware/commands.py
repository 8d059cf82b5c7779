"""The firmware's own subcommands: `emu`, `headless`, `device` (P-4)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware.cli import OneLineParser


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number, not {text!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError("seed must be between 0 and 2**63-1")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, not {value}")
    return value


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"options are KEY=VALUE, not {text!r}")
    return key.strip(), value.strip()


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", metavar="ID", help="boot straight into this game")
    parser.add_argument("--seed", type=_seed, default=0, help="seed for all randomness")
    parser.add_argument(
        "--option",
        type=_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable)",
    )
    parser.add_argument(
        "--store",
        metavar="FILE",
        help="the SQLite store to use (headless default: a fresh temporary one)",
    )


def register(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    emu = sub.add_parser("emu", help="open the emulator window")
    _common(emu)
    emu.add_argument(
        "--layout", choices=("vertical", "horizontal", "hybrid", "single"), default="vertical"
    )
    emu.add_argument("--scale", type=_positive, default=None, help="integer scale (default: fit)")
    emu.add_argument("--gap", type=int, default=None, help="pixels between the screens")
    emu.add_argument("--swap", action="store_true", help="start with the screens swapped")
    emu.add_argument("--movie", metavar="FILE", help="play this input movie")
    emu.add_argument("--record", metavar="FILE", help="record an input movie to FILE")
    emu.add_argument("--link", metavar="SPEC", help="radio link (comes with the link stack)")
    emu.add_argument("--frames", type=_positive, help="quit after this many frames")
    emu.set_defaults(handler=_emu)

    headless = sub.add_parser("headless", help="run the firmware without a window")
    _common(headless)
    headless.add_argument("--movie", metavar="FILE", help="input movie to play")
    headless.add_argument(
        "--frames", type=_positive, help="frames to run (default: to the movie's end, or 1)"
    )
    headless.add_argument("--shots", metavar="DIR", help="write top.png and bottom.png here")
    headless.add_argument("--dump", metavar="FILE", help="write the final state as JSON")
    headless.set_defaults(handler=_headless)

    # Until backends register through entry points, the device backend is wired in here.
    from hal.backends.device.commands import register as register_device

    register_device(sub)


def _emu(args: argparse.Namespace) -> int:
    from emulator.app import run_from_args

    return run_from_args(args)


def _headless(args: argparse.Namespace) -> int:
    from firmware.headless import run_from_args

    return run_from_args(args)
