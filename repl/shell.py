"""The interactive shell shared by `aliencode repl` and `alienlogic repl`.

A language supplies a `Backend`: whether a buffer is complete, how to run
it, its keywords and lexer, its manual and world. The shell supplies the
rest: prompt-toolkit editing with persistent history, auto-suggestion,
completion, multi-line entry, colon commands, and a plain line-by-line
mode when standard input is not a terminal, so it can be scripted.

Completeness is decided as Python's shell decides it, in both modes: an
entry reads on while the input stopped where more was expected (an open
bracket, a line ending in `:`) or while a block is open; a blank line ends
the block; any other error is shown at once. In a terminal a line ending in
`:` indents the next one, the indentation carries over, and Backspace in the
indentation steps out one level.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

COMPLETE, INCOMPLETE, INVALID = "complete", "incomplete", "invalid"
INDENT = 4  # spaces a block opened by a line ending in ':' is indented by


class Backend(Protocol):
    language: str
    prompt: str

    def state(self, text: str) -> str:
        """COMPLETE, INCOMPLETE (read more lines) or INVALID (run to show the error)."""

    def run(self, text: str) -> str:
        """Run one entry; the text to show (output, errors, cost)."""

    def reset(self) -> None: ...

    def names(self) -> Iterable[str]:
        """Words to complete: keywords and names the session defined."""

    def lexer(self) -> object: ...

    def manual(self) -> str: ...

    def world_line(self) -> str:
        """The world's name and hash, never its rules."""

    def command(self, name: str, arg: str) -> str | None:
        """A language-specific command (e.g. :units); None if unknown."""

    def help_lines(self) -> list[str]: ...


COMMON_HELP = [
    ":help            this help",
    ":manual          the world's manual (paged)",
    ":world           the world's name and hash",
    ":load FILE       run a file as one entry",
    ":reset           forget every definition and variable",
    ":quit            leave (Ctrl-D also works)",
]


# Characters the shell shows escaped: control characters other than newline
# and tab, and the bidirectional overrides and isolates (which reorder what a
# terminal shows). A program's output can hold any of them; in the shell they
# would act on the terminal instead of being seen.
_BIDI = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def _escaped(ch: str) -> str:
    code = ord(ch)
    if ch in "\n\t":
        return ch
    if code < 0x20 or 0x7F <= code < 0xA0:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if ch in _BIDI else ch


def visible(text: str) -> str:
    """`text` with control characters escaped (`\\x1b`, `\\u202e`), as the
    shell shows it; `aliencode run` prints a program's output unchanged."""
    if text.isprintable() or all(ch.isprintable() or ch in "\n\t" for ch in text):
        return text
    return "".join(map(_escaped, text))


def history_path(language: str) -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "alienworlds" / f"{language}_history"


