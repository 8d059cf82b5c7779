"""The radio (P-HW-5): the UART radio module as the HAL's unreliable `ByteLink`.

Opened with pyserial's `serial_for_url` (so `loop://` and `socket://` URLs serve tests and
bench rigs), never blocking: reads take what is waiting, writes hand over what the driver
accepts. A port that cannot be opened, or fails later (a USB adapter pulled), leaves the
radio off (`NoLink` behaviour) with one log line; the firmware keeps running.

The byte pipe is the link stack's `hal.link.serial_link.SerialLink` (non-blocking writes
with a bounded backlog, only when the driver has room).
"""

from __future__ import annotations

import logging

from hal.backends.device.config import RadioConfig
from hal.interfaces import ByteLink, NoLink

log = logging.getLogger("twinfold")


def open_radio(config: RadioConfig) -> ByteLink:
    """The configured serial port as the link stack's `SerialLink`; `NoLink` when disabled
    or unavailable."""
    if not config.enabled:
        return NoLink()
    import serial

    from hal.link.serial_link import SerialLink, register_handlers

    register_handlers()  # air:// (the simulated radio: tests, two units on one machine)
    try:
        # A device node is written non-blocking (write_timeout 0); pyserial's URL handlers
        # (loop://, socket://) treat 0 as "always late", so they get blocking writes; air://
        # never blocks.
        url = config.port
        write_timeout = 0 if "://" not in url or url.startswith("air://") else None
        port = serial.serial_for_url(
            config.port, baudrate=config.baud, timeout=0, write_timeout=write_timeout,
            exclusive=True,
        )  # fmt: skip
    except (serial.SerialException, OSError, ValueError) as exc:
        log.warning("radio: cannot open %s: %s; the radio is off", config.port, exc)
        return NoLink()
    log.info("radio: %s at %d baud", config.port, config.baud)
    return SerialLink(port)
