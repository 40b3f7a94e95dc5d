"""`python -m alienlogic` is the `alienlogic` command."""

from .cli import main

main()
