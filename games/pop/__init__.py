"""Bubble Pop: the firmware's demo game. Tap rising bubbles before they escape."""
