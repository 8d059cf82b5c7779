"""Every string translated (issue 25): English screens show no Japanese, Japanese screens no
English, and no text is drawn straight from an English literal without its Japanese.

Two views: the screens every screenshot movie reaches (in both languages, as drawn), and the
source of the firmware's and the games' scenes (every literal handed to a drawing call, and
every `tr(en, ja)` pair), which also covers the help pages, result reasons, link messages and
error screens no movie reaches.

Issue 34 adds: English set in full-width letters counts (a Japanese line's
"ＣＰＵ ｉｎｔｅｒｍｅｄｉａｔｅ"), every game is opened in Japanese with
every choice of every option, and no name handed to a function goes into both languages of
a sentence."""

from __future__ import annotations

import ast
import functools
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

import pytest
from link_sweep import (
    LINK_MATCHES,
    NAMES,
    sweep_link_match,
    sweep_lobby_labels,
    sweep_unit_games,
)
from screen_sweep import (
    ERROR,
    MOVIES,
    ROOT,
    Drawn,
    sweep_help_screens,
    sweep_movie,
    sweep_result_screens,
    sweep_setup_screens,
    sweep_system_screens,
    sweep_versus_screens,
)

from firmware.cartridges import discover
from firmware.game_api import Cartridge, rule_broken
from firmware.gfx import text
from tools.versus_screenshots import UNITS

# Words that are the same in both languages: button names printed on the unit, the system's
# name, abbreviations a Japanese screen uses as they are, a setup named after its author.
SAME_IN_BOTH = {"OK", "CPU", "START", "SELECT", "SEL", "TWINFOLD", "Lv", "99of9", "ID"}
# The radio names of the units of the versus and link sweeps: names, the same in both
# languages.
SAME_IN_BOTH |= {name for _role, name in UNITS} | set(NAMES)
# Game notation and identifiers, the same in both languages: Arimaa's steps and turn labels
# (Ed2n, 1g), Region Select's surface names (3_1_curl), and the file names a store notice
# shows as they are on the disk (store.db.damaged-1).
NOTATION = re.compile(
    r"[RCDHMErcdhme][a-h][1-8][nsewx]?|[a-h][1-8]|\d+[gs]|\w*\d_\w+|\w+\.db(?:\.damaged-\d+)?"
)
WORD = re.compile(r"[A-Za-z][A-Za-z']+")
# The error screen's failure: where it happened and what was raised, in the words raised.
ERROR_WORDS = set(WORD.findall(f"{ERROR[0]} {type(ERROR[1]).__name__} {ERROR[1]}"))
# A name put before "wins" that is this unit's player (seen in Panel Link and Killing Sevens).
YOU_WINS = re.compile(r"\bYou (wins|plays|passes)\b")
# The language choice names Japanese in Japanese on the English screens.
JAPANESE_ON_ENGLISH_SCREENS = {"日本語"}


def english_words(s: str) -> list[str]:
    """The English words of a text that a Japanese screen must not show (full-width letters
    too: a Japanese line sets "CPU intermediate" as "ＣＰＵ ｉｎｔｅｒｍｅｄｉａｔｅ")."""
    s = unicodedata.normalize("NFKC", s)
    tokens = [t for t in s.split() if t.strip(":.,!?()") not in SAME_IN_BOTH]
    rest = NOTATION.sub(" ", " ".join(tokens))
    return [w for w in WORD.findall(rest) if w not in SAME_IN_BOTH]


def test_the_words_of_both_languages_are_the_ones_rule_g4_names():
    """The game API states rule G4 with this list: a word added here is added there."""
    from firmware.game_api import GAME_RULES

    fixed = SAME_IN_BOTH - {name for _role, name in UNITS} - set(NAMES)
    assert all(re.search(rf"\b{word}\b", GAME_RULES["G4"]) for word in fixed), fixed


def test_english_words_finds_prose_but_not_notation():
    assert english_words("the curve touches itself") == ["the", "curve", "touches", "itself"]
    assert english_words("2g Ed2n Cc2n Ed3n Cc3x Ha2n") == []
    assert english_words("CPU 3: かんがえちゅう 3_1_curl") == []
    assert english_words("Arimaa  1g") == ["Arimaa"]
    assert english_words("99of9 OK: START") == []
    assert english_words("ＣＰＵ ｉｎｔｅｒｍｅｄｉａｔｅ") == ["intermediate"]
    assert english_words("store.db.damaged-12 として のこし、") == []


def _every_choice(cart: Cartridge) -> list[dict[str, str]]:
    """One set of options for each choice of each option (the others at their defaults)."""
    return [{opt.key: choice} for opt in cart.options for choice in opt.choices] or [{}]


@pytest.mark.parametrize("game", sorted(discover()))
def test_no_english_name_reaches_a_japanese_game_screen(game, tmp_path):
    """Issue 34: a name put into both languages of a sentence (Reversi's "CPU {level}") shows
    English on a Japanese screen. Each game opened in Japanese with every choice of every
    option, its first screens as drawn."""
    from screen_sweep import machine_in, recording

    from firmware.testing import run

    problems = set()
    for i, options in enumerate(_every_choice(discover()[game])):
        m = machine_in(tmp_path / str(i), "ja", game=game, seed=1, options=options)
        try:
            run(m, 30, draw=False)
            with recording() as rec:
                m.render()
        finally:
            m.store.close()
        problems |= {f"{options}: {d.text!r}" for d in rec.drawn if english_words(d.text)}
    assert not problems, "\n".join([*sorted(problems), rule_broken("G4")])


