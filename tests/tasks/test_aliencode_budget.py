"""Answer budgets: derived from a task's solutions, stated in its prompt,
enforced by the grader (tasks/aliencode_budget.py)."""

from __future__ import annotations

import pytest
from alienworlds.episode.aliencode_env import AlienCodeEnvironment
from alienworlds.tasks.aliencode_budget import (
    STEP_MARGIN,
    STEP_SLACK,
    TOKEN_MARGIN,
    TOKEN_SLACK,
    derive,
)
from alienworlds.tasks.aliencode_grading import AlienCodeGrader, manual_world, run_steps
from alienworlds.tasks.bank import load_bank
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import lalr
from aliencode.lexer import lex
from aliencode.parser import token_count
from aliencode.world_schema import load


@pytest.fixture(scope="module")
def main():
    world = load("main")
    bank = load_bank("aliencode", "main")
    return world, bank, AlienCodeGrader(world, bank)


def test_tokens_count_code_not_comments_or_layout():
    plain = "CRAFT f(xs):\n    DELIVER PLUCK(xs, 1)\n"
    commented = "# a note\nCRAFT   f( xs ):   # why\n\n    DELIVER PLUCK(xs,1)  # more\n"
    assert token_count(plain) == token_count(commented) == 13


def test_counting_stops_just_past_a_budget():
    source = "EMIT(" + ", ".join(["1"] * 1000) + ")"
    assert token_count(source) == 2002
    assert token_count(source, stop_after=10) == 11
    assert token_count(source, stop_after=5000) == 2002


def test_text_that_does_not_lex_has_no_count():
    assert token_count("EMIT($)") is None
    assert (
        token_count("EMIT(1, 2) $", stop_after=2) == 3
    )  # over the budget before the bad character


def lexer_tokens(source: str) -> int:
    """The tokens the parser's own lexer yields, layout aside."""
    lexed = lex(source.replace("\r\n", "\n") + "\n", lalr.tables().terminals)
    return sum(1 for tok in lexed if tok.type != "_NL")


def test_the_count_agrees_with_the_lexer_on_every_main_solution(main):
    _, bank, _ = main
    for task in bank.tasks:
        for source in (task.reference, task.naive, *task.variants, *task.calls, task.program):
            if source:
                assert token_count(source) == lexer_tokens(source), source


@given(
    st.lists(
        st.sampled_from(
            [
                "SET",
                "x",
                "AS",
                "-12",
                "3.5e-2",
                ".5",
                "1e3",
                '"a\\"b"',
                "'q'",
                "(",
                ")",
                ",",
                ":",
                "# note",
                "\n",
                "  ",
                "\\\n",
                "YES",
                "PLUCK",
            ]
        ),
        max_size=30,
    )
)
def test_the_count_agrees_with_the_lexer_on_any_token_sequence(parts):
    source = " ".join(parts)
    try:
        expected = lexer_tokens(source)
    except Exception:  # noqa: BLE001 - text the lexer refuses (e.g. a bad dedent) is not counted by it
        return
    assert token_count(source) == expected


@given(st.lists(st.integers(0, 500), max_size=5), st.lists(st.integers(0, 10_000), max_size=8))
def test_derive_covers_every_solution_with_the_stated_margins(tokens, steps):
    budget = derive(tokens, steps)
    most = max(tokens, default=0)
    assert (
        most * TOKEN_MARGIN + TOKEN_SLACK <= budget.tokens < most * TOKEN_MARGIN + TOKEN_SLACK + 1
    )
    assert budget.steps == STEP_MARGIN * max(steps, default=0) + STEP_SLACK


def test_every_main_task_budget_covers_its_reference_and_manual_solutions(main):
    world, bank, grader = main
    manual = manual_world(world)
    for task in bank.tasks:
        budget = grader.budget(task)
        if task.kind == "prediction":
            assert budget is None
            continue
        assert token_count(task.reference) * TOKEN_MARGIN + TOKEN_SLACK <= budget.tokens
        assert (
            max(run_steps(world, grader.limits, task.reference, task)) * STEP_MARGIN + STEP_SLACK
            <= budget.steps
        )
        for source in (task.naive, *task.variants):
            assert all(
                n * STEP_MARGIN + STEP_SLACK <= budget.steps
                for n in run_steps(manual, grader.limits, source, task)
            )
        assert grader.grade(task.id, task.reference).passed


def test_comments_are_free(main):
    world, bank, grader = main
    task = bank.task("T30")
    answer = "# " + "a long explanation " * 200 + "\n" + task.reference
    assert grader.grade(task.id, answer).passed


def test_an_answer_over_the_token_budget_fails_with_its_count(main):
    world, bank, grader = main
    task = bank.task("T30")
    budget = grader.budget(task)
    padding = "".join(f"SET pad{i} AS YES\n" for i in range(budget.tokens // 4 + 1))
    result = grader.grade(task.id, padding + task.reference)
    assert not result.passed
    assert token_count(padding + task.reference) > budget.tokens
    assert result.reason == f"over the answer budget: more than {budget.tokens} tokens of code"
    assert result.calls == ()


def test_an_answer_over_the_step_budget_fails_though_its_output_is_right(main):
    world, bank, grader = main
    # Nested loops that burn steps before the reference is defined: few
    # tokens, the same output, far more steps.
    for task in (t for t in bank.tasks if t.kind == "synthesis" and t.calls):
        budget = grader.budget(task)
        depth = next(d for d in range(1, 40) if 3**d > budget.steps)
        loops = "".join(f"{'    ' * i}SWEEP spin{i} IN three:\n" for i in range(depth))
        slow = (
            "SET three AS STRAND(YES, YES, YES)\n"
            + loops
            + "    " * depth
            + "IDLE\n"
            + task.reference
        )
        if token_count(slow) <= budget.tokens:
            break
    else:
        pytest.fail("no task leaves room in its token budget for the step burner")
    assert grader.grade(task.id, task.reference).passed
    result = grader.grade(task.id, slow)
    assert not result.passed
    assert (
        result.calls[0].reason == f"over the answer budget: more than {budget.steps} steps on a run"
    )


def test_the_prompt_states_the_budget_the_grader_enforces(main):
    world, bank, grader = main
    env = AlienCodeEnvironment("main")
    for task in bank.tasks:
        prompt = env.task_prompt(task.id)
        budget = grader.budget(task)
        if budget is None:
            assert "Answer budget" not in prompt
        else:
            assert f"at most {budget.tokens} tokens of code" in prompt
            assert f"at most {budget.steps} steps on each run" in prompt


def whole_text_count(source: str, stop_after: int | None) -> int | None:
    """token_count's contract, counted over the whole text in one pass."""
    from aliencode.parser import _TOKEN

    count = 0
    for match in _TOKEN.finditer(source):
        if match.lastgroup == "free":
            continue
        if match.lastgroup == "other":
            return None
        count += 1
        if stop_after is not None and count > stop_after:
            break
    return count


@given(
    st.text(alphabet=st.sampled_from(list("ab1-.e \t\n\r\\\"'#$(),:é")), max_size=60),
    st.one_of(st.none(), st.integers(0, 12)),
)
@settings(max_examples=examples(300))
def test_counting_line_by_line_is_counting_the_whole_text(source, stop_after):
    # twice: the second count finds its lines kept
    assert token_count(source, stop_after) == whole_text_count(source, stop_after)
    assert token_count(source, stop_after) == whole_text_count(source, stop_after)
