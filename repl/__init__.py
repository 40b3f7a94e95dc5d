"""The shared interactive shell of both languages, and their syntax highlighting."""
