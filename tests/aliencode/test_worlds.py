"""AlienCode worlds: every site perturbed, scopes, keyword renaming,
validation messages (issue: the declarative rule layer)."""

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from alienworlds.ruleset import WorldError, parse_world

from aliencode import run_source
from aliencode.sites import SITES
from aliencode.world_schema import SCHEMA, load

WORLDS = Path(__file__).parent / "worlds"
EVERY_SITE = load(str(WORLDS / "every_site.toml"))

# (site, program, output with only that site's rule active)
SITE_CASES = [
    ("literal.int", "EMIT(3)", "30"),
    ("literal.float", "EMIT(1.0)", "1.5"),
    ("literal.str", 'EMIT("hi")', "hi!"),
    ("literal.bool", "EMIT(YES)", "False"),
    ("SHATTER", "EMIT(SHATTER(3, 4))", "12"),
    ("WEAVE", "EMIT(WEAVE(3, 10))", "7"),
    ("PARE", "EMIT(PARE(3, 4))", "7"),
    ("FRACTURE", "EMIT(FRACTURE(7, 2))", "3"),
    ("COIL", "EMIT(COIL(5, 3))", "25"),
    ("RESIDUE", "EMIT(RESIDUE(3, 10))", "1"),
    ("HALVE", "EMIT(HALVE(7, 2))", "3.5"),
    ("AKIN", "EMIT(AKIN(1, 1))", "False"),
    ("APART", "EMIT(APART(1, 1))", "True"),
    ("OVER", "EMIT(OVER(1, 2))", "True"),
    ("UNDER", "EMIT(UNDER(1, 2))", "False"),
    ("ATOP", "EMIT(ATOP(1, 2))", "True"),
    ("BENEATH", "EMIT(BENEATH(1, 2))", "False"),
    ("BOND", "EMIT(BOND(0, 5), BOND(3, FRACTURE(1, 0)))", "5 3"),
    ("RIFT", "EMIT(RIFT(0, FRACTURE(1, 0)), RIFT(2, 5))", "0 5"),
    ("NEGATE", "EMIT(NEGATE(7))", "7"),
    ("STRAND", "EMIT(STRAND(1, 2, 3))", "[3, 2, 1]"),
    ("KNOT", "EMIT(KNOT(1, 2))", "(2, 1)"),
    ("PLUCK", "EMIT(PLUCK(STRAND(7, 8, 9), 1))", "7"),
    ("CARVE", 'EMIT(CARVE("alien", 2, 4), CARVE("alien", 2))', "li lien"),
    ("ANNEX", "SET xs AS STRAND(1)\nEMIT(ANNEX(xs, 2))\nEMIT(xs)", "None\n[2, 1]"),
    ("EXPEL", "SET xs AS STRAND(1, 2, 3)\nEMIT(EXPEL(xs), xs)", "1 [2, 3]"),
    ("IMPRINT", "SET xs AS STRAND(1, 2)\nIMPRINT(xs, 1, 9)\nEMIT(xs)", "[9, 2]"),
    ("GAUGE", 'EMIT(GAUGE("ab"))', "3"),
    ("NADIR", "EMIT(NADIR(1, 5))", "5"),
    ("APEX", "EMIT(APEX(1, 5))", "1"),
    ("SOME_OF", "EMIT(SOME_OF(STRAND(0, 1)))", "False"),
    ("EVERY_OF", "EMIT(EVERY_OF(STRAND(0, 1)))", "True"),
    ("ORDER", "EMIT(ORDER(STRAND(1, 3, 2)))", "[3, 2, 1]"),
    ("GATHER", 'EMIT(GATHER("ab"))', "['b', 'a']"),
    ("FUSE", 'EMIT(FUSE(1, "a"))', "1-a"),
    ("EXTENT", "EMIT(EXTENT(3), EXTENT(1, 3))", "[0, 1, 2, 3] [1, 2, 3]"),
    ("INDEX", 'EMIT(INDEX("ab"))', "[('a', 0), ('b', 1)]"),
    ("PAIR", 'EMIT(PAIR(STRAND(1, 2), "ab"))', "[('a', 1), ('b', 2)]"),
    ("STRAIN", "CRAFT t(x):\n    DELIVER YES\nEMIT(STRAIN(t, STRAND(1, 2)))", "[2, 1]"),
    ("EMIT", "EMIT(1, 2, 3)", "3 2 1"),
    ("SWEEP", "SWEEP x IN STRAND(1, 2):\n    EMIT(x)", "2\n1"),
]


def only(world, target):
    return replace(world, rules=tuple(r for r in world.rules if r.target == target))


def test_the_test_world_covers_every_site():
    assert {r.target for r in EVERY_SITE.rules} == set(SITES)
    assert {case[0] for case in SITE_CASES} == set(SITES)


@pytest.mark.parametrize("site,src,expected", SITE_CASES, ids=[c[0] for c in SITE_CASES])
def test_every_site_can_be_perturbed(site, src, expected):
    result = run_source(src, only(EVERY_SITE, site))
    assert result.error is None, result.text()
    assert result.output == expected
    assert run_source(src).output != expected  # the rule really changes the outcome


