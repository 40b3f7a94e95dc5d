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

Fenced blocks. A reply may wrap its answer in prose, use several fenced
blocks, forget to close the last fence, tag the block or not, or write a
one-line prediction (`fenced_blocks`, `pick_block`, `prediction`).
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class Block:
    tag: str
    body: str
    closed: bool


def _fence(line: str) -> tuple[str, str] | None:
    """(fence, tag) when the line opens a fence: three or more backticks or
    tildes after blanks, then the tag (up to a blank or a backtick)."""
    s = line.lstrip(" \t")
    if not s or s[0] not in "`~":
        return None
    mark = s[0]
    n = len(s) - len(s.lstrip(mark))
    if n < 3:
        return None
    rest = s[n:].lstrip(" \t")
    end = 0
    while end < len(rest) and not (rest[end].isspace() or rest[end] == "`"):
        end += 1
    return s[:n], rest[:end]


def _closes(line: str, fence: str) -> bool:
    """Whether the line is only the fence's mark, at least as long, and blanks."""
    s = line.strip(" \t")
    return len(s) >= len(fence) and s.strip(fence[0]) == ""


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced block, in order; an unclosed last fence runs to the end."""
    rows = lines(text)
    # only lines with a run of marks can open or close a fence
    marked = [i for i, row in enumerate(rows) if "```" in row or "~~~" in row]
    blocks: list[Block] = []
    k = 0
    while k < len(marked):
        i = marked[k]
        opened = _fence(rows[i])
        k += 1
        if opened is None:
            continue
        fence, tag = opened
        while k < len(marked) and not _closes(rows[marked[k]], fence):
            k += 1
        if k == len(marked):
            blocks.append(Block(tag.lower(), "\n".join(rows[i + 1 :]), False))
            return blocks
        j = marked[k]
        blocks.append(Block(tag.lower(), "\n".join(rows[i + 1 : j]).rstrip("\n"), True))
        k += 1
    return blocks


def _dedent_body(body: str) -> str:
    return body.strip("\n")


def pick_block(text: str, prefer: tuple[str, ...], avoid: tuple[str, ...] = ()) -> str | None:
    """The last block tagged with a preferred tag; else the last untagged or
    otherwise-tagged one not in `avoid`; else None."""
    blocks = [b for b in fenced_blocks(text) if b.body.strip()]
    for group in (lambda b: b.tag in prefer, lambda b: b.tag not in avoid):
        chosen = [b for b in blocks if group(b)]
        if chosen:
            return _dedent_body(chosen[-1].body)
    return None


_PREDICTION_WORDS = ("PREDICTION", "PREDICTED OUTPUT", "OUTPUT", "ANSWER")


def _prediction_line(line: str) -> str | None:
    """The value of a line `PREDICTION: value` (or OUTPUT, PREDICTED OUTPUT,
    ANSWER; any case, markdown emphasis and quoting around the word)."""
    s = line.lstrip(" \t>*_")
    upper = s[: len("PREDICTED OUTPUT")].upper()
    for word in _PREDICTION_WORDS:
        if upper.startswith(word):
            rest = s[len(word) :].lstrip("*_ ")
            if rest.startswith(":"):
                return rest[1:].lstrip("*_ ").rstrip(" \t")
            return None
    return None


def prediction(text: str) -> str | None:
    """A predicted output: an ```output block, else a `PREDICTION: ...` line,
    else the only fenced block."""
    block = pick_block(text, ("output", "text", "stdout", "plaintext", "console"), avoid=())
    tagged = [
        b
        for b in fenced_blocks(text)
        if b.tag in ("output", "text", "stdout", "plaintext", "console")
    ]
    if tagged:
        return block
    found = [
        v for v in (_prediction_line(row) for row in lines(text) if ":" in row) if v is not None
    ]
    if found:
        value = found[-1].strip()
        if len(value) >= 2 and value[0] == value[-1] == "`":
            value = value.strip("`")
        return value
    blocks = [b for b in fenced_blocks(text) if b.body.strip()]
    if len(blocks) == 1:
        return _dedent_body(blocks[0].body)
    return None
