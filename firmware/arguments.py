"""What every command shares: the one-line `CommandError`, the parser whose errors are one
line, and the argument types and file helpers (seeds are 0..2**63-1, `-` names standard
output everywhere).

A leaf: it imports nothing of Twinfold, so the boot path, every subcommand (the firmware's,
the emulator's, the handheld's, the games') and the `twinfold` entry point can share it
without importing each other.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn


class CommandError(Exception):
    """A user-facing error: printed as one line, exit status 2, never a trace."""


class OneLineParser(argparse.ArgumentParser):
    """ArgumentParser whose errors are a single line (P-4: bad arguments never print a trace)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


SEED_LIMIT = 2**63
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


def report_arguments(parser: argparse.ArgumentParser, json_help: str | None = None) -> None:
    """`--progress auto|always|never`, and with `json_help` a `--json` flag whose output (for
    programs) turns the `auto` bar off: the same pair on every long-running command."""
    if json_help is not None:
        parser.add_argument("--json", action="store_true", help=json_help)
    parser.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (auto: on a terminal"
        + (", not with --json)" if json_help is not None else ")"),
    )


def writable_output(path: str, what: str = "output", created: str | None = None) -> None:
    """Refuse, before any work, an output path that cannot be written (`-` always can).

    `created`: a folder the same command makes before it writes this output (`headless
    --shots D --dump D/x.json`), so the output may lie in it (or in a folder on its way)
    although it does not exist yet; the folder that does exist must still be writable."""
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
    made = () if created is None else (Path(created).resolve(), *Path(created).resolve().parents)
    if folder != target.parent and target.parent.resolve() not in made:
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
