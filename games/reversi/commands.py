"""`twinfold nboard`: run the Reversi engine for NBoard-compatible Othello GUIs.

Kept light: the engine is imported only when the command runs.
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    nboard = sub.add_parser(
        "nboard",
        help="speak the NBoard protocol on stdin/stdout (Reversi engine for Othello GUIs)",
        description="Reversi engine for NBoard and other GUIs speaking the NBoard protocol. "
        "Point the GUI's engine command at `twinfold nboard`.",
    )
    nboard.add_argument(
        "--depth", type=int, default=None, help="midgame search depth before `set depth` (1-60)"
    )
    nboard.set_defaults(handler=_run_nboard)


def _run_nboard(args: argparse.Namespace) -> int:
    import sys

    from firmware.arguments import CommandError
    from games.reversi.nboard import NBoardSession

    if args.depth is not None and not 1 <= args.depth <= 60:
        raise CommandError("--depth must be 1..60")

    def out(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def err(line: str) -> None:
        sys.stderr.write(f"twinfold nboard: {line}\n")
        sys.stderr.flush()

    session = NBoardSession(out, err)
    if args.depth is not None:
        session.depth = args.depth
    session.run(sys.stdin)
    return 0
