"""`python -m aliencode` is the `aliencode` command."""

from .cli import main

main()
