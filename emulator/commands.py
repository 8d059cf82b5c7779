"""`twinfold emu`: registered through the `twinfold.commands` entry point (pyproject.toml),
so the firmware's command line never imports the emulator."""

from __future__ import annotations

import argparse
import textwrap

from emulator.layout import DEFAULT_GAP, MAX_GAP, MAX_SCALE
from emulator.video import MP4_MODES
from firmware.arguments import OneLineParser, count_argument
from firmware.boot_arguments import (
    FRAMES_MAX,
    add_boot_arguments,
    add_link_arguments,
    frames_argument,
)
from firmware.match.profiles import PROFILES


def register(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    emu = sub.add_parser(
        "emu",
        help="open the emulator window",
        description=textwrap.fill(  # the epilog's table keeps its lines: wrap this here
            "The firmware in a desktop window: keyboard, mouse as stylus, gamepads, "
            "layouts, movies, save states, rewind, instant-replay clips. The window can be "
            "resized freely; the screens are scaled by the GPU. `python -m emulator` is the "
            "same command.",
            width=78,
        ),
        epilog=hotkey_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_boot_arguments(
        emu,
        "store.db in the data directory, ~/.local/share/twinfold",
        profile_default="desktop-worker on a machine with a spare core, else desktop",
    )
    emu.add_argument(
        "--layout",
        choices=("vertical", "horizontal", "hybrid", "single", "windows"),
        default="vertical",
        help="how the two screens sit in the window; windows: one window per screen "
        "(default: vertical)",
    )
    emu.add_argument(
        "--fullscreen", action="store_true", help="start fullscreen (alt+return toggles)"
    )
    emu.add_argument(
        "--fit",
        action="store_true",
        help="scale the screens to the largest size that fits the window, not only by "
        "whole numbers (ctrl+i toggles)",
    )
    emu.add_argument(
        "--scale",
        type=count_argument(1, MAX_SCALE),
        default=None,
        metavar="N",
        help=f"the window's starting size as an integer scale 1..{MAX_SCALE} (default: the "
        "largest that fits the desktop); the window can then be resized freely",
    )
    emu.add_argument(
        "--gap",
        type=count_argument(0, MAX_GAP),
        default=None,
        metavar="PX",
        help=f"window pixels between the screens, 0..{MAX_GAP} (default: {DEFAULT_GAP})",
    )
    emu.add_argument("--swap", action="store_true", help="start with the screens swapped")
    emu.add_argument(
        "--clip-format",
        choices=("gif", "apng", "mp4", "mp4-compatible"),
        default="gif",
        help="what the clip hotkey writes: an animated GIF or PNG (silent), or an MP4 with "
        "sound (needs PyAV: the `video` extra; mp4 is lossless, mp4-compatible plays "
        "everywhere) (default: gif)",
    )
    emu.add_argument(
        "--movie", metavar="FILE", help="play this input movie (its '# args:' line applies)"
    )
    emu.add_argument(
        "--record",
        metavar="FILE",
        help="record an input movie to FILE from power-on ('-': standard output, on quit); "
        "an existing FILE needs --force",
    )
    emu.add_argument("--force", action="store_true", help="let --record replace an existing file")
    add_link_arguments(emu)
    frames_argument(emu, "quit after this many frames", "run until the window closes")
    emu.set_defaults(handler=_emu)
    register_clip(sub)


def hotkey_epilog() -> str:
    """The default hotkeys, for `emu --help` (keymap.json in the data directory rebinds them)."""
    from emulator.keymap import DEFAULT_KEYMAP, HOTKEY_HELP

    keys = DEFAULT_KEYMAP["hotkeys"]
    rows = [f"  {', '.join(keys[action]):<22} {text}" for action, text in HOTKEY_HELP.items()]
    return "\n".join(
        [
            "hotkeys (defaults; rebind them in keymap.json in the data directory, "
            "docs/emulator.md):",
            *rows,
            "",
            "`twinfold clip MOVIE --out FILE` renders a movie to an animated GIF / PNG clip or",
            "an MP4 with sound.",
        ]
    )


def register_clip(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    clip = sub.add_parser(
        "clip",
        help="render an input movie to an animated GIF / PNG or an MP4 clip",
        description="Replay MOVIE (with its '# args:' line) headless and write its frames "
        "as an animated image or a video, composed like the emulator window. The extension "
        "of --out picks the format: .gif (20 frames per second), .png / .apng (60) or .mp4 "
        "(60, with the sound; needs PyAV, the `video` extra). GIF and PNG are silent.",
    )
    clip.add_argument("movie", metavar="MOVIE", help="the input movie to render")
    clip.add_argument("--out", required=True, metavar="FILE", help="the clip to write")
    frame = count_argument(0, FRAMES_MAX)
    clip.add_argument(
        "--from",
        dest="start",
        type=frame,
        default=0,
        metavar="F",
        help="first frame (ticks from power-on; default 0)",
    )
    clip.add_argument(
        "--to",
        type=frame,
        default=None,
        metavar="F",
        help="last frame (default: the movie's end)",
    )
    clip.add_argument(
        "--layout",
        choices=("vertical", "horizontal", "hybrid", "single"),
        default="vertical",
        help="how the two screens sit in the clip (default: vertical)",
    )
    clip.add_argument(
        "--scale",
        type=count_argument(1, MAX_SCALE),
        default=1,
        metavar="N",
        help=f"integer scale 1..{MAX_SCALE} (default: 1)",
    )
    clip.add_argument(
        "--mp4",
        choices=MP4_MODES,
        default="exact",
        help="how an .mp4 is encoded: exact (lossless RGB H.264, every pixel as shown; "
        "some players, browsers among them, cannot play it) or compatible (4:2:0 H.264 "
        "every player plays, slightly soft colour edges) (default: exact)",
    )
    clip.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        default=None,
        help="device profile for computer players (default: the movie's, else desktop)",
    )
    clip.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (auto: on a terminal)",
    )
    clip.set_defaults(handler=_clip)


def _clip(args: argparse.Namespace) -> int:
    from emulator.clip import clip_from_args

    return clip_from_args(args)


def _emu(args: argparse.Namespace) -> int:
    from emulator.app import run_from_args

    return run_from_args(args)
