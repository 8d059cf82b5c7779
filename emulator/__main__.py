"""`python -m emulator [ARGS]`: exactly `twinfold emu [ARGS]` (same arguments, same errors)."""

from __future__ import annotations

import sys

from firmware.cli import main

if __name__ == "__main__":
    sys.exit(main(["emu", *sys.argv[1:]]))
