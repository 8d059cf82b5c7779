"""Arimaa command-line tools: `twinfold aei` (engine protocol), `twinfold arimaa-turns` and
`twinfold arimaa-export` (stored records as move lists)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    export = sub.add_parser(
        "arimaa-export",
        help="list stored Arimaa records, or write one as a move list for the aei tools",
        description="List the finished Arimaa games in a Twinfold store, or write one as a "
        "move list (1g ... lines, then the next turn's label) that the aei package's tools "
        "read.",
    )
    export.add_argument("store", help="the store file (e.g. ~/.local/share/twinfold/...)")
    export.add_argument("record", nargs="?", type=int, help="the record's id (see the list)")
    export.add_argument("-o", "--output", help="write here instead of standard output")
    export.set_defaults(handler=_export)


def _aei(args: argparse.Namespace) -> int:
    from games.arimaa.aei.engine import serve

    return serve()


def _turns(args: argparse.Namespace) -> int:
    from firmware.arguments import CommandError, read_text_input
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


def _export(args: argparse.Namespace) -> int:
    """Stored records as move lists (`1g Ra1 ...`, then the label of the next turn), which
    `pyrimaa.analyze FILE LABEL` and `pyrimaa.board` read."""
    from pathlib import Path

    from firmware.arguments import CommandError
    from firmware.storage import Store, StoreError
    from games.arimaa.records import RecordError, export_text

    if not Path(args.store).is_file():
        raise CommandError(f"no store at {args.store}")
    try:
        store = Store.open(args.store)
        records = store.list_records("arimaa")
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    if args.record is None:
        for rec in records:
            data = rec.record if isinstance(rec.record, dict) else {}
            print(f"{rec.id}\t{data.get('summary', '')}")
        return 0
    chosen = next((r for r in records if r.id == args.record), None)
    if chosen is None:
        raise CommandError(f"no Arimaa record {args.record} in {args.store}")
    try:
        text = export_text(chosen.record)
    except RecordError as exc:
        raise CommandError(f"record {args.record}: {exc}") from None
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {args.output}: {exc.strerror}") from None
    else:
        print(text, end="")
    return 0
