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
    """The configured serial port (or `lan://`, the local network) as the link stack's
    `SerialLink`; `NoLink` when disabled or unavailable."""
    if not config.enabled:
        return NoLink()
    from hal.link.serial_link import LinkError, SerialLink, open_port

    try:  # air:// and lan:// are known to it (the simulated radio; the local network)
        port = open_port(config.port, config.baud, exclusive=True)
    except LinkError as exc:
        log.warning("radio: %s; the radio is off", exc)
        return NoLink()
    log.info("radio: %s at %d baud", config.port, config.baud)
    return SerialLink(port)
