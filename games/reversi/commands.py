"""`twinfold nboard`: run the Reversi engine for NBoard-compatible Othello GUIs.

Kept light: the engine is imported only when the command runs.
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    nboard = sub.add_parser(
        "nboard",
        help="speak the NBoard protocol on stdin/stdout (Reversi engine for Othello GUIs)",
        description="Reversi engine for NBoard and other GUIs speaking the NBoard protocol. "
        "Point the GUI's engine command at `twinfold nboard`.",
    )
    nboard.add_argument(
        "--depth", type=int, default=None, help="midgame search depth before `set depth` (1-60)"
    )
    nboard.add_argument(
        "--level",
        default=None,
        help="play as a handheld level: beginner, novice, intermediate, strong or 1-4",
    )
    nboard.set_defaults(handler=_run_nboard)


def _run_nboard(args: argparse.Namespace) -> int:
    import sys

    from firmware.arguments import CommandError
    from games.reversi.nboard import NBoardSession, level_choices, parse_level

    if args.depth is not None and not 1 <= args.depth <= 60:
        raise CommandError("--depth must be 1..60")
    level = None if args.level is None else parse_level(args.level)
    if args.level is not None and level is None:
        raise CommandError(f"--level must be one of: {level_choices()}")

    def out(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def err(line: str) -> None:
        sys.stderr.write(f"twinfold nboard: {line}\n")
        sys.stderr.flush()

    session = NBoardSession(out, err)
    if args.depth is not None:
        session.depth = args.depth
    session.level = level
    session.run(sys.stdin)
    return 0
