"""The documentation stands alone: no reference to a design document outside
the repository, no links out, and every doc file it names exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SOURCES = [
    p
    for folder in (
        "aliencode",
        "alienlogic",
        "alienworlds",
        "ruleset",
        "manuals",
        "tasks",
        "repl",
        "episode",
        "inspect_eval",
        "cli",
        "sweep",
        "tests",
        "benchmarks",
        "explore",
        "porting",
        "generate",
        "serve",
    )
    for p in (ROOT / folder).rglob("*.py")
]
OUTSIDE = "DESIGN " + "§"  # split so that this file does not match itself


def test_no_file_cites_the_outside_design_document():
    assert [
        str(p.relative_to(ROOT)) for p in DOCS + SOURCES if OUTSIDE in p.read_text(encoding="utf-8")
    ] == []


def test_the_docs_link_nowhere_outside():
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"https?://(?!127\.0\.0\.1|localhost)", text), path.name
        assert "../shared" not in text and "seeds/" not in text, path.name


def test_every_doc_the_docs_name_exists():
    for path in DOCS:
        for name in re.findall(r"docs/[\w-]+\.md", path.read_text(encoding="utf-8")):
            assert (ROOT / name).exists(), f"{path.name} names {name}"
