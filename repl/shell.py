"""The interactive shell shared by `aliencode repl` and `alienlogic repl`.

A language supplies a `Backend`: whether a buffer is complete, how to run
it, its keywords and lexer, its manual and world. The shell supplies the
rest: prompt-toolkit editing with persistent history, auto-suggestion,
completion, multi-line entry, colon commands, and a plain line-by-line
mode when standard input is not a terminal, so it can be scripted. On a
dumb terminal (TERM=dumb, e.g. an editor's shell buffer) prompt-toolkit
would echo a multi-line entry flattened onto one line, so the shell reads
line by line there too, with `...` continuation prompts, and still keeps
the history file.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TextIO

from prompt_toolkit.history import FileHistory, History, InMemoryHistory

COMPLETE, INCOMPLETE, INVALID = "complete", "incomplete", "invalid"
INDENT = 4  # spaces a block opened by a line ending in ':' is indented by


class Backend(Protocol):
    language: str
    prompt: str
    intro: str  # how an entry is typed, the first line of :help

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
    ":history [N]     the last N entries (default 20) and where the history file is",
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


HISTORY_SHOWN = 20  # entries :history lists without an argument


def history_path(language: str) -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "alienworlds" / f"{language}_history"


def open_history(language: str) -> tuple[History, Path | None]:
    """The language's history file, or one kept in memory when it cannot be made."""
    path = history_path(language)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return FileHistory(str(path)), path
    except OSError:
        return InMemoryHistory(), None


def continuation(prompt: str) -> str:
    """The prompt of an entry's further lines: dots as wide as the first prompt."""
    return "." * (len(prompt) - 1) + " "


@dataclass
class Shell:
    backend: Backend
    out: TextIO = sys.stdout
    pager: Callable[[str], None] | None = None
    # Scripted input (a pipe) is never written to the history file.
    history: History = field(default_factory=InMemoryHistory)
    history_file: Path | None = None

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
                        self.backend.intro,
                        *COMMON_HELP,
                        *self.backend.help_lines(),
                    ]
                )
            )
        elif name == "manual":
            text = self.backend.manual()
            (self.pager or self.say)(text)
        elif name == "history":
            self.show_history(arg)
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
                        f"cannot read {arg}: "
                        f"{getattr(exc, 'strerror', None) or exc.__class__.__name__}"
                    )
                else:
                    self.say(self.backend.run(text))
        else:
            reply = self.backend.command(name, arg)
            self.say(reply if reply is not None else f"unknown command :{name} (try :help)")
        return True

    def show_history(self, arg: str) -> None:
        if arg and not (arg.isdigit() and len(arg) < 7):
            self.say("usage: :history [N]")
            return
        entries = list(self.history.load_history_strings())[::-1]
        shown = entries[-int(arg or HISTORY_SHOWN) :] if arg != "0" else []
        first = len(entries) - len(shown) + 1
        lines = []
        for number, entry in enumerate(shown, first):
            head, *rest = entry.rstrip().split("\n")
            lines += [f"{number:>5}  {head}", *(f"       {line}" for line in rest)]
        where = (
            f"history file: {self.history_file}"
            if self.history_file is not None
            else "history: this session only (not saved when input is not a terminal)"
        )
        self.say("\n".join([*lines, where]))

    # -- line by line: a pipe, or a dumb terminal ---------------------------------

    def run_lines(self, lines: Iterable[str]) -> None:
        """Line-by-line mode: the same completeness rules, no editing."""
        source = iter(lines)
        self.read_entries(lambda prompt: next(source, None))

    def converse(self, stdin: TextIO) -> None:
        """Line by line on a dumb terminal: prompts, continuation prompts, history."""

        def read(prompt: str) -> str | None:
            self.out.write(prompt)
            self.out.flush()
            return stdin.readline() or None

        self.say(f"{self.backend.world_line()}\nType :help for help, Ctrl-D to leave.")
        self.read_entries(read)
        self.out.write("\n")

    def read_entries(self, read: Callable[[str], str | None]) -> None:
        """Gather lines into entries, keep each in the history and run it;
        `read(prompt)` gives the next line, None at the end."""
        buffer: list[str] = []

        def finish(text: str) -> bool:
            if text.strip():
                self.history.append_string(text)
            return self.handle(text)

        while (
            raw := read(continuation(self.backend.prompt) if buffer else self.backend.prompt)
        ) is not None:
            line = raw.rstrip("\n")
            if not buffer and line.strip().startswith(":"):
                if not finish(line):
                    return
                continue
            buffer.append(line)
            text = "\n".join(buffer)
            if self.backend.state(text) != INCOMPLETE or (line.strip() == "" and len(buffer) > 1):
                if not finish(text):
                    return
                buffer = []
        if buffer:
            finish("\n".join(buffer))

    # -- with a terminal ---------------------------------------------------------

    def interact(self) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
        from prompt_toolkit.completion import Completer, Completion
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

        session = PromptSession(
            history=self.history,
            auto_suggest=AutoSuggestFromHistory(),
            completer=Words(),
            complete_while_typing=False,
            lexer=PygmentsLexer(type(backend.lexer())),
            multiline=True,
            key_bindings=bindings,
            prompt_continuation=lambda width, line_number, wrap_count: continuation(" " * width),
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
        from prompt_toolkit.utils import is_dumb_terminal

        shell.history, shell.history_file = open_history(backend.language)
        shell.pager = click.echo_via_pager
        if is_dumb_terminal():
            shell.converse(sys.stdin)
        else:
            shell.interact()
    else:
        shell.run_lines(sys.stdin)
