"""Versus sessions (P-LINK-3, P-LINK-4): a host and up to three paired guests play one match
in lockstep; only actions travel, each with a digest of the state it produced.

The session is split by role: the wire vocabulary (message letters, codes, states) in
`session_codec.py`, the state and the lockstep match both roles share in `session_core.py`,
the host's messages in `session_host.py` and the guest's in `session_guest.py`, what becomes
of the units that leave in `session_departures.py`. A unit's `Session` is both roles (its
role is chosen by `host_game` or `look`); the names other modules use are importable here.

A unit leaving a match says goodbye at once (`abandon(cause)`): the emulator's quit, the end
of a headless run and a shutdown say "quit", the pause menu's "Leave the match" and the
waiting screen "left". The host passes a guest's goodbye, or its restart, on to the other
guests, so every unit names exactly the units that are gone (`gone()`, the screens and the
dump) and the log has each with its cause; a unit that falls silent is lost after
`reliable.LOST_TICKS` (2.5 s) and named so (`lost_seats()`). Units of link protocol 3
without these read a goodbye as before (the partner left) and ignore `L`.

The match outlives a unit (issue 33): with three or four units the host's computer (the
game's, given to `attach(match, computer=...)`) takes the seat of a guest gone with a
goodbye at once, of a lost one after `grace_ticks`, tells everyone (`T`) and plays on in
lockstep; a guest heard again, or one that restarted and joins again, is offered its seat
(`O`), says yes (`Y`, `accept_seat`) and takes it at the next turn boundary (`H`). Of two
units the one left may finish alone (`finish_alone`). A lost host is waited for twice the
grace period; then, as after its goodbye, the match is over for its guests. `seat_parts`
says who played which part of a seat (the record and the result name them).

A join that fails never fails silently: `failure` names why (a key of FAILURES: no answer,
refused and why, another version, the host left or restarted), the lobby shows it and the
log has it. Units with another link protocol or rules version never start a match: the
lobby shows them "needs the same version" and will not join, a host refuses their join
and a guest leaves a welcome whose versions differ.

Shared randomness by commit-reveal: nobody learns another's random before committing to its
own, so no single unit chooses the seed. The host is authoritative: it checks every guest
action against the rules (an illegal one is refused, counted and answered with the host's
state) and forwards accepted actions to the other guests. A digest mismatch on either side
ends in the host's state being adopted (resync). The match driver's seats (RemoteSeat)
receive the actions; `attach(match)` wires a match to the session.

Sealed sessions (hidden-information games, `SealedRules`: Killing Sevens) keep every hand on
the host. The seed that deals is SHA-256 of every random, and only the host learns the
guests' randoms before the end, so only the host (the dealer, which also runs the computer
seats) knows the deal; each guest gets its own seat's view (`sealed_view`), proposes its
actions to the host (`RelaySeat`) and applies every action as the host echoes it, with the
`disclosure` it needs (who held the killed cards); views compare the public digest. At the
end the host reveals the randoms; each guest deals the game again itself (`dealer`), replays
every action through the whole rules and checks its view against it (`SealedView.unseal`),
so a host that dealt unfairly, passed with a playable card or named a wrong victim is caught.
"""

from __future__ import annotations

from firmware.link.session_codec import (
    ACTION,
    DEPARTURE_CODES,
    DEPARTURES,
    DIGEST_BYTES,
    FAILURES,
    GRACE_TICKS,
    JOIN_TIMEOUT,
    PART_BYTES,
    REFUSAL_CODES,
    REFUSALS,
    Guest,
    State,
)
from firmware.link.session_guest import GuestSide
from firmware.link.session_host import HostSide

__all__ = [
    "ACTION",
    "DEPARTURES",
    "DEPARTURE_CODES",
    "DIGEST_BYTES",
    "FAILURES",
    "GRACE_TICKS",
    "JOIN_TIMEOUT",
    "PART_BYTES",
    "REFUSALS",
    "REFUSAL_CODES",
    "Guest",
    "Session",
    "State",
]


class Session(HostSide, GuestSide):
    """One unit's side of a versus session: the host's or the guest's, as it is started."""
