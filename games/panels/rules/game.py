"""The game state and turn machine (R-PAN-TURN, R-PAN-SCORE; S1-S14, S21-S40).

A turn: the stock gets one card from the stream (not on the player's first turn, and only
while it holds fewer than 5), then the player may use one item, selects a stock card,
places it provisionally, moves/rotates/takes it back, and determines. Determining fixes the
card, evaluates yaku from it (`combination.evaluate`), adds the points, optionally removes
the cards that formed yaku, hands out an earned item and ends the turn.

End of the game:
- the mover's score reaches the target: the mover wins (only the mover scores, so the first
  player to reach the target is unambiguous);
- full-field rule: when the field has no empty usable square after a placement, or when
  every player in a row had to pass (a player may pass only when no stock card may go on any
  square), the game ends and the higher score wins; equal scores are a draw (winner None).
Every determine either fills a square or forms a yaku (+20 points at least); squares are
finite, and with the removal rule yaku are bounded by the target, so games always end.

`GameState.apply(action)` validates first and raises `IllegalAction(reason)` without
changing anything when refused; `GameState.check(action)` gives the reason or None.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from games.panels.rules import items as it
from games.panels.rules.actions import (
    Action,
    Back,
    Determine,
    Pass,
    Place,
    Rotate,
    Select,
    UseItem,
    action_to_json,
)
from games.panels.rules.cards import RAINBOW, Card, distinct_rotations
from games.panels.rules.combination import Yaku, evaluate
from games.panels.rules.field import SHAPE_NAMES, Field, square_from_json
from games.panels.rules.stream import card_at, field_roll, item_at

STOCK_SIZE = 5
DEFAULT_TARGET = 300
MAX_PLAYERS = 4
COLOURS = ("blue", "red", "green", "yellow")


class IllegalAction(Exception):
    """A refused action; the message is the reason, for the player."""


@dataclass(frozen=True)
class GameConfig:
    """Chosen before the game; identical on all linked units."""

    seed: int
    players: int = 2
    target: int = DEFAULT_TARGET
    removal: bool = False  # the seed's optional rule: cards that formed a yaku leave the field
    shape: str | None = None  # None: chosen from the seed
    first_player: int = 0
    items: bool = True  # False: no items are earned (the handheld's "items off" option)

    def __post_init__(self) -> None:
        if not 2 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be 2-{MAX_PLAYERS}: {self.players}")
        if self.target < 10:
            raise ValueError(f"target score must be at least 10: {self.target}")
        if self.shape is not None and self.shape not in SHAPE_NAMES:
            raise ValueError(f"unknown field shape {self.shape!r} ({', '.join(SHAPE_NAMES)})")
        if not 0 <= self.first_player < self.players:
            raise ValueError(f"first player must be 0-{self.players - 1}")

    @property
    def field_shape(self) -> str:
        return self.shape or SHAPE_NAMES[field_roll(self.seed, len(SHAPE_NAMES))]

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "players": self.players,
            "target": self.target,
            "removal": self.removal,
            "shape": self.shape,
            "first_player": self.first_player,
            "items": self.items,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameConfig:
        if not isinstance(data, dict):
            raise ValueError("config must be an object")
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be an integer: {seed!r}")
        return cls(
            seed=seed,
            players=_as_int(data.get("players", 2), "players"),
            target=_as_int(data.get("target", DEFAULT_TARGET), "target"),
            removal=bool(data.get("removal", False)),
            shape=data.get("shape"),
            first_player=_as_int(data.get("first_player", 0), "first_player"),
            items=bool(data.get("items", True)),
        )


def _as_int(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer: {value!r}")
    return value


@dataclass
class PlayerState:
    stock: list[Card] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    score: int = 0
    turns: int = 0  # turns begun (including the current one)
    yaku: int = 0  # yaku formed so far

    def to_json(self) -> dict[str, Any]:
        return {
            "stock": [c.to_json() for c in self.stock],
            "items": list(self.items),
            "score": self.score,
            "turns": self.turns,
            "yaku": self.yaku,
        }

    @classmethod
    def from_json(cls, data: Any) -> PlayerState:
        if not isinstance(data, dict):
            raise ValueError("player must be an object")
        stock = [Card.from_json(c) for c in data.get("stock", [])]
        items = list(data.get("items", []))
        if len(stock) > STOCK_SIZE:
            raise ValueError(f"a stock holds at most {STOCK_SIZE} cards")
        if len(items) > it.ITEM_CAPACITY or any(i not in it.ITEM_KINDS for i in items):
            raise ValueError(f"bad item field: {items!r}")
        return cls(
            stock,
            items,
            _as_int(data.get("score", 0), "score"),
            _as_int(data.get("turns", 0), "turns"),
            _as_int(data.get("yaku", 0), "yaku"),
        )


@dataclass
class GameState:
    """Everything needed to continue a game exactly (to_json/from_json round-trip)."""

    config: GameConfig
    field: Field
    players: list[PlayerState]
    current: int
    card_index: int = 0  # next card of the stream
    item_index: int = 0  # next item of the item stream
    selected: int | None = None
    provisional: tuple[tuple[int, int], int] | None = None  # (square, clockwise turns)
    item_used: bool = False
    passes: int = 0  # consecutive passes
    last_yaku: list[Yaku] = dataclasses.field(default_factory=list)  # `field` is taken above
    last_placement: dict[str, Any] | None = None
    over: bool = False
    winner: int | None = None
    end_reason: str | None = None

    # ---- creation -----------------------------------------------------------------------
    @classmethod
    def new(cls, config: GameConfig) -> GameState:
        """S1: the field from the seed, five random cards for each stock, the first turn."""
        state = cls(
            config=config,
            field=Field.with_shape(config.field_shape),
            players=[PlayerState() for _ in range(config.players)],
            current=config.first_player,
        )
        for offset in range(config.players):
            p = (config.first_player + offset) % config.players
            for _ in range(STOCK_SIZE):
                state.players[p].stock.append(state._draw(p))
        state._begin_turn()
        return state

    def _draw(self, player: int) -> Card:
        card = card_at(self.config.seed, self.card_index, player)
        self.card_index += 1
        return card

    def _begin_turn(self) -> None:
        me = self.players[self.current]
        if me.turns > 0 and len(me.stock) < STOCK_SIZE:
            me.stock.append(self._draw(self.current))
        me.turns += 1
        self.selected = None
        self.provisional = None
        self.item_used = False

    # ---- queries ------------------------------------------------------------------------
    def is_first_turn(self, player: int) -> bool:
        """True until `player` has finished a first turn (any empty square is permitted)."""
        turns = self.players[player].turns
        return turns == 0 or (turns == 1 and player == self.current)

    def permitted_indices(self, player: int, card: Card) -> list[int]:
        """Squares (indices) where `player` may put `card` now (S23-S27, FIG. 24-26)."""
        fld = self.field
        cells = fld.cells
        empty = [i for i in range(len(cells)) if cells[i] is None and fld.usable[i]]
        if self.is_first_turn(player):
            return empty
        out = []
        for i in empty:
            placed = [c for _, j in fld.neighbours[i] if (c := cells[j]) is not None]
            if card.owner == RAINBOW:
                if placed and all(c.owner not in (player, RAINBOW) for c in placed):
                    continue
                out.append(i)
            elif any(c.owner in (player, RAINBOW) for c in placed):
                out.append(i)
        return out

    def permitted_squares(self, player: int, stock: int) -> list[tuple[int, int]]:
        card = self.players[player].stock[stock]
        return [self.field.square(i) for i in self.permitted_indices(player, card)]

    def can_place_any(self, player: int) -> bool:
        return any(self.permitted_indices(player, c) for c in self.players[player].stock)

    def provisional_card(self) -> Card | None:
        if self.provisional is None or self.selected is None:
            return None
        card = self.players[self.current].stock[self.selected]
        return card.rotated(self.provisional[1])

    # ---- validation ---------------------------------------------------------------------
    def check(self, action: Action) -> str | None:
        """The reason `action` is refused now, or None when it is legal."""
        if self.over:
            return "the game is over"
        if not isinstance(action, Select | Place | Rotate | Back | Determine | UseItem | Pass):
            return "not an action"
        if action.player != self.current:
            return f"it is player {self.current + 1}'s turn, not player {action.player + 1}'s"
        me = self.players[self.current]
        if isinstance(action, Select):
            if not 0 <= action.stock < len(me.stock):
                return f"no stock card {action.stock + 1} (the stock holds {len(me.stock)})"
            if action.stock == self.selected and self.provisional is None:
                return "that card is already selected"
            return None
        if isinstance(action, Place):
            if self.selected is None:
                return "select a stock card first"
            if not self.field.contains(action.square):
                return f"square {list(action.square)} is outside the field"
            if not self.field.is_usable(action.square):
                return f"square {list(action.square)} is not part of this field"
            if self.field.get(action.square) is not None:
                return f"square {list(action.square)} is taken"
            if self.provisional is not None and self.provisional[0] == action.square:
                return "the card is already there (rotate it instead)"
            card = me.stock[self.selected]
            if self.field.index(action.square) not in self.permitted_indices(self.current, card):
                if card.rainbow:
                    return "a rainbow card may not go where its only neighbours are opponent cards"
                return "a colour card must go next to your own colour card or a rainbow card"
            return None
        if isinstance(action, Rotate):
            return None if self.provisional is not None else "no card is provisionally placed"
        if isinstance(action, Back):
            if self.provisional is None and self.selected is None:
                return "nothing to take back"
            return None
        if isinstance(action, Determine):
            return None if self.provisional is not None else "place a card before determining"
        if isinstance(action, Pass):
            if self.can_place_any(self.current):
                return "a stock card can still be placed; passing is not allowed"
            return None
        return self._check_item(action)

    def _check_item(self, action: UseItem) -> str | None:
        me = self.players[self.current]
        if self.item_used:
            return "only one item may be used per turn"
        if self.provisional is not None:
            return "items are used before placing a card (press back first)"
        if not 0 <= action.slot < len(me.items):
            return f"no item in slot {action.slot + 1}"
        kind = me.items[action.slot]
        if kind == it.RESHUFFLE:
            return None
        if kind == it.PRISM:
            if action.stock is None or not 0 <= action.stock < len(me.stock):
                return "prism needs a stock card to turn into a rainbow card"
            if me.stock[action.stock].rainbow:
                return "that stock card is already a rainbow card"
            return None
        if action.square is None or not self.field.contains(action.square):
            return f"{kind} needs a square of the field"
        card = self.field.get(action.square) if self.field.is_usable(action.square) else None
        if card is None:
            return f"{kind} needs a placed card"
        if kind == it.RENUMBER:
            if card.owner not in (self.current, RAINBOW):
                return "renumber works on your own colour cards and rainbow cards"
            if action.delta not in (1, -1):
                return "renumber changes a number by +1 or -1"
            return None
        if card.owner != self.current:
            return "swivel turns one of your own colour cards"
        return None

    # ---- applying -----------------------------------------------------------------------
    def apply(self, action: Action) -> list[dict[str, Any]]:
        """Apply a legal action; return events for a scene. IllegalAction if refused."""
        reason = self.check(action)
        if reason is not None:
            raise IllegalAction(reason)
        me = self.players[self.current]
        if isinstance(action, Select):
            self.selected = action.stock
            self.provisional = None
            return [{"event": "selected", "stock": action.stock}]
        if isinstance(action, Place):
            turns = self.provisional[1] if self.provisional is not None else 0
            self.provisional = (action.square, turns)
            return [{"event": "provisional", "square": list(action.square), "turns": turns}]
        if isinstance(action, Rotate):
            assert self.provisional is not None
            square, turns = self.provisional
            self.provisional = (square, (turns + 1) % 4)
            return [{"event": "rotated", "turns": (turns + 1) % 4}]
        if isinstance(action, Back):
            if self.provisional is not None:
                self.provisional = None
                return [{"event": "taken_back"}]
            self.selected = None
            return [{"event": "deselected"}]
        if isinstance(action, UseItem):
            return self._use_item(action, me)
        if isinstance(action, Pass):
            self.passes += 1
            self.last_yaku = []
            self.last_placement = None
            events: list[dict[str, Any]] = [{"event": "passed", "player": self.current}]
            if self.passes >= self.config.players:
                events.append(self._finish("blocked"))
            else:
                self._next_player()
            return events
        return self._determine(me)

    def _use_item(self, action: UseItem, me: PlayerState) -> list[dict[str, Any]]:
        kind = me.items.pop(action.slot)
        self.item_used = True
        self.selected = None
        if kind == it.RESHUFFLE:
            me.stock = [self._draw(self.current) for _ in me.stock]
        elif kind == it.PRISM:
            assert action.stock is not None
            old = me.stock[action.stock]
            me.stock[action.stock] = Card(old.number, old.connectors, RAINBOW)
        else:
            assert action.square is not None
            card = self.field.get(action.square)
            assert card is not None
            if kind == it.RENUMBER:
                assert action.delta is not None
                card = card.with_number(it.cycle_number(card.number, action.delta))
            else:
                card = card.rotated(1)
            self.field.put(action.square, card)
        return [{"event": "item_used", "item": kind, "action": action_to_json(action)}]

    def _determine(self, me: PlayerState) -> list[dict[str, Any]]:
        card = self.provisional_card()
        assert card is not None and self.provisional is not None and self.selected is not None
        square = self.provisional[0]
        player = self.current
        self.field.put(square, card)
        del me.stock[self.selected]
        self.selected = None
        self.provisional = None
        self.passes = 0
        found = evaluate(self.field, self.field.index(square), player)
        gained = sum(y.points for y in found)
        me.score += gained
        me.yaku += len(found)
        self.last_yaku = found
        self.last_placement = {"player": player, "square": list(square), "card": card.to_json()}
        events: list[dict[str, Any]] = [
            {
                "event": "fixed",
                "player": player,
                "square": list(square),
                "card": card.to_json(),
                "yaku": [y.to_json() for y in found],
                "points": gained,
            }
        ]
        earned = any(y.cards >= it.EARN_MIN_GROUP or y.kind == "perfect" for y in found)
        if earned and self.config.items:
            kind = item_at(self.config.seed, self.item_index, it.ITEM_KINDS)
            self.item_index += 1
            kept = len(me.items) < it.ITEM_CAPACITY
            if kept:
                me.items.append(kind)
            events.append({"event": "item_earned", "item": kind, "kept": kept})
        if self.config.removal and found:
            removed = sorted({s for y in found for s in y.squares})
            for sq in removed:
                self.field.put(sq, None)
            events.append({"event": "removed", "squares": [list(s) for s in removed]})
        if me.score >= self.config.target:
            events.append(self._finish("target", winner=player))
        elif self.field.is_full():
            events.append(self._finish("full"))
        else:
            self._next_player()
        return events

    def _next_player(self) -> None:
        self.current = (self.current + 1) % self.config.players
        self._begin_turn()

    def _finish(self, reason: str, winner: int | None = None) -> dict[str, Any]:
        self.over = True
        self.end_reason = reason
        self.selected = None
        self.provisional = None
        if winner is None:
            best = max(p.score for p in self.players)
            leaders = [i for i, p in enumerate(self.players) if p.score == best]
            winner = leaders[0] if len(leaders) == 1 else None
        self.winner = winner
        return {"event": "game_over", "reason": reason, "winner": winner}

    # ---- listing legal actions ------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action now (items listed with every target). Used by tests and tools."""
        if self.over:
            return []
        p = self.current
        me = self.players[p]
        out: list[Action] = [Select(p, i) for i in range(len(me.stock))]
        if self.selected is not None:
            card = me.stock[self.selected]
            out += [Place(p, self.field.square(i)) for i in self.permitted_indices(p, card)]
        if self.provisional is not None:
            out += [Rotate(p), Determine(p)]
        if self.provisional is not None or self.selected is not None:
            out.append(Back(p))
        out.append(Pass(p))
        if not self.item_used and self.provisional is None:
            for slot, kind in enumerate(me.items):
                out += list(self._item_actions(p, slot, kind))
        return [a for a in out if self.check(a) is None]

    def _item_actions(self, p: int, slot: int, kind: str) -> list[UseItem]:
        if kind == it.RESHUFFLE:
            return [UseItem(p, slot)]
        if kind == it.PRISM:
            return [UseItem(p, slot, stock=i) for i in range(len(self.players[p].stock))]
        squares = [self.field.square(i) for i, c in enumerate(self.field.cells) if c is not None]
        if kind == it.RENUMBER:
            return [UseItem(p, slot, square=s, delta=d) for s in squares for d in (1, -1)]
        return [UseItem(p, slot, square=s) for s in squares]

    def placements(self, player: int) -> list[tuple[int, int, int]]:
        """(stock index, square index, turns) of every distinct complete placement."""
        out = []
        for si, card in enumerate(self.players[player].stock):
            squares = self.permitted_indices(player, card)
            for turns in distinct_rotations(card.connectors):
                out += [(si, sq, turns) for sq in squares]
        return out

    # ---- serialisation ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "config": self.config.to_json(),
            "field": self.field.to_json(),
            "players": [p.to_json() for p in self.players],
            "current": self.current,
            "card_index": self.card_index,
            "item_index": self.item_index,
            "selected": self.selected,
            "provisional": None
            if self.provisional is None
            else {"square": list(self.provisional[0]), "turns": self.provisional[1]},
            "item_used": self.item_used,
            "passes": self.passes,
            "last_yaku": [y.to_json() for y in self.last_yaku],
            "last_placement": self.last_placement,
            "over": self.over,
            "winner": self.winner,
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameState:
        """Rebuild a state; ValueError with a reason for anything malformed or inconsistent."""
        try:
            return cls._from_json(data)
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValueError(f"bad game state: {exc!r}") from None

    @classmethod
    def _from_json(cls, data: Any) -> GameState:
        if not isinstance(data, dict):
            raise ValueError("a game state must be an object")
        config = GameConfig.from_json(data["config"])
        players = [PlayerState.from_json(p) for p in data["players"]]
        if len(players) != config.players:
            raise ValueError("player count does not match the config")
        state = cls(
            config=config,
            field=Field.from_json(data["field"]),
            players=players,
            current=_as_int(data["current"], "current"),
            card_index=_as_int(data["card_index"], "card_index"),
            item_index=_as_int(data["item_index"], "item_index"),
            selected=None if data["selected"] is None else _as_int(data["selected"], "selected"),
            item_used=bool(data["item_used"]),
            passes=_as_int(data["passes"], "passes"),
            last_yaku=[Yaku.from_json(y) for y in data["last_yaku"]],
            last_placement=data["last_placement"],
            over=bool(data["over"]),
            winner=data["winner"],
            end_reason=data["end_reason"],
        )
        if not 0 <= state.current < config.players:
            raise ValueError("current player out of range")
        if state.selected is not None and not 0 <= state.selected < len(
            players[state.current].stock
        ):
            raise ValueError("selected stock card out of range")
        prov = data["provisional"]
        if prov is not None:
            square = square_from_json(prov["square"])
            turns = _as_int(prov["turns"], "turns")
            if state.selected is None or not 0 <= turns < 4:
                raise ValueError("provisional placement without a selected card")
            if not state.field.is_usable(square) or state.field.get(square) is not None:
                raise ValueError("provisional placement on a taken or unusable square")
            state.provisional = (square, turns)
        if state.winner is not None and not 0 <= state.winner < config.players:
            raise ValueError("winner out of range")
        return state

    def copy(self) -> GameState:
        return GameState(
            config=self.config,
            field=self.field.copy(),
            players=[
                PlayerState(list(p.stock), list(p.items), p.score, p.turns, p.yaku)
                for p in self.players
            ],
            current=self.current,
            card_index=self.card_index,
            item_index=self.item_index,
            selected=self.selected,
            provisional=self.provisional,
            item_used=self.item_used,
            passes=self.passes,
            last_yaku=list(self.last_yaku),
            last_placement=self.last_placement,
            over=self.over,
            winner=self.winner,
            end_reason=self.end_reason,
        )

    def dump(self) -> dict[str, Any]:
        """The `game` object of a P-DUMP: squares, stocks, scores, turn, last yaku."""
        squares = []
        for i, card in enumerate(self.field.cells):
            if card is not None:
                squares.append(
                    {"square": list(self.field.square(i)), **card.to_json(), "state": "fixed"}
                )
        prov = self.provisional_card()
        if prov is not None and self.provisional is not None:
            squares.append(
                {"square": list(self.provisional[0]), **prov.to_json(), "state": "provisional"}
            )
        return {
            "field": {
                "rows": self.field.rows,
                "cols": self.field.cols,
                "usable": self.field.to_json()["usable"],
                "squares": squares,
            },
            "stocks": [[c.to_json() for c in p.stock] for p in self.players],
            "items": [list(p.items) for p in self.players],
            "scores": [p.score for p in self.players],
            "turn": self.current,
            "selected": self.selected,
            "last_yaku": [y.to_json() for y in self.last_yaku],
            "over": self.over,
            "winner": self.winner,
        }
