"""Standard streams that fail in one known way.

A command may find standard input closed, standard output closed, full
(`> /dev/full`) or a pipe nobody reads any more, and standard error the
same. Python reports each differently (`sys.stdout` is None, OSError with
ENOSPC, BrokenPipeError, an "Exception ignored" note at exit), and any of
them escaping a command would print a traceback. `install` puts guarded
streams in their place: the first failure of a stream raises `StreamError`
naming it, later writes to it are dropped (so cleanup code and the final
flush at exit stay quiet), and `failure()` tells the entry point afterwards
whether any stream failed, even if some handler swallowed the exception.
"""

from __future__ import annotations

import io
import os
import sys

EXIT_STREAM = 74  # sysexits.h EX_IOERR: a standard stream is closed or failed

NAMES = {0: "standard input", 1: "standard output", 2: "standard error"}


class StreamError(BaseException):
    """A standard stream is closed or failed. A BaseException, like
    SystemExit: no command's handler of ordinary failures (`except
    Exception`) may take a lost stream for a failure of its own work."""

    def __init__(self, stream: str, reason: str) -> None:
        super().__init__(f"cannot {'read' if stream == NAMES[0] else 'write'} {stream}: {reason}")
        self.stream = stream
        self.reason = reason


_FAILURES: list[StreamError] = []  # every failure since `install`, in order


def failure() -> StreamError | None:
    """The first failure of a guarded stream since `install`, if any."""
    return _FAILURES[0] if _FAILURES else None


class _Guarded(io.RawIOBase):
    """One standard file descriptor; `closed_at_start` when the process
    began without it (it then holds /dev/null, so that files opened later
    never take its number)."""

    def __init__(self, fd: int, closed_at_start: bool) -> None:
        super().__init__()
        self.fd = fd
        self.stream = NAMES[fd]
        self.name = f"<{('stdin', 'stdout', 'stderr')[fd]}>"
        self.closed_at_start = closed_at_start
        self.failed = False

    def _fail(self, reason: str) -> StreamError:
        self.failed = True
        error = StreamError(self.stream, reason)
        _FAILURES.append(error)
        return error

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return not self.closed_at_start and os.isatty(self.fd)

    def readable(self) -> bool:
        return self.fd == 0

    def writable(self) -> bool:
        return self.fd != 0

    def readinto(self, buffer) -> int:
        if self.failed:
            return 0
        if self.closed_at_start:
            raise self._fail("it is closed")
        try:
            data = os.read(self.fd, len(buffer))
        except OSError as exc:
            raise self._fail(exc.strerror or type(exc).__name__) from None
        buffer[: len(data)] = data
        return len(data)

    def write(self, data) -> int:
        size = len(memoryview(data))
        if self.failed:
            return size  # dropped: the failure was reported once
        if self.closed_at_start:
            raise self._fail("it is closed")
        try:
            return os.write(self.fd, data)
        except OSError as exc:
            raise self._fail(exc.strerror or type(exc).__name__) from None


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def install() -> None:
    """Replace sys.stdin, sys.stdout and sys.stderr by guarded streams with
    the same encoding, error handling and buffering."""
    _FAILURES.clear()
    for fd, attr in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        closed = not _is_open(fd)
        if closed:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        original = getattr(sys, attr)
        raw = _Guarded(fd, closed)
        buffered = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
        stream = io.TextIOWrapper(
            buffered,
            encoding=getattr(original, "encoding", None) or "utf-8",
            errors=getattr(original, "errors", None)
            or ("backslashreplace" if fd == 2 else "strict"),
            line_buffering=bool(getattr(original, "line_buffering", fd == 2)),
            write_through=fd == 2,
        )
        setattr(sys, attr, stream)


def flush() -> None:
    """Flush standard output and standard error; raises StreamError."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
