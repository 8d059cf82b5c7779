"""`twinfold arimaa-turns` through firmware.cli.main: output and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.cli import main
from games.arimaa.rules.notation import parse_record, write_diagram, write_record
from games.arimaa.rules.randomplay import random_game


def test_turn_count_matches_the_engine(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    game = random_game(17, 14)
    record = tmp_path / "game.txt"
    record.write_text(write_record(game) + "\n")
    assert main(["arimaa-turns", str(record), "--count"]) == 0
    assert int(capsys.readouterr().out) == len(parse_record(write_record(game)).legal_turns())


def test_lists_turns_from_a_diagram(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    game = random_game(2, 6)
    diagram = tmp_path / "pos.txt"
    label = f"9{'gs'[game.position.side]}"
    diagram.write_text(write_diagram(game.position, label))
    assert main(["arimaa-turns", str(diagram)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(game.legal_turns()) and len(set(lines)) == len(lines)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("1g Ra1 Qb2", "Qb2"),
        ("1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Ed2 Me2 Cf2 Dg2 Hh2", "no turn"),
    ],
)
def test_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture, content, message
) -> None:
    path = tmp_path / "in.txt"
    if content is not None:
        path.write_text(content)
    assert main(["arimaa-turns", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
