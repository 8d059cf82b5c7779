"""The firmware's own subcommands, `headless` and `new-game`, registered by the `twinfold`
command.

Registration imports nothing heavy: the handler loads `firmware.headless` (pygame, the
headless backend) only when `twinfold headless` runs. `twinfold new-game` runs the
checkout's own `tools/new_game.py` (loaded from the folder it writes into, so the template
always matches that checkout's game API; the firmware imports no tool). Backends register
theirs through the `twinfold.commands` entry points: `emu` (emulator/commands.py) and
`device` (handheld/commands.py)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from firmware.arguments import CommandError, OneLineParser
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

    new_game = sub.add_parser(
        "new-game",
        help="write a new game into this checkout, from the template",
        description="Write a new two-player board game into a Twinfold checkout: "
        "games/ID/ (rules, computer player, match adapter, scene, cartridge), its movie "
        "docs/movies/ID-play.txt and its tests tests/games/ID/, passing every check as "
        "written. Nothing is written if the id is bad or taken or a file is already there. "
        "docs/architecture.md, 'A new game, step by step', says what to change next.",
    )
    new_game.add_argument("id", metavar="ID", help="the game's id: 2 to 16 of a-z and 0-9")
    new_game.add_argument(
        "--dir",
        metavar="D",
        help="the checkout to write into (default: the one this folder is in)",
    )
    new_game.add_argument("--title", default="", help="its title (default: the id, capitalised)")
    new_game.add_argument(
        "--title-ja", default="", help="its Japanese title (default: the template's)"
    )
    new_game.set_defaults(handler=_new_game)


def _headless(args: argparse.Namespace) -> int:
    from firmware.headless import run_from_args

    return run_from_args(args)


def _checkout_around(folder: Path) -> Path:
    """The Twinfold checkout `folder` is in (it or the nearest parent with the tool), else
    `folder` itself (which the command then refuses)."""
    for candidate in (folder, *folder.parents):
        if (candidate / "tools" / "new_game.py").is_file():
            return candidate
    return folder


def _new_game(args: argparse.Namespace) -> int:
    root = Path(args.dir) if args.dir is not None else _checkout_around(Path.cwd())
    script = root / "tools" / "new_game.py"
    spec = importlib.util.spec_from_file_location("twinfold_new_game", script)
    if not script.is_file() or spec is None or spec.loader is None:
        raise CommandError(
            f"{root} is not a Twinfold checkout (no tools/new_game.py): run this in the "
            "checkout or give it as --dir"
        )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    try:
        written = module.new_game(root, args.id, args.title, args.title_ja)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    for path in written:
        print(Path(path).relative_to(root).as_posix())
    return 0