@dataclass
class Shell:
    backend: Backend
    out: TextIO = sys.stdout
    pager: Callable[[str], None] | None = None

    def say(self, text: str) -> None:
        if text:
            text = visible(text)
            self.out.write(text if text.endswith("\n") else text + "\n")
            self.out.flush()

    def handle(self, entry: str) -> bool:
        """Run one complete entry or command; False means leave."""
        stripped = entry.strip()
        if not stripped:
            return True
        if stripped.startswith(":"):
            return self.command(stripped)
        self.say(self.backend.run(entry))
        return True

    def command(self, line: str) -> bool:
        name, _, arg = line[1:].partition(" ")
        arg = arg.strip()
        if name in ("quit", "q", "exit"):
            return False
        if name == "help":
            self.say(
                "\n".join(
                    [
                        "Type code and press Enter; a line ending in ':' opens a block, a blank line ends it.",
                        *COMMON_HELP,
                        *self.backend.help_lines(),
                    ]
                )
            )
        elif name == "manual":
            text = self.backend.manual()
            (self.pager or self.say)(text)
        elif name == "world":
            self.say(self.backend.world_line())
        elif name == "reset":
            self.backend.reset()
            self.say("session cleared")
        elif name == "load":
            if not arg:
                self.say("usage: :load FILE")
            else:
                try:
                    text = Path(arg).expanduser().read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError) as exc:
                    self.say(
                        f"cannot read {arg}: {getattr(exc, 'strerror', None) or exc.__class__.__name__}"
                    )
                else:
                    self.say(self.backend.run(text))
        else:
            reply = self.backend.command(name, arg)
            self.say(reply if reply is not None else f"unknown command :{name} (try :help)")
        return True

    # -- without a terminal ------------------------------------------------------

    def run_lines(self, lines: Iterable[str]) -> None:
        """Line-by-line mode: the same completeness rules, no editing."""
        buffer: list[str] = []
        for raw in lines:
            line = raw.rstrip("\n")
            if not buffer and line.strip().startswith(":"):
                if not self.handle(line):
                    return
                continue
            buffer.append(line)
            text = "\n".join(buffer)
            if self.backend.state(text) != INCOMPLETE or (line.strip() == "" and len(buffer) > 1):
                if not self.handle(text):
                    return
                buffer = []
        if buffer:
            self.handle("\n".join(buffer))

    # -- with a terminal ---------------------------------------------------------

    def interact(self) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
        from prompt_toolkit.completion import Completer, Completion
        from prompt_toolkit.history import FileHistory, InMemoryHistory
        from prompt_toolkit.key_binding import KeyBindings
        from prompt_toolkit.lexers import PygmentsLexer

        backend = self.backend

        class Words(Completer):
            def get_completions(self, document, complete_event):
                word = document.get_word_before_cursor()
                if not word:
                    return
                for name in sorted(set(backend.names())):
                    if name.startswith(word) and name != word:
                        yield Completion(name, start_position=-len(word))

        bindings = KeyBindings()

        @bindings.add("enter")
        def _(event) -> None:
            buf = event.current_buffer
            text = buf.text
            last = text.split("\n")[-1]
            block_done = "\n" in text and last.strip() == ""
            if text.strip().startswith(":") or block_done or backend.state(text) != INCOMPLETE:
                buf.validate_and_handle()
                return
            indent = len(last) - len(last.lstrip())
            if last.rstrip().endswith(":"):
                indent += INDENT
            buf.insert_text("\n" + " " * indent)

        @bindings.add("backspace")
        def _(event) -> None:
            # In the indentation, Backspace steps out one block level (to the
            # previous multiple of INDENT), as Python-aware editors do.
            buf = event.current_buffer
            before = buf.document.current_line_before_cursor
            if before and not before.strip(" "):
                buf.delete_before_cursor(len(before) - (len(before) - 1) // INDENT * INDENT)
            else:
                buf.delete_before_cursor(1)

        path = history_path(backend.language)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            history = FileHistory(str(path))
        except OSError:
            history = InMemoryHistory()
        session = PromptSession(
            history=history,
            auto_suggest=AutoSuggestFromHistory(),
            completer=Words(),
            complete_while_typing=False,
            lexer=PygmentsLexer(type(backend.lexer())),
            multiline=True,
            key_bindings=bindings,
            prompt_continuation=lambda width, line_number, wrap_count: "." * (width - 1) + " ",
        )
        self.say(f"{backend.world_line()}\nType :help for help, Ctrl-D to leave.")
        while True:
            try:
                entry = session.prompt(backend.prompt)
            except KeyboardInterrupt:
                continue
            except EOFError:
                return
            if not self.handle(entry):
                return


def start(backend: Backend) -> None:
    """Interactive on a terminal, line by line otherwise."""
    shell = Shell(backend)
    if sys.stdin.isatty() and sys.stdout.isatty():
        import click

        shell.pager = click.echo_via_pager
        shell.interact()
    else:
        shell.run_lines(sys.stdin)
