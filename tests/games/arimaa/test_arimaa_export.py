"""`twinfold arimaa-export`: stored records listed and written as move lists (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.cli import main
from firmware.match import LocalSeat, Match
from firmware.storage import Store
from games.arimaa.match import ArimaaAction, ArimaaRules, setup_action, turn_action
from games.arimaa.records import make_record
from games.arimaa.rules.notation import parse_record, write_record
from games.arimaa.rules.position import named_setup


def stored_game(tmp_path: Path) -> tuple[Path, int, ArimaaRules]:
    rules = ArimaaRules.new(None)
    seats = [LocalSeat[ArimaaAction](), LocalSeat[ArimaaAction]()]
    match: Match[ArimaaAction] = Match(rules, seats)
    actions = [
        (0, setup_action(0, named_setup(0, "default"))),
        (1, setup_action(1, named_setup(1, "99of9"))),
        (0, turn_action([(11, 19), (10, 18), (19, 27)])),  # Ed2n Cc2n Ed3n Cc3x
        (1, ArimaaAction("resign")),
    ]
    for seat, action in actions:
        match.submit(seat, action)
    record = make_record(rules, [(p.seat, p.data) for p in match.history], ("A", "B"), "two",
                         (True, True))
    store = Store.open(tmp_path / "store.db")
    rid = store.add_record("arimaa", {"summary": "A v B", **record})
    return tmp_path / "store.db", rid, rules


def test_lists_and_exports_a_record(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path, rid, rules = stored_game(tmp_path)
    assert main(["arimaa-export", str(path)]) == 0
    assert capsys.readouterr().out == f"{rid}\tA v B\n"
    out = tmp_path / "game.txt"
    assert main(["arimaa-export", str(path), str(rid), "-o", str(out)]) == 0
    text = out.read_text()
    lines = text.splitlines()
    assert lines[:-1] == write_record(rules.game).splitlines()
    assert lines[-1] == "2s" and "Cc3x" in lines[2]
    assert parse_record(text).position == parse_record(write_record(rules.game)).position


@pytest.mark.parametrize(
    "args, message",
    [
        (["nowhere.db"], "no store at"),
        (["STORE", "999"], "no Arimaa record 999"),
    ],
)
def test_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture, args, message) -> None:
    path, _rid, _rules = stored_game(tmp_path)
    args = [str(path) if a == "STORE" else str(tmp_path / a) if a.endswith(".db") else a
            for a in args]
    assert main(["arimaa-export", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