@pytest.mark.parametrize("movie", MOVIES, ids=[m.stem for m in MOVIES])
def test_movie_screens_speak_one_language(movie, tmp_path):
    missing = set()
    for language in ("en", "ja"):
        for _frame, rec in sweep_movie(movie, language, tmp_path / language):
            for d in rec.drawn:
                if language == "ja" and english_words(d.text):
                    missing.add(f"no Japanese for {d.text!r}")
                japanese = {c for c in d.text if text.is_japanese(c)}
                if language == "en" and japanese and d.text not in JAPANESE_ON_ENGLISH_SCREENS:
                    missing.add(f"no English for {d.text!r}")
    assert not missing, "\n".join([*sorted(missing), rule_broken("G4")])


@pytest.mark.parametrize(
    "sweep",
    [sweep_setup_screens, sweep_help_screens, sweep_result_screens, sweep_versus_screens,
     sweep_lobby_labels, sweep_system_screens, sweep_unit_games, *(
         functools.partial(sweep_link_match, match) for match in LINK_MATCHES
     )],
    ids=["setup", "help", "result", "versus", "lobby-labels", "system", "unit-games",
         *(f"link-{match}" for match in LINK_MATCHES)],
)
def test_setup_help_and_result_screens_speak_one_language(sweep, tmp_path):
    missing = set()
    for language in ("en", "ja"):
        for where, rec in sweep(language, tmp_path / language):
            missing |= other_language(where, rec.drawn, language)
    assert not missing, "\n".join([*sorted(missing), *one_language_rules(missing)])


def other_language(where: str, drawn: Iterable[Drawn], language: str) -> set[str]:
    """The texts of one screen in `language` that are not in it (rules G4, G6)."""
    missing = set()
    for d in drawn:
        english = english_words(d.text)
        if where == "error":  # the failure's own words stay as they were raised
            english = [w for w in english if w not in ERROR_WORDS]
        if language == "ja" and english:
            missing.add(f"{where}: no Japanese for {d.text!r}")
        japanese = {c for c in d.text if text.is_japanese(c)}
        if language == "en" and japanese and d.text not in JAPANESE_ON_ENGLISH_SCREENS:
            missing.add(f"{where}: no English for {d.text!r}")
        if language == "en" and YOU_WINS.search(d.text):
            missing.add(f"{where}: {d.text!r} (You win)")
    return missing


def one_language_rules(missing: set[str]) -> list[str]:
    """The rules a screen in two languages broke: G4, and G6 where it is a records list."""
    rules = [rule_broken("G4")]
    if any(" records:" in m or m.startswith("records") for m in missing):
        rules.append(rule_broken("G6"))
    return rules


# The first start's language screen writes each language in itself, on purpose.
BOTH_LANGUAGES = {ROOT / "firmware" / "scenes" / "language.py"}
SCENE_SOURCES = sorted(
    {*(ROOT / "firmware" / "scenes").rglob("*.py"), *(ROOT / "games").glob("*/scene/**/*.py")}
    - BOTH_LANGUAGES
)
DRAWING_CALLS = {"draw": 1, "button": 2, "title_bar": 1, "draw_block": 1, "wrap": 0, "fit": 0}


def _literal(node: ast.expr) -> str | None:
    """The text of a string literal or f-string (placeholders as spaces), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else " " for v in node.values)
    return None


def _untranslated(path: Path) -> list[str]:
    out = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        drawing = (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in ("text", "widgets")
        )
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        if name == "tr" and len(node.args) == 2:
            en, ja = (_literal(a) for a in node.args)
            if en is not None and ja is not None and (not en.strip()) != (not ja.strip()):
                out.append(f"{where}: tr({en!r}, {ja!r}) lacks one language")
        index = DRAWING_CALLS.get(name) if drawing else None
        if name.endswith("Scene"):  # a prompt or notice: its message comes after the machine
            index = 1
        if index is not None and len(node.args) > index:
            shown = _literal(node.args[index])
            if shown is not None and english_words(shown):
                out.append(f"{where}: {shown!r} is drawn in English only")
    return out


def test_scene_sources_draw_no_english_only_literal():
    problems = [p for path in SCENE_SOURCES for p in _untranslated(path)]
    assert not problems, "\n".join([*problems, rule_broken("G4")])


# `str` parameters put into both languages of a sentence that hold words the caller has
# already translated (the pause menu's "Restart" / "はじめから").
TRANSLATED_BY_CALLER = {("firmware/scenes/pause.py", "what")}


def _placeholders(node: ast.expr) -> set[str]:
    if not isinstance(node, ast.JoinedStr):
        return set()
    return {
        v.value.id for v in node.values
        if isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name)
    }


def _str_parameters_in_both_languages(path: Path) -> list[str]:
    """Each `tr(f"... {x}", f"... {x}")` whose `x` is a `str` parameter of its function: a
    name handed in (Reversi's level, "intermediate") lands untranslated on a Japanese
    screen."""
    out = []
    where = path.relative_to(ROOT).as_posix()
    for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(fn, ast.FunctionDef):
            continue
        params = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
        words = {
            a.arg for a in params
            if isinstance(a.annotation, ast.Name) and a.annotation.id == "str"
            and (where, a.arg) not in TRANSLATED_BY_CALLER
        }
        for node in ast.walk(fn):
            func = node.func if isinstance(node, ast.Call) else None
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name == "tr" and isinstance(node, ast.Call) and len(node.args) == 2:
                both = _placeholders(node.args[0]) & _placeholders(node.args[1]) & words
                out += [f"{where}:{node.lineno}: {x} goes into both languages" for x in both]
    return out


def test_no_name_handed_in_goes_into_both_languages_of_a_sentence():
    """Issue 34, item 5, checked in the source: the screens a sweep does not reach too."""
    problems = [p for path in SCENE_SOURCES for p in _str_parameters_in_both_languages(path)]
    assert not problems, "\n".join([*problems, rule_broken("G5")])
