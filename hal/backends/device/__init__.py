"""The Raspberry Pi backend (P-BE-3): framebuffer panels, evdev input, serial radio, systemd."""
