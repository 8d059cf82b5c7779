"""The `twinfold` command: assembles the subcommands and dispatches to them.

The firmware's own (`firmware/commands.py`: `headless`, `new-game`), then every backend's,
declared in pyproject.toml as entry points of the group `twinfold.commands` (the emulator's
`emu`, the handheld's `device`), so the firmware never imports a frontend; then every game's,
found as `games/<id>/commands.py` (a `register(subparsers)` function), so adding a game never
means editing the firmware. What commands share (CommandError, the argument types) is in the
leaf `firmware/arguments.py`.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

from firmware import commands as firmware_commands
from firmware.arguments import CommandError, OneLineParser
from firmware.cartridges import discover_game_packages

COMMAND_GROUP = "twinfold.commands"


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
    sys.exit(main())
