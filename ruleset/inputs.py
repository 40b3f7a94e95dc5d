"""Reading a command's input text (a file or standard input) with a clear
message instead of a traceback when it cannot be read."""

from __future__ import annotations

import sys


class InputError(Exception):
    """The input could not be read; the message says why, for a user."""


def read_input(path: str, kind: str = "input") -> str:
    """The UTF-8 text of the file at `path`, or of standard input for '-'."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
        return data.decode("utf-8")
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory, not a {kind} file") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc.__class__.__name__}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None
