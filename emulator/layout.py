"""The emulator's window layouts: the pure geometry lives in `hal.layout` (shared with the
device backend's one-panel mode); this module keeps the emulator's import path."""

from hal.layout import (
    DEFAULT_GAP,
    LAYOUTS,
    MAX_GAP,
    MAX_SCALE,
    Focus,
    Geometry,
    Kind,
    Layout,
    LayoutError,
    Panel,
    PanelRect,
    fit_scale,
)

__all__ = [
    "DEFAULT_GAP",
    "LAYOUTS",
    "MAX_GAP",
    "MAX_SCALE",
    "Focus",
    "Geometry",
    "Kind",
    "Layout",
    "LayoutError",
    "Panel",
    "PanelRect",
    "fit_scale",
]
