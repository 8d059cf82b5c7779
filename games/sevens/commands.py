"""Killing Sevens command-line tools: `sevens-sim`, `sevens-game`, `sevens-replay`.

Kept light: the engine is imported inside the handlers (games/sevens/tools.py).
"""

from __future__ import annotations

import argparse

from firmware.arguments import count_argument, report_arguments, seed_argument

GAMES_MAX = 10_000_000
SEATS_HELP = "four of simpleton, cool, hitman, coward, brute (comma-separated, seat 1 first)"
SEED_HELP = "seed of the deal and the computers' choices (0..2**63-1, default 0)"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sim = sub.add_parser(
        "sevens-sim",
        help="Killing Sevens: play many games between computer personalities",
        description="Play N seeded games of Killing Sevens between four computer "
        "personalities and print, per seat, wins, average cards killed, average kills "
        "made and average finishing place.",
    )
    sim.add_argument(
        "--games",
        type=count_argument(1, GAMES_MAX),
        required=True,
        metavar="N",
        help=f"games to play (1..{GAMES_MAX})",
    )
    sim.add_argument("--seats", required=True, metavar="P,P,P,P", help=SEATS_HELP)
    sim.add_argument("--seed", type=seed_argument, default=0, metavar="N", help=SEED_HELP)
    _option_argument(sim)
    report_arguments(sim, json_help="print the figures as JSON (no progress display)")
    sim.set_defaults(handler=_sim)

    game = sub.add_parser(
        "sevens-game",
        help="Killing Sevens: play one game between computers and print what happens",
        description="Play one seeded game between four computer personalities and print "
        "every play, kill and what the players say.",
    )
    game.add_argument("--seats", required=True, metavar="P,P,P,P", help=SEATS_HELP)
    game.add_argument("--seed", type=seed_argument, default=0, metavar="N", help=SEED_HELP)
    _option_argument(game)
    game.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the lines")
    game.add_argument(
        "--save",
        metavar="FILE",
        help="save the game record (JSON) to FILE, checked before the game is played "
        "('-': print only the record, on standard output)",
    )
    game.set_defaults(handler=_game)

    rep = sub.add_parser(
        "sevens-replay",
        help="Killing Sevens: check a saved game record and print its result",
        description="Replay a game record saved by sevens-game --save move by move under the "
        "rules, and print whether it is valid and how the game ended.",
    )
    rep.add_argument(
        "record", metavar="FILE", help="a game record saved by sevens-game --save (JSON)"
    )
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
