"""Instant-replay clips (issue 26): `twinfold clip` and the clip hotkey write animated images
whose decoded frames are exactly the frames the firmware showed."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest
from PIL import Image

from emulator.clip import movie_machine
from emulator.layout import DEFAULT_GAP, Layout
from firmware.cli import main as cli_main
from firmware.machine import screens_hash
from hal.interfaces import SCREEN_H, SCREEN_W
from tests.emulator.test_app import key_event, make_app, run

ROOT = Path(__file__).resolve().parents[2]
MOVIE = ROOT / "docs" / "movies" / "reversi-hints.txt"


def headless_hashes(tmp: Path, last: int) -> list[str]:
    """frame_hash of the frame shown after k ticks, k = 0..last, of a headless replay."""
    machine = movie_machine(MOVIE, tmp)
    out = []
    for k in range(last + 1):
        if k:
            machine.step()
        machine.render()
        out.append(machine.frame_hash())
    machine.store.close()
    return out


def decoded(path: Path) -> list[tuple[Image.Image, int]]:
    """Each frame of an animated image (RGB) with the ticks it lasts (1/60 s each)."""
    frames = []
    total_ms = 0.0
    shown_ticks = 0
    with Image.open(path) as im:
        for index in range(im.n_frames):
            im.seek(index)
            total_ms += im.info["duration"]
            ticks = round(total_ms * 60 / 1000) - shown_ticks
            shown_ticks += ticks
            frames.append((im.convert("RGB"), ticks))
    return frames


def panels_hash(image: Image.Image, layout: Layout) -> str:
    """screens_hash of the upper and lower panel cut out of a 1:1 clip frame."""
    geometry = layout.geometry()
    surface = pygame.image.frombytes(image.tobytes(), image.size, "RGB")
    cut = []
    for rect in (geometry.upper, geometry.lower):
        assert rect is not None and rect.scale == 1
        cut.append(surface.subsurface((rect.x, rect.y, SCREEN_W, SCREEN_H)).copy())
    return screens_hash(cut[0], cut[1])


@pytest.mark.parametrize("name", ["clip.png", "clip.gif"])
def test_a_clip_of_a_movie_is_the_movies_headless_frames(tmp_path: Path, name: str) -> None:
    first, last = 10, 400
    out = tmp_path / name
    args = ["clip", str(MOVIE), "--out", str(out), "--from", str(first), "--to", str(last)]
    assert cli_main([*args, "--progress", "never"]) == 0
    expected = headless_hashes(tmp_path / "ref", last)[first:]
    layout = Layout("vertical", 1, DEFAULT_GAP)
    every = 3 if name.endswith(".gif") else 1  # GIF: 20 frames per second
    position = 0
    for image, ticks in decoded(out):
        assert image.size == layout.geometry().size
        assert panels_hash(image, layout) == expected[position]
        # a merged frame lasts while the firmware showed the same picture
        assert (ticks >= 1 and ticks % every == 0) or position + ticks == len(expected)
        position += ticks
    assert position == len(expected)  # every frame from --from to --to, none more
    assert len(set(expected)) > 10  # the movie really moves in that range


def test_the_clip_follows_layout_and_scale(tmp_path: Path) -> None:
    out = tmp_path / "h.png"
    argv = ["clip", str(MOVIE), "--out", str(out), "--to", "30", "--layout", "horizontal"]
    assert cli_main([*argv, "--scale", "2", "--progress", "never"]) == 0
    with Image.open(out) as im:
        assert im.size == Layout("horizontal", 2, DEFAULT_GAP).geometry().size


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert cli_main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err
    return err


def test_bad_clip_arguments_give_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "c.gif")
    assert "nosuch" in one_line_error(capsys, ["clip", str(tmp_path / "nosuch.txt"), "--out", out])
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if not os.access(locked, os.W_OK):  # root may write anywhere
            err = one_line_error(capsys, ["clip", str(MOVIE), "--out", str(locked / "c.gif")])
            assert "permission" in err
    finally:
        locked.chmod(0o700)
    err = one_line_error(
        capsys, ["clip", str(MOVIE), "--out", str(tmp_path / "nofolder" / "c.gif")]
    )
    assert "no folder" in err
    (tmp_path / "dir.gif").mkdir()
    err = one_line_error(capsys, ["clip", str(MOVIE), "--out", str(tmp_path / "dir.gif")])
    assert "it is a folder" in err
    (tmp_path / "file").write_text("x")
    err = one_line_error(capsys, ["clip", str(MOVIE), "--out", str(tmp_path / "file" / "c.gif")])
    assert "not a folder" in err
    assert ".gif" in one_line_error(capsys, ["clip", str(MOVIE), "--out", str(tmp_path / "c.avi")])
    err = one_line_error(capsys, ["clip", str(MOVIE), "--out", out, "--from", "90", "--to", "20"])
    assert "after" in err
    assert [p.name for p in tmp_path.glob("*.gif*")] == ["dir.gif"]  # nothing written


def test_the_clip_hotkey_saves_the_last_seconds_and_play_goes_on(tmp_path: Path) -> None:
    app = make_app(tmp_path, "--game", "probe")
    try:
        run(app, 120)
        before = app.machine.frame_hash(), app.machine.tick
        path = app.save_clip(seconds=1)
        assert path is not None and path.parent == tmp_path / "clips"
        assert (app.machine.frame_hash(), app.machine.tick) == before  # unchanged by it
        frames = decoded(path)
        assert sum(t for _, t in frames) == 61  # positions 60..120: one second, both ends
        assert len(frames) == 21  # the probe changes every tick: one GIF frame per 3 ticks
        pygame.event.post(key_event(pygame.KEYDOWN, "c"))
        run(app, 1)
        assert len(list((tmp_path / "clips").glob("*.gif"))) == 2
        assert "clip" in app.display.status
    finally:
        app.shutdown()
