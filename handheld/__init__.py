"""The handheld: a running Raspberry Pi unit built from the device drivers in
`hal/backends/device/` and the firmware's boot path (`twinfold device`). The sibling of
`emulator`, at the same height: both compose the firmware with a backend; the drivers stay
in the HAL."""
