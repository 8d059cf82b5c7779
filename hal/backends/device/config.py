"""`/etc/twinfold/device.toml`: every setting of the Raspberry Pi backend, each optional.

A bad file never stops the handheld: an unknown key, a value of the wrong kind or out of
range is reported by its dotted name (`display.upper.rotate: ...`) and its default is used;
an installed file that is not TOML at all is reported and every default used. A file named
with `--config` that is missing, unreadable or not TOML is a one-line error instead (the
user asked for it). `load_config` returns the settings together with those messages so the
command can print and log them.
"""

from __future__ import annotations

import fnmatch
import shlex
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hal.interfaces import Button
from hal.layout import LAYOUTS, Kind

DEFAULT_PATH = Path("/etc/twinfold/device.toml")
PROFILES = ("auto", "desktop", "pi-zero-2w", "pi3", "pi4", "pi5")
ROTATIONS = (0, 90, 180, 270)

# Button map defaults: the reference build's gpio-keys overlay (deploy/overlays/twinfold.dts)
# sends the Linux gamepad codes, which are also what common USB gamepads send, so one map
# serves both. Positions follow the handheld: A east, B south, X north, Y west. The second
# block is the generic USB "joystick" codes of the cheap SNES-style pads (DragonRise and
# alike), whose D-pad is their X/Y axes (the backend reads any non-touch X/Y axis as a D-pad).
DEFAULT_KEYS: dict[str, str] = {
    "BTN_DPAD_UP": "UP",
    "BTN_DPAD_DOWN": "DOWN",
    "BTN_DPAD_LEFT": "LEFT",
    "BTN_DPAD_RIGHT": "RIGHT",
    "BTN_EAST": "A",
    "BTN_SOUTH": "B",
    "BTN_NORTH": "X",
    "BTN_WEST": "Y",
    "BTN_TL": "L",
    "BTN_TR": "R",
    "BTN_START": "START",
    "BTN_SELECT": "SELECT",
    "BTN_THUMB": "A",
    "BTN_THUMB2": "B",
    "BTN_TRIGGER": "X",
    "BTN_TOP": "Y",
    "BTN_TOP2": "L",
    "BTN_PINKIE": "R",
    "BTN_BASE4": "START",
    "BTN_BASE3": "SELECT",
}


@dataclass(frozen=True)
class PanelConfig:
    """One framebuffer panel."""

    device: str
    sysfs: str = ""  # "" = /sys/class/graphics/<name of the device the path resolves to>
    rotate: int = 0  # degrees clockwise the picture is turned before it is written
    backlight: str = ""  # a /sys/class/backlight/<name> directory; "" = the fb's own blank


@dataclass(frozen=True)
class DisplayConfig:
    mode: str = "two"  # "two" panels, or "one" panel showing both screens
    upper: PanelConfig = field(default_factory=lambda: PanelConfig("/dev/twinfold-upper"))
    lower: PanelConfig = field(default_factory=lambda: PanelConfig("/dev/twinfold-lower"))
    panel: PanelConfig = field(default_factory=lambda: PanelConfig("/dev/fb0"))
    layout: Kind = "vertical"  # one-panel mode: how both screens share the panel
    gap: int = 0
    scale: int = 0  # one-panel mode: 0 = the largest whole scale that fits


@dataclass(frozen=True)
class InputConfig:
    scan_dir: str = "/dev/input"
    names: tuple[str, ...] = ()  # glob patterns; empty = every device with a usable capability
    ignore: tuple[str, ...] = ("vc4-hdmi*", "*HDMI*")
    grab: bool = True
    rescan_seconds: float = 1.0
    keys: dict[str, Button] = field(
        default_factory=lambda: {k: Button(v) for k, v in DEFAULT_KEYS.items()}
    )
    power_key: str = "KEY_POWER"
    long_press_seconds: float = 2.0
    shutdown_command: tuple[str, ...] = ("systemctl", "poweroff")

    def wants(self, name: str) -> bool:
        """Whether a device of this name may be used at all."""
        if any(fnmatch.fnmatchcase(name, pat) for pat in self.ignore):
            return False
        return not self.names or any(fnmatch.fnmatchcase(name, pat) for pat in self.names)


@dataclass(frozen=True)
class RadioConfig:
    enabled: bool = True
    port: str = "/dev/serial0"
    baud: int = 9600


@dataclass(frozen=True)
class SystemConfig:
    data_dir: str = "/var/lib/twinfold"
    profile: str = "auto"
    model_file: str = "/proc/device-tree/model"
    audio: bool = True
    audio_device: str = ""  # an ALSA device name for SDL (AUDIODEV); "" = ALSA's default


