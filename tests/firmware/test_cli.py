import subprocess
import sys

from firmware.cli import main


def test_unknown_subcommand_is_one_line_error(capsys):
    try:
        main(["no-such-command"])
    except SystemExit as exc:
        assert exc.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "invalid choice" in err[0]


def test_module_entry_point_runs():
    proc = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "--help"], capture_output=True, text=True
    )
    assert proc.returncode == 0
    assert "headless" in proc.stdout


def test_module_entry_point_turns_command_errors_into_one_line(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "headless", "--game", "no-such-game"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
