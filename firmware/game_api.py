"""The game API: how a game registers with the firmware and what it implements.

A game package provides `games/<id>/cartridge.py` with `CARTRIDGE = Cartridge(...)`; the
firmware finds it at run time. Per tick the firmware calls `update(input)`, per frame
`draw(top, bottom)`; `save_state()` / `load_state()` make suspend and resume exact.
A game reaches the system only through its `GameContext`.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import pygame

from firmware.input import InputState
from firmware.match.oneshot import OneShotPlayer as OneShotPlayer  # the game API offers it
from firmware.match.protocol import ComputerPlayer
from firmware.match.seats import MIN_THINK_TICKS, ComputerSeat, Seat

if TYPE_CHECKING:
    from firmware.match.driver import Match
    from firmware.match.pacing import Pacing
    from firmware.match.profiles import DeviceProfile
    from firmware.settings import Settings
    from firmware.storage import Store
    from hal.interfaces import Hal

A = TypeVar("A")

# What the project's checks hold every game to (`python3 run.py test` fails a game that
# breaks one); docs/architecture.md, RULES_SECTION, says the same with the checks' names.
# A check's failure names its rule through `rule_broken(key)`.
RULES_SECTION = 'docs/architecture.md, "What the checks hold a game to"'
GAME_RULES: dict[str, str] = {
    "G1": "a game with versus offers replays (Cartridge.replay) whose screen has a forward"
    " (or next) button and a last button: hotspots named ...forward / ...next and ...last",
    "G2": "the launcher description says 'one unit'; with versus it says 'Versus:' (and"
    " 'たいせん' in description_ja) and how many units ('two units', 'two to four units');"
    " it wraps to at most 7 lines of 226 pixels",
    "G3": "a tile title wraps to at most 2 lines of the tile; each option's name and each of"
    " its values fit side by side in a menu row, in both languages",
    "G4": "a Japanese screen shows no English word (words of 2+ Latin letters, full-width"
    " ones too; only OK, CPU, START, SELECT, SEL, TWINFOLD, Lv, ID, 99of9 (a setup's author),"
    " radio names and game notation count as both) and an English screen no Japanese;"
    " every tr(en, ja) has both",
    "G5": "a name handed to a function (a str parameter) never goes into both languages of"
    " one tr(f'...{x}', f'...{x}'): translate it first",
    "G6": "every GameResult with a summary has its summary_ja (the records list in Japanese)",
    "G7": "every text lies inside the inner area of the box it is drawn on, a row clear of"
    " the screen's edge, touching no other text, on one baseline with the texts beside it",
    "G8": "a game with a match keeps it as the scene's `match`, steps it in update and lists"
    " its legal actions (the sweeps' default player offers a random one to a local seat"
    " there); it records its result with ctx.finish (in versus once the session has"
    " `agreed`), so the sweeps see it end",
}


def rule_broken(key: str) -> str:
    """A check's failure message: the rule a game broke and where it is written."""
    return f"rule {key} ({GAME_RULES[key]}): see {RULES_SECTION}"


# Choices many games' options share, in Japanese (a game's own choice_labels_ja wins).
COMMON_CHOICES_JA = {
    "on": "オン",
    "off": "オフ",
    "last": "前回",
    "random": "ランダム",
    "choose": "えらぶ",
}


@dataclass(frozen=True)
class Option:
    """A choice made before the game starts (mode, level, variant...)."""

    key: str
    label: str
    choices: tuple[str, ...]
    default: str
    label_ja: str = ""
    choice_labels: dict[str, str] = field(default_factory=dict)  # choice -> shown text
    choice_labels_ja: dict[str, str] = field(default_factory=dict)  # the same in Japanese
    # Values beyond `choices` this option also takes from --option (e.g. a puzzle number);
    # the launcher still offers only `choices`. None: `choices` only.
    accepts: Callable[[str], bool] | None = None
    # How a choice is shown, (English, Japanese), while the unit remembers nothing of the game
    # (its cartridge's `memory_key` not stored yet): a "last time" choice before any game.
    unremembered: dict[str, tuple[str, str]] = field(default_factory=dict)

    def takes(self, value: str) -> bool:
        return value in self.choices or (self.accepts is not None and self.accepts(value))

    def __post_init__(self) -> None:
        if self.default not in self.choices:
            raise ValueError(f"option {self.key}: default {self.default!r} is not a choice")

    def shown(self, choice: str, language: str = "en", remembered: bool = True) -> str:
        """The text a choice is shown as; words every game shares have their Japanese here.
        `remembered` False: the unit has stored nothing for the game yet."""
        if not remembered and choice in self.unremembered:
            first_en, first_ja = self.unremembered[choice]
            return first_ja if language == "ja" else first_en
        if language == "ja":
            ja = self.choice_labels_ja.get(choice) or COMMON_CHOICES_JA.get(choice)
            if ja:
                return ja
        return self.choice_labels.get(choice, choice)


