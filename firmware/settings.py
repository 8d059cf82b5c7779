"""User settings (P-FW-2) kept in the store: language, volume, screen swap, radio name."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

LANGUAGES = ("en", "ja")
MAX_VOLUME = 10
RADIO_NAME_MAX = 12


@dataclass
class Settings:
    language: str = "en"
    volume: int = 7
    swap: bool = False
    radio_name: str = ""  # how this unit appears to others on the radio; "" = from its id

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        """Settings from stored data; anything malformed falls back to its default."""
        s = cls()
        if not isinstance(data, dict):
            return s
        if data.get("language") in LANGUAGES:
            s.language = data["language"]
        vol = data.get("volume")
        if isinstance(vol, int) and not isinstance(vol, bool) and 0 <= vol <= MAX_VOLUME:
            s.volume = vol
        if isinstance(data.get("swap"), bool):
            s.swap = data["swap"]
        name = data.get("radio_name")
        if isinstance(name, str) and len(name) <= RADIO_NAME_MAX and name.isprintable():
            s.radio_name = name
        return s

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
