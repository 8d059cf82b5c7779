"""Pure Region Select engine: no pygame, no I/O."""