LAUNCHER_ORDER_DEFAULT = 100


@dataclass(frozen=True)
class SceneAt:
    """A game's scene class named by where it is (`"games.reversi.scene.play:ReversiScene"`,
    the entry-point form), imported when a game starts or a record opens, not when the unit
    boots. Every start reads every cartridge to fill the launcher, and a game's scene and
    computer player are not needed for its tile (docs/performance.md: the start's CPU and
    memory). Serves as `Cartridge.create` (`create(context)`) and as `Cartridge.replay`
    (`replay(context, record)`)."""

    target: str

    def __call__(self, context: GameContext, *record: dict[str, Any]) -> Game:
        module, _, name = self.target.partition(":")
        scene: Callable[..., Game] = getattr(importlib.import_module(module), name)
        return scene(context, *record)


@dataclass(frozen=True)
class Cartridge:
    """A game's registration: what the launcher shows and how to start it.

    The checks hold its texts to GAME_RULES G2 (`description`: the ways it is played, seven
    lines at most) and G3 (`title` on its tile, the options' rows), a game with `versus` to
    G1 (`replay` with forward and last buttons) and G8 (the match the sweeps play)."""

    id: str
    title: str
    description: str
    draw_icon: Callable[[pygame.Surface], None]  # draws into a 32x32 surface
    create: Callable[[GameContext], Game]
    players: tuple[int, int] = (1, 1)
    options: tuple[Option, ...] = ()
    title_ja: str = ""
    description_ja: str = ""
    # Opens a stored record (from the launcher's Records) as a replay; None: no replays
    # (rule G1: a game with `versus` has them, with forward and last buttons).
    replay: Callable[[GameContext, dict[str, Any]], Game] | None = None
    # True: the game plays against other units over the radio (ctx.versus is its session).
    versus: bool = False
    # The options that matter in a versus match (the host chooses, guests see them).
    versus_options: tuple[str, ...] = ()
    # Hidden information (hands of cards): the host deals and keeps every hand; each guest
    # gets only its own seat's view (a sealed session, firmware/link/session.py).
    versus_sealed: bool = False
    # The host's versus options made concrete before they are offered to guests (a choice
    # like "as last time" filled from the host's stored data); None: used as they are.
    versus_resolve: Callable[[dict[str, str], GameContext], dict[str, str]] | None = None
    # Where the versus badge ("vs NAME" and the link bars) sits on the upper screen: its
    # centre x and top y (the default: top centre, between two players' names); with
    # `versus_badge_names` False only the bars show (the game names the players itself).
    versus_badge: tuple[int, int] = (128, 36)
    versus_badge_names: bool = True
    # The version of the rules as played over the link: raised when a change makes two units
    # disagree (a rule, the action encoding, the state's digest). Units with different
    # versions are shown "needs the same version" in the lobby and never start a match.
    rules_version: int = 1
    # The game's stored data (`GameContext.save_data`) whose presence means this unit
    # remembers choices from an earlier game; None: the options remember nothing.
    memory_key: str | None = None
    # Where the launcher shows the game: by this key, then by id (the five games take 10 to
    # 50; a game that says nothing comes after them, by its id).
    launcher_order: int = LAUNCHER_ORDER_DEFAULT

    def remembers(self, store: Store) -> bool:
        """True unless the game keeps choices (`memory_key`) and has stored none yet."""
        key = self.memory_key
        return key is None or store.get_setting(game_data_key(self.id, key)) is not None

    @property
    def link_units(self) -> tuple[int, int] | None:
        """How many units play one versus match over the link (None: no versus)."""
        return (2, max(2, min(4, self.players[1]))) if self.versus else None

    def option(self, key: str) -> Option:
        for opt in self.options:
            if opt.key == key:
                return opt
        raise KeyError(key)

    def resolve_options(self, given: dict[str, str]) -> dict[str, str]:
        """Defaults overlaid with `given`; unknown keys or choices raise ValueError."""
        values = {opt.key: opt.default for opt in self.options}
        for key, value in given.items():
            if key not in values:
                known = ", ".join(values) or "none"
                raise ValueError(f"{self.id} has no option {key!r} (options: {known})")
            opt = self.option(key)
            if not opt.takes(value):
                more = " (or another value it accepts)" if opt.accepts is not None else ""
                raise ValueError(f"option {key} must be one of {', '.join(opt.choices)}{more}")
            values[key] = value
        return values


