"""Alien Worlds: the namespace of everything above the two language libraries.

`aliencode` and `alienlogic` are the language libraries (they import only
`alienworlds.ruleset`). The layers above them live here: `ruleset` (world
files and rule expressions), `manuals`, `tasks` (banks, graders, audits),
`repl`, `episode` (the protocol driver) and `cli` (the command lines that wire
them together). In the repository each is a top-level folder; the package
build maps those folders into this namespace.
"""
