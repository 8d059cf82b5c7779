"""`twinfold device`: registered with the `twinfold` command (`register(subparsers)`).

Imports nothing heavy at registration, so `twinfold --help` works without evdev installed.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
from pathlib import Path
from typing import Any


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, not {value}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number, not {text!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError("seed must be between 0 and 2**63-1")
    return value


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"options are KEY=VALUE, not {text!r}")
    return key.strip(), value.strip()


def register(sub: argparse._SubParsersAction[Any]) -> None:
    device = sub.add_parser(
        "device",
        help="run on the Raspberry Pi backend (framebuffer panels, evdev input, serial radio)",
    )
    device.add_argument(
        "--config", metavar="FILE", help="settings file (default /etc/twinfold/device.toml)"
    )
    device.add_argument("--frames", type=_positive, help="stop after this many ticks")
    device.add_argument("--dump", metavar="FILE", help="write the final state as JSON")
    device.add_argument("--game", metavar="ID", help="boot straight into this game")
    device.add_argument("--seed", type=_seed, default=None, help="seed for all randomness")
    device.add_argument(
        "--option", type=_option, action="append", default=[], metavar="KEY=VALUE",
        help="a game option (repeatable)",
    )  # fmt: skip
    device.add_argument("--store", metavar="FILE", help="the SQLite store (default: data_dir)")
    device.set_defaults(handler=run_from_args)


def run_from_args(args: argparse.Namespace) -> int:
    from firmware.cli import CommandError
    from firmware.logs import setup_logging
    from firmware.storage import StoreError
    from hal.backends.device.app import BootOptions, start
    from hal.backends.device.config import load_config

    config, problems = load_config(Path(args.config) if args.config else None)
    data_dir = Path(config.system.data_dir)
    under_systemd = bool(os.environ.get("JOURNAL_STREAM") or os.environ.get("NOTIFY_SOCKET"))
    try:
        setup_logging(data_dir, stderr_level=logging.INFO if under_systemd else logging.WARNING)
    except OSError as exc:
        raise CommandError(f"cannot write the log in {data_dir}: {exc}") from None
    log = logging.getLogger("twinfold")
    for problem in problems:
        log.warning("config: %s", problem)
    options = BootOptions(
        game=args.game or config.boot.game or None,
        seed=args.seed if args.seed is not None else config.boot.seed,
        options=dict(args.option),
        store=Path(args.store) if args.store else None,
    )
    try:
        runner = start(config, options, frames=args.frames)
    except ValueError as exc:  # an unknown game or option
        raise CommandError(str(exc)) from None
    except (OSError, StoreError) as exc:
        raise CommandError(f"cannot start: {exc}") from None

    def terminate(signum: int, frame: object) -> None:
        runner.machine.quit_requested = True  # SIGTERM / SIGINT: stop cleanly, game saved

    previous = {sig: signal.signal(sig, terminate) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        runner.run(dump=Path(args.dump) if args.dump else None)
    except OSError as exc:
        raise CommandError(f"cannot write output: {exc}") from None
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0
