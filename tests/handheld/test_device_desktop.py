"""`twinfold device` on a desktop (issue 24, item 9): a named config that cannot be read is
a one-line error (exit 2); a machine that is not a handheld keeps its data in the user's data
home, not /var/lib/twinfold; ALSA's lines go to the log."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from device_config import config_file

from firmware.cli import main
from hal.backends.device import config as config_module


@pytest.mark.parametrize("kind", ["missing", "folder", "binary", "not-toml"])
def test_a_named_config_that_cannot_be_read_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = tmp_path / "device.toml"
    if kind == "folder":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(b"\xff\xfe\x00\x81" * 64)
    elif kind == "not-toml":
        path.write_text("[display\nmode = 'one'\n")
    assert main(["device", "--config", str(path), "--frames", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"twinfold device: error: the config {path} ")
    assert not (tmp_path / "data").exists()  # nothing was started


def _installed_elsewhere(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, config: str, model: str | None
) -> None:
    """No installed config; `twinfold device` without --config reads the test's config (its
    framebuffer stand-ins) as if it were the defaults, on a board whose model is `model`."""
    monkeypatch.setattr(config_module, "DEFAULT_PATH", tmp_path / "etc" / "device.toml")
    original = config_module.load_config
    model_file = tmp_path / "model"
    if model is not None:
        model_file.write_bytes(model.encode() + b"\0")

    def load_config(path):  # type: ignore[no-untyped-def]
        loaded, problems = original(Path(config) if path is None else path)
        system = dataclasses.replace(loaded.system, model_file=str(model_file))
        return dataclasses.replace(loaded, system=system), problems

    monkeypatch.setattr(config_module, "load_config", load_config)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


def test_a_desktop_keeps_the_device_data_in_the_users_data_home(
    tmp_path: Path, framebuffer, monkeypatch: pytest.MonkeyPatch, capsys  # type: ignore[no-untyped-def]
) -> None:
    _installed_elsewhere(monkeypatch, tmp_path, config_file(tmp_path, framebuffer), None)
    assert main(["device", "--frames", "2"]) == 0
    err = capsys.readouterr().err
    home = tmp_path / "xdg" / "twinfold" / "device"
    assert "not a Twinfold handheld" in err and str(home) in err
    assert (home / "store.db").exists() and (home / "twinfold.log").exists()
    assert not (tmp_path / "data").exists()  # the config's data_dir (/var/lib/twinfold) unused


def test_a_raspberry_pi_uses_the_configured_data_directory(
    tmp_path: Path, framebuffer, monkeypatch: pytest.MonkeyPatch, capsys  # type: ignore[no-untyped-def]
) -> None:
    config = config_file(tmp_path, framebuffer)
    _installed_elsewhere(monkeypatch, tmp_path, config, "Raspberry Pi Zero 2 W Rev 1.0")
    assert main(["device", "--frames", "2"]) == 0
    assert "not a Twinfold handheld" not in capsys.readouterr().err
    assert (tmp_path / "data" / "store.db").exists()
    assert not (tmp_path / "xdg").exists()


def test_alsa_lines_go_to_the_log_not_the_terminal(
    tmp_path: Path, framebuffer, monkeypatch: pytest.MonkeyPatch, capfd  # type: ignore[no-untyped-def]
) -> None:
    import os

    from hal import sdl_audio

    def chatty_audio():  # type: ignore[no-untyped-def]
        os.write(2, b"ALSA lib confmisc.c:767:(parse_card) cannot find card '0'\n")
        return None

    monkeypatch.setattr(sdl_audio, "make_audio", chatty_audio)
    config = config_file(tmp_path, framebuffer).replace("audio = false", "audio = true")
    Path(config).write_text(Path(config).read_text().replace("audio = false", "audio = true"))
    assert main(["device", "--config", config, "--frames", "2"]) == 0
    assert "ALSA lib" not in capfd.readouterr().err
    log = (tmp_path / "data" / "twinfold.log").read_text()
    assert "the audio library printed: ALSA lib confmisc.c:767" in log
