"""The sevens-sim, sevens-game and sevens-replay commands, through firmware.cli.main."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_sim_json_figures_are_consistent_and_deterministic(capsys) -> None:  # type: ignore[no-untyped-def]
    argv = [
        "sevens-sim",
        "--games",
        "12",
        "--seats",
        "cool,hitman,coward,simpleton",
        "--json",
        "--seed",
        "4",
        "--progress",
        "never",
    ]
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["games"] == 12
    assert [s["personality"] for s in data["seats"]] == ["cool", "hitman", "coward", "simpleton"]
    assert sum(s["wins"] for s in data["seats"]) == 12
    assert sum(s["avg_place"] for s in data["seats"]) == pytest.approx(10.0)
    assert sum(s["avg_killed"] for s in data["seats"]) == pytest.approx(
        sum(s["avg_kills"] for s in data["seats"])
    )
    assert run(capsys, *argv)[1] == out
    other = run(capsys, *argv[:-4], "--seed", "5", "--progress", "never")[1]
    assert other != out


def test_sim_options_change_the_games(capsys) -> None:  # type: ignore[no-untyped-def]
    base = ["sevens-sim", "--games", "6", "--seats", "brute,brute,brute,brute", "--json"]
    plain = run(capsys, *base)[1]
    one = run(capsys, *base, "--option", "max-kill=1")[1]
    assert plain != one
    code, out, _ = run(
        capsys,
        *base,
        "--option",
        "three-walls=on",
        "--option",
        "extra-turn",
        "--option",
        "sevens-first=yes",
        "--option",
        "max-kill=12",
    )
    assert code == 0 and json.loads(out)["games"] == 6


def test_sim_text_table(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(
        capsys, "sevens-sim", "--games", "3", "--seats", "cool,simpleton,simpleton,simpleton"
    )
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0].startswith("3 games")
    assert len(lines) == 6
    assert "Cool" in lines[2] and "Simpleton" in lines[5]


@pytest.mark.parametrize(
    "argv",
    [
        ["--games", "0", "--seats", "cool,cool,cool,cool"],
        ["--games", "3", "--seats", "cool,cool,cool"],
        ["--games", "3", "--seats", "cool,cool,cool,genius"],
        ["--games", "3", "--seats", "cool,cool,cool,cool", "--option", "max-kill=5"],
        ["--games", "3", "--seats", "cool,cool,cool,cool", "--option", "colour=red"],
        ["--games", "3", "--seats", "cool,cool,cool,cool", "--option", "extra-turn=maybe"],
        ["--games", "x", "--seats", "cool,cool,cool,cool"],
        ["--seats", "cool,cool,cool,cool"],
    ],
)
def test_sim_bad_arguments_get_one_line(capsys, argv: list[str]) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "sevens-sim", *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_progress_bar_on_request(capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(
        capsys,
        "sevens-sim",
        "--games",
        "4",
        "--seats",
        "simpleton,simpleton,simpleton,simpleton",
        "--progress",
        "always",
    )
    assert code == 0
    assert "4/4" in err
    code, _, err = run(
        capsys,
        "sevens-sim",
        "--games",
        "4",
        "--seats",
        "simpleton,simpleton,simpleton,simpleton",
        "--progress",
        "never",
    )
    assert err == ""


def test_game_save_checks_the_path_before_playing(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plain = tmp_path / "plain"
    plain.write_text("x")
    code, out, err = run(
        capsys, "sevens-game", "--seats", "cool,hitman,coward,brute", "--save", str(plain / "g")
    )
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    code, out, _ = run(capsys, "sevens-game", "--seats", "cool,hitman,coward,brute", "--save", "-")
    assert code == 0 and json.loads(out)["events"]


def test_game_save_and_replay(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.json"
    code, out, _ = run(
        capsys,
        "sevens-game",
        "--seats",
        "cool,hitman,coward,brute",
        "--seed",
        "2",
        "--lang",
        "ja",
        "--save",
        str(path),
    )
    assert code == 0
    assert "Hitman" in out and "result" in out
    code, out, _ = run(capsys, "sevens-replay", str(path))
    assert code == 0 and "replays correctly" in out
    assert "Hitman (seat 2)" in out and "Player" not in out  # the record names the seats
    code, out, _ = run(capsys, "sevens-replay", str(path), "--json")
    assert json.loads(out)["events"][-1]["type"] == "end"
    data = json.loads(path.read_text())
    data["events"][4] = {"type": "pass", "seat": 0}
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "sevens-replay", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, out, err = run(capsys, "sevens-replay", str(tmp_path / "none.json"))
    assert code == 2 and "cannot read" in err
    code, out, err = run(
        capsys,
        "sevens-game",
        "--seats",
        "cool,hitman,coward,brute",
        "--save",
        str(tmp_path / "no" / "dir" / "x.json"),
    )
    assert code == 2 and "cannot write" in err
