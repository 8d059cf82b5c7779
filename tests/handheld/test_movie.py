"""`twinfold device --movie F`: the unit driven by an input movie ends where `twinfold
headless` playing the same movie ends (the state dump and the panels' pixels), on a fresh
store too (no first-start language choice); the live devices take over after the movie;
a bad movie is one line and starts nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
from device_config import config_file

from firmware.cli import main
from firmware.movie import parse_movie
from hal.interfaces import Button, InputSource, RawInput
from handheld.movie_input import MovieInput
from tests.hal.backends.device.test_framebuffer import check_panel

# Reversi for two on one unit: the board's cursor (its first press shows it at a1) to d3, A;
# the movie the image's QEMU check plays too (deploy/image/qemu_check.py).
MOVE_D3 = (
    Path(__file__).resolve().parents[2] / "deploy" / "image" / "movies" / "reversi-d3.txt"
).read_text(encoding="utf-8")
FRAMES = 200


def headless_run(tmp_path, movie, frames):
    shots, dump = tmp_path / "shots", tmp_path / "headless.json"
    args = ["headless", "--movie", str(movie), "--frames", str(frames)]
    assert main([*args, "--shots", str(shots), "--dump", str(dump)]) == 0
    screens = []
    for name in ("top", "bottom"):
        data = pygame.image.tobytes(pygame.image.load(str(shots / f"{name}.png")), "RGB")
        screens.append([tuple(data[i : i + 3]) for i in range(0, len(data), 3)])
    return json.loads(dump.read_text()), screens


def test_a_movie_plays_a_move_exactly_as_headless_plays_it(tmp_path, framebuffer):
    movie = tmp_path / "d3.movie"
    movie.write_text(MOVE_D3)
    config = config_file(tmp_path, framebuffer)
    dump = tmp_path / "device.json"
    args = ["device", "--config", config, "--movie", str(movie), "--frames", str(FRAMES)]
    assert main([*args, "--dump", str(dump)]) == 0
    state = json.loads(dump.read_text())
    assert state["game"]["moves"] == ["d3"] and state["seed"] == 3  # the args line applied
    want, (top, bottom) = headless_run(tmp_path, movie, FRAMES)
    assert state == want
    # each 256x192 screen centred on its 320x240 RGB565 panel, pixel for pixel
    check_panel(tmp_path / "fb0", (320, 240), 16, 640, 0, [(top, 32, 24)])
    check_panel(tmp_path / "fb1", (320, 240), 16, 640, 0, [(bottom, 32, 24)])


def test_a_fresh_store_with_a_movie_goes_to_the_launcher_as_headless_does(tmp_path, framebuffer):
    movie = tmp_path / "right.movie"
    movie.write_text("# twinfold movie 1\n120 press RIGHT\n126 release RIGHT\n")
    config = config_file(tmp_path, framebuffer)
    dump = tmp_path / "device.json"
    assert main(["device", "--config", config, "--movie", str(movie), "--frames", "160",
                 "--seed", "1", "--dump", str(dump)]) == 0  # fmt: skip
    state = json.loads(dump.read_text())
    assert state["scene"] == "launcher"  # not the first start's language choice
    (tmp_path / "right.movie").write_text(
        "# twinfold movie 1\n# args: --seed 1\n120 press RIGHT\n126 release RIGHT\n"
    )
    want, _ = headless_run(tmp_path, movie, 160)
    assert state == want


class Live(InputSource):
    """A live device: holds START from tick 5 and asks to quit from tick 8."""

    def __init__(self) -> None:
        self.polled: list[int] = []

    def poll(self, tick: int) -> RawInput:
        self.polled.append(tick)
        held = frozenset({Button.START}) if tick >= 5 else frozenset()
        return RawInput(held=held, quit_requested=tick >= 8)


def test_the_live_devices_are_read_throughout_and_take_over_after_the_movie():
    movie = parse_movie("# twinfold movie 1\n2 press A\n4 release A\n")
    live = Live()
    source = MovieInput(live, movie)
    got = [source.poll(tick) for tick in range(10)]
    assert live.polled == list(range(10))  # drained while the movie plays
    assert [Button.A in raw.held for raw in got[:6]] == [False, False, True, True, False, False]
    assert Button.START not in got[4].held and Button.START in got[5].held  # after frame 4
    assert not got[7].quit_requested and got[8].quit_requested


def test_the_quit_of_the_live_devices_passes_during_the_movie():
    movie = parse_movie("# twinfold movie 1\n20 press A\n")
    got = [MovieInput(Live(), movie).poll(tick) for tick in range(10)]
    assert got[9].quit_requested and Button.START not in got[9].held


def test_a_bad_movie_is_one_line_and_starts_nothing(tmp_path, framebuffer, capsys):
    movie = tmp_path / "bad.movie"
    movie.write_text("# twinfold movie 1\n10 press Z\n")
    config = config_file(tmp_path, framebuffer)
    assert main(["device", "--config", config, "--movie", str(movie), "--frames", "5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(movie) in err[0] and "line 2" in err[0]
    assert (tmp_path / "fb0").read_bytes() == b""  # no panel was written
    assert main(["device", "--config", config, "--movie", str(tmp_path / "none.movie")]) == 2
    assert "none.movie" in capsys.readouterr().err
