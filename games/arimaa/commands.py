"""Arimaa command-line tools: `twinfold aei` (engine protocol) and `twinfold arimaa-turns`."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    aei = sub.add_parser(
        "aei",
        help="run the Arimaa computer player as an AEI v1 engine",
        description="Speak the Arimaa Engine Interface (AEI v1) on standard input and "
        "output, so Arimaa GUIs and match controllers can play against the computer player.",
    )
    aei.set_defaults(handler=_aei)
    turns = sub.add_parser(
        "arimaa-turns",
        help="list the distinct legal turns of a recorded Arimaa position",
        description="Read an Arimaa game record (1g ... lines) or a board diagram and list "
        "every distinct legal turn of the side to move, one per line in Arimaa notation.",
    )
    turns.add_argument("record", help="file with a game record (1g ...) or a board diagram")
    turns.add_argument("--count", action="store_true", help="print only the number of turns")
    turns.set_defaults(handler=_turns)


def _aei(args: argparse.Namespace) -> int:
    from games.arimaa.aei.engine import serve

    return serve()


def _turns(args: argparse.Namespace) -> int:
    from firmware.cli import CommandError, read_text_input
    from games.arimaa.rules.game import Game, IllegalStep
    from games.arimaa.rules.notation import (
        NotationError,
        parse_diagram,
        parse_record,
        write_turn,
    )

    text = read_text_input(args.record, "record")
    try:
        if "+---" in text:
            pos, _label = parse_diagram(text)
            game = Game(start=pos)
        else:
            game = parse_record(text)
    except NotationError as exc:
        raise CommandError(f"{args.record}: {exc}") from None
    if game.in_setup or game.result is not None:
        raise CommandError(f"{args.record}: no turn to play (setup unfinished or game over)")
    turns = game.legal_turns()
    if args.count:
        print(len(turns))
        return 0
    for steps in turns.values():
        for frm, to in steps:
            try:
                game.step(frm, to)
            except IllegalStep as exc:  # pragma: no cover - generated turns are legal
                raise CommandError(str(exc)) from None
        print(write_turn(game.turn_steps))
        while game.turn_steps:
            game.undo_step()
    return 0
