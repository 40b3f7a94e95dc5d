import json
import os

from alienworlds.episode import Episode, Settings, make_agent
from alienworlds.episode.replay_html import REPLAY_NAME, is_fresh, replay_html
from alienworlds.episode.report import write_summary
from alienworlds.episode.trace import TRACE_NAME
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from replay_testing import INJECTION, Elements, Hostile, assert_inert


def test_the_replay_shows_rounds_probes_results_and_verdicts(demo_env, tmp_path):
    Episode(demo_env, make_agent("fixed", demo_env), tmp_path, Settings()).run()
    events = [json.loads(line) for line in (tmp_path / TRACE_NAME).read_text().splitlines()]
    doc = assert_inert(replay_html(tmp_path, "../index.html"))
    sections = [a["id"] for _, a in doc.tags if _ == "section" and a.get("id")]
    assert sections == [
        "overview",
        "setup",
        "m0",
        "round-1",
        "m1",
        "round-2",
        "m2",
        "round-3",
        "m3",
        "round-4",
        "m4",
    ]
    tools = [e for e in events if e["type"] == "tool"]
    probes = doc.classed("probe")
    assert len(probes) == len(tools) == 48
    assert probes[0][1]["id"] == "probe-r1-1" and len(doc.classed("probe-code")) == 48
    assert len(doc.classed("tool-result")) == 48
    answers = [e for e in events if e["type"] == "answer"]
    verdicts = [a for t, a in doc.tags if t == "td" and "verdict" in (a.get("class") or "")]
    rules = [e for e in events if e["type"] == "rule_report"]
    assert (
        len(verdicts) == len(answers) + sum(len(r["correct"]) for r in rules) == 5 * 6 * 3 + 5 * 5
    )
    passed = sum(1 for a in answers if a["passed"]) + sum(sum(r["correct"].values()) for r in rules)
    assert sum(1 for a in verdicts if "pass" in a["class"].split()) == passed
    assert len(doc.find("table", class_="budget")) == 5 and doc.find("a", href="../index.html")
    text = "".join(doc.text)
    for term in ("C", "P", "T", "Tm", "cc", "σ"):
        assert f"{term}" in text
    assert (
        "tool calls counted against the budget" in text
        and "probe units" in text
        and "exploration requests" in text
    )
    assert '{"' not in text  # budgets, agent and protocol are tables, not JSON


def test_hostile_text_stays_text(demo_env, tmp_path):
    Episode(
        demo_env, Hostile(make_agent("fixed", demo_env)), tmp_path, Settings(condition="direct")
    ).run()
    page = replay_html(tmp_path)
    doc = assert_inert(page)
    assert (
        "".join(doc.text).count(INJECTION) >= 1 + 6 * 3
    )  # the rule report and every answer, shown literally


_HOSTILE = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            INJECTION,
            "<!--",
            "-->",
            "]]>",
            "'\"><svg/onload=1>",
            "&#0;",
            "\u2028",
            "\x00",
            "javascript:alert(1)",
            "</style><b>",
        ]
    ),
)


@settings(max_examples=examples(40), deadline=None)
@given(texts=st.lists(_HOSTILE, min_size=11, max_size=11))
def test_any_text_anywhere_in_a_trace_stays_text(tmp_path_factory, texts):
    directory = tmp_path_factory.mktemp("hostile")
    _write_trace(directory, texts)
    assert_inert(replay_html(directory, "../index.html"))


