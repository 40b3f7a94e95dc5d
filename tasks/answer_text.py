"""Reading model answers line by line, in time linear in their length.

Model text is hostile input: it may hold megabytes of blank lines, lines of
a million characters, control characters and unbalanced markup. Everything
here splits the text into lines once and looks at each line with string
methods that scan it a bounded number of times, so no input can make a
reader backtrack (no regular expression runs over a whole line).

The refusal line. One reader, `refusal`, serves `alienlogic grade` and the
episode. A line is a refusal when, after markdown decoration is taken away,
its words are exactly `ANSWER : UNPROVABLE`:

* letter case does not matter, nor spaces around the colon;
* emphasis and code marks (`*`, `_`, backticks) anywhere on the line are
  ignored: `**ANSWER:** \\`UNPROVABLE\\``;
* list bullets, headings and quoting before it are ignored: `- `, `+ `,
  `# `, `> ` (`- ANSWER: UNPROVABLE`, `# ANSWER: UNPROVABLE`);
* a final `.` or `!` is ignored (`ANSWER: UNPROVABLE!`), a `?` is not: a
  question is no refusal;
* any other word on the line makes it no refusal
  (`ANSWER: UNPROVABLE, I think`), and so does a numbered list marker.

A refusal line counts wherever it stands, inside a fenced block too.
"""

from __future__ import annotations

REFUSAL_TEXT = "ANSWER: UNPROVABLE"

_MARKS = "*_`"
_LEADING = ">#-+"
_TRAILING = ".!"
_REFUSAL_WORDS = ["answer", ":", "unprovable"]


def lines(text: str) -> list[str]:
    """The lines of `text`, with CRLF and CR line ends read as LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def is_refusal(line: str) -> bool:
    """Whether one line is the refusal line (see module doc)."""
    text = "".join(ch for ch in line if ch not in _MARKS)
    start, end = 0, len(text)
    while start < end and (text[start] in _LEADING or text[start].isspace()):
        start += 1
    while end > start and (text[end - 1] in _TRAILING or text[end - 1].isspace()):
        end -= 1
    words = text[start:end].replace(":", " : ").split()
    return [w.lower() for w in words] == _REFUSAL_WORDS


def refusal(text: str) -> bool:
    """Whether model text holds a refusal line anywhere."""
    if not isinstance(text, str):
        return False
    # only lines that mention the word can be refusals: a filter at C speed
    # keeps floods of blank or long lines cheap
    return any(is_refusal(row) for row in lines(text.lower()) if "unprovable" in row)


def _strip_quoting(line: str) -> str:
    """The line without leading blanks and `>` quote marks."""
    return line.lstrip(" \t>")


def _is_proof_start(line: str) -> bool:
    """A line holding only PROOF, possibly after an opening fence and its
    tag (three or more backticks, then letters, digits, `_` or `-`)."""
    s = _strip_quoting(line).rstrip(" \t")
    if not s.endswith("PROOF"):
        return False
    head = s[: -len("PROOF")]
    if not head:
        return True
    ticks = len(head) - len(head.lstrip("`"))
    if ticks < 3:
        return False
    rest = head[ticks:].rstrip(" \t")
    return all(ch.isascii() and (ch.isalnum() or ch in "_-") for ch in rest)


def _is_proof_end(line: str) -> bool:
    """A line holding only END, possibly followed by a closing fence."""
    s = _strip_quoting(line).rstrip(" \t")
    if not s.startswith("END"):
        return False
    rest = s[len("END") :].lstrip(" \t")
    return not rest or (len(rest) >= 3 and rest.strip("`") == "")


def proof_blocks(text: str) -> tuple[str, ...]:
    """Every proof block: a PROOF line up to the next END line, or to the
    end of the text when END is missing (that block then fails to parse).
    Quote marks and indentation are taken off each line; the first and last
    lines become PROOF and END (dropping any fence on them)."""
    rows = lines(text)
    starts = [i for i, row in enumerate(rows) if "PROOF" in row and _is_proof_start(row)]
    if not starts:
        return ()
    ends = [i for i, row in enumerate(rows) if "END" in row and _is_proof_end(row)]
    blocks: list[str] = []
    s = e = 0
    while s < len(starts):
        i = starts[s]
        while e < len(ends) and ends[e] <= i:
            e += 1
        j = ends[e] if e < len(ends) else len(rows)
        body = [_strip_quoting(r) for r in rows[i + 1 : j]]
        block = ["PROOF", *body] + (["END"] if j < len(rows) else [])
        blocks.append("\n".join(block).strip() + "\n")
        while s < len(starts) and starts[s] <= j:
            s += 1
    return tuple(blocks)
