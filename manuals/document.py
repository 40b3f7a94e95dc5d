"""A tiny document model rendered as plain text (for models) or Markdown
(for people), so each manual is written once."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field


@dataclass
class Document:
    blocks: list[tuple[str, object]] = field(default_factory=list)

    def heading(self, level: int, text: str) -> None:
        self.blocks.append(("heading", (level, text)))

    def para(self, text: str) -> None:
        self.blocks.append(("para", " ".join(text.split())))

    def code(self, text: str) -> None:
        self.blocks.append(("code", text.rstrip("\n")))

    def bullets(self, items: list[str]) -> None:
        self.blocks.append(("bullets", [" ".join(i.split()) for i in items]))

    def entry(self, signature: str, meaning: str, example: str, output: str) -> None:
        """An operation or statement: signature, meaning, example and its output."""
        self.blocks.append(("entry", (signature, meaning, example, output)))

    def example(self, code: str, output: str) -> None:
        """A program and what it prints."""
        self.blocks.append(("example", (code, output)))

    def render(self, fmt: str) -> str:
        if fmt not in ("text", "md"):
            raise ValueError(f"unknown manual format {fmt!r}")
        out: list[str] = []
        for kind, data in self.blocks:
            out.append(_RENDER[fmt][kind](data))
        return "\n\n".join(out).rstrip() + "\n"


def _wrap(text: str, indent: str = "") -> str:
    return textwrap.fill(text, width=88, initial_indent=indent, subsequent_indent=indent)


def _text_heading(data):
    level, text = data
    if level == 1:
        return f"{text.upper()}\n{'=' * len(text)}"
    if level == 2:
        return f"{text}\n{'-' * len(text)}"
    return f"{text}:"


def _text_example(data):
    code, output = data
    lines = [textwrap.indent(code, "    > ", lambda line: True)]
    if output:
        lines.append(textwrap.indent(output, "    = ", lambda line: True))
    return "\n".join(lines)


def _text_entry(data):
    signature, meaning, code, output = data
    return "\n".join([signature, _wrap(meaning, "    "), _text_example((code, output))])


def _md_example(data):
    code, output = data
    body = f"```\n{code}\n```"
    if output:
        body += f"\nprints:\n```\n{output}\n```"
    return body


def _md_entry(data):
    signature, meaning, code, output = data
    return f"**`{signature}`** — {meaning}\n\n" + _md_example((code, output))


_RENDER = {
    "text": {
        "heading": _text_heading,
        "para": _wrap,
        "code": lambda t: textwrap.indent(t, "    "),
        "bullets": lambda items: "\n".join("  * " + _wrap(i, "    ")[4:] for i in items),
        "entry": _text_entry,
        "example": _text_example,
    },
    "md": {
        "heading": lambda d: f"{'#' * d[0]} {d[1]}",
        "para": lambda t: t,
        "code": lambda t: f"```\n{t}\n```",
        "bullets": lambda items: "\n".join(f"* {i}" for i in items),
        "entry": _md_entry,
        "example": _md_example,
    },
}
