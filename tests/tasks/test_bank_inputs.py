"""Private inputs, variants and what a task shows (issue 11): the grader binds
inputs with the manual's semantics, and the audit finds leaked examples,
stated outputs, wrong variants and too few runs or outputs."""

import pytest
from alienworlds.tasks.aliencode_audit import audit
from alienworlds.tasks.aliencode_grading import AlienCodeGrader, binding_tree
from alienworlds.tasks.bank import BankError, load_bank

from aliencode import AlienSyntaxError
from aliencode.world_schema import load

MAIN = load("main")  # integer literals are n ^ 27; PLUCK counts from one

TASK = """
[[tasks]]
id = "A1"
kind = "synthesis"
band = "apply"
family = "base"
prompt = "{prompt}"
example_inputs = {{ xs = "{example}" }}
inputs = [{{ xs = "STRAND(7, 8)" }}, {{ xs = "STRAND(3, 1, 2)" }}, {{ xs = "STRAND(5)" }}]
reference = "EMIT(PLUCK(xs, 26))"
naive = "EMIT(PLUCK(xs, 0))"
variants = [{variants}]
"""


def bank(
    tmp_path,
    prompt="The list xs is given. Print its first element.",
    example="STRAND(4, 4)",
    variants='"EMIT(PLUCK(CARVE(xs, 0, 1), 0))"',
    audit_table="",
):
    path = tmp_path / "bank.toml"
    path.write_text(
        f'format = 1\nworld = "main"\n{audit_table}\n'
        + TASK.format(prompt=prompt, example=example, variants=variants)
    )
    return load_bank("aliencode", "main", path)


def test_inputs_are_bound_with_the_manual_semantics(tmp_path):
    b = bank(tmp_path)
    grader = AlienCodeGrader(MAIN, b)
    # in the world the literal 7 would be 28; bound inputs are plain values
    assert grader.expected(b.task("A1")) == ["7", "3", "5"]
    assert grader.grade("A1", "EMIT(PLUCK(xs, 26))").passed
    answer = grader.grade("A1", "EMIT(PLUCK(xs, 0))")
    assert not answer.passed and len(answer.calls) == 3
    assert not grader.grade("A1", "EMIT(7)").passed


@pytest.mark.parametrize("value", ["1)\nEMIT(2", "1)\nSET ys AS (2", "1), (2", "", "1 2"])
def test_a_value_cannot_smuggle_in_a_statement(value):
    with pytest.raises(AlienSyntaxError):
        binding_tree({"xs": value}, MAIN)


def test_a_value_is_one_expression():
    tree = binding_tree({"xs": "STRAND(1,\n 2)", "n": "PLUCK(xs, 0)"}, MAIN)
    assert [st.targets for st in tree.body] == [("xs",), ("n",)]


def test_audit_finds_what_a_task_gives_away(tmp_path):
    problems = audit(
        MAIN,
        bank(
            tmp_path,
            prompt="Print the first element of xs (7 for the list 7, 8).",
            example="STRAND(7, 8)",
        ),
    ).problems
    assert "task A1: the example inputs are one of the private input tables" in problems
    # a one-character output is too short to count as stated; "7" is one character
    problems = audit(
        MAIN, bank(tmp_path, prompt="Print it; for xs = [3, 1, 2] that is 3 1 2.")
    ).problems
    assert not any("states an expected output" in p for p in problems)


def test_audit_finds_a_stated_output(tmp_path):
    path = tmp_path / "b.toml"
    path.write_text(
        'format = 1\nworld = "main"\n[[tasks]]\nid = "B1"\nkind = "synthesis"\n'
        'prompt = "Write CRAFT f(x) giving x; f of 10 prints 17 in this world."\nexample = '
        '"EMIT(f(3))"\n'
        'calls = ["EMIT(f(10))", "EMIT(f(3))"]\nreference = "CRAFT f(x):\\n    DELIVER x"\n'
        'naive = "CRAFT f(x):\\n    DELIVER x"\n'
    )
    problems = audit(MAIN, load_bank("aliencode", "main", path)).problems
    assert "task B1: the example is one of the private calls" in problems
    assert "task B1: what the task shows states an expected output ('17')" in problems


def test_audit_checks_variants_and_requirements(tmp_path):
    table = "[audit]\nmin_runs = 5\nmin_distinct_outputs = 4\nmin_variants = 2"
    problems = audit(
        MAIN, bank(tmp_path, variants='"EMIT(PLUCK(xs, 1))"', audit_table=table)
    ).problems
    assert (
        "task A1: variant 1 does not print what the naive solution prints under the manual's "
        "semantics" in problems
    )
    assert "task A1: 3 private calls or input tables, fewer than 5" in problems
    assert "task A1: 3 distinct expected outputs, fewer than 4" in problems
    assert "task A1: 1 variants, fewer than 2" in problems


def test_the_reference_and_the_naive_solution_must_mean_the_same(tmp_path):
    text = open(bank(tmp_path).source, encoding="utf-8").read()
    path = tmp_path / "b.toml"
    path.write_text(
        text.replace('reference = "EMIT(PLUCK(xs, 26))"', 'reference = "EMIT(PLUCK(xs, 27))"')
    )
    problems = audit(MAIN, load_bank("aliencode", "main", path)).problems
    assert (
        "task A1: the reference in the world and the naive solution under the manual disagree on "
        "an input" in problems
    )


@pytest.mark.parametrize(
    "fields,message",
    [
        ('inputs = ["STRAND(1)"]', "key 'inputs': expected a list of tables"),
        ("inputs = [{ xs = 1 }]", "key 'inputs': expected a list of tables"),
        (
            'inputs = [{ xs = "1" }, { ys = "2" }]',
            "every table binds the same names in the same order",
        ),
        (
            'calls = ["EMIT(1)"]\ninputs = [{ xs = "1" }]',
            "a task has private calls or private inputs, not both",
        ),
        ('example_inputs = { xs = "1" }', "key 'example_inputs' needs 'inputs'"),
        ('variants = "EMIT(1)"', "key 'variants': expected a list of strings"),
    ],
)
def test_malformed_inputs_and_variants(tmp_path, fields, message):
    path = tmp_path / "bank.toml"
    path.write_text(
        'format = 1\n[[tasks]]\nid = "A"\nkind = "synthesis"\nreference = "EMIT(1)"\nnaive = '
        f'"EMIT(1)"\n{fields}\n'
    )
    with pytest.raises(BankError) as info:
        load_bank("aliencode", "main", path)
    assert message in str(info.value)
