"""pyserial URL handlers of Twinfold (`protocol_handler_packages`): `air://` (protocol_air),
`lan://` (protocol_lan)."""
