"""Every column of every table a report writes has its entry in the terms
of the same page."""

import re
from html.parser import HTMLParser

import pytest
from alienworlds.cli.aliencode import main
from alienworlds.episode import glossary
from click.testing import CliRunner


class Tables(HTMLParser):
    """The headings of each table (key/value tables of fields excepted) and
    the terms of the page's glossary."""

    def __init__(self, text: str):
        super().__init__()
        self.heads: list[list[str]] = []
        self.terms: set[str] = set()
        self._in: str | None = None
        self._skip = False
        self._text = ""
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            # a mapping lists named fields, one per row: it has no data columns
            self._skip = dict(attrs).get("class") == "mapping"
            self.heads.append([])
        if tag in ("th", "dt"):
            self._in, self._text = tag, ""

    def handle_data(self, data):
        if self._in:
            self._text += data

    def handle_endtag(self, tag):
        if tag == self._in == "th" and not self._skip:
            self.heads[-1].append(self._text.strip())
        elif tag == self._in == "dt":
            self.terms.add(self._text.strip())
        if tag == self._in:
            self._in = None


def markdown_tables(text: str) -> tuple[list[list[str]], set[str]]:
    lines = text.splitlines()
    heads = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line, below in zip(lines, lines[1:], strict=False)
        if line.startswith("|") and below.startswith("|---")
    ]
    terms = {m.group(1) for m in re.finditer(r"^\* \*\*(.+?)\*\*: ", text, re.M)}
    return heads, terms


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Reports of two systems that explored (so every optional column shows)."""
    root = tmp_path_factory.mktemp("glossary")
    runs, out = root / "runs", root / "board"
    runner = CliRunner()
    made = runner.invoke(
        main,
        ["episode", "--agent", "oracle,fixed", "--world", "demo", "--out", str(runs)],
    )
    assert made.exit_code == 0, made.output
    boards = [str(out / f"lb{suffix}") for suffix in (".md", ".html")]
    result = runner.invoke(
        main, ["report", str(runs), "--out", str(out), *(f"--leaderboard={b}" for b in boards)]
    )
    assert result.exit_code == 0, result.output
    return out, runs


@pytest.mark.parametrize(
    "name,shown",
    [
        ("index.html", {"bits", "redundant", "mass", "errors", "rank", "trajectory"}),
        ("lb.html", {"bits", "redundant", "mass", "errors", "rank"}),
        ("oracle/replay.html", {"milestone", "C (calls)", "pass 1", "bits in all"}),
        ("fixed/replay.html", {"reported expression", "reached after R1", "true mass M4"}),
    ],
)
def test_every_html_column_has_a_term(reports, name, shown):
    out, runs = reports
    path = out / name if "/" not in name else runs / name
    page = Tables(path.read_text(encoding="utf-8"))
    columns = [h for head in page.heads for h in head]
    assert shown <= set(columns)
    for column in columns:
        assert set(glossary.column_terms(column)) <= page.terms, column


@pytest.mark.parametrize("name", ["report.md", "lb.md"])
def test_every_markdown_column_has_a_term(reports, name):
    heads, terms = markdown_tables((reports[0] / name).read_text(encoding="utf-8"))
    assert heads
    for column in (h for head in heads for h in head):
        assert set(glossary.column_terms(column)) <= terms, column


def test_an_unknown_column_is_refused():
    with pytest.raises(KeyError, match="no glossary entry for the column 'speed'"):
        glossary.column_terms("speed")
    assert glossary.for_columns("M0", "M4 cc", "Best@n cc", "M1") == ("M0…M4", "cc", "Best@n")
