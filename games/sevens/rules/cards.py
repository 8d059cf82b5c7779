"""Cards of the 52-card deck and their fixed places in the 4x13 layout (R-SEV-LAYOUT).

A card is an int 0..51: ``row * 13 + column``, rows being the suits top to bottom (spades,
hearts, diamonds, clubs) and columns the ranks A..K left to right, so a card *is* its table
position.  Text form is rank then suit letter ("AS", "TD", "7D", "KC"), used in JSON.
"""

from __future__ import annotations

ROWS = 4
COLS = 13
DECK_SIZE = ROWS * COLS

SUITS = "SHDC"
RANKS = "A23456789TJQK"
SUIT_NAMES_EN = ("spades", "hearts", "diamonds", "clubs")
SUIT_NAMES_JA = ("スペード", "ハート", "ダイヤ", "クラブ")
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

SEVEN_COLUMN = 6
SEVEN_OF_DIAMONDS = 2 * COLS + SEVEN_COLUMN
SEVENS: tuple[int, ...] = tuple(row * COLS + SEVEN_COLUMN for row in range(ROWS))


def card_at(row: int, column: int) -> int:
    """The card whose place is (row, column)."""
    if not (0 <= row < ROWS and 0 <= column < COLS):
        raise ValueError(f"no table position ({row}, {column})")
    return row * COLS + column


def row_of(card: int) -> int:
    return card // COLS


def column_of(card: int) -> int:
    return card % COLS


def position(card: int) -> tuple[int, int]:
    """(row, column) of the card on the table: where the UI draws its frame."""
    return divmod(card, COLS)


def card_name(card: int) -> str:
    """Short text form, e.g. 'AS', 'TD', '7D'."""
    if not 0 <= card < DECK_SIZE:
        raise ValueError(f"no card {card!r}")
    return RANKS[card % COLS] + SUITS[card // COLS]


def parse_card(text: object) -> int:
    """Inverse of card_name; also accepts '10D' and lower case.  ValueError if unknown
    (or not text at all: actions and records arrive as untrusted JSON)."""
    if not isinstance(text, str):
        raise ValueError(f"a card must be text like '7D', got {text!r}")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"unknown card {text!r} (expected rank A23456789TJQK and suit SHDC)")
    return SUITS.index(t[1]) * COLS + RANKS.index(t[0])


def card_label(card: int) -> str:
    """Display form with suit symbol, e.g. '10♦'."""
    return RANK_NAMES[card % COLS] + SUIT_SYMBOLS[card // COLS]


def card_label_ja(card: int) -> str:
    """Japanese display form, e.g. 'ダイヤの7'."""
    return f"{SUIT_NAMES_JA[card // COLS]}の{RANK_NAMES[card % COLS]}"
