"""Every word the Reversi screens show, in English and Japanese.

The Japanese wording is the seed's (004_d1e342fe7b68d326): おしえて!, はじめからやりなおす,
ヒントなし / おけるばしょ / ぜんぶヒント, (駒の絵)のばん, (駒の絵)はパスしました,
(勝者の駒の絵)の勝ち!, 引き分け, もう一度プレイ. Where the seed puts a disc picture in a
sentence, the screen draws the disc and the text here is the rest of the sentence; the dump
(which has no pictures) names the colour instead.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware.gfx.glyphs import has_glyph

Tr = Callable[[str, str], str]

HINT_LEVELS = ("none", "placeable", "full")

# Two-line button labels (R-REV-VIEW-4): the seed breaks "はじめからやりなおす" in two.
RESTART_LABEL = (("Start", "over"), ("はじめから", "やりなおす"))
HINT_TITLE = ("Hint", "おしえて!")
HINT_LEVEL_NAMES = {
    "none": ("off", "ヒントなし"),
    "placeable": ("moves", "おけるばしょ"),
    "full": ("full", "ぜんぶヒント"),
}

# The computer's levels (the setup's choices and the scoreboard's "CPU ふつう").
LEVEL_NAMES = {
    "beginner": ("beginner", "はじめて"),
    "novice": ("novice", "やさしい"),
    "intermediate": ("intermediate", "ふつう"),
    "strong": ("strong", "つよい"),
}

COLOR_NAMES = {"black": ("Black", "黒"), "white": ("White", "白")}

# Sentences around a disc picture: (English, Japanese).
TO_MOVE = (" to move", "のばん")
PASSED = (" passed", "はパスしました")
WINS = (" wins!", "の勝ち!")
DRAW = ("Draw", "引き分け")
PLAY_AGAIN = ("Play again", "もう一度プレイ")
THINKING = ("Thinking", "かんがえ中")
MOVES_TITLE = ("Moves", "きふ")
REPLAY_TITLE = ("Replay", "リプレイ")
BAD_RECORD = ("This record cannot be read.", "このきろくは よみこめません。")


def restart_label(tr: Tr) -> list[str]:
    en, ja = RESTART_LABEL
    return [tr(en[0], ja[0]), tr(en[1], ja[1])]


def hint_label(tr: Tr, level: str) -> list[str]:
    return [tr(*HINT_TITLE), tr(*HINT_LEVEL_NAMES[level])]


def color_name(tr: Tr, color: str) -> str:
    return tr(*COLOR_NAMES[color])


def sentence(tr: Tr, color: str, tail: tuple[str, str]) -> str:
    """The sentence with the colour named in words (for the dump)."""
    return color_name(tr, color) + tr(*tail)


def player_names(tr: Tr, mode: str, human: str, level_name: str) -> dict[str, str]:
    """Who plays each colour, as the scoreboard and the record name them (the level's name
    in the language shown: never an English name on a Japanese board)."""
    if mode == "cpu":
        cpu = "white" if human == "black" else "black"
        level = LEVEL_NAMES.get(level_name, (level_name, level_name))
        return {human: tr("You", "あなた"), cpu: "CPU " + tr(*level)}
    return {"black": tr("Player 1", "プレイヤー1"), "white": tr("Player 2", "プレイヤー2")}


def for_screen(text: str) -> str:
    """Text as drawn: in a line with Japanese, ASCII letters, digits and "!" become their
    full-width forms, so the whole line is set in the Japanese font on one baseline (the
    pixel font's "!" would sit higher than the kana around it)."""
    if all(has_glyph(ch) for ch in text):
        return text
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)
