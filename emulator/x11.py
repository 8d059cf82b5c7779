"""Whether an X server has a window manager (issue 34, item 8), asked through libX11.

Fullscreen in X is the window manager's job: SDL asks it (_NET_WM_STATE_FULLSCREEN) and,
on a bare X server (Xvfb, a kiosk's X without a manager), the request goes unanswered while
SDL reports the window at the desktop's size, so the picture was laid out for a screen the
window does not cover. With no manager the emulator makes the window fill the screen
itself. A manager that follows EWMH names itself on the root window
(_NET_SUPPORTING_WM_CHECK); other X setups (no libX11, not X at all) count as managed, so
SDL's own fullscreen is used there, as before.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os


def window_manager_running(display: str | None = None) -> bool:
    """True unless this is an X server that answers and has no EWMH window manager."""
    name = ctypes.util.find_library("X11")
    target = display if display is not None else os.environ.get("DISPLAY")
    if name is None or not target:
        return True
    try:
        x11 = ctypes.CDLL(name)
    except OSError:
        return True
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XGetWindowProperty.restype = ctypes.c_int
    x11.XGetWindowProperty.argtypes = [
        ctypes.c_void_p,  # display
        ctypes.c_ulong,  # window
        ctypes.c_ulong,  # property
        ctypes.c_long,  # offset
        ctypes.c_long,  # length
        ctypes.c_int,  # delete
        ctypes.c_ulong,  # requested type (AnyPropertyType: 0)
        ctypes.POINTER(ctypes.c_ulong),  # actual type
        ctypes.POINTER(ctypes.c_int),  # actual format
        ctypes.POINTER(ctypes.c_ulong),  # items
        ctypes.POINTER(ctypes.c_ulong),  # bytes after
        ctypes.POINTER(ctypes.c_void_p),  # data
    ]
    x11.XFree.argtypes = [ctypes.c_void_p]
    dpy = x11.XOpenDisplay(target.encode())
    if not dpy:
        return True
    try:
        atom = x11.XInternAtom(dpy, b"_NET_SUPPORTING_WM_CHECK", 1)  # only if it exists
        if not atom:
            return False
        kind, fmt = ctypes.c_ulong(), ctypes.c_int()
        items, after, data = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_void_p()
        status = x11.XGetWindowProperty(
            dpy,
            x11.XDefaultRootWindow(dpy),
            atom,
            0,
            1,
            0,
            0,
            ctypes.byref(kind),
            ctypes.byref(fmt),
            ctypes.byref(items),
            ctypes.byref(after),
            ctypes.byref(data),
        )
        if data.value:
            x11.XFree(data)
        return status == 0 and items.value > 0
    finally:
        x11.XCloseDisplay(dpy)
