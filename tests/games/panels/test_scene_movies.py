"""The README pictures' input movies still show what their captions say (P-GAME-9)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from firmware.headless import movie_length
from firmware.movie import parse_movie
from firmware.testing import machine_from_movie, run

MOVIES = Path(__file__).resolve().parents[3] / "docs" / "movies"


def final_dump(tmp: Path, name: str) -> dict:
    text = (MOVIES / f"{name}.txt").read_text()
    args = next(shlex.split(line.split(":", 1)[1]) for line in text.splitlines()
                if line.startswith("# args:"))
    seed = int(args[args.index("--seed") + 1])
    options = dict(args[i + 1].split("=", 1) for i, a in enumerate(args) if a == "--option")
    m = machine_from_movie(tmp, text, game="panels", seed=seed, options=options)
    run(m, movie_length(parse_movie(text)), draw=False)
    return m.dump()["game"]


@pytest.mark.parametrize(
    ("name", "check"),
    [
        ("panels-play", lambda g: g["selected"] is not None and g["phase"] == "play"),
        ("panels-yaku", lambda g: g["animation"] == "yaku" and g["announce"]),
        ("panels-cpu", lambda g: g["animation"] == "rotate" and g["turn"] == 1),
    ],
)
def test_movie_shows_its_caption(tmp_path, name, check) -> None:
    assert check(final_dump(tmp_path, name))