def test_all_rules_together_still_run_cleanly():
    # literals x10, STRAND reverses, SWEEP walks backwards, "ab" becomes "ab!",
    # GAUGE adds one, EMIT prints its arguments in reverse order
    prog = 'SET xs AS STRAND(1, 2)\nSWEEP x IN xs:\n    EMIT(x, GAUGE("ab"))'
    result = run_source(prog, EVERY_SITE)
    assert result.error is None, result.text()
    assert result.output == "4 10\n4 20"


def world_text(rules: str, keywords: str = "") -> str:
    head = 'format = 1\nname = "t"\nlanguage = "aliencode"\n'
    return head + (f"[keywords]\n{keywords}\n" if keywords else "") + rules


def scoped(scope: str):
    rule = (
        '[[rules]]\nid = "L"\nname = "n"\ntarget = "literal.int"\n'
        f'actual = "(+ n 100)"\nscope = "{scope}"\n'
    )
    return parse_world(world_text(rule), "t.toml", SCHEMA)


SCOPE_PROGRAM = """
CRAFT f():
    SWEEP k IN STRAND(0):
        EMIT("function+loop", 1)
    DELIVER 1
EMIT("top", 1)
SWEEP k IN STRAND(0):
    EMIT("loop", 1)
EMIT("function", f())
"""


@pytest.mark.parametrize(
    "scope,expected",
    [
        ("anywhere", "top 101\nloop 101\nfunction+loop 101\nfunction 101"),
        ("top", "top 101\nloop 1\nfunction+loop 1\nfunction 1"),
        ("function", "top 1\nloop 1\nfunction+loop 101\nfunction 101"),
        ("loop", "top 1\nloop 101\nfunction+loop 101\nfunction 1"),
    ],
)
def test_scopes(scope, expected):
    assert run_source(SCOPE_PROGRAM, scoped(scope)).output == expected


def test_first_matching_rule_wins():
    rules = (
        '[[rules]]\nid = "A"\nname = "n"\ntarget = "OVER"\nactual = "IDENTITY"\nscope = '
        '"function"\n'
        '[[rules]]\nid = "B"\nname = "n"\ntarget = "OVER"\nactual = "(< a b)"\n'
    )
    world = parse_world(world_text(rules), "t.toml", SCHEMA)
    prog = "CRAFT f():\n    DELIVER OVER(2, 1)\nEMIT(OVER(2, 1), f())"
    assert run_source(prog, world).output == "False True"


RENAMED = world_text(
    '[[rules]]\nid = "K"\nname = "n"\ntarget = "SHATTER"\nactual = "(* a b)"\n',
    'SHATTER = "MERGE"\nSET = "LET"\nEMIT = "SHOW"\nYES = "TRUE"',
)


def test_keyword_renaming_runs():
    world = parse_world(RENAMED, "t.toml", SCHEMA)
    assert run_source("LET x AS MERGE(3, 4)\nSHOW(x, TRUE)", world).output == "12 True"
    # the old spellings are ordinary names now
    assert run_source("SHOW(SHATTER(1, 2))", world).error.message == "name 'SHATTER' is not defined"
    assert run_source("LET SET AS 5\nSHOW(SET)", world).output == "5"
    assert run_source("LET x 1", world).error.message.endswith("expected ',', AS")
    assert run_source("SHOW(MERGE(1))", world).error.message.startswith("MERGE: takes 2 arguments")


def test_keyword_renaming_in_the_manual():
    from alienworlds.manuals.aliencode import render

    text = render(parse_world(RENAMED, "t.toml", SCHEMA), "text")
    assert "MERGE(a, b)" in text and "LET x AS 4" in text and "SHOW(" in text
    assert "SHATTER" not in text and "EMIT" not in text
    assert "    = 5" in text  # examples are computed under the manual's semantics: MERGE(2, 3) adds


@pytest.mark.parametrize(
    "rule,needle",
    [
        ('target = "NOPE"\nactual = "x"', "key 'target': unknown site 'NOPE'"),
        (
            'target = "PLUCK"\nactual = "(get seq (- i 1)"',
            "key 'actual': unexpected end of expression",
        ),
        ('target = "PLUCK"\nactual = "(get seq n)"', "key 'actual': unknown name 'n'"),
        ('target = "PLUCK"\nactual = "(fetch seq i)"', "key 'actual': unknown operator 'fetch'"),
        (
            'target = "PLUCK"\nactual = "(get seq)"',
            "key 'actual': operator 'get' takes 2 arguments, got 1",
        ),
        ('target = "PLUCK"', "key 'actual': expected a rule expression"),
        (
            'target = "PLUCK"\nactual = "IDENTITY"\nscope = "sometimes"',
            "key 'scope': expected one of anywhere",
        ),
        ('target = "PLUCK"\nactual = "IDENTITY"\nrequire = "x"', "key 'require': unknown key"),
    ],
)
def test_validation_messages_name_rule_and_key(rule, needle):
    text = world_text(f'[[rules]]\nid = "R7"\nname = "n"\n{rule}\n')
    with pytest.raises(WorldError) as info:
        parse_world(text, "bad.toml", SCHEMA)
    message = str(info.value)
    assert message.startswith("bad.toml: rule R7: ")
    assert needle in message


