"""The `twinfold` command: firmware subcommands plus those contributed by game packages.

Games add subcommands through `games/<id>/commands.py` (a `register(subparsers)` function),
discovered here so that adding a game never means editing the firmware.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from firmware.movie import Movie


class CommandError(Exception):
    """A user-facing error: printed as one line, exit status 2, never a trace."""


class OneLineParser(argparse.ArgumentParser):
    """ArgumentParser whose errors are a single line (P-4: bad arguments never print a trace)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def movie_argument(path: str) -> Movie:
    """Read a `--movie FILE` argument; a bad file is a one-line CommandError naming it."""
    from firmware.movie import MovieError, load_movie

    try:
        return load_movie(path)
    except MovieError as exc:
        raise CommandError(f"{path}: {exc}" if exc.line is not None else str(exc)) from None


def discover_game_packages() -> list[str]:
    """Names of the game packages under `games/`, sorted.

    Found by location, without importing `games`: the firmware depends on no game's code.
    """
    spec = importlib.util.find_spec("games")
    if spec is None or spec.submodule_search_locations is None:
        return []
    return sorted(m.name for m in pkgutil.iter_modules(spec.submodule_search_locations) if m.ispkg)


def _register_game_commands(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    for name in discover_game_packages():
        module_name = f"games.{name}.commands"
        if importlib.util.find_spec(module_name) is None:
            continue
        importlib.import_module(module_name).register(sub)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="twinfold", description="Twinfold dual-screen handheld")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True
    from firmware import commands as firmware_commands

    firmware_commands.register(sub)
    _register_game_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.handler(args)
    except CommandError as exc:
        print(f"twinfold {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return int(result or 0)


if __name__ == "__main__":
    # Under `python -m firmware.cli` this file runs as `__main__`; the handlers raise the
    # CommandError of `firmware.cli`, so dispatch through that module, not this copy.
    from firmware.cli import main as _main

    sys.exit(_main())
