"""Manuals: a world rendered into the (flawed) manual its explorers read."""
