"""`twinfold new-game ID` (issue 37, item 4): the game it writes passes ruff, the layer and
cycle checks, mypy, its own tests (the match contract among them) and the sweeps that find
it from its cartridge and its movie, unchanged, in a copy of the checkout; a bad id or title,
a taken id or a file already there is refused in one line with nothing written."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.cli import main

ROOT = Path(__file__).resolve().parents[2]
# what the checks and the sweeps read: the packages, the scripts, the tests, the movies
COPIED = (
    "hal", "firmware", "games", "emulator", "handheld", "tools", "bench",
    "docs/examples/tictactoe", "docs/movies", "tests",
)
WRITTEN = [
    "docs/movies/{id}-play.txt",
    "games/{id}/__init__.py",
    "games/{id}/ai.py",
    "games/{id}/cartridge.py",
    "games/{id}/match.py",
    "games/{id}/rules.py",
    "games/{id}/scene/__init__.py",
    "games/{id}/scene/play.py",
    "tests/games/{id}/test_{id}.py",
]
LINT_IMPORTS = str(Path(sys.executable).with_name("lint-imports"))


def copy_checkout(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis")
    for part in COPIED:
        shutil.copytree(ROOT / part, dest / part, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    if (ROOT / ".mypy_cache").is_dir():  # speed only: mypy still checks every changed file
        shutil.copytree(ROOT / ".mypy_cache", dest / ".mypy_cache")
    return dest


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(cwd), COLUMNS="200", SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)


@pytest.mark.slow
def test_a_new_game_passes_every_check_and_sweep_as_written(tmp_path: Path) -> None:
    root = copy_checkout(tmp_path / "checkout")
    made = _run([sys.executable, "-m", "firmware.cli", "new-game", "sample"], root)
    assert made.returncode == 0, made.stderr
    assert made.stdout.split() == [w.format(id="sample") for w in WRITTEN]
    python = sys.executable
    checks = [  # as `python3 run.py test` runs them, on the whole copy
        ("ruff", [python, "-m", "ruff", "check", "--no-cache", "."]),
        ("lint-imports", [LINT_IMPORTS, "--no-cache"]),
        ("import_cycles", [python, "tools/import_cycles.py"]),
        ("mypy", [python, "-m", "mypy"]),
    ]
    for name, cmd in checks:
        result = _run(cmd, root)
        assert result.returncode == 0, f"{name}:\n{result.stdout}{result.stderr}"
    # the layer checks do hold the new game: an impure import planted in its rules is named
    rules = root / "games" / "sample" / "rules.py"
    pure = rules.read_text(encoding="utf-8")
    rules.write_text(pure + "\nimport pygame  # planted\n", encoding="utf-8")
    planted = _run([LINT_IMPORTS, "--no-cache"], root)
    assert planted.returncode != 0 and "games.sample.rules -> pygame" in planted.stdout
    rules.write_text(pure, encoding="utf-8")
    # its own tests (the match contract, the computer, its movie, saved games, the replay),
    # then every sweep that picks a game up from its cartridge and its movie: the tile, the
    # options and the description; the movie's screens and the linked match (lobby, play,
    # the end, the records and the replay) in both languages; nothing in them names it
    tests = [
        "tests/games/sample", "tests/firmware/test_text_fits.py",
        "tests/project/test_text_fit.py", "tests/project/test_translations.py",
    ]
    # (and the checks that read every game's scene source: rules G4 and G5)
    chosen = "sample or scene_sources or name_handed_in"
    result = _run([python, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-k", chosen,
                   *tests], root)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert " FAILED" not in out and " SKIPPED" not in out, out
    for swept in (
        "test_sample.py::test_lockstep_through_the_encoding",
        "test_sample.py::test_the_movie_wins_against_the_computer_and_is_recorded",
        "test_every_tile_title_is_shown_whole[sample]",
        "test_every_description_says_how_it_is_played_and_fits[sample]",
        "test_every_text_fits_on_the_movie_screens[sample-play-ja]",
        "test_every_text_fits_on_the_link_match_screens[sample-ja]",
        "test_movie_screens_speak_one_language[sample-play]",
        "test_setup_help_and_result_screens_speak_one_language[link-sample]",
        "test_no_english_name_reaches_a_japanese_game_screen[sample]",
        "test_scene_sources_draw_no_english_only_literal",
        "test_no_name_handed_in_goes_into_both_languages_of_a_sentence",
    ):
        assert f"{swept} PASSED" in out, f"{swept} did not run:\n{out}"


def mini_checkout(tmp: Path) -> Path:
    """Just what `new-game` reads: the tool and its template, games/ with the five games'
    folders (their ids taken), firmware/."""
    shutil.copytree(ROOT / "tools" / "game_template", tmp / "tools" / "game_template")
    shutil.copy(ROOT / "tools" / "new_game.py", tmp / "tools" / "new_game.py")
    (tmp / "firmware").mkdir()
    (tmp / "games").mkdir()
    (tmp / "games" / "__init__.py").write_text("")
    for game in ("reversi", "arimaa", "sevens", "regions", "panels"):
        (tmp / "games" / game).mkdir()
    return tmp


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


REFUSED = [
    (["Foo"], "'Foo' is not a game id: 2 to 16 lowercase letters and digits"),
    (["x"], "'x' is not a game id"),
    (["my-game"], "'my-game' is not a game id"),
    (["class"], "'class' is a Python keyword"),
    (["reversi"], "the id 'reversi' is taken (games/reversi/ is there): nothing written"),
    (["pop"], "the id 'pop' is taken (Bubble Pop is installed with it): nothing written"),
    (["later"], "docs/movies/later-play.txt is already there: nothing written"),
    (["sample", "--title", "三目"], "--title '三目' has Japanese in it"),
    (["sample", "--title-ja", "Sample"], "--title-ja 'Sample' has English words in it"),
    (["sample", "--title", "A title far too long for a tile"], "does not fit the launcher's"),
    (["sample", "--title", 'Say "Four"'], "may not hold a double quote or a backslash"),
]


@pytest.mark.parametrize(("args", "said"), REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_a_bad_new_game_is_refused_in_one_line_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    root = mini_checkout(tmp_path)
    (root / "docs" / "movies").mkdir(parents=True)
    (root / "docs" / "movies" / "later-play.txt").write_text("# twinfold movie 1\n")
    before = _files(root)
    assert main(["new-game", *args, "--dir", str(root)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("twinfold new-game: error: "), err
    assert said in err[0]
    assert _files(root) == before


def test_a_folder_that_is_no_checkout_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-game", "sample", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"twinfold new-game: error: {tmp_path} is not a Twinfold checkout (no "
        "tools/new_game.py): run this in the checkout or give it as --dir"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_titles_go_where_they_are_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given titles land in the cartridge and the scene; the class names come from the id.
    Run anywhere in the checkout (here in games/), it writes into the checkout."""
    root = mini_checkout(tmp_path)
    monkeypatch.chdir(root / "games")
    assert main(["new-game", "four4", "--title", "Four Up", "--title-ja", "よっつ"]) == 0
    assert capsys.readouterr().out.split() == [w.format(id="four4") for w in WRITTEN]
    cartridge = (root / "games" / "four4" / "cartridge.py").read_text(encoding="utf-8")
    assert 'title="Four Up",' in cartridge and 'title_ja="よっつ",' in cartridge
    assert 'SceneAt("games.four4.scene.play:Four4Scene")' in cartridge
    assert 'id="four4",' in cartridge
    scene = (root / "games" / "four4" / "scene" / "play.py").read_text(encoding="utf-8")
    assert '"Four Up", "よっつ")' in scene and "class Four4Scene(TurnGame):" in scene
    movie = (root / "docs" / "movies" / "four4-play.txt").read_text(encoding="utf-8")
    assert "# args: --game four4 --seed 1" in movie
    written = "".join(
        f"{name}\n{text!r}" for name, text in _files(root).items() if "tools/" not in name
    )
    assert "__game__" not in written and "__Game__" not in written and "__TITLE" not in written


