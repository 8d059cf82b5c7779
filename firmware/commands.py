"""The firmware's own subcommand, `headless`, registered by the `twinfold` command.

Registration imports nothing heavy: the handler loads `firmware.headless` (pygame, the
headless backend) only when `twinfold headless` runs. Backends register theirs through the
`twinfold.commands` entry points: `emu` (emulator/commands.py) and `device`
(handheld/commands.py)."""

from __future__ import annotations

import argparse

from firmware.arguments import OneLineParser
from firmware.boot_arguments import add_boot_arguments, add_link_arguments, frames_argument


def register(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    headless = sub.add_parser(
        "headless",
        help="run the firmware without a window",
        description="Run the firmware headless: play an input movie, run N frames, write "
        "the screens as PNG and the state as JSON. Runs are exact: the same seed and movie "
        "give the same frames.",
    )
    add_boot_arguments(headless, "a fresh temporary one")
    headless.add_argument(
        "--movie", metavar="FILE", help="input movie to play (its '# args:' line applies)"
    )
    frames_argument(headless, "frames to run", "to the movie's end, or 1")
    headless.add_argument("--shots", metavar="DIR", help="write top.png and bottom.png here")
    headless.add_argument(
        "--dump", metavar="FILE", help="write the final state as JSON ('-': standard output)"
    )
    headless.add_argument(
        "--first-start",
        action="store_true",
        help="start as a handheld or emulator window does: the language choice first when "
        "the store has no settings, and with --game a saved game of it waiting offered "
        "(Continue / New game) (to reproduce their first frames)",
    )
    add_link_arguments(headless, versus=True)
    headless.add_argument(
        "--until-over",
        action="store_true",
        help="with --versus: stop (and dump) two seconds after every unit agreed on the "
        "match's end, instead of at the last of --frames (scripted matches, tests)",
    )
    headless.set_defaults(handler=_headless)


def _headless(args: argparse.Namespace) -> int:
    from firmware.headless import run_from_args

    return run_from_args(args)
