"""The peer link stack (P-LINK-1..5): framing -> reliable delivery -> peers, discovery and
pairing (radio) -> versus sessions. See docs/architecture.md, "The link stack"."""
