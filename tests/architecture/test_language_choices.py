"""Places that choose by language live in the language registry.

Every module of the package is read with `ast`. A place chooses by language
when it compares with a language's name (`language == "aliencode"`, `in
("aliencode", ...)`), keys a dict literal by one, picks a value by it in a
conditional expression, or indexes or `.get`s something by a variable or
attribute called `language` (a table by language). Looking a language up in
the registry itself (`LANGUAGES[...]`, `LANGUAGES.get(...)`) is the one
sanctioned way and does not count, nor does episode/languages.py, which
holds the entries.

No place outside the registry chooses: a difference between languages is a
field of the registry's entry (or data that entry names, as a generator's
knob table), and any place that chooses fails the test: add the difference
to the entry instead (docs/architecture.md, "Adding a language").
"""

from __future__ import annotations

import ast
from pathlib import Path

from test_import_graph import FOLDERS, ROOT

NAMES = frozenset({"aliencode", "alienlogic"})
REGISTRY = "episode/languages.py"


def _names_language(node: ast.AST | None) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(isinstance(e, ast.Constant) and e.value in NAMES for e in node.elts)
    return False


def _is_language_variable(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "language") or (
        isinstance(node, ast.Attribute) and node.attr == "language"
    )


def _is_registry(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "LANGUAGES"


def _choice(node: ast.AST) -> str | None:
    """What kind of choice by language `node` makes, or None."""
    if isinstance(node, ast.Compare) and any(
        _names_language(n) for n in (node.left, *node.comparators)
    ):
        return "compare"
    if isinstance(node, ast.Dict) and any(_names_language(k) for k in node.keys if k):
        return "dict"
    if isinstance(node, ast.IfExp) and (_names_language(node.body) or _names_language(node.orelse)):
        return "conditional"
    if (
        isinstance(node, ast.Subscript)
        and _is_language_variable(node.slice)
        and not _is_registry(node.value)
    ):
        return "index"
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and _is_language_variable(node.args[0])
        and not _is_registry(node.func.value)
    ):
        return "get"
    return None


def language_choices(root: Path) -> list[tuple[str, int, str]]:
    """(file, line, kind) of every place outside the registry that chooses
    by language."""
    out = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if name == REGISTRY:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            out += [(name, n.lineno, kind) for n in ast.walk(tree) if (kind := _choice(n))]
    return sorted(out)


def test_only_the_registry_chooses_by_language():
    assert language_choices(ROOT) == []


def test_the_counter_sees_each_kind_of_choice(tmp_path):
    (tmp_path / "serve").mkdir()
    (tmp_path / "serve" / "x.py").write_text(
        "def f(language, env):\n"
        "    if language == 'aliencode':\n"
        "        return 1\n"
        "    table = {'alienlogic': 2}\n"
        "    other = 3 if env.language else 'alienlogic'\n"
        "    return table[language] + table.get(env.language) + LANGUAGES[language]\n"
    )
    kinds = [kind for _, _, kind in language_choices(tmp_path)]
    assert sorted(kinds) == ["compare", "conditional", "dict", "get", "index"]
