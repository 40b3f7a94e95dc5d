"""A person at a terminal as a `Player` (episode.human_agent).

The person reads the conversation as the agent protocol shows it (the
briefing, round prompts, tool results, milestone questions) and answers by
typing text that ends with a line holding only a dot, in their editor
(`:edit`), or from a file (`:load PATH`; at a milestone, an answers folder
is looked in first). Input is read straight from the file descriptor with
a short poll, so that a Ctrl-C ends the session at once even while it waits
for a line (a blocked `input()` would hold the episode's worker thread).
"""

from __future__ import annotations

import codecs
import os
import select
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .agent import AgentError
from .human_agent import Player, Turn

# Longest text a person may give at once (a probe, an answer, a rule
# report): far beyond any real answer, and it bounds what one line of piped
# input can make the reader hold.
MAX_TEXT_CHARS = 65536
END_MARK = "."
EDIT_MARK = "----- write below this line; everything above it is ignored -----"
POLL_SECONDS = 0.2

HELP = f"""\
Type your text as lines and end it with a line holding only a dot ({END_MARK}).
Commands, on a line of their own before any text:
  :end        end this round without a further probe (while exploring)
  :edit       write it in your editor ($VISUAL or $EDITOR)
  :load PATH  read it from a file
  :brief      show the briefing (protocol, manual, worked examples) again
  :help       show this help"""


class InputClosed(AgentError):
    """Standard input ended before the session did; `--resume` continues it."""


class Stopped(AgentError):
    """The session is ending (a stop signal) while it waited for the person."""


class LineTooLong(Exception):
    """One input line was longer than MAX_TEXT_CHARS (it was dropped)."""


@dataclass
class LineReader:
    """Lines from a file descriptor, waiting in short polls so that a stop
    request ends a wait."""

    fd: int
    stop_event: threading.Event = field(default_factory=threading.Event)
    max_chars: int = MAX_TEXT_CHARS
    poll: float = POLL_SECONDS
    _buffer: str = ""
    _eof: bool = False
    _dropping: bool = False  # inside an over-long line: skip to its end

    def __post_init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def readline(self) -> str | None:
        """The next line without its newline; None at the end of input.
        Raises LineTooLong for a line past the limit, Stopped after `stop`."""
        while True:
            if self._dropping:
                cut = self._buffer.find("\n")
                if cut >= 0 or self._eof:
                    self._buffer = self._buffer[cut + 1 :] if cut >= 0 else ""
                    self._dropping = False
                    raise LineTooLong
                self._buffer = ""
            else:
                line, newline, rest = self._buffer.partition("\n")
                if newline:
                    self._buffer = rest
                    if len(line) > self.max_chars:
                        raise LineTooLong
                    return line
                if len(self._buffer) > self.max_chars:
                    self._dropping = True
                    continue
                if self._eof:
                    self._buffer = ""
                    return line or None
            self._fill()

    def _fill(self) -> None:
        while True:
            if self.stop_event.is_set():
                raise Stopped("the session was stopped while it waited for input")
            ready, _, _ = select.select([self.fd], [], [], self.poll)
            if ready:
                break
        chunk = os.read(self.fd, 4096)
        if not chunk:
            self._eof = True
        self._buffer += self._decoder.decode(chunk, final=not chunk)

    def stop(self) -> None:
        self.stop_event.set()


def edit_in_editor(template: str) -> str | None:
    """The text the person saved in their editor, None when nothing was saved."""
    import click

    return click.edit(template, extension=".txt", require_save=True)


def _after_mark(text: str) -> str:
    """What the person wrote below the editor's mark (all of it when the mark is gone)."""
    head, mark, tail = text.partition(EDIT_MARK)
    return (tail if mark else head).strip("\n")


def read_bounded(path: Path) -> str:
    """A text file's contents, refused past MAX_TEXT_CHARS (OSError, ValueError)."""
    if path.stat().st_size > 4 * MAX_TEXT_CHARS:
        raise ValueError(f"{path} is longer than {MAX_TEXT_CHARS} characters")
    text = path.read_text(encoding="utf-8")
    if len(text) > MAX_TEXT_CHARS:
        raise ValueError(f"{path} is longer than {MAX_TEXT_CHARS} characters")
    return text.strip("\n")


def _show_message(message: dict, tool_argument: str) -> str:
    import json

    role = message.get("role")
    if role == "system":
        return "=== BRIEFING ===\n\n" + str(message.get("content") or "")
    if role == "tool":
        return "[result]\n" + str(message.get("content") or "")
    if role == "assistant":
        shown = []
        for call in message.get("tool_calls") or ():
            raw = (call.get("function") or {}).get("arguments") or "{}"
            try:
                argument = json.loads(raw).get(tool_argument, raw)
            except (ValueError, AttributeError):
                argument = raw
            shown.append(f"[probe]\n{argument}")
        if message.get("content"):
            shown.append(f"[you wrote]\n{message['content']}")
        return "\n".join(shown)
    return "=" * 72 + "\n" + str(message.get("content") or "")


