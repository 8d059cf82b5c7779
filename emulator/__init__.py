"""Desktop emulator: a pygame-ce window showing both screens (backend P-BE-2)."""

import os

# The window's class (X11 WM_CLASS, Wayland app id), by which desktops group windows, is
# always "twinfold": SDL would take the program's file name (`cli.py` under run.py). Set on
# the package's import, before any of its modules can start SDL's video.
os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "twinfold")
os.environ.setdefault("SDL_VIDEO_WAYLAND_WMCLASS", "twinfold")
