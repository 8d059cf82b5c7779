#!/usr/bin/env python3
"""Write a Raspberry Pi Imager repository file (an `os_list`) for a built Twinfold image.

usage: imager_json.py IMAGE(.img.xz|.zip|.img) URL [--date YYYY-MM-DD] [--debian] > twinfold.json

--debian describes the Debian image of deploy/image/ (Pi 3, Zero 2 W and 4; no Imager OS
customisation: its settings are the boot partition's twinfold.toml) instead of pi-gen's.

Imager checks the download against `image_download_sha256` and the written card against
`extract_sha256`, so both are computed here from the image itself. Open the file in Imager
with `rpi-imager --repo https://.../twinfold.json` (or "Use custom" with the image).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import lzma
import sys
import zipfile
from pathlib import Path
from typing import IO, Any

CHUNK = 1 << 20
# Imager's device tags: Zero 2 W and the 3 are "pi3"; every board runs the 64-bit image.
DEVICES = ["pi5-64bit", "pi4-64bit", "pi3-64bit"]


def _digest(stream: IO[bytes]) -> tuple[int, str]:
    h = hashlib.sha256()
    size = 0
    while chunk := stream.read(CHUNK):
        h.update(chunk)
        size += len(chunk)
    return size, h.hexdigest()


def extracted(path: Path) -> tuple[int, str]:
    """Size and SHA-256 of the raw disk image inside the download."""
    if path.suffix == ".xz":
        with lzma.open(path) as stream:
            return _digest(stream)
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            images = [n for n in archive.namelist() if n.endswith(".img")]
            if len(images) != 1:
                raise ValueError(f"{path}: expected one .img inside, found {len(images)}")
            with archive.open(images[0]) as stream:
                return _digest(stream)
    with path.open("rb") as stream:
        return _digest(stream)


PI_GEN = {
    "name": "Twinfold handheld",
    "description": "Raspberry Pi OS Lite (64-bit) that boots into Twinfold",
    "icon": "https://downloads.raspberrypi.com/raspios_lite_arm64/Raspios_lite_arm64.png",
    "devices": DEVICES,
    "init_format": "systemd",
}
# No init_format: Imager's OS customisation is Raspberry Pi OS's; this image reads
# twinfold.toml on its boot partition. Debian's DTBs are the Pi 3, Zero 2 W and 4's.
DEBIAN = {
    "name": "Twinfold handheld (Debian, HDMI/DSI display)",
    "description": "Debian 12 (64-bit) that boots into Twinfold: an HDMI or DSI display, "
    "USB touch and gamepad; settings in twinfold.toml on the boot partition",
    "devices": ["pi4-64bit", "pi3-64bit"],
}


def os_list(image: Path, url: str, date: str, debian: bool = False) -> dict[str, Any]:
    extract_size, extract_sha = extracted(image)
    with image.open("rb") as stream:
        download_size, download_sha = _digest(stream)
    return {
        "os_list": [
            {
                **(DEBIAN if debian else PI_GEN),
                "url": url,
                "website": "https://github.com/twinfold/twinfold",
                "release_date": date,
                "extract_size": extract_size,
                "extract_sha256": extract_sha,
                "image_download_size": download_size,
                "image_download_sha256": download_sha,
            }
        ]
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("image", type=Path)
    parser.add_argument("url")
    parser.add_argument("--date", default=dt.date.today().isoformat())
    parser.add_argument("--debian", action="store_true", help="the Debian image (deploy/image)")
    args = parser.parse_args(argv)
    try:
        data = os_list(args.image, args.url, args.date, args.debian)
    except (OSError, ValueError, lzma.LZMAError, zipfile.BadZipFile) as exc:
        print(f"imager_json.py: {exc}", file=sys.stderr)
        return 1
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
