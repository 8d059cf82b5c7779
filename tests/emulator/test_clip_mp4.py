"""MP4 clips (issue 26): decoded frame by frame with PyAV they are the movie's headless frames
(the `exact` encoding is lossless), and their sound track is the effects the movie's ticks
played, each at its tick."""

from __future__ import annotations

import sys
from pathlib import Path

import av
import numpy as np
import pygame
import pytest
from PIL import Image

from emulator.clip import movie_machine
from emulator.layout import DEFAULT_GAP, Layout
from firmware.cli import main as cli_main
from hal.interfaces import TICK_HZ, Audio
from hal.sdl_audio import DEFAULT, EFFECTS, RATE, synthesise
from tests.emulator.test_app import make_app, run
from tests.emulator.test_clip import MOVIE, headless_hashes, one_line_error, panels_hash

FIRST, LAST = 10, 400


def video_frames(path: Path) -> list[Image.Image]:
    with av.open(str(path)) as container:
        return [frame.to_image() for frame in container.decode(video=0)]


def audio_track(path: Path) -> tuple[np.ndarray, int]:
    """The decoded sound (floats, -1..1, mono) and its sample rate."""
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        rate = stream.codec_context.sample_rate
        parts = [frame.to_ndarray().reshape(-1) for frame in container.decode(stream)]
    return np.concatenate(parts), rate


class Heard(Audio):
    """The test's own record of what the machine played, by the tick it played it in."""

    def __init__(self, machine_tick: object) -> None:
        self.tick = machine_tick
        self.played: list[tuple[int, str, float]] = []

    def play(self, effect: str, volume: float) -> None:
        self.played.append((self.tick(), effect, volume))  # type: ignore[operator]


def expected_sound(tmp: Path, first: int, last: int) -> np.ndarray:
    """The movie's effects laid out at 22 050 Hz: one started in the tick before frame k
    starts at k / 60 s (built here from the synthesiser's notes, not by the clip code)."""
    machine = movie_machine(MOVIE, tmp)
    heard = Heard(lambda: machine.tick)
    machine.hal.audio = heard
    while machine.tick < last:
        machine.step()
    machine.store.close()
    frames = last - first + 1
    out = np.zeros(round(frames * RATE / TICK_HZ))
    for tick, effect, volume in heard.played:
        samples = np.array(synthesise(EFFECTS.get(effect, DEFAULT)), dtype=float) * volume
        start = round((tick + 1 - first) * RATE / TICK_HZ)
        lo, hi = max(0, -start), min(len(samples), len(out) - start)
        if hi > lo:
            out[start + lo : start + hi] += samples[lo:hi]
    return np.clip(out, -32768, 32767) / 32768


def test_an_exact_mp4_clip_is_the_movies_headless_frames(tmp_path: Path) -> None:
    out = tmp_path / "clip.mp4"
    argv = ["clip", str(MOVIE), "--out", str(out), "--from", str(FIRST), "--to", str(LAST)]
    assert cli_main([*argv, "--progress", "never"]) == 0
    expected = headless_hashes(tmp_path / "ref", LAST)[FIRST:]
    layout = Layout("vertical", 1, DEFAULT_GAP)
    images = video_frames(out)
    assert len(images) == len(expected)  # one video frame per tick, --from to --to
    for position, image in enumerate(images):
        assert image.size == layout.geometry().size
        assert panels_hash(image, layout) == expected[position], f"frame {position}"
    assert len(set(expected)) > 10  # the movie really moves in that range


