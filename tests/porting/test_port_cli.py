"""`aliencode port` from the command line."""

from __future__ import annotations

import json

from alienworlds.cli.aliencode import main
from alienworlds.ruleset import standard_world
from click.testing import CliRunner

from aliencode import run_source

PROGRAM = 'SET t AS 0\nSWEEP x IN STRAND(1, 2, 3):\n    SET t AS SHATTER(t, x)\nEMIT(t, "done")\n'


def port(*args: str, stdin: str = PROGRAM):
    return CliRunner().invoke(main, ["port", *args], input=stdin)


def test_port_prints_a_program_that_prints_the_same_in_the_world():
    from aliencode.world_schema import load

    result = port("--world", "main")
    assert result.exit_code == 0
    assert (
        run_source(result.output, load("main")).text()
        == run_source(PROGRAM, standard_world("aliencode")).text()
    )


def test_port_json_lists_the_changes():
    result = port("--world", "main", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["source"] and data["world_hash"].startswith("sha256:")
    assert {c["site"] for c in data["changes"]} >= {"SHATTER", "literal.int", "literal.str"}


def test_examples_give_parameter_types():
    source = "CRAFT add(a, b):\n    DELIVER SHATTER(a, b)\n"
    assert port("--world", "main", "--max-size", "5", stdin=source).exit_code == 1
    result = port("--world", "main", "--example", "EMIT(add(1, 2))", stdin=source)
    assert result.exit_code == 0 and "CRAFT add(a, b):" in result.output


def test_no_compensation_exits_1_naming_site_and_scope():
    result = port(
        "--world", "main", "--max-size", "2", stdin="SET xs AS STRAND(1)\nEMIT(PLUCK(xs, 0))\n"
    )
    assert result.exit_code == 1
    assert "PLUCK" in result.output and "scope top" in result.output and "line 2" in result.output


def test_bad_input_exits_2():
    assert port("--world", "main", stdin="EMIT(\n").exit_code == 2
    assert port("--world", "no-such-world").exit_code == 2
    assert port("--world", "main", "/no/such/file.ac").exit_code == 2


def test_standard_is_the_identity():
    result = port("--world", "standard", "--whole-program")
    assert result.exit_code == 0 and result.output == PROGRAM


def test_the_world_is_always_named():
    shown = CliRunner().invoke(main, ["port", "--help"]).output
    assert "always named" in shown and "Default:" not in shown
    missing = port()
    assert missing.exit_code == 2 and "--world" in missing.output


def test_a_loop_changing_the_list_it_walks_is_refused_naming_the_loop():
    source = "CRAFT f(xs):\n    SWEEP x IN xs:\n        IMPRINT(xs, -1, 0)\n    DELIVER 0\n"
    result = port("--world", "main", "--whole-program", stdin=source)
    assert result.exit_code == 1
    assert "line 2" in result.output and "may change the list it walks" in result.output
