"""Hardware abstraction layer: the interfaces the firmware talks to, and their backends."""