def test_the_mp4_sound_track_is_the_movies_effects_at_their_ticks(tmp_path: Path) -> None:
    out = tmp_path / "clip.mp4"
    argv = ["clip", str(MOVIE), "--out", str(out), "--from", str(FIRST), "--to", str(LAST)]
    assert cli_main([*argv, "--progress", "never"]) == 0
    decoded, rate = audio_track(out)
    want = expected_sound(tmp_path / "ref", FIRST, LAST)
    assert rate == RATE
    # AAC codes 1024-sample blocks: the decoded track ends within one block of the video's
    assert len(want) <= len(decoded) < len(want) + 1024
    got = decoded[: len(want)]
    loud = np.abs(want) > 0.01
    assert loud.sum() > RATE // 10  # the movie makes sounds (at least 0.1 s of them)
    # lossy, but the same waveform at the same place: high correlation at lag 0 (measured
    # 0.9995; a note a tick early or late, 367 samples, puts its square wave out of phase),
    # and the silent stretches stay silent (measured 0.0002; AAC rings a little around each
    # note's edges, hence the margin of 2048 samples)
    correlation = float(np.dot(got, want) / np.sqrt(np.dot(got, got) * np.dot(want, want)))
    assert correlation > 0.98, correlation
    quiet = np.convolve(loud, np.ones(2048), mode="same") == 0  # far from any note
    assert quiet.sum() > RATE and np.abs(got[quiet]).max() < 0.005
    # and the loudness follows, block by block of 6 ticks (measured: within 0.0011 of a
    # peak block RMS of 0.12; a note missing or moved by a block would fail this)
    block = RATE // TICK_HZ * 6
    n = len(want) // block
    rms_want = np.sqrt((want[: n * block].reshape(n, block) ** 2).mean(axis=1))
    rms_got = np.sqrt((got[: n * block].reshape(n, block) ** 2).mean(axis=1))
    assert np.abs(rms_got - rms_want).max() < 0.02


def test_a_compatible_mp4_is_420_and_close_to_the_frames(tmp_path: Path) -> None:
    """`--mp4 compatible`: even sides (4:2:0), lossy; each decoded panel stays close to the
    headless frame (mean error a few levels of 255: chroma at half resolution blurs the
    colour edges of pixel art, which is why `exact` is the default)."""
    out = tmp_path / "c.mp4"
    argv = ["clip", str(MOVIE), "--out", str(out), "--to", "60", "--mp4", "compatible"]
    assert cli_main([*argv, "--progress", "never"]) == 0
    with av.open(str(out)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.pix_fmt == "yuv420p"
        images = [f.to_image() for f in container.decode(stream)]
    assert len(images) == 61
    machine = movie_machine(MOVIE, tmp_path / "ref")
    layout = Layout("vertical", 1, DEFAULT_GAP).geometry()
    for k, image in enumerate(images):
        if k:
            machine.step()
        machine.render()
        assert image.size[0] % 2 == 0 and image.size[1] % 2 == 0
        assert layout.upper is not None
        top = np.asarray(image)[layout.upper.y : layout.upper.y + 192, :256].astype(int)
        want = pygame.surfarray.pixels3d(machine.top).swapaxes(0, 1).astype(int)
        assert np.abs(top - want).mean() < 6
    machine.store.close()


def test_the_clip_hotkey_writes_an_mp4_with_the_sound_of_play(tmp_path: Path) -> None:
    app = make_app(tmp_path, "--game", "probe", "--clip-format", "mp4")
    try:
        run(app, 120)
        before = app.machine.frame_hash(), app.machine.tick
        path = app.save_clip(seconds=1)
        assert path is not None and path.suffix == ".mp4" and path.parent == tmp_path / "clips"
        assert (app.machine.frame_hash(), app.machine.tick) == before
        assert len(video_frames(path)) == 61  # positions 60..120
        sound, rate = audio_track(path)  # the probe plays nothing: a silent track of 61 ticks
        n = round(61 * RATE / TICK_HZ)
        assert rate == RATE and n <= len(sound) < n + 1024
        assert np.abs(sound).max() < 0.01
    finally:
        app.shutdown()


def test_mp4_without_pyav_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "av", None)  # `import av` raises ImportError
    err = one_line_error(capsys, ["clip", str(MOVIE), "--out", str(tmp_path / "c.mp4")])
    assert "PyAV" in err and "video" in err
    assert not list(tmp_path.iterdir())
    err = one_line_error(capsys, ["emu", "--store", str(tmp_path / "s.db"), "--clip-format", "mp4"])
    assert "PyAV" in err
