"""Every word the Killing Sevens screens show, in English and Japanese (P-GAME-7).

The Japanese wording follows the seed's manual (殺しの7並べ 操作説明書): メンバー変更,
もう一度, 殺し成立の最大枚数, 3方向壁で殺し成立, 最初に7札を並べておく, 殺したらもう一度手番.
"""

from __future__ import annotations

from collections.abc import Callable

Tr = Callable[[str, str], str]
Text = tuple[str, str]

TITLE = ("Killing Sevens", "殺しの7並べ")
MEMBERS = ("Members", "メンバー変更")
OPTIONS = ("Options", "オプション")
OK = ("OK", "OK")
NEXT = ("Options ▶", "オプション ▶")
START = ("Start ▶", "スタート ▶")
PASS = ("Pass", "パス")
PLAY_AGAIN = ("Play again", "もう一度")
LINKED_OVER = ("START: the menu, to quit", "START: メニューで おわる")
CHANGE_MEMBERS = ("Members", "メンバー変更")
RESET = ("Reset totals", "成績リセット")
HAND_TO = ("Hand the unit to", "つぎのひとに わたしてください")
HAND_TO_TAP = ("then tap OK", "わたしたら OK をタッチ")
YOUR_TURN = ("Your turn: tap a card", "あなたの番: カードをタッチ")
TAP_AGAIN = ("Tap again to play", "もう一度タッチで出す")
SENDING = ("Sending to the host...", "ホストに おくっています...")
CANNOT = ("Cannot be played yet", "まだ出せません")
NOTHING = ("Nothing playable: pass", "出せるカードがありません: パス")
THINKING = ("thinking", "考え中")
TURN_OF = ("'s turn", "の番")
WINS = (" wins!", "の勝ち!")
RANKING = ("Ranking", "順位")
TOTALS = ("Totals", "通算成績")
HEAD_NAME = ("Name", "名前")
HEAD_LEFT = ("Left", "残")
HEAD_KILLED = ("Dead", "殺され")
HEAD_KILLS = ("Kills", "殺し")
HEAD_OUT = ("Out", "あがり")
HEAD_KILLED_SHORT = ("Dead", "被殺")
HEAD_OUT_SHORT = ("Out", "順")
HEAD_GAMES = ("Gms", "回")
HEAD_WINS = ("Wins", "勝")
HEAD_AVG = ("Avg", "平均")
REPLAY = ("Replay", "リプレイ")
BAD_RECORD = ("This record cannot be read.", "このきろくは よみこめません。")
HINT_KILLS = ("kills", "殺せる")
HINT_DANGER = ("in danger", "危ない")
YOU_SEAT = ("Seat 1: you", "席1: あなた")

SEAT_KIND = {
    "simpleton": ("Simpleton", "単細胞"),
    "cool": ("Cool", "冷静"),
    "hitman": ("Hitman", "殺し屋"),
    "coward": ("Coward", "臆病"),
    "brute": ("Brute", "凶暴"),
    "random": ("Random", "ランダム"),
    "human": ("Person", "人間"),
}
SEAT_ABOUT = {
    "simpleton": ("very weak: plays any card", "激弱: なにも考えない"),
    "cool": ("very strong: balanced", "とっても強い: 攻守のバランス"),
    "hitman": ("very strong: never misses a kill", "とっても強い: 殺しを逃さない"),
    "coward": ("fairly strong: own cards first", "まあまあ強い: 自分のカード第一"),
    "brute": ("fairly strong: kills, takes risks", "まあまあ強い: 殺しと危険"),
    "random": ("one of the five, drawn per game", "5人から毎回ランダム"),
    "human": ("a person: pass the unit", "人間: 本体を回して遊ぶ"),
}
OPTION_LABEL = {
    "max_kill": ("Most cards killed at once", "殺し成立の最大枚数"),
    "three_walls": ("Kill with three walls", "3方向壁で殺し成立"),
    "sevens_first": ("Lay out the sevens first", "最初に7札を並べておく"),
    "extra_turn": ("Extra turn after a kill", "殺したらもう一度手番"),
    "hints": ("Mark kills and dangers", "殺し・危険のマーク"),
    "bubbles": ("Speech bubbles", "セリフの速さ"),
}
OPTION_ABOUT = {
    "max_kill": (
        "A closed rectangle of unplayed cards dies whole when it holds at most this many.",
        "囲まれた長方形の札は、この枚数以下ならまとめて殺されます。",
    ),
    "three_walls": (
        "A rectangle walled on three sides dies only with this on (4 or more).",
        "3辺が壁の長方形は、これが有効のときだけ殺されます(4以上)。",
    ),
    "sevens_first": (
        "The four sevens go to the table before play.",
        "最初に7札を場に並べてから始めます。",
    ),
    "extra_turn": (
        "Whoever kills plays again, as long as the kills go on.",
        "殺しを成立させたら、もう一度手番を行います。",
    ),
    "hints": (
        "Marks your cards that would kill, and your cards in danger.",
        "殺せるカードと、危ないカードに印をつけます。",
    ),
    "bubbles": (
        "How long each line stays up.",
        "セリフを表示する長さです。",
    ),
}
ON_OFF = {True: ("on", "有効"), False: ("off", "無効")}
SPEEDS = {"slow": ("slow", "ゆっくり"), "normal": ("normal", "ふつう"), "fast": ("fast", "はやい")}

HOW_TO = (
    (
        "Play a card next to one on the table (diagonals too). An unplayed card closed in on all "
        "four sides by cards or the edge is killed. Fewest cards killed wins.",
        "場札のとなり(ななめも)に出します。上下左右を札か壁に囲まれた札は殺されます。"
        "殺された札が一番少ない人の勝ち。",
    ),
)


def on_off(tr: Tr, value: bool) -> str:
    return tr(*ON_OFF[value])


def option_value(tr: Tr, key: str, value: object) -> str:
    if key == "max_kill":
        return str(value)
    if key == "bubbles":
        return tr(*SPEEDS[str(value)])
    return on_off(tr, bool(value))
