"""Every `twinfold` subcommand against hostile arguments (issue 17, item 2).

The subcommands and their arguments are read from the parser itself, so a command added
later is swept too. Each run gets one hostile value (a folder, a binary file, a path that
cannot be written, a path under a plain file, a huge and a negative number) in one argument,
on top of a small set of arguments that make the command otherwise valid and quick. A run
must end with exit status 0 (the value was fine, e.g. a folder for `--shots`) or 2 with
exactly one line on stderr, and never with a trace; a path under a file and any number out
of range must be refused (status 2).
"""

from __future__ import annotations

import argparse
import io
import os
from pathlib import Path

import pytest

from firmware.cli import build_parser
from firmware.cli import main as cli_main

# Arguments that make each command valid and quick, so the hostile value is what is tested.
# A command missing here is still swept, with its required arguments filled in generically.
BASELINE: dict[str, list[str]] = {
    "headless": ["--frames", "1"],
    "emu": ["--frames", "1", "--scale", "1"],
    "sevens-sim": ["--games", "1", "--seats", "simpleton,cool,hitman,coward"],
    "sevens-game": ["--seats", "simpleton,cool,hitman,coward"],
    "panels-sim": ["--games", "1", "--target", "30"],
    "regions-gen": ["--crossings", "3"],
}
# Arguments with a documented fallback instead of a refusal, and why.
FALLBACKS = {
    ("device", "config"): "an unreadable config boots the handheld on its defaults, with a "
    "warning naming the file (a unit must start even with a broken config)",
}
HUGE = str(10**30)
NEGATIVE = "-5"


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def value_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Arguments that take a value (options with one, and positionals)."""
    return [
        a
        for a in parser._actions
        if not isinstance(a, argparse._HelpAction) and a.nargs != 0 and a.dest != "help"
    ]


def is_number(action: argparse.Action) -> bool:
    return action.type is not None and action.type is not str and not action.choices


def device_config(tmp: Path) -> str:
    """A device config whose every path is under `tmp` (no panels or input exist there)."""
    path = tmp / "device.toml"
    path.write_text(
        f'[display.upper]\ndevice = "{tmp / "fb0"}"\n[display.lower]\ndevice = "{tmp / "fb1"}"\n'
        f'[input]\nscan_dir = "{tmp / "input"}"\n[radio]\nenabled = false\n'
        f'[system]\ndata_dir = "{tmp / "device-data"}"\naudio = false\n'
    )
    return str(path)


def keep_device_off_the_host(monkeypatch: pytest.MonkeyPatch, tmp: Path) -> None:
    """A hostile --config makes the device fall back to its defaults (/var/lib/twinfold):
    move that data directory under `tmp`, so the sweep never writes to the host."""
    import dataclasses

    config_module = pytest.importorskip("hal.backends.device.config")
    original = config_module.load_config

    def load_config(path):  # type: ignore[no-untyped-def]
        config, problems = original(path)
        system = dataclasses.replace(config.system, data_dir=str(tmp / "device-data"))
        return dataclasses.replace(config, system=system), problems

    monkeypatch.setattr(config_module, "load_config", load_config)


def fill_required(parser: argparse.ArgumentParser, command: str, tmp: Path) -> list[str]:
    argv = list(BASELINE.get(command, []))
    if command == "device":
        argv += ["--config", device_config(tmp), "--frames", "1"]
    for action in value_actions(parser):
        flag = action.option_strings[0] if action.option_strings else None
        if flag in argv or not (action.required or flag is None):
            continue
        value = str(action.choices[0]) if action.choices else ("1" if is_number(action) else "")
        if flag is None:
            good = tmp / "input.txt"
            good.write_text("\n")
            argv.append(str(good))
        else:
            argv += [flag, value or str(tmp / "value")]
    return argv


def with_value(argv: list[str], action: argparse.Action, value: str) -> list[str]:
    if not action.option_strings:  # a positional: the baseline's placeholder is replaced
        positional = [i for i, a in enumerate(argv) if not a.startswith("-") and "/" in a]
        out = list(argv)
        if positional:
            out[positional[-1]] = value
        else:
            out.append(value)
        return out
    flag = action.option_strings[0]
    if flag in argv:
        i = argv.index(flag)
        return [*argv[:i], flag, value, *argv[i + 2 :]]
    return [*argv, flag, value]


def hostile_values(tmp: Path) -> dict[str, str]:
    folder = tmp / "a-folder"
    folder.mkdir(exist_ok=True)
    binary = tmp / "binary.bin"
    binary.write_bytes(bytes(range(256)) * 8)
    plain = tmp / "plain-file"
    plain.write_text("x")
    return {
        "folder": str(folder),
        "binary file": str(binary),
        "unwritable path": "/proc/1/twinfold-cannot-exist/out.txt",
        "path under a file": str(plain / "below" / "out.txt"),
        "huge number": HUGE,
        "negative number": NEGATIVE,
    }


def cases() -> list[tuple[str, str, str]]:
    out = []
    for command, parser in sorted(subcommands().items()):
        for action in value_actions(parser):
            if action.choices:
                out.append((command, action.dest, "not-a-choice"))
                continue
            for kind in (
                "folder",
                "binary file",
                "unwritable path",
                "path under a file",
                "huge number",
                "negative number",
            ):
                out.append((command, action.dest, kind))
    return out


@pytest.mark.parametrize(("command", "dest", "kind"), cases())
def test_hostile_argument_gives_one_line_and_status_2(
    command: str,
    dest: str,
    kind: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # engines (aei, nboard) see EOF
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if command == "device":
        keep_device_off_the_host(monkeypatch, tmp_path)
    parser = subcommands()[command]
    action = next(a for a in value_actions(parser) if a.dest == dest)
    values = hostile_values(tmp_path)
    value = values.get(kind, kind)
    argv = [command, *with_value(fill_required(parser, command, tmp_path), action, value)]
    if command in ("headless", "emu") and "--store" not in argv:
        argv += ["--store", str(tmp_path / "store.db")]
    capsys.readouterr()
    code = cli_main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err, argv
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, (argv, err)
        assert lines[0].startswith("twinfold"), (argv, err)
    must_refuse = (command, dest) not in FALLBACKS and (
        kind in ("path under a file", "not-a-choice")
        or (kind in ("huge number", "negative number") and is_number(action))
    )
    if must_refuse:
        assert code == 2, (argv, "was accepted")
    assert os.getcwd() == str(tmp_path)


@pytest.mark.parametrize("command", sorted(subcommands()))
def test_bare_subcommand_is_clean(
    command: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each subcommand with only its baseline (e.g. `device`, which takes no arguments)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if command == "device":
        keep_device_off_the_host(monkeypatch, tmp_path)
    argv = [command, *fill_required(subcommands()[command], command, tmp_path)]
    if command in ("headless", "emu"):
        argv += ["--store", str(tmp_path / "store.db")]
    code = cli_main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err and code in (0, 2), (argv, code, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, (argv, err)


def test_every_subcommand_is_swept() -> None:
    swept = {command for command, _, _ in cases()}
    with_values = {c for c, p in subcommands().items() if value_actions(p)}
    assert swept == with_values and {"headless", "emu"} <= swept


@pytest.mark.parametrize("command", sorted(subcommands()))
def test_every_subcommand_and_argument_is_described(command: str) -> None:
    """`twinfold COMMAND --help` says what the command does and what each argument is."""
    parser = subcommands()[command]
    assert parser.description, f"{command} --help has no description"
    undescribed = [a.dest for a in parser._actions if not a.help]
    assert undescribed == [], f"{command}: no help for {undescribed}"
