import json

import pytest

from aliencode import parse
from aliencode.metering import PROBE_CAP, units


def test_tool_runs_a_program_in_the_world(demo_env):
    out = demo_env.run_tool({"code": "EMIT(PLUCK(STRAND(4, 5, 6), 1))"})
    assert (out.status, out.units, out.feedback) == ("ran", 1, "4")


def test_tool_reports_errors_and_empty_output(demo_env):
    assert demo_env.run_tool({"code": "SET x AS 1"}).feedback == "(no output)"
    err = demo_env.run_tool({"code": "EMIT(1)\nEMIT(PLUCK(STRAND(), 5))"})
    assert err.status == "ran" and err.feedback.startswith("1\n[AlienError] IndexError")
    syntax = demo_env.run_tool({"code": "EMIT(("})
    assert syntax.status == "ran" and syntax.units == 0 and "SyntaxError" in syntax.feedback


def test_a_call_over_the_cap_is_rejected_whole_and_runs_nothing(demo_env):
    # 1 + 3 + 1 = 5: allowed
    code = "EMIT(1)\nSWEEP i IN EXTENT(3):\n    EMIT(i)\nEMIT(PLUCK(STRAND(), 9))"
    assert demo_env.run_tool({"code": code}).status == "ran"
    over = demo_env.run_tool({"code": "EMIT(1, 2, 3)\nEMIT(4, 5, 6)"})
    assert over.status == "rejected" and over.units == 0
    assert "6 probe units" in over.feedback and "Nothing was run" in over.feedback
    assert "1 2 3" not in over.feedback


def test_bad_arguments_are_refused(demo_env):
    for bad in (None, [], {"program": "EMIT(1)"}, {"code": 5}):
        out = demo_env.run_tool(bad)
        assert out.status == "invalid" and out.units == 0


def test_long_feedback_is_capped(demo_env):
    out = demo_env.run_tool({"code": "SWEEP i IN EXTENT(40):\n    EMIT(i)"})
    assert out.feedback.count("\n") == 15 and "[feedback truncated" in out.feedback
    assert out.output.count("\n") == 39


def test_fixed_probes_are_valid_cheap_and_seeded(main_env):
    seq = main_env.fixed_probes(0, 4, 12)
    assert [len(r) for r in seq] == [12] * 4
    assert seq == main_env.fixed_probes(0, 4, 12)
    assert seq != main_env.fixed_probes(1, 4, 12)
    many = [p for r in main_env.fixed_probes(7, 40, 12) for p in r]
    for probe in many:
        assert 1 <= units(parse(probe)) <= PROBE_CAP, probe
        assert main_env.run_tool({"code": probe}).status == "ran"
    # the pool reaches every site
    sites = {main_env.world.rule(r).target for p in many for r in main_env.rules_touched(p)}
    assert sites == {r.target for r in main_env.world.rules}


def test_prompts_show_no_actual_rule(main_env):
    prompt = main_env.system_prompt() + main_env.rule_report_prompt()
    for rule, line in zip(main_env.world.rules, main_env.rule_template()):
        assert line.startswith(rule.id + ": ")
        if not rule.red_herring:
            assert rule.actual not in line, rule.id
        assert rule.name not in prompt
    assert "R14: PLUCK (operands: seq, i)" in main_env.rule_report_prompt()
    assert main_env.rule_ids() == [f"R{i:02d}" for i in range(1, 35)]
    # the open-book prompt discloses every rule
    book = main_env.system_prompt(open_book=True)
    assert all(rule.actual in book for rule in main_env.world.rules)


def test_worked_examples_carry_the_world_output(main_env):
    examples = main_env.worked_examples()
    assert len(examples) == 10
    e1 = next(e for e in examples if e["id"] == "E01")
    assert e1["output"] == "12"
    assert "Output in this world:\n```output\n12\n```" in main_env.system_prompt()


def test_rule_reports_are_scored_by_behaviour(main_env):
    truth = main_env.true_rule_report()
    assert sum(main_env.score_rule_report(truth).values()) == 34
    manual = main_env.score_rule_report(main_env.manual_rule_report())
    assert sum(manual.values()) == 8 and all(
        manual[r.id] for r in main_env.world.rules if r.red_herring
    )
    respelled = {
        "R04": "(* b a)",
        "R14": "(get seq (+ i -1))",
        "R01": "(^ 27 n)",
        "R06": "(** a b)",
    }
    assert all(main_env.score_rule_report(respelled)[rid] for rid in respelled)


@pytest.mark.parametrize(
    "junk",
    [
        "UNKNOWN",
        "",
        "(",
        "(frobnicate a)",
        "(+ a zz)",
        "(get seq (- i 1)",
        "IDENTITY IDENTITY",
        "(** 10 (** 10 (** 10 a)))",
        "(range 0 100000000)",
        '"string"',
        "(/ a 0)",
    ],
)
def test_bad_reports_score_zero_and_never_crash(main_env, junk):
    assert main_env.score_rule_report({"R04": junk})["R04"] is False


def test_parse_then_score_a_free_text_report(demo_env):
    text = (
        "D1: (+ n 1)\nD2: (< a b)\nD3: (get seq (- i 1))\n"
        "D5: IDENTITY\nD4: (reverse (sort_asc seq))"
    )
    report = demo_env.parse_rule_report(text)
    assert demo_env.score_rule_report(report) == {
        "D1": True,
        "D2": True,
        "D3": True,
        "D5": True,
        "D4": True,
    }


def test_replies_are_read_and_graded(demo_env):
    right = "CRAFT larger(a, b):\n    UPON OVER(b, a):\n        DELIVER a\n    DELIVER b"
    wrong = right.replace("OVER(b, a)", "OVER(a, b)")
    grade = demo_env.grade("T3", f"Sure:\n```aliencode\n{right}\n```\nDone.")
    assert grade.passed and grade.answer == right
    verdict = demo_env.grade("T3", f"```\n{wrong}\n```")
    assert not verdict.passed and verdict.reason == "wrong output" and verdict.answer == wrong
    assert demo_env.grade("T3", right).passed  # a bare program
    for nothing in ("I do not know.", ""):
        grade = demo_env.grade("T3", nothing)
        assert not grade.passed and grade.answer is None and grade.calls == ()
        assert grade.reason.startswith("no answer found in the reply")
    assert demo_env.grade("T5", demo_env.reference_reply("T5")).passed
    assert not demo_env.grade("T5", demo_env.naive_reply("T5")).passed


def test_task_prompts(demo_env):
    assert "Example call:\n```aliencode\nEMIT(first(STRAND(7, 8)))\n```" in demo_env.task_prompt(
        "T1"
    )
    assert "whole program" in demo_env.task_prompt("T4")
    assert "```output" in demo_env.task_prompt("T5") and "CRAFT f():" in demo_env.task_prompt("T5")


def test_tool_spec_is_an_openai_function(demo_env):
    spec = demo_env.tool_spec()
    assert spec["function"]["name"] == "run_aliencode"
    assert spec["function"]["parameters"]["required"] == ["code"]
    json.dumps(spec)