def test_duplicate_ids():
    rule = '[[rules]]\nid = "R7"\nname = "n"\ntarget = "PLUCK"\nactual = "IDENTITY"\n'
    with pytest.raises(WorldError) as info:
        parse_world(world_text(rule + rule), "bad.toml", SCHEMA)
    assert "rule R7: key 'id': duplicate rule id" in str(info.value)


def test_unknown_keyword_and_clashing_spellings():
    with pytest.raises(WorldError) as info:
        parse_world(world_text("", 'FOO = "BAR"\nSET = "EMIT"'), "bad.toml", SCHEMA)
    text = str(info.value)
    assert "key 'keywords.FOO'" in text and "two keywords would both be spelled 'EMIT'" in text


def test_shipped_demo_world():
    world = load("demo")
    assert 4 <= len(world.rules) <= 6
    assert sum(r.red_herring for r in world.rules) == 1
    layers = {r.layer for r in world.rules}
    assert {"literals", "comparison", "positions", "aggregation"} <= layers


HOSTILE_RULES = [
    ("SHATTER", '"(+ a 1' + "0" * 5000 + ')"', "the expression is too long"),
    ("SHATTER", '"(+ a 1' + "0" * 650 + ')"', "an integer constant must lie within 2048 bits"),
    ("NEGATE", '"' + "(neg " * 900 + "x" + ")" * 900 + '"', "too long"),
    ("NEGATE", '"' + "(neg " * 30 + "x" + ")" * 30 + '"', "nested too deeply"),
    ("SHATTER", '"(+ a 1e99999)"', "a float constant must be finite"),
    ("SHATTER", '"(+ a -1e99999)"', "a float constant must be finite"),
    ("literal.str", '"(concat s \\"' + "x" * 1500 + '\\")"', "at most 1000 characters"),
    ("X" * 10_000, '"(+ a 1)"', "key 'target': at most 64 characters"),
    # a rule handing on STRAIN's predicate (a host callable carrying the call depth)
    ("STRAIN", '"pred"', "'pred' is a function: a rule may only call it"),
    ("STRAIN", '"(if (== (len seq) 0) pred seq)"', "'pred' is a function: a rule may only call it"),
    ("STRAIN", '"(filter (or pred pred) seq)"', "'pred' is a function: a rule may only call it"),
]


@pytest.mark.parametrize(
    "target,actual,needle", HOSTILE_RULES, ids=[f"hostile-{i}" for i in range(len(HOSTILE_RULES))]
)
def test_hostile_rules_are_world_errors(target, actual, needle, tmp_path):
    """Were bugs: a 5,000-digit constant raised ValueError, nesting 900 or
    2,000 deep RecursionError, and `1e99999` was accepted (shown as `inf`,
    which re-parses as a symbol) and crashed every program using the rule."""
    text = world_text(f'[[rules]]\nid = "R1"\nname = "n"\ntarget = "{target}"\nactual = {actual}\n')
    with pytest.raises(WorldError) as info:
        parse_world(text, "bad.toml", SCHEMA)
    message = str(info.value)
    assert message.startswith("bad.toml: rule R1: key '") and needle in message
    # the command line: exit 2, the problem on stderr, no traceback
    path = tmp_path / "bad.toml"
    path.write_text(text)
    for args in (["world", "check", str(path)], ["run", "--world", str(path), "-"]):
        proc = subprocess.run(
            [sys.executable, "-m", "alienworlds.cli.aliencode", *args],
            input="EMIT(1)",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2, proc.stderr
        assert needle in proc.stderr and "Traceback" not in proc.stderr


def test_world_check_lists_renamings_and_inert_rules(tmp_path):
    import json

    from alienworlds.cli.aliencode import main as aliencode
    from click.testing import CliRunner

    herring = '[[rules]]\nid = "H"\nname = "n"\ntarget = "WEAVE"\nactual = "IDENTITY"\n'
    path = tmp_path / "t.toml"
    path.write_text(world_text(herring, 'SHATTER = "MERGE"\nEMIT = "SHOW"'))
    text = CliRunner().invoke(aliencode, ["world", "check", str(path)])
    assert text.exit_code == 1
    lines = text.stdout.splitlines()
    assert "  keyword EMIT is spelled SHOW" in lines
    assert "  keyword SHATTER is spelled MERGE" in lines
    assert any(line.startswith("problem: rule H: this red herring shadows no") for line in lines)
    data = json.loads(CliRunner().invoke(aliencode, ["world", "check", str(path), "--json"]).stdout)
    assert data["keywords"] == {"EMIT": "SHOW", "SHATTER": "MERGE"}
    assert not data["ok"] and data["problems"][0].startswith("rule H: this red herring")