@dataclass(frozen=True)
class GameResult:
    """A finished game as reported to the firmware: statistics and the stored record."""

    outcome: str | None  # "win", "loss", "draw" (the local player's side); None: no winner
    score: int | None = None
    summary: str = ""
    record: dict[str, Any] | None = None  # the game's own record (moves...), for replays
    # the summary in Japanese, for the records list ("": the English, which breaks rule G6
    # on a Japanese unit: give both whenever there is a summary)
    summary_ja: str = ""


class GameHost(Protocol):
    """What a game's context reads and asks of the unit running it (the machine satisfies
    it; `firmware.scene.Host`, what the firmware's scenes use, extends it)."""

    @property
    def hal(self) -> Hal: ...
    @property
    def store(self) -> Store: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def profile(self) -> DeviceProfile: ...
    @property
    def pacing(self) -> Pacing: ...
    @property
    def tick(self) -> int: ...

    def tr(self, en: str, ja: str) -> str: ...
    def play(self, effect: str) -> None: ...
    def record_result(self, game_id: str, result: GameResult, seed: int | None = None) -> None:
        ...
    def discard_suspend(self, game_id: str) -> None: ...
    def to_launcher(self, selected: str | None = None) -> None: ...


class NamedRadio(Protocol):
    """The radio of a versus session as a game reads it: this unit's name."""

    @property
    def name(self) -> str: ...


class Versus(Protocol):
    """A versus match's link session as a game uses it (`GameContext.versus`; the firmware's
    `firmware.link.session.Session` satisfies it). The shared seed is already the context's
    (`ctx.seed`, `ctx.rng`): every unit draws the same game from it.

    A game plays through the seats the session makes: `make_seats()` gives a local seat for
    this unit's player (`seat`) and remote seats for the others, the game builds its `Match`
    on them and hands it to `attach(match)`, which sends this unit's actions out and checks
    every remote one. It records the result only once `agreed` (every unit reached the same
    final state). Sealed sessions (hidden hands, `Cartridge.versus_sealed`) add `role`,
    `deal_seed` (the host's) and `opening` (a guest's view of the deal)."""

    @property
    def radio(self) -> NamedRadio: ...
    @property
    def seed(self) -> int | None: ...  # the shared seed (the machine makes it `ctx.seed`)
    # this unit's player's seat (None until the session has seated it)
    @property
    def seat(self) -> int | None: ...
    # how many seats `make_seats()` makes (the units'; a game with computers in the seats
    # no unit took raises it before making them, as Killing Sevens does)
    seats: int
    @property
    def role(self) -> str: ...  # "host" or "guest"
    @property
    def sealed(self) -> bool: ...
    @property
    def deal_seed(self) -> int | None: ...  # sealed, the host: the seed it deals from
    @property
    def opening(self) -> dict[str, Any] | None: ...  # sealed, a guest: its view of the deal
    @property
    def agreed(self) -> bool: ...  # every unit has the same final state: record the result
    @property
    def names(self) -> list[str]: ...  # every unit's radio name, in seat order

    def partner_name(self) -> str:
        """The other units' radio names, joined with ", "."""
        ...

    def make_seats(self) -> list[Seat[Any]]:
        """A local seat for this unit's player, remote seats for the others (`seats`)."""
        ...

    def attach(
        self,
        match: Match[Any],
        dealer: Any = None,
        computer: Callable[[int], Seat[Any]] | None = None,
    ) -> None:
        """Carry the match's actions between the units; `dealer` (sealed: deal seed -> the
        whole rules) lets a guest check the host's deal at the end; `computer` (seat -> the
        game's computer player for it) lets the computer take the seat of a unit that is
        gone (issue 33: the host's, with three or four units; the one left of two)."""
        ...


