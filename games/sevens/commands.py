"""Killing Sevens command-line tools: `sevens-sim`, `sevens-game`, `sevens-replay`.

Kept light: the engine is imported inside the handlers (games/sevens/tools.py).
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    sim = sub.add_parser(
        "sevens-sim",
        help="Killing Sevens: play many games between computer personalities",
        description="Play N seeded games of Killing Sevens between four computer "
        "personalities and print, per seat, wins, average cards killed, average kills "
        "made and average finishing place.",
    )
    sim.add_argument("--games", type=int, required=True, metavar="N", help="games to play")
    sim.add_argument(
        "--seats",
        required=True,
        metavar="P,P,P,P",
        help="four of simpleton, cool, hitman, coward, brute (comma-separated)",
    )
    sim.add_argument("--seed", type=int, default=0, metavar="S", help="run seed (default 0)")
    _option_argument(sim)
    sim.add_argument("--json", action="store_true", help="print the figures as JSON")
    sim.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (auto: on a terminal, or on long runs)",
    )
    sim.set_defaults(handler=_sim)

    game = sub.add_parser(
        "sevens-game",
        help="Killing Sevens: play one game between computers and print what happens",
    )
    game.add_argument("--seats", required=True, metavar="P,P,P,P")
    game.add_argument("--seed", type=int, default=0, metavar="S")
    _option_argument(game)
    game.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the lines")
    game.add_argument("--save", metavar="FILE", help="save the game record (JSON) to FILE")
    game.set_defaults(handler=_game)

    rep = sub.add_parser(
        "sevens-replay",
        help="Killing Sevens: check a saved game record and print its result",
    )
    rep.add_argument("record", metavar="FILE")
    rep.add_argument("--json", action="store_true", help="print the final state as JSON")
    rep.set_defaults(handler=_replay)


def _option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="game option, repeatable: max-kill=1|4|6|9|12, three-walls, sevens-first, "
        "extra-turn (booleans take =on/off; defaults: max-kill=9, others off)",
    )


def _sim(args: argparse.Namespace) -> int:
    from games.sevens.tools import run_sim

    return run_sim(args)


def _game(args: argparse.Namespace) -> int:
    from games.sevens.tools import run_game

    return run_game(args)


def _replay(args: argparse.Namespace) -> int:
    from games.sevens.tools import run_replay

    return run_replay(args)
