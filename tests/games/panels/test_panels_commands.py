"""`twinfold panels-sim` through the CLI entry point."""

from __future__ import annotations

import json

import pytest

from firmware.cli import main


def test_sim_json_shape(capsys) -> None:
    assert main(["panels-sim", "--games", "4", "--levels", "3,1", "--seed", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 4
    assert [p["level"] for p in data["players"]] == [3, 1]
    for p in data["players"]:
        assert {"level", "wins", "avg_score", "avg_yaku"} <= set(p)
    assert sum(p["wins"] for p in data["players"]) + data["players"][0]["draws"] == 4


def test_sim_table(capsys) -> None:
    assert main(["panels-sim", "--games", "2", "--levels", "2,2"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and out.count("\n") == 5


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "argument --games: expected a number 1..100000, not 0"),
        (["--games", "2", "--levels", "4"], "--levels must be two levels like 4,1: '4'"),
        (["--games", "2", "--levels", "4,7"], "unknown level 7 (levels are 1-4)"),
        (["--games", "2", "--target", "5"], "argument --target: expected a number 10..100000, not 5"),  # noqa: E501
    ],
)
def test_sim_bad_arguments_one_line(capsys, argv, message) -> None:
    assert main(["panels-sim", *argv]) == 2
    err = capsys.readouterr().err
    assert err == f"twinfold panels-sim: error: {message}\n"


def test_sim_unparsable_argument_exits_2(capsys) -> None:
    assert main(["panels-sim", "--games", "many"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