class TerminalPlayer(Player):
    """A person at a terminal: `out` shows, `reader` reads, `answers_dir`
    supplies milestone answers (MDIR/TASK.txt or TASK.txt, rules.txt)."""

    def __init__(
        self,
        out: TextIO,
        reader: LineReader,
        tool_argument: str,
        answers_dir: Path | None = None,
        editor: Callable[[str], str | None] = edit_in_editor,
    ) -> None:
        self.out = out
        self.reader = reader
        self.tool_argument = tool_argument
        self.answers_dir = answers_dir
        self.editor = editor
        self.briefing = ""
        self._helped = False

    # -- output -------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _catch_up(self, turn: Turn) -> None:
        for message in turn.unseen:
            if message.get("role") == "system":
                self.briefing = str(message.get("content") or "")
            shown = _show_message(message, self.tool_argument)
            if shown:
                self.say(shown)
        if not self._helped:
            self._helped = True
            self.say(HELP)

    # -- the Player interface ---------------------------------------------------------
    def probe(self, turn: Turn) -> str | None:
        self._catch_up(turn)
        self.say(
            f"\n--- round {turn.round} · probe {turn.probes_made + 1} of {turn.probes_allowed} "
            f"({turn.tool_name}: type the {self.tool_argument}, or :end) ---"
        )
        return self._text(template=f"Your probe ({self.tool_argument}).", allow_end=True)

    def note(self, turn: Turn) -> str:
        self._catch_up(turn)
        self.say(f"\n--- round {turn.round} · your notes (no tool in this round) ---")
        return self._text(template="Your hypotheses.") or ""

    def rule_report(self, turn: Turn) -> str:
        return self._milestone_text(turn, "rules", f"milestone M{turn.milestone}: rule report")

    def answer(self, turn: Turn) -> str:
        return self._milestone_text(
            turn, str(turn.task), f"milestone M{turn.milestone}: task {turn.task}"
        )

    def stop(self) -> None:
        self.reader.stop()

    # -- input ----------------------------------------------------------------------
    def _answer_file(self, milestone: object, name: str) -> Path | None:
        if self.answers_dir is None:
            return None
        for path in (
            self.answers_dir / f"M{milestone}" / f"{name}.txt",
            self.answers_dir / f"{name}.txt",
        ):
            if path.is_file():
                return path
        return None

    def _milestone_text(self, turn: Turn, name: str, title: str) -> str:
        self._catch_up(turn)
        self.say(f"\n--- {title} ---\n{turn.prompt or ''}")
        path = self._answer_file(turn.milestone, name)
        if path is not None:
            try:
                text = read_bounded(path)
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                self.say(f"[cannot use {path}: {exc}; type the answer instead]")
            else:
                self.say(f"[answered from {path}]")
                return text
        return self._text(template=turn.prompt or title) or ""

    def _text(self, template: str, allow_end: bool = False) -> str | None:
        """Lines up to a lone dot, or a command's result; None for :end."""
        lines: list[str] = []
        size, limit = 0, self.reader.max_chars
        while True:
            try:
                line = self.reader.readline()
            except LineTooLong:
                self.say(f"[a line longer than {limit} characters was dropped; start again]")
                lines, size = [], 0
                continue
            if line is None:
                raise InputClosed(
                    "standard input ended before the session did; continue it with --resume"
                )
            if not lines and line.startswith(":"):
                done, value = self._command(line.strip(), template, allow_end)
                if done:
                    return value
                continue
            if line.strip() == END_MARK:
                return "\n".join(lines)
            size += len(line) + 1
            if size > limit:
                self.say(f"[the text is longer than {limit} characters; start again]")
                lines, size = [], 0
                continue
            lines.append(line)

    def _command(self, command: str, template: str, allow_end: bool) -> tuple[bool, str | None]:
        """(whether the text is complete, the text) for one command line."""
        name, _, argument = command.partition(" ")
        if name == ":end" and allow_end:
            return True, None
        if name == ":edit":
            saved = self.editor(f"{template}\n\n{EDIT_MARK}\n")
            if saved is None:
                self.say("[nothing was saved; type it instead, or :edit again]")
                return False, None
            text = _after_mark(saved)
            if len(text) > self.reader.max_chars:
                self.say(f"[the text is longer than {self.reader.max_chars} characters; try again]")
                return False, None
            return True, text
        if name == ":load" and argument.strip():
            try:
                return True, read_bounded(Path(argument.strip()).expanduser())
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                self.say(f"[cannot load it: {exc}]")
                return False, None
        if name == ":brief":
            self.say(self.briefing or "[no briefing yet]")
            return False, None
        if name != ":help":
            self.say(f"[unknown command {command!r}]")
        self.say(HELP)
        return False, None


def ask_consent(out: TextIO, reader: LineReader, text: str) -> bool:
    """Show a study's consent text; True only when the person types yes."""
    out.write(f"{text.rstrip()}\n\nType yes to take part, anything else to leave: ")
    out.flush()
    try:
        answer = reader.readline()
    except LineTooLong:
        return False
    return answer is not None and answer.strip().lower() == "yes"
