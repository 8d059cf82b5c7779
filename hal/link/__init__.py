"""Byte transports behind `hal.interfaces.ByteLink` (P-HW-5, P-LINK-1, P-LINK-5).

- `serial_link.SerialLink`: any pyserial URL (UART radio, USB adapter, pty, `air://`)
- `memory.MemoryMedium` / `MemoryLink`: simulated air in one process (tests)
- `urlhandlers.protocol_air`: the `air://` simulated radio shared by processes on loopback
- `urlhandlers.protocol_lan`: `lan://`, the local network (UDP multicast on the segment)
- `datagram`: the pyserial port both URL handlers build on
- `air`: the air model both simulations use
"""
