"""The versus session's wire vocabulary, shared by the host's and the guest's sides
(firmware/link/session_host.py, session_guest.py): the message letters, the codes in them,
the states a session goes through and the commit-reveal helpers. It imports nothing of the
session, so both roles read one definition.

Messages (over each host-guest reliable channel; the first byte says which):

    J p r game        guest -> host  join the game the host offers; p, r: the guest's link
                                     protocol and rules versions (one byte each)
    W seat seats f p r c_H options-json  host -> guest  welcome: your seat, the most seats,
                                     flags (1 = sealed, 2 = again: a unit that restarted
                                     back into its running match), the host's versions,
                                     its commitment
    C c_G             guest -> host  the guest's commitment (SHA-256 of its random, 16 bytes)
    R r_H             host -> guest  the host's random, revealed once every guest committed
    R c_0 .. c_n      host -> guest  (sealed) every commitment in seat order, instead
    V r_G             guest -> host  the guest's random
    G r_0 .. r_n      host -> guest  go: every random in seat order; seed = SHA-256(all)
    G                 host -> guest  (sealed) go; the shared seed is SHA-256 of the commitments
    N names-json      host -> guest  every unit's radio name in seat order (sent before G)
    A i seat d data   either way     action number i by seat, digest prefix d (6 bytes)
    P i seat 0 data   guest -> host  (sealed) the guest's proposed action, applied on the echo
    Q i               guest -> host  my state differs after action i: send yours
    S k n part        host -> guest  the host's state, part k of n (zlib JSON; sealed: the
                                     guest's seat's view; the first one is the opening deal)
    U r_0 .. r_n      host -> guest  (sealed) every random, once the game is over
    T seat t i        host -> guest  the unit in seat is gone: the computer takes its seat in
                                     t ticks (2 bytes; 0: it plays it from action i, 2 bytes)
    O                 host -> guest  you are back: your seat is yours again if you want it
    Y                 guest -> host  yes: give me my seat back (at the next turn boundary)
    H seat i          host -> guest  the unit in seat plays it again from action i (2 bytes)
    E d               either way     the game is over here, final digest prefix d
    B [why [seat]]    either way     abandon; a host refusing a join says why in one byte
                                     (REFUSALS: full, another game, another version, started);
                                     a goodbye from a running match says why (DEPARTURES:
                                     quit, left, restarted) and whose seat is gone: a unit's
                                     own, or the host's word to the others about a guest
    L seat..          host -> guest  the seats whose links the host has lost (none: all back)
"""

from __future__ import annotations

import enum
import hashlib
import struct
from dataclasses import dataclass

DIGEST_BYTES = 6
PART_BYTES = 40
JOIN_TIMEOUT = 600  # ticks a guest waits for the host's welcome before looking again
# Ticks a lost guest of a match of three or four units is waited for before the computer
# takes its seat (a unit that said goodbye is not waited for); a guest waits twice as long
# for a lost host before the match is over for it. A session's `grace_ticks` (the
# `--link-grace` option) sets another.
GRACE_TICKS = 600
SEAT = struct.Struct("!BHH")  # T: seat, ticks, action; H: seat, action (ticks 0)
ACTION = struct.Struct("!HB6s")

# Why a host refused a join (the byte after "B"), and the failure key a guest keeps for it.
REFUSALS = {1: "full", 2: "other_game", 3: "version", 4: "started"}
REFUSAL_CODES = {why: code for code, why in REFUSALS.items()}
# Why a unit left a running match (the byte after "B" in a goodbye, apart from REFUSALS'),
# and "lost": silent for reliable.LOST_TICKS (never sent: each unit notices it).
DEPARTURES = {5: "quit", 6: "left", 7: "lost", 8: "restarted"}
DEPARTURE_CODES = {why: code for code, why in DEPARTURES.items()}
# Every way a join or a start can fail, as the log says it (the lobby shows each in the
# unit's language, firmware/scenes/versus.py).
FAILURES = {
    "no_answer": "the host did not answer",
    "full": "the host has no free seat",
    "other_game": "the host offers another game",
    "version": "the host needs the same version (link protocol and rules)",
    "started": "the host has started without more players",
    "refused": "the host refused",
    "host_left": "the host went away",
    "host_restarted": "the host restarted",
    "guest_left": "a player left before the start",
    "partner_left": "partner left",
    "partner_restarted": "partner restarted or left",
    "host_gone": "the host left the match; it cannot go on without the host",
}


class State(enum.Enum):
    IDLE = "idle"
    HOSTING = "hosting"  # announcing, waiting for guests
    LOOKING = "looking"  # a guest choosing a host
    PAIRING = "pairing"
    JOINING = "joining"  # joined; agreeing on options and randomness
    PLAYING = "playing"
    WAITING = "waiting"  # a partner's link is lost
    STRANDED = "stranded"  # two units: the partner is gone for good; finish alone or leave
    OVER = "over"
    ABANDONED = "abandoned"


def commit_of(secret: bytes) -> bytes:
    """The commitment to a random: what a unit sends before anyone reveals."""
    return hashlib.sha256(b"seed" + secret).digest()[:16]


def seed_of(parts: list[bytes]) -> int:
    """The shared seed of every random (or, sealed, of every commitment)."""
    return int.from_bytes(hashlib.sha256(b"".join(parts)).digest()[:8], "big") >> 1


def chunks(body: bytes) -> list[bytes]:
    """A message of 16-byte randoms or commitments, split."""
    return [body[i : i + 16] for i in range(0, len(body), 16)]


@dataclass
class Guest:
    """A guest as its host keeps it: its unit, its seat and its commit-reveal."""

    peer: bytes
    seat: int
    commit: bytes = b""
    reveal: bytes = b""
