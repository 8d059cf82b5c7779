"""Every text of the Panel Link scene in English and Japanese (P-GAME-7)."""

from __future__ import annotations

from collections.abc import Callable

Tr = Callable[[str, str], str]

YAKU_NAMES: dict[str, tuple[str, str]] = {
    "same_number": ("Same number", "おなじかず"),
    "sequence": ("Sequence", "れんばん"),
    "ring": ("Ring", "わっか"),
    "perfect": ("Perfect", "パーフェクト"),
}
ITEM_NAMES: dict[str, tuple[str, str]] = {
    "reshuffle": ("Reshuffle", "いれかえ"),
    "renumber": ("Renumber", "かずかえ"),
    "swivel": ("Swivel", "くるり"),
    "prism": ("Prism", "にじいろ"),
}
ITEM_HELP: dict[str, tuple[str, str]] = {
    "reshuffle": ("All stock cards are replaced by new ones.", "てふだを ぜんぶ あたらしく する。"),
    "renumber": (
        "Change the number of one placed card of yours (or rainbow) by 1.",
        "おいた じぶんの カードの かずを 1 かえる。",
    ),
    "swivel": ("Turn one of your placed cards clockwise.", "おいた じぶんの カードを まわす。"),
    "prism": ("One stock card becomes a rainbow card.", "てふだ 1まいを にじいろに する。"),
}
DETERMINE = ("Determine", "けってい")
BACK = ("Back", "もどる")
PASS = ("Pass", "パス")
PLAY_AGAIN = ("Play again", "もういちど")
TAP_AGAIN = ("Tap again to use", "もういちど タッチで つかう")
PICK_STOCK = ("Choose a stock card", "てふだを えらんでね")
PICK_CARD = ("Choose a placed card", "カードを えらんでね")
PICK_DELTA = ("+1 or -1?", "+1 か -1 ?")
YOUR_TURN = ("Your turn", "あなたの ばん")
THINKING = ("Thinking", "かんがえちゅう")
WAITING = ("Waiting for the other unit", "あいてを まっています")
PASSED = ("passed", "パス")
WINS = ("wins!", "の かち!")
YOU = ("You", "あなた")
YOU_WIN = ("You win!", "あなた の かち!")  # not "You wins!"
DRAW = ("Draw", "ひきわけ")
TARGET = ("Target", "もくひょう")
STOCK = ("Stock", "てふだ")
ITEMS = ("Items", "アイテム")
REPLAY = ("Replay", "リプレイ")
TURN = ("Turn", "ターン")
BAD_RECORD = ("This record cannot be replayed", "この きろくは さいせい できません")
YAKU_LIST = ("Yaku this game", "この ゲームの やく")
NO_YAKU = ("none yet", "まだ なし")
PTS = ("pts", "てん")


def player_name(tr: Tr, mode: str, seat: int, human: int, level: int) -> str:
    if mode == "cpu":
        if seat == human:
            return tr(*YOU)
        return tr(f"CPU {level}", f"CPU {level}")
    if mode == "link":
        return tr(*YOU) if seat == human else tr("Opponent", "あいて")
    return tr(f"Player {seat + 1}", f"プレイヤー{seat + 1}")


def yaku_name(tr: Tr, kind: str) -> str:
    return tr(*YAKU_NAMES[kind])


def item_name(tr: Tr, kind: str) -> str:
    return tr(*ITEM_NAMES[kind])


def win_line(tr: Tr, winner: str) -> str:
    """Who won, in a sentence: "You win!" for the person, "CPU 3 wins!" for anyone else."""
    return tr(*YOU_WIN) if winner == tr(*YOU) else f"{winner} {tr(*WINS)}"


def stored_name(tr: Tr, name: str) -> str:
    """A player's name as a record keeps it (in English, `player_name`'s), in the player's
    language."""
    if name == YOU[0]:
        return tr(*YOU)
    if name == "Opponent":
        return tr("Opponent", "あいて")
    number = name.removeprefix("Player ")
    if number != name and number.isdigit():
        return tr(name, f"プレイヤー{number}")
    return name
