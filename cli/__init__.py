"""The command-line layer: `aliencode` and `alienlogic`, above every library
they wire together."""