def test_the_checklist_names_every_file_the_template_writes() -> None:
    """docs/architecture.md's "A new game, step by step" goes through what `new-game` wrote:
    a file added to the template and not to the checklist fails here."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split("### A new game, step by step\n")[1].split("\n## ")[0]
    named = {w.format(id="ID") for w in WRITTEN if not w.endswith("__init__.py")}
    rows = set(re.findall(r"^\| \d+ \| `([^`]+)` \|", section, flags=re.MULTILINE))
    assert rows == named


def test_the_script_is_the_command_on_its_own_checkout(tmp_path: Path) -> None:
    """`python tools/new_game.py ID` from anywhere writes into the checkout it is in."""
    root = mini_checkout(tmp_path / "checkout")
    shutil.copytree(ROOT / "firmware", root / "firmware", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    bad = _run([sys.executable, str(root / "tools" / "new_game.py"), "Bad"], elsewhere)
    assert bad.returncode == 2 and bad.stderr.strip().splitlines() == [
        "twinfold new-game: error: 'Bad' is not a game id: 2 to 16 lowercase letters and "
        "digits, starting with a letter (it names games/ID/ and the package games.ID)"
    ]
    made = _run([sys.executable, str(root / "tools" / "new_game.py"), "sample"], elsewhere)
    assert made.returncode == 0, made.stderr
    assert made.stdout.split() == [w.format(id="sample") for w in WRITTEN]
    assert (root / "games" / "sample" / "cartridge.py").is_file()
    assert list(elsewhere.iterdir()) == []
