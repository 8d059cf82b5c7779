"""`twinfold device`: registered with the `twinfold` command (`register(subparsers)`).

Imports nothing heavy at registration, so `twinfold --help` works without evdev installed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hal.interfaces import ByteLink
    from handheld.app import DeviceRunner


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Registered through the `twinfold.commands` entry point `device` (pyproject.toml)."""
    from firmware.boot_arguments import add_boot_arguments, add_link_arguments, frames_argument

    device = sub.add_parser(
        "device",
        help="run on the Raspberry Pi backend (framebuffer panels, evdev input, serial radio)",
        description="Run the firmware on the handheld itself: framebuffer panels, evdev "
        "buttons, lid and touch, the serial radio, the systemd watchdog.",
    )
    device.add_argument(
        "--config", metavar="FILE", help="settings file (default /etc/twinfold/device.toml)"
    )
    device.add_argument(
        "--movie",
        metavar="FILE",
        help="take the input from this movie until its last event, then from the devices "
        "(its '# args:' line applies; the unit boots as headless does for it)",
    )
    frames_argument(device, "stop after this many ticks", "run until shut down")
    device.add_argument(
        "--dump", metavar="FILE", help="write the final state as JSON ('-': standard output)"
    )
    # (the defaults as handheld/app.py applies them: device_profile, and the config's radio)
    add_boot_arguments(
        device,
        "store.db in the config's data_dir",
        profile_default="the board's, from /proc/device-tree/model, or the config's "
        "[system] profile; desktop off a Raspberry Pi",
    )
    add_link_arguments(
        device,
        versus=True,
        link_default="the config's [radio] port, /dev/serial0 unless it names another; "
        "none with [radio] enabled = false",
    )
    device.set_defaults(handler=run_from_args)


def run_from_args(args: argparse.Namespace) -> int:
    from firmware.arguments import STDOUT, CommandError, writable_output
    from firmware.boot import BootConfig, check_request
    from firmware.boot_arguments import apply_movie_args, movie_argument
    from firmware.instances import user_data_dir
    from firmware.logs import setup_logging
    from firmware.storage import StoreError
    from hal.backends.device.config import DEFAULT_PATH, ConfigError, is_handheld, load_config
    from handheld.app import BootOptions, start

    movie = movie_argument(args.movie) if args.movie else None  # a bad movie: one line
    if movie is not None:
        apply_movie_args(args, movie, args.movie)
    try:
        config, problems = load_config(Path(args.config) if args.config else None)
    except ConfigError as exc:
        raise CommandError(str(exc)) from None
    if args.versus and not args.game:
        raise CommandError("--versus needs --game")
    if args.versus and not (args.link or config.radio.enabled):
        raise CommandError("--versus needs the radio: --link PORT or [radio] in the config")
    elsewhere = None
    if args.config is None and not is_handheld(config):
        # Not a Twinfold handheld (a desktop, perhaps as root): keep the data out of
        # /var/lib/twinfold, in the user's data home (or beside an explicit --store).
        data = Path(args.store).parent if args.store else user_data_dir() / "device"
        config = dataclasses.replace(
            config, system=dataclasses.replace(config.system, data_dir=str(data))
        )
        elsewhere = data
    data_dir = Path(config.system.data_dir)
    under_systemd = bool(os.environ.get("JOURNAL_STREAM") or os.environ.get("NOTIFY_SOCKET"))
    try:
        setup_logging(data_dir, stderr_level=logging.INFO if under_systemd else logging.WARNING)
    except OSError as exc:
        raise CommandError(f"cannot write the log in {data_dir}: {exc}") from None
    log = logging.getLogger("twinfold")
    for problem in problems:
        log.warning("config: %s", problem)
    if elsewhere is not None:
        log.warning(
            "this machine is not a Twinfold handheld (no Raspberry Pi device tree model, no"
            " %s): its data goes to %s (--config or --store to choose)",
            DEFAULT_PATH,
            elsewhere,
        )
    if args.dump:
        writable_output(args.dump, "state dump")
    options = BootOptions(
        game=None if args.versus else args.game or config.boot.game or None,
        seed=args.seed if args.seed is not None else config.boot.seed,
        options={} if args.versus else dict(args.option),
        store=Path(args.store) if args.store else None,
        movie=movie,
        profile=args.profile,
    )
    # a bad game, option or store path is refused before any panel or input is opened
    check_request(BootConfig(game=options.game, options=options.options, store_path=options.store))
    link = open_link(args.link, config.radio.baud) if args.link else None
    try:
        runner = start(config, options, frames=args.frames, link=link)
    except ValueError as exc:  # an unknown game or option
        raise CommandError(str(exc)) from None
    except (OSError, StoreError) as exc:
        raise CommandError(f"cannot start: {exc}") from None
    try:
        start_radio(runner, args, config.radio.port)
    except CommandError:
        runner.stop()
        raise

    def terminate(signum: int, frame: object) -> None:
        runner.machine.quit_requested = True  # SIGTERM / SIGINT: stop cleanly, game saved

    previous = {sig: signal.signal(sig, terminate) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        runner.run(dump=Path(args.dump) if args.dump and args.dump != STDOUT else None)
        if args.dump == STDOUT:
            print(json.dumps(runner.machine.dump(), indent=1))
    except OSError as exc:
        raise CommandError(f"cannot write output: {exc}") from None
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0


def open_link(url: str, baud: int) -> ByteLink:
    """`--link PORT` (a serial port, air:// or lan://): the radio instead of the config's; one line
    if it cannot be opened."""
    from firmware.arguments import CommandError
    from hal.link.serial_link import LinkError, SerialLink

    try:
        return SerialLink.open(url, baud)
    except LinkError as exc:
        raise CommandError(str(exc)) from None


def start_radio(runner: DeviceRunner, args: argparse.Namespace, port: str) -> None:
    """`--link`, `--name`, `--versus`, `--accept-pairing` on the started unit: a named port
    that did not open is an error (not a unit without a radio), as is a versus without one."""
    from firmware.arguments import CommandError
    from firmware.boot_arguments import start_versus_from_args

    link = runner.machine.link
    if args.versus and link is None:
        raise CommandError(f"cannot open the radio {port} (the log says why)")
    if args.name and link is not None:
        link.rename(args.name)
    if args.versus:
        start_versus_from_args(runner.machine, args)
