"""Pairing by numeric comparison (P-LINK-2): a fresh X25519 key, a 6-digit code on both
screens, and both players' confirmation.

The exchange (the joiner G asks the host H), modelled on Bluetooth's numeric comparison:

    G -> H  REQ     pk_G, G's name
    H -> G  RESP    pk_H, commit = SHA256("commit" | pk_H | pk_G | n_H)[:16], H's name
    G -> H  NONCE   n_G                 (G reveals only after H has committed)
    H -> G  NONCE   n_H                 (G checks it against the commitment)
    both:   code = SHA256("code" | pk_G | pk_H | n_G | n_H) mod 10^6
            key  = HKDF-SHA256(X25519(sk, pk'), salt n_G | n_H, info pk_G | pk_H)
    each -> CONFIRM HMAC(key, "confirm" | role)[:8] once its player said yes, or DECLINE

A relay in the middle runs two exchanges with different keys. H commits to n_H before seeing
n_G, and G reveals n_G only then, so the relay cannot steer the two codes to be equal except
by chance (one in a million): the players see different codes and decline. The messages
travel over an unauthenticated reliable channel (PAIR frames); nothing in them is trusted
until both confirmations verify, and the key never travels.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import logging
import os

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

REQ, RESP, NONCE, CONFIRM, DECLINE = 1, 2, 3, 4, 5
NONCE_BYTES = 16
CODE_DIGITS = 6

log = logging.getLogger("twinfold.link")


class Step(enum.Enum):
    ASKING = "asking"  # waiting for the other side's part of the exchange
    CONFIRM = "confirm"  # code shown; waiting for the local player (and the other's yes)
    WAITING = "waiting"  # the local player confirmed; the other has not yet
    PAIRED = "paired"
    FAILED = "failed"


def _pub(sk: X25519PrivateKey) -> bytes:
    return sk.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _commit(pk_h: bytes, pk_g: bytes, n_h: bytes) -> bytes:
    return hashlib.sha256(b"commit" + pk_h + pk_g + n_h).digest()[:16]


def code_for(pk_g: bytes, pk_h: bytes, n_g: bytes, n_h: bytes) -> str:
    digest = hashlib.sha256(b"code" + pk_g + pk_h + n_g + n_h).digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10**CODE_DIGITS:06d}"


class Pairing:
    """One side of one pairing exchange. Feed it the peer's messages (`receive`); send what
    `outbox` collects; `confirm(yes)` is the local player's answer."""

    def __init__(self, joiner: bool, my_name: str, peer: bytes) -> None:
        self.joiner = joiner
        self.peer = peer
        self.my_name = my_name
        self.peer_name = ""
        self._sk = X25519PrivateKey.generate()
        self._pk = _pub(self._sk)
        self._nonce = os.urandom(NONCE_BYTES)
        self._peer_pk = b""
        self._peer_nonce = b""
        self._peer_commit = b""
        self.key: bytes | None = None
        self.code: str | None = None
        self.step = Step.ASKING
        self.reason = ""
        self.local_yes = False
        self.remote_yes = False
        self.outbox: list[bytes] = []
        if joiner:
            self.outbox.append(bytes([REQ]) + self._pk + my_name.encode()[:16])

    @property
    def peer_key(self) -> bytes:
        """The other unit's public key for this exchange (b"" before its first message)."""
        return self._peer_pk

    @property
    def done(self) -> bool:
        return self.step in (Step.PAIRED, Step.FAILED)

    def _fail(self, reason: str) -> None:
        if not self.done:
            self.step, self.reason = Step.FAILED, reason
            log.info("pairing with %s failed: %s", self.peer_name or self.peer.hex(), reason)

    def give_up(self, reason: str) -> None:
        """End an exchange that went nowhere (the radio's timeout): FAILED, with `reason`."""
        self._fail(reason)

    def receive(self, msg: bytes) -> None:
        if self.done or not msg:
            return
        kind, body = msg[0], msg[1:]
        try:
            if kind == DECLINE:
                self._fail("the other player declined")
            elif kind == REQ and not self.joiner and not self._peer_pk:
                self._peer_pk, self.peer_name = body[:32], body[32:].decode(errors="replace")
                X25519PublicKey.from_public_bytes(self._peer_pk)
                commit = _commit(self._pk, self._peer_pk, self._nonce)
                self.outbox.append(bytes([RESP]) + self._pk + commit + self.my_name.encode()[:16])
            elif kind == RESP and self.joiner and not self._peer_pk:
                self._peer_pk, self._peer_commit = body[:32], body[32:48]
                self.peer_name = body[48:].decode(errors="replace")
                X25519PublicKey.from_public_bytes(self._peer_pk)
                self.outbox.append(bytes([NONCE]) + self._nonce)
            elif kind == NONCE and not self._peer_nonce and self._peer_pk:
                self._peer_nonce = body[:NONCE_BYTES]
                if len(self._peer_nonce) != NONCE_BYTES:
                    raise ValueError("short nonce")
                if self.joiner:
                    if _commit(self._peer_pk, self._pk, self._peer_nonce) != self._peer_commit:
                        self._fail("the other unit's commitment did not match")
                        return
                else:
                    self.outbox.append(bytes([NONCE]) + self._nonce)
                self._derive()
            elif kind == CONFIRM and self.key is not None:
                expected = self._confirm_mac(joiner=not self.joiner)
                if hmac.compare_digest(body[:8], expected):
                    self.remote_yes = True
                    self._settle()
                else:
                    self._fail("the other unit's confirmation did not verify")
        except ValueError as exc:  # a malformed public key or message
            self._fail(f"bad pairing message: {exc}")

    def _derive(self) -> None:
        peer_key = X25519PublicKey.from_public_bytes(self._peer_pk)
        shared = self._sk.exchange(peer_key)
        pk_g, pk_h = (self._pk, self._peer_pk) if self.joiner else (self._peer_pk, self._pk)
        n_g, n_h = (
            (self._nonce, self._peer_nonce) if self.joiner else (self._peer_nonce, self._nonce)
        )
        self.key = HKDF(
            algorithm=hashes.SHA256(), length=32, salt=n_g + n_h, info=b"twinfold" + pk_g + pk_h
        ).derive(shared)
        self.code = code_for(pk_g, pk_h, n_g, n_h)
        self.step = Step.CONFIRM

    def _confirm_mac(self, joiner: bool) -> bytes:
        assert self.key is not None
        role = b"G" if joiner else b"H"
        return hmac.new(self.key, b"confirm" + role, hashlib.sha256).digest()[:8]

    def confirm(self, yes: bool) -> None:
        """The local player's answer to "do both screens show this code?"."""
        if self.done:
            return
        if not yes:
            self.outbox.append(bytes([DECLINE]))
            self._fail("declined here")
            return
        if self.key is None or self.local_yes:
            return
        self.local_yes = True
        log.info("pairing with %s: the code is confirmed here", self.peer_name or self.peer.hex())
        self.outbox.append(bytes([CONFIRM]) + self._confirm_mac(joiner=self.joiner))
        self.step = Step.WAITING
        self._settle()

    def _settle(self) -> None:
        if self.local_yes and self.remote_yes:
            self.step = Step.PAIRED
