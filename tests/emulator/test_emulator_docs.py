"""The documented keyboard map is the default map (docs/emulator.md, README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from emulator.keymap import DEFAULT_KEYMAP, HOTKEYS

ROOT = Path(__file__).resolve().parents[2]


def test_docs_name_every_default_key() -> None:
    doc = (ROOT / "docs" / "emulator.md").read_text(encoding="utf-8")
    for section in ("keyboard", "hotkeys"):
        for name, keys in DEFAULT_KEYMAP[section].items():
            for key in keys:
                if key.startswith("shift+f") or key in ("f1", "f2", "f3", "f4"):
                    continue  # documented as ranges: `shift+f1` .. `shift+f4`, `f1` .. `f4`
                assert f"`{key}`" in doc, f"{section}.{name}: `{key}` missing from the docs"
    assert "`shift+f1` .. `shift+f4`" in doc and "`f1` .. `f4`" in doc
    assert len(HOTKEYS) == len(DEFAULT_KEYMAP["hotkeys"])


def test_readme_has_the_keyboard_map() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## Keyboard map" in readme
    section = readme.split("## Keyboard map", 1)[1]
    for button in ("A", "B", "X", "Y"):
        key = DEFAULT_KEYMAP["keyboard"][button][0]
        assert f"`{key}`" in section
    for action in ("screenshot", "record", "reset", "overlay"):
        assert f"`{DEFAULT_KEYMAP['hotkeys'][action][0]}`" in section


def test_emu_help_lists_every_hotkey_and_the_clip_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from emulator.keymap import HOTKEY_HELP
    from firmware.cli import main

    assert main(["emu", "--help"]) == 0
    out = capsys.readouterr().out
    assert set(HOTKEY_HELP) == set(HOTKEYS)
    for action, text in HOTKEY_HELP.items():
        keys = ", ".join(DEFAULT_KEYMAP["hotkeys"][action])
        assert f"{keys} " in out and text in out
    for option in ("--fullscreen", "--fit", "windows", "twinfold clip MOVIE", "--clip-format"):
        assert option in out


def test_the_docs_describe_the_new_commands_and_options() -> None:
    doc = (ROOT / "docs" / "emulator.md").read_text(encoding="utf-8")
    for needle in ("twinfold clip", "--fullscreen", "--fit", "--layout windows", "Rewind"):
        assert needle in doc
    for needle in ("--clip-format", "--mp4 exact|compatible", "High DPI", "computer REQUEST POLL"):
        assert needle in doc
    for needle in (".ci/window-checks", "TWINFOLD_REQUIRE_WINDOWS=1"):
        assert needle in doc


def test_readme_says_where_the_emulator_writes_its_files(tmp_path: Path) -> None:
    """Issue 34, item 16: the folders README names are those the emulator writes to."""
    import pygame

    from tests.emulator.test_app import make_app, press, probe, run

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "its data directory, `~/.local/share/twinfold` (`$XDG_DATA_HOME/twinfold`;" in readme
    app = make_app(tmp_path, "--game", "probe")
    try:
        run(app, 40)
        assert probe(app).count > 0
        press(app, "f12")  # screenshot
        press(app, "c")  # clip
        app.save_state(1)
        press(app, "f11")  # record on ... and off
        run(app, 3)
        press(app, "f11")
    finally:
        app.shutdown()
        pygame.display.quit()
    written = {p.parent.name for p in tmp_path.rglob("twinfold-*")} | {
        p.parent.name for p in tmp_path.rglob("slot-*")
    }
    assert written == {"clips", "screenshots", "movies", "states"}
    for folder in written:
        assert f"`{folder}/`" in readme, folder


def test_readme_names_what_the_window_and_image_checks_need() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    window_checks = (ROOT / ".ci" / "window-checks").read_text(encoding="utf-8")
    packages = "xvfb xdotool x11-utils matchbox-window-manager"
    assert f"`{packages}`" in readme and packages in window_checks
    assert "`python3 run.py test` takes about" in readme
    for needle in ("root", "`qemu-system-aarch64`", "`mmdebstrap`", ".ci/image-checks"):
        assert needle in readme, needle
