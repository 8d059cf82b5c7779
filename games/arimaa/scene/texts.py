"""Every text of the Arimaa scene in English and Japanese (P-GAME-7): (en, ja) pairs."""

from __future__ import annotations

from collections.abc import Callable

Tr = Callable[[str, str], str]
Text = tuple[str, str]

SIDES: tuple[Text, Text] = (("Gold", "金"), ("Silver", "銀"))
YOU: Text = ("You", "あなた")
COMPUTER: Text = ("Computer", "CPU")  # ("コンピューター Lv3" is wider than its box)
PLAYER: Text = ("Player", "プレイヤー")
LEVEL: Text = ("Lv", "Lv")
CASUAL: Text = ("no clock", "時計なし")
TO_MOVE: Text = (" to move", "の番")
SETTING_UP: Text = (" sets up", "が配置中")
THINKING: Text = ("thinking", "考え中")
STEPS: Text = ("Steps", "ステップ")
LEFT: Text = ("left", "のこり")
MOVES: Text = ("Moves", "棋譜")
SCORE: Text = ("Score", "得点")
RESERVE: Text = ("Res", "持")
TURN: Text = ("Turn", "手")
REPLAY: Text = ("Replay", "リプレイ")
BAD_RECORD: Text = ("This record cannot be read.", "この記録は読めません。")

UNDO: Text = ("Undo", "もどす")
DONE: Text = ("Done", "おわり")
RESIGN: Text = ("Resign", "投了")
HELP: Text = ("Help", "遊び方")
OK: Text = ("OK", "決定")
RANDOM: Text = ("Random", "ランダム")
LAST: Text = ("Last", "前回")
# The named setup buttons (99of9 is a player's name: the same in both languages).
SETUP_NAMES: dict[str, Text] = {
    "default": ("default", "基本"),
    "classic": ("classic", "古典"),
    "wing-rabbits": ("wing", "ウイング"),
    "fort": ("fort", "とりで"),
}
PLAY_AGAIN: Text = ("Play again", "もう一度")
BACK: Text = ("Back", "もどる")
NEXT: Text = ("Next", "次へ")
PREV: Text = ("Prev", "前へ")
CLOSE: Text = ("Close", "閉じる")
SURE: Text = ("Resign? Tap again", "投了する?")

SETUP: Text = ("Setup", "配置")
SETUP_ORDER: Text = ("Gold first, then Silver", "金が先、次に銀")
SETUP_TIP: Text = (
    "Tap two pieces to swap, or pick a setup.",
    "2つの駒をタップで入れかえ。",
)
SELECT_TIP: Text = ("Tap a piece, then a green square.", "駒をタップして、緑のマスへ。")
PUSH_TIP: Text = ("Finish the push: a stronger piece to ", "押しを完了: 強い駒を ")
PULL_TIP: Text = ("You may pull an enemy into ", "敵を引ける: ")
CAPTURE_WARN: Text = ("Red cross: a piece is lost on a trap.", "赤い印: わなで駒がとられる")
FOUR_DONE: Text = ("Four steps: tap Done (or Undo).", "4ステップ: おわりか もどす")

#: The engine's reasons why a turn cannot end, in both languages.
REFUSALS: dict[str, Text] = {
    "take at least one step": ("Take at least one step first.", "まず1ステップ動かして。"),
    "finish the push first": ("Finish the push first.", "押しを完了して。"),
    "the turn must change the position": (
        "The turn must change the position.",
        "局面が変わらない手はだめ。",
    ),
    "that position would occur for the third time": (
        "That position would occur a third time.",
        "同じ局面が3回目になる。",
    ),
}