@dataclass(frozen=True)
class BatteryConfig:
    """`[battery]`: the kernel's power_supply class (hal/backends/device/battery.py)."""

    enabled: bool = True
    root: str = "/sys/class/power_supply"
    name: str = ""  # a supply's folder name; "" = the first of type Battery
    low_percent: int = 15  # warn once at or below this charge
    critical_percent: int = 5  # save the game and shut down at or below this charge
    poll_seconds: float = 2.0


@dataclass(frozen=True)
class BootConfig:
    game: str = ""
    seed: int | None = None  # None: a fresh seed for every game start (firmware.boot)


@dataclass(frozen=True)
class DeviceConfig:
    display: DisplayConfig = field(default_factory=DisplayConfig)
    input: InputConfig = field(default_factory=InputConfig)
    radio: RadioConfig = field(default_factory=RadioConfig)
    system: SystemConfig = field(default_factory=SystemConfig)
    boot: BootConfig = field(default_factory=BootConfig)
    battery: BatteryConfig = field(default_factory=BatteryConfig)


class _Bad(ValueError):
    """A value that does not fit its key."""


Check = Callable[[Any], Any]


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise _Bad(f"must be true or false, not {v!r}")
    return v


def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise _Bad(f"must be a string, not {v!r}")
    return v


def _path(v: Any) -> str:
    text = _str(v)
    if "\0" in text:
        raise _Bad("must not contain a NUL character")
    return text


def _choice(options: tuple[Any, ...]) -> Check:
    def check(v: Any) -> Any:
        if isinstance(v, bool) or v not in options:
            raise _Bad(f"must be one of {', '.join(map(str, options))}, not {v!r}")
        return v

    return check


def _int(low: int, high: int) -> Check:
    def check(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise _Bad(f"must be a whole number from {low} to {high}, not {v!r}")
        return v

    return check


def _seconds(low: float, high: float) -> Check:
    def check(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float) or not low <= v <= high:
            raise _Bad(f"must be a number of seconds from {low} to {high}, not {v!r}")
        return float(v)

    return check


def _patterns(v: Any) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(p, str) for p in v):
        raise _Bad(f"must be a list of strings, not {v!r}")
    return tuple(v)


def _command(v: Any) -> tuple[str, ...]:
    if isinstance(v, str):
        try:
            parts = shlex.split(v)
        except ValueError as exc:
            raise _Bad(f"cannot be split into words: {exc}") from None
    elif isinstance(v, list) and all(isinstance(p, str) for p in v):
        parts = list(v)
    else:
        raise _Bad(f"must be a command string or a list of strings, not {v!r}")
    if not parts:
        raise _Bad("must name a command")
    return tuple(parts)


def _ecode(v: Any) -> str:
    from evdev import ecodes

    name = _str(v)
    if not hasattr(ecodes, name) or not name.startswith(("KEY_", "BTN_")):
        raise _Bad(f"{name!r} is not an evdev key code name (like KEY_POWER or BTN_SOUTH)")
    return name


PANEL_KEYS: dict[str, Check] = {
    "device": _path,
    "sysfs": _path,
    "rotate": _choice(ROTATIONS),
    "backlight": _path,
}
SCHEMA: dict[str, dict[str, Check]] = {
    "display": {
        "mode": _choice(("two", "one")),
        "layout": _choice(tuple(k for k in LAYOUTS if k != "single")),
        "gap": _int(0, 256),
        "scale": _int(0, 8),
    },
    "input": {
        "scan_dir": _path,
        "names": _patterns,
        "ignore": _patterns,
        "grab": _bool,
        "rescan_seconds": _seconds(0.1, 60.0),
        "power_key": _ecode,
        "long_press_seconds": _seconds(0.2, 30.0),
        "shutdown_command": _command,
    },
    "radio": {
        "enabled": _bool,
        "port": _path,
        "baud": _choice((9600, 19200, 38400, 57600, 115200)),
    },
    "system": {
        "data_dir": _path,
        "profile": _choice(PROFILES),
        "model_file": _path,
        "audio": _bool,
        "audio_device": _str,
    },
    "boot": {"game": _str, "seed": _int(0, 2**63 - 1)},
    "battery": {
        "enabled": _bool,
        "root": _path,
        "name": _str,
        "low_percent": _int(1, 90),
        "critical_percent": _int(1, 50),
        "poll_seconds": _seconds(0.5, 60.0),
    },
}
PANELS = ("upper", "lower", "panel")


