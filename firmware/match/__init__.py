"""The match layer: one seam for every game's moves (rules protocol, seats, driver)."""

from firmware.match.digest import canonical_bytes, canonical_digest
from firmware.match.driver import Match, Played
from firmware.match.oneshot import OneShotPlayer
from firmware.match.profiles import DEFAULT_PROFILE, PROFILES, DeviceProfile
from firmware.match.protocol import (
    MAX_ACTION_BYTES,
    ActionError,
    ComputerPlayer,
    Event,
    MatchResult,
    MatchRules,
    SealedRules,
    SealedView,
    Thinker,
)
from firmware.match.replay import ReplayCursor
from firmware.match.seats import (
    ComputerSeat,
    LocalSeat,
    RelaySeat,
    RemoteSeat,
    ReplaySeat,
    ReplaySource,
    Seat,
)

__all__ = [
    "DEFAULT_PROFILE",
    "MAX_ACTION_BYTES",
    "PROFILES",
    "ActionError",
    "ComputerPlayer",
    "ComputerSeat",
    "DeviceProfile",
    "Event",
    "LocalSeat",
    "Match",
    "MatchResult",
    "MatchRules",
    "OneShotPlayer",
    "Played",
    "RelaySeat",
    "RemoteSeat",
    "ReplayCursor",
    "ReplaySeat",
    "ReplaySource",
    "SealedRules",
    "SealedView",
    "Seat",
    "Thinker",
    "canonical_bytes",
    "canonical_digest",
]
