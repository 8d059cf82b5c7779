"""Japanese for the curve checker's messages: the rules explain a rejected drawing in English
(with numbers); the player reads the reason in their language, with the spot marked on the
curve."""

from __future__ import annotations

# (start of the English message, the Japanese shown instead)
_CURVE_JA = (
    ("the curve does not cross itself", "せんが こうさしていない(1かしょ いじょう ひつよう)。"),
    ("the curve crosses itself", "こうさが おおすぎる。"),
    ("too many points", "てんが おおすぎる。"),
    ("a point must be", "てんの データが おかしい。"),
    ("the curve is too short", "せんが みじかすぎる。とじた わを かこう。"),
    ("the curve is not closed", "せんが とじていない。はじめの ところで ペンを はなそう。"),
    ("the curve touches itself without crossing", "こうさせずに ふれている(しるしの ところ)。"),
    ("the curve grazes itself", "こうさが あさすぎる(しるしの ところ)。"),
    ("three strands meet", "3ほんが 1かしょで まじわっている(しるしの ところ)。"),
    ("the curve touches itself near", "せんが ふれている(しるしの ところ)。"),
    ("two crossings near", "こうさどうしが ちかすぎる(しるしの ところ)。"),
    ("the curve does not cross itself cleanly", "せんが ふれている(こうさが はっきりしない)。"),
)
UNUSABLE_JA = "この めんは つかえない。"


def curve_error_ja(message: str) -> str:
    """The Japanese for one of the curve checker's English messages."""
    best = ""
    found = UNUSABLE_JA
    for start, ja in _CURVE_JA:
        if message.startswith(start) and len(start) > len(best):
            best, found = start, ja
    return found