def _section(
    raw: dict[str, Any], where: str, schema: dict[str, Check], problems: list[str]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in raw.items():
        name = f"{where}.{key}"
        check = schema.get(key)
        if check is None:
            problems.append(f"{name}: unknown key (ignored)")
            continue
        try:
            out[key] = check(value)
        except _Bad as exc:
            problems.append(f"{name}: {exc}; using the default")
    return out


def _keys(raw: Any, problems: list[str]) -> dict[str, Button]:
    """`[input.keys]`: evdev code name = button name ("" removes a default)."""
    keys = {k: Button(v) for k, v in DEFAULT_KEYS.items()}
    if not isinstance(raw, dict):
        problems.append('input.keys: must be a table of CODE = "BUTTON"; using the defaults')
        return keys
    buttons = ", ".join(b.value for b in Button)
    for code, button in raw.items():
        name = f"input.keys.{code}"
        try:
            _ecode(code)
        except _Bad as exc:
            problems.append(f"{name}: {exc} (ignored)")
            continue
        if button == "":
            keys.pop(code, None)
        elif isinstance(button, str) and button in Button.__members__:
            keys[code] = Button(button)
        else:
            problems.append(f'{name}: must be one of {buttons} or "", not {button!r} (ignored)')
    return keys


def parse_config(data: dict[str, Any]) -> tuple[DeviceConfig, list[str]]:
    """Settings from a parsed TOML document, plus one message per problem found."""
    problems: list[str] = []
    sections: dict[str, dict[str, Any]] = {name: {} for name in SCHEMA}
    panels: dict[str, PanelConfig] = {}
    keys = None
    for top, body in data.items():
        if top not in SCHEMA:
            problems.append(f"{top}: unknown section (ignored)")
            continue
        if not isinstance(body, dict):
            problems.append(f"{top}: must be a table ([{top}]); using the defaults")
            continue
        plain = dict(body)
        if top == "display":
            defaults = DisplayConfig()
            for panel in PANELS:
                if panel in plain:
                    sub = plain.pop(panel)
                    if not isinstance(sub, dict):
                        problems.append(f"display.{panel}: must be a table; using the defaults")
                        continue
                    got = _section(sub, f"display.{panel}", PANEL_KEYS, problems)
                    base = getattr(defaults, panel)
                    panels[panel] = PanelConfig(**{**base.__dict__, **got})
        if top == "input" and "keys" in plain:
            keys = _keys(plain.pop("keys"), problems)
        sections[top] = _section(plain, top, SCHEMA[top], problems)
    display_fields: dict[str, Any] = {**sections["display"], **panels}
    input_fields: dict[str, Any] = dict(sections["input"])
    if keys is not None:
        input_fields["keys"] = keys
    display = DisplayConfig(**display_fields)
    inp = InputConfig(**input_fields)
    config = DeviceConfig(
        display=display,
        input=inp,
        radio=RadioConfig(**sections["radio"]),
        system=SystemConfig(**sections["system"]),
        boot=BootConfig(**sections["boot"]),
        battery=_battery(sections["battery"], problems),
    )
    return config, problems


def _battery(fields: dict[str, Any], problems: list[str]) -> BatteryConfig:
    """`[battery]`, with the critical threshold below the low one (else both defaults)."""
    config = BatteryConfig(**fields)
    if config.critical_percent >= config.low_percent:
        problems.append(
            f"battery.critical_percent ({config.critical_percent}) must be below"
            f" battery.low_percent ({config.low_percent}); using the defaults for both"
        )
        defaults = BatteryConfig()
        fields = {**fields, "low_percent": defaults.low_percent,
                  "critical_percent": defaults.critical_percent}
        config = BatteryConfig(**fields)
    return config


class ConfigError(ValueError):
    """A config file named on the command line that cannot be read: one line (exit 2)."""


def load_config(path: Path | None) -> tuple[DeviceConfig, list[str]]:
    """Read the config file. The default path (None) may be absent (the defaults apply) and a
    broken one is reported with the defaults used, so a handheld always boots; a file named
    on the command line that is missing, unreadable or not TOML raises ConfigError. A bad key
    or value inside a readable file is reported and its default used, either way."""
    explicit = path is not None
    path = path or DEFAULT_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if explicit:
            raise ConfigError(f"the config {path} does not exist") from None
        return DeviceConfig(), []
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if explicit:
            raise ConfigError(f"the config {path} cannot be read: {why}") from None
        return DeviceConfig(), [f"{path}: cannot be read ({why}); using the defaults"]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        if explicit:
            raise ConfigError(f"the config {path} is not valid TOML ({exc})") from None
        return DeviceConfig(), [f"{path}: not valid TOML ({exc}); using the defaults"]
    config, problems = parse_config(data)
    return config, [f"{path}: {p}" for p in problems]


def is_handheld(config: DeviceConfig) -> bool:
    """True on a Twinfold handheld: a Raspberry Pi (its device tree model) or a machine with
    the installed config (`DEFAULT_PATH`, which deploy/ writes)."""
    from hal.backends.device.profile import detect_profile

    if DEFAULT_PATH.exists():
        return True
    return detect_profile("auto", config.system.model_file) != "desktop"