def _write_trace(directory, t):
    """A one-milestone trace whose every free text is drawn from `t`."""
    header = {
        "type": "header",
        "key": "header",
        "language": "aliencode",
        "world": t[0],
        "world_hash": t[1],
        "manual_hash": "m",
        "bank_hash": "b",
        "condition": "autonomous",
        "seed": 0,
        "agent": {"name": t[2], "model": t[3], t[4]: t[5]},
        "floor": 10.0,
        "protocol": {"passes": 1, "milestones": ["0", "1"], t[6]: [t[7]]},
        "tasks": [{"id": t[8], "kind": t[9], "band": t[10], "family": "f", "rules": [t[0]]}],
        "rules": [t[0]],
    }
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": t[1], "arguments": json.dumps({"code": t[2]})},
    }
    events = [
        header,
        {
            "type": "message",
            "key": "msg/0",
            "index": 0,
            "message": {"role": "system", "content": t[3]},
        },
        {
            "type": "rule_report",
            "key": "rules/M0",
            "milestone": 0,
            "report": {t[0]: t[4]},
            "correct": {t[0]: True},
            "score": 1,
            "of": 1,
        },
        {
            "type": "reply",
            "key": "reply/M0/rules",
            "message": {"role": "assistant", "content": t[5]},
        },
        {
            "type": "answer",
            "key": f"answer/M0/{t[8]}/1",
            "milestone": 0,
            "task": t[8],
            "pass": 1,
            "answer": t[6],
            "passed": False,
            "detail": t[7],
        },
        {
            "type": "reply",
            "key": f"reply/M0/{t[8]}/1",
            "message": {"role": "assistant", "content": t[9]},
        },
        {
            "type": "milestone",
            "key": "milestone/M0",
            "milestone": 0,
            "budget": {"calls": 0, "units": 0, "tokens": 0},
        },
        {
            "type": "message",
            "key": "msg/1",
            "index": 1,
            "message": {"role": t[10], "content": t[0]},
        },
        {
            "type": "message",
            "key": "msg/2",
            "index": 2,
            "message": {
                "role": "assistant",
                "content": t[1],
                "reasoning": t[2],
                "tool_calls": [call],
            },
        },
        {
            "type": "tool",
            "key": "tool/r1/1",
            "round": 1,
            "n": 1,
            "turn": "r1/turn1",
            "call_id": "c1",
            "name": t[1],
            "arguments": call["function"]["arguments"],
            "status": t[3],
            "units": 1,
            "counted": True,
            "feedback": t[4],
            "output_chars": 10_000,
            "output_lines": 3,
        },
        {
            "type": "message",
            "key": "msg/3",
            "index": 3,
            "message": {"role": "tool", "tool_call_id": "c1", "content": t[4]},
        },
    ]
    (directory / TRACE_NAME).write_text(
        "".join(json.dumps(e) + "\n" for e in events), encoding="utf-8"
    )


def test_an_unfinished_trace_and_other_conditions_render(demo_env, tmp_path):
    for condition in ("direct", "without-tool", "open-book-m4"):
        Episode(
            demo_env,
            make_agent("naive", demo_env),
            tmp_path / condition,
            Settings(condition=condition),
        ).run()
        doc = assert_inert(replay_html(tmp_path / condition))
        ids = [a.get("id") for t, a in doc.tags if t == "section"]
        assert ids[:3] == ["overview", "setup", "m0"]
        if condition == "open-book-m4":
            assert ids[-1] == "m4+O"
    trace = tmp_path / "direct" / TRACE_NAME
    lines = trace.read_text().splitlines(keepends=True)
    trace.write_text("".join(lines[: len(lines) // 2]))  # stopped mid-milestone
    doc = Elements(replay_html(tmp_path / "direct"))
    assert [a.get("id") for t, a in doc.tags if t == "section"] == ["overview", "setup"]


def test_pages_are_rewritten_only_when_the_trace_changed(demo_env, tmp_path):
    run = tmp_path / "run"
    Episode(demo_env, make_agent("naive", demo_env), run, Settings(condition="direct")).run()
    write_summary(tmp_path, [run])
    page = run / REPLAY_NAME
    assert is_fresh(run)
    stamp = page.stat().st_mtime_ns
    write_summary(tmp_path, [run])
    assert page.stat().st_mtime_ns == stamp
    with (run / TRACE_NAME).open("a") as trace:
        trace.write("\n")  # the trace grew after the page was written
    assert not is_fresh(run)
    write_summary(tmp_path, [run])
    assert is_fresh(run) and page.stat().st_mtime_ns != stamp
    os.utime(run / TRACE_NAME, ns=(stamp, stamp))  # the same size, touched
    assert not is_fresh(run)
    write_summary(tmp_path, [run])
    page.write_text(page.read_text().replace("alienworlds replay", "older replay"))
    assert not is_fresh(run)  # written by another version
    write_summary(tmp_path, [run])
    assert is_fresh(run)
    index = assert_inert((tmp_path / "index.html").read_text())
    links = [a["href"] for t, a in index.tags if t == "a"]
    assert "run/replay.html" in links
    for link in links:
        assert (tmp_path / link).exists(), link
