"""What every command that boots the firmware shares: the boot arguments (`--game`,
`--seed`, `--option`, `--store`, `--profile`), `--frames`, the radio's `--link` and
`--name`, and a movie file with its own `# args:` line (P-4). Used by `twinfold headless`
(firmware/commands.py), `twinfold emu` (emulator/commands.py) and `twinfold device`
(handheld/commands.py)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, NoReturn

from firmware.arguments import CommandError, count_argument, seed_argument
from firmware.match.profiles import PROFILES, DeviceProfile

if TYPE_CHECKING:
    from firmware.machine import Machine
    from firmware.movie import Movie

FRAMES_MAX = 1_000_000  # about 4.6 hours of handheld time: more is a typo


def profile_of(args: argparse.Namespace, default: str = "desktop") -> DeviceProfile:
    """The device profile the arguments name (`--profile`), else `default`."""
    return PROFILES[getattr(args, "profile", None) or default]


def option_argument(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"options are KEY=VALUE, not {text!r}")
    return key.strip(), value.strip()


def add_boot_arguments(
    parser: argparse.ArgumentParser, store_default: str, profile_default: str = "desktop"
) -> None:
    """The arguments every command that boots the firmware takes; the defaults' words are
    each command's own (what its code does without the argument)."""
    parser.add_argument("--game", metavar="ID", help="boot straight into this game")
    parser.add_argument(
        "--seed",
        type=seed_argument,
        default=None,
        metavar="N",
        help="pin the seed of every game start (0..2**63-1; default: a fresh seed per start)",
    )
    parser.add_argument(
        "--option",
        type=option_argument,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable; needs --game)",
    )
    parser.add_argument(
        "--store", metavar="FILE", help=f"the SQLite store to use (default: {store_default})"
    )
    parser.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        default=None,
        help="device profile for computer players: in-loop slices or a worker process, and "
        f"the unit's speed (default: {profile_default})",
    )


def frames_argument(parser: argparse.ArgumentParser, what: str, default: str) -> None:
    parser.add_argument(
        "--frames",
        type=count_argument(1, FRAMES_MAX),
        metavar="N",
        help=f"{what}, 1..{FRAMES_MAX} (default: {default})",
    )


def apply_movie_args(args: argparse.Namespace, movie: Movie, path: str) -> None:
    """Fill `--game`, `--seed`, `--option` from the movie's `# args:` line where the command
    line left them out (the command line wins; a different --game drops the movie's options)."""
    if not movie.args:
        return
    parser = _ArgsLineParser(prog=f"{path}: the '# args:' line", add_help=False)
    parser.add_argument("--game")
    parser.add_argument("--seed", type=seed_argument)
    parser.add_argument("--option", type=option_argument, action="append", default=[])
    parser.add_argument("--profile", choices=sorted(PROFILES))
    given, extra = parser.parse_known_args(list(movie.args))
    if extra:
        raise CommandError(
            f"{path}: the '# args:' line may hold only --game, --seed, --option and "
            f"--profile, not {' '.join(extra)}"
        )
    if getattr(args, "profile", None) is None:
        args.profile = given.profile
    if args.game is None or args.game == given.game:
        args.option = [*given.option, *args.option]  # later ones win
        args.game = given.game
    if args.seed is None:
        args.seed = given.seed


class _ArgsLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{self.prog}: {message}")


def radio_name_argument(text: str) -> str:
    """A radio name: what other units list, 1..12 printable characters starting with a
    letter or digit (P-FW-2)."""
    from firmware.settings import RADIO_NAME_MAX

    name = text.strip()
    if (
        not 1 <= len(name) <= RADIO_NAME_MAX
        or not name.isprintable()
        or not name[0].isalnum()
    ):
        raise argparse.ArgumentTypeError(
            f"a radio name is 1 to {RADIO_NAME_MAX} printable characters starting with a "
            f"letter or digit, not {text!r}"
        )
    return name


def add_link_arguments(
    parser: argparse.ArgumentParser, versus: bool = False, link_default: str = "off"
) -> None:
    """The radio (issue 11): `--link URL`, `--name NAME`; with `versus` (headless) also
    `--versus host|join` and `--accept-pairing` for scripted play and tests."""
    parser.add_argument(
        "--link",
        metavar="URL",
        help="the link: lan:// (the local network; ?channel=NAME&iface=NAME&port=N), the "
        "simulated radio air://CHANNEL?baud=9600&loss=0.1&... or a serial port such as "
        f"/dev/ttyUSB0 (default: {link_default})",
    )
    parser.add_argument(
        "--name",
        metavar="NAME",
        type=radio_name_argument,
        default=None,
        help="radio name, 1..12 characters (default: the stored one)",
    )
    if not versus:
        return
    parser.add_argument(
        "--versus",
        choices=("host", "join"),
        help="boot straight into hosting or joining a versus game of --game (with its "
        "--options); join takes the first host offering it",
    )
    parser.add_argument(
        "--accept-pairing",
        action="store_true",
        help="confirm the pairing code without input (scripted runs)",
    )
    parser.add_argument(
        "--link-grace",
        metavar="TICKS",
        type=grace_argument,
        default=None,
        help="ticks a lost unit's seat is waited for before the computer takes it "
        "(default 600, 10 s; a guest waits twice as long for a lost host)",
    )


def grace_argument(value: str) -> int:
    """`--link-grace TICKS`: a whole number of ticks, 1 to 36000 (ten minutes)."""
    try:
        ticks = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of ticks: {value!r}") from None
    if not 1 <= ticks <= 36000:
        raise argparse.ArgumentTypeError(f"ticks must be 1..36000, got {ticks}")
    return ticks


def movie_argument(path: str) -> Movie:
    """Read a `--movie FILE` argument; a bad file is a one-line CommandError naming it."""
    from firmware.movie import MovieError, load_movie

    try:
        return load_movie(path)
    except MovieError as exc:
        raise CommandError(f"{path}: {exc}" if exc.line is not None else str(exc)) from None


def start_versus_from_args(machine: Machine, args: argparse.Namespace) -> None:
    """`--versus host|join`: straight into hosting or joining a versus game of `--game`."""
    from firmware.scenes.versus import LobbyScene, start_versus

    if machine.link is None:
        return
    machine.link.auto_accept = bool(getattr(args, "accept_pairing", False))
    if getattr(args, "link_grace", None) is not None:
        machine.link.grace_ticks = args.link_grace
    try:
        start_versus(machine, args.versus, args.game, dict(args.option))
    except (KeyError, ValueError) as exc:
        raise CommandError(str(exc).strip("'\"")) from None
    if isinstance(machine.scene, LobbyScene):
        machine.scene.auto_join = args.versus == "join"