REASONS: dict[str, Text] = {
    "goal": ("by goal: a rabbit reached the far row", "ゴール: ウサギが奥に着いた"),
    "elimination": ("by elimination: no rabbits left", "全滅: ウサギがいない"),
    "immobilisation": ("by immobilisation: no move left", "手づまり: 動けない"),
    "time": ("on time: the clock ran out", "時間切れ"),
    "score": ("by score at the game limit", "制限で得点勝負"),
    "resignation": ("by resignation", "投了"),
}
WINS: Text = (" wins", "の勝ち")
YOU_WIN: Text = ("You win", "あなたの勝ち")
DRAW: Text = ("Draw on equal score", "同点で引き分け")

#: How to play (P-GAME-7): title and lines, one page each; the picture is drawn by help.py.
HELP_PAGES: tuple[tuple[Text, Text], ...] = (
    (("Strength", "強さ"), (
        "Elephant > Camel > Horse > Dog > Cat > Rabbit. Each side has 16 pieces and sets "
        "them up on its two home rows.",
        "象>ラクダ>馬>犬>猫>ウサギ。16個の駒を自分の2列に並べる。",
    )),
    (("Step", "ステップ"), (
        "A turn is 1 to 4 steps. A step moves a piece one square N, S, E or W to an empty "
        "square. Rabbits never step backwards.",
        "1手は1~4ステップ。駒を縦横の空きマスへ1つ動かす。ウサギは後ろに戻れない。",
    )),
    (("Push", "押す"), (
        "A stronger piece pushes a weaker enemy next to it: the enemy moves away, then the "
        "pusher steps into its square. Two steps.",
        "強い駒は隣の弱い敵を押せる: 敵が動き、押した駒がそのマスへ。2ステップ。",
    )),
    (("Pull", "引く"), (
        "A stronger piece steps away and pulls a weaker enemy that was next to it into the "
        "square it left. Two steps.",
        "強い駒が離れ、隣にいた弱い敵を空いたマスへ引き込む。2ステップ。",
    )),
    (("Freeze", "凍る"), (
        "A piece next to a stronger enemy is frozen (blue) unless a friend is next to it. "
        "Frozen pieces cannot move by themselves.",
        "強い敵の隣で味方がいない駒は凍る(青)。凍った駒は自分で動けない。",
    )),
    (("Traps", "わな"), (
        "c3, f3, c6 and f6 are traps. A piece on a trap with no friend next to it is "
        "captured at once.",
        "c3 f3 c6 f6 はわな。味方が隣にいないと、わなの上の駒はとられる。",
    )),
    (("Goal", "ゴール"), (
        "Get one of your rabbits to the far row to win. Also win if the other side loses "
        "all rabbits or cannot move.",
        "ウサギを奥の列に着ければ勝ち。相手のウサギ全滅や手づまりでも勝ち。",
    )),
)


def side_name(tr: Tr, side: int) -> str:
    return tr(*SIDES[side])


def summaries(
    names: tuple[str, str], names_ja: tuple[str, str], winner: int | None, reason: str
) -> tuple[str, str]:
    """The records list's line for a finished game, in English and in Japanese: both
    players, who won ("You win" for this unit's player) and how, in a word."""
    ja_reason = REASONS.get(reason, (reason, reason))[1]
    ja_how = ja_reason.split(":")[0]  # "ゴール: ウサギが奥に着いた" -> "ゴール"
    if winner is None:
        verdict, verdict_ja = "draw", "引き分け"
    else:
        verdict = "you win" if names[winner] == "You" else f"{names[winner]} wins"
        verdict_ja = names_ja[winner] + WINS[1]
    return (
        f"{names[0]} v {names[1]}: {verdict} ({reason})",
        f"{names_ja[0]} 対 {names_ja[1]}: {verdict_ja}({ja_how})",
    )


def stored_name(tr: Tr, name: str) -> str:
    """A player's name as a record keeps it (in English), in the player's language."""
    for en, ja in (YOU, *SIDES):
        if name == en:
            return tr(en, ja)
    computer = f"{COMPUTER[0]} {LEVEL[0]}"
    if name.startswith(computer):
        return f"{tr(*COMPUTER)} {tr(*LEVEL)}{name[len(computer):]}"
    return name  # a radio name