class GameContext:
    """The system as a game sees it: seeded randomness, options, language, results.

    Every text a game draws comes through `tr(en, ja)` (rules G4 and G5 of GAME_RULES: one
    language per screen) and lies inside its box (G7)."""

    def __init__(
        self, machine: GameHost, cartridge: Cartridge, options: dict[str, str], seed: int
    ) -> None:
        self._machine = machine
        self.cartridge = cartridge
        self.options = dict(options)
        self.seed = seed
        self.rng = random.Random(f"{seed}:{cartridge.id}")
        # The link session of a versus match (`Versus`), else None: `make_seats()` gives
        # local and remote seats, `attach(match)` wires the match up.
        self.versus: Versus | None = None

    @property
    def language(self) -> str:
        return self._machine.settings.language

    def tr(self, en: str, ja: str) -> str:
        """Pick the text for the current language."""
        return self._machine.tr(en, ja)

    @property
    def tick(self) -> int:
        return self._machine.tick

    def play(self, effect: str) -> None:
        self._machine.play(effect)

    def computer_budget(self, units_per_tick: int) -> int:
        """A computer player's per-tick work budget on this unit (its device profile)."""
        return self._machine.profile.budget(units_per_tick)

    @property
    def computer_native(self) -> bool:
        """Whether this unit's computer players count nodes at their compiled cost (the
        profile's `native`: the unit runs the compiled search accelerators)."""
        return self._machine.profile.native

    def computer_seat(
        self, player: ComputerPlayer[A], min_ticks: int = MIN_THINK_TICKS
    ) -> ComputerSeat[A]:
        """A computer seat paced by this unit's device profile: in-loop slices, or a worker
        process where the profile has a spare core (issue 18)."""
        profile = self._machine.profile
        return ComputerSeat(
            player,
            profile.budget(player.units_per_tick),
            min_ticks,
            worker=profile.mode == "worker",
            block=not self._machine.hal.realtime,
            pacing=self._machine.pacing,
            cores=profile.cores,
        )

    def finish(self, result: GameResult) -> None:
        """Record a finished game: statistics always, the record when given."""
        self._machine.record_result(self.cartridge.id, result, seed=self.seed)

    def quit(self) -> None:
        """Leave the game for the launcher (a game's own "quit" button). Nothing is saved,
        and a saved game of it that waits stays (only the player's answer discards one)."""
        self._machine.to_launcher(selected=self.cartridge.id)

    def load_data(self, key: str, default: Any = None) -> Any:
        """The game's own stored value under `key` (remembered choices, running totals...),
        or `default` when there is none. Kept in the store's settings as `game:<id>:<key>`."""
        return self._machine.store.get_setting(self._data_key(key), default)

    def save_data(self, key: str, value: Any) -> None:
        """Store a JSON value for this game under `key` (one synchronous transaction)."""
        self._machine.store.set_setting(self._data_key(key), value)

    def _data_key(self, key: str) -> str:
        if not isinstance(key, str) or not key:
            raise ValueError("a game data key is a non-empty string")
        return game_data_key(self.cartridge.id, key)

    def records(self) -> list[dict[str, Any]]:
        """This game's stored records, newest first (for replay screens)."""
        return [
            r.record
            for r in self._machine.store.list_records(self.cartridge.id)
            if isinstance(r.record, dict)
        ]


def game_data_key(game_id: str, key: str) -> str:
    """Where a game's own value `key` is kept among the store's settings."""
    return f"game:{game_id}:{key}"


THINKING_INDICATOR_TICKS = 30  # half a second: a quicker answer needs no indicator


class Game(ABC):
    """What a game implements. Draw code uses pygame surfaces and firmware.gfx only."""

    uses_dpad = False
    # True: the game shows its own thinking indicator once `thinking_ticks()` reaches
    # THINKING_INDICATOR_TICKS; False: the firmware draws its badge in the top-right corner.
    draws_thinking = False

    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx

    @abstractmethod
    def update(self, inp: InputState) -> None: ...

    @abstractmethod
    def draw(self, top: pygame.Surface, bottom: pygame.Surface) -> None: ...

    def hotspots(self) -> dict[str, pygame.Rect]:
        return {}

    def dump(self) -> dict[str, Any]:
        """The `game` object of the state dump (each game's issue defines it)."""
        return {}

    def thinking_ticks(self) -> int:
        """Ticks a computer player has been deciding its move (0 when none is): the
        firmware shows a thinking indicator once this passes half a second (issue 18)."""
        return 0

    @abstractmethod
    def save_state(self) -> dict[str, Any]:
        """Everything needed to continue exactly (JSON-serialisable)."""

    @abstractmethod
    def load_state(self, state: dict[str, Any]) -> None:
        """Continue from `save_state()`'s output; raise ValueError if it is not valid."""
