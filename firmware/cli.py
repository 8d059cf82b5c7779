"""The `twinfold` command: firmware subcommands plus those contributed by games and backends.

Games add subcommands through `games/<id>/commands.py` (a `register(subparsers)` function),
discovered here so that adding a game never means editing the firmware. Backends (the
emulator, the device) add theirs through the `twinfold.commands` entry-point group declared
in pyproject.toml, so the firmware never imports a backend.

The argument types here (`seed_argument`, `count_argument`, ...) are shared by every
command, so one rule holds everywhere: seeds are 0..2**63-1, `-` names standard output.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import os
import pkgutil
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from firmware.movie import Movie


class CommandError(Exception):
    """A user-facing error: printed as one line, exit status 2, never a trace."""


class OneLineParser(argparse.ArgumentParser):
    """ArgumentParser whose errors are a single line (P-4: bad arguments never print a trace)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


SEED_LIMIT = 2**63
COMMAND_GROUP = "twinfold.commands"
STDOUT = "-"  # as an output file name: standard output, for every command


def seed_argument(text: str) -> int:
    """`--seed N` for every command: a whole number 0..2**63-1 (decimal or 0x...)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number, not {text!r}") from None
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"seed must be between 0 and 2**63-1, not {value}")
    return value


def count_argument(low: int = 1, high: int | None = None) -> Callable[[str], int]:
    """An argument type for a whole number in low..high (the range shows in the error)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < low or (high is not None and value > high):
            limit = f"{low}..{high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(f"expected a number {limit}, not {value}")
        return value

    parse.__name__ = "number"  # argparse names the type in some messages
    return parse


def writable_output(path: str, what: str = "output") -> None:
    """Refuse, before any work, an output path that cannot be written (`-` always can)."""
    if path == STDOUT:
        return
    target = Path(path)
    if target.is_dir():
        raise CommandError(f"cannot write the {what} to {path}: it is a folder")
    folder = target.parent
    for parent in (target.parent, *target.parent.parents):
        if parent.exists():
            folder = parent
            break
    if not folder.is_dir():
        raise CommandError(f"cannot write the {what} to {path}: {folder} is not a folder")
    if folder != target.parent:
        raise CommandError(f"cannot write the {what} to {path}: no folder {target.parent}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise CommandError(f"cannot write the {what} to {path}: permission denied")


def write_text_output(path: str, text: str, what: str = "output") -> None:
    """Write `text` to the file `path`, or to standard output for `-`; one-line errors."""
    if path == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write the {what} to {path}: {exc.strerror or exc}") from None


def read_text_input(path: str, what: str = "file") -> str:
    """Read a UTF-8 text file named on the command line; any failure is one line."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except IsADirectoryError:
        raise CommandError(f"cannot read the {what} {path}: it is a folder") from None
    except UnicodeDecodeError:
        raise CommandError(f"cannot read the {what} {path}: not UTF-8 text") from None
    except OSError as exc:
        raise CommandError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None


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


def backend_command_modules() -> dict[str, str]:
    """`name -> "module:function"` of the `twinfold.commands` entry points.

    Read from the installed metadata and, in a source checkout, from pyproject.toml itself
    (which wins: an editable install made before an entry point was added does not list
    it). pyproject.toml is the one place these are declared.
    """
    found = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=COMMAND_GROUP)}
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            data = {}
        declared = data.get("project", {}).get("entry-points", {}).get(COMMAND_GROUP, {})
        found.update({str(k): str(v) for k, v in declared.items()})
    return found


def _register_backend_commands(sub: argparse._SubParsersAction[OneLineParser]) -> set[str]:
    """Register every backend's commands; return the entry-point names registered."""
    registered: set[str] = set()
    for name, target in sorted(backend_command_modules().items()):
        module_name, _, function = target.partition(":")
        if importlib.util.find_spec(module_name.split(".")[0]) is None:
            continue  # a backend package not shipped in this installation
        register = getattr(importlib.import_module(module_name), function or "register")
        register(sub)
        registered.add(name)
    return registered


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="twinfold", description="Twinfold dual-screen handheld")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True
    from firmware import commands as firmware_commands

    firmware_commands.register(sub)
    _register_backend_commands(sub)
    _register_game_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a bad argument (2, already printed)
        return exc.code if isinstance(exc.code, int) else 2
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
