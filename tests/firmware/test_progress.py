"""The shared progress display (firmware/progress.py) and the long commands that use it:
shown on a terminal, never with --json, never when stderr is piped."""

from __future__ import annotations

import io
import json

import pytest

from firmware.cli import main as cli_main
from firmware.progress import progress, wanted


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_shown_on_a_terminal_only_and_never_with_json() -> None:
    assert wanted("auto", stream=FakeTerminal())
    assert not wanted("auto", stream=io.StringIO())  # piped or redirected
    assert not wanted("auto", json_output=True, stream=FakeTerminal())
    assert wanted("always", stream=io.StringIO()) and not wanted("never", stream=FakeTerminal())


def test_bar_counts_to_the_total() -> None:
    out = FakeTerminal()
    with progress(10, "games", show=True, stream=out) as update:
        for done in range(1, 11):
            update(done)
    assert "10/10" in out.getvalue() and "games" in out.getvalue()


def test_hidden_bar_writes_nothing() -> None:
    out = FakeTerminal()
    with progress(10, "games", show=False, stream=out) as update:
        update(5)
    assert out.getvalue() == ""


LONG_COMMANDS = [
    ["panels-sim", "--games", "2", "--target", "30"],
    ["sevens-sim", "--games", "2", "--seats", "simpleton,cool,hitman,coward"],
]


@pytest.mark.parametrize("argv", LONG_COMMANDS)
def test_long_commands_show_progress_on_a_terminal(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = FakeTerminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert cli_main(argv) == 0
    assert "2/2" in terminal.getvalue()
    capsys.readouterr()


@pytest.mark.parametrize("argv", LONG_COMMANDS)
def test_long_commands_are_quiet_with_json_and_when_piped(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = FakeTerminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert cli_main([*argv, "--json"]) == 0
    assert terminal.getvalue() == ""
    assert json.loads(capsys.readouterr().out)
    monkeypatch.setattr("sys.stderr", io.StringIO())  # piped
    assert cli_main(argv) == 0
    assert "2/2" not in capsys.readouterr().err
