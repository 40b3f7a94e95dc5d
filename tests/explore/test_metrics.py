import copy
import json
import math

from alienworlds.cli.aliencode import main
from alienworlds.episode import exploration
from alienworlds.episode.replay_html import replay_html
from alienworlds.episode.trace import read_trace
from alienworlds.explore.aliencode.metrics import exploration as score
from click.testing import CliRunner

KEYS = {"engine", "probes", "redundant_rate", "coverage", "true_mass", "errors"}
PROBE_KEYS = {"round", "call", "before", "after", "bits", "redundant", "targets"}


def test_the_section_follows_the_agreed_schema_and_its_measures_add_up(fixed_probe_trace):
    out, report = fixed_probe_trace
    section = report["exploration"]
    assert KEYS <= set(section)
    probes = section["probes"]
    assert len(probes) == 48 and all(PROBE_KEYS <= set(p) for p in probes)
    assert [(p["round"], p["call"]) for p in probes] == [
        (r, n) for r in range(1, 5) for n in range(1, 13)
    ]
    for p, q in zip(probes, probes[1:]):
        assert q["before"] == p["after"]  # each probe starts where the previous one left the mass
    for p in probes:
        assert p["bits"] >= 0 and p["after"] <= p["before"]
        if p["after"] > 0:
            assert math.isclose(p["bits"], math.log2(p["before"] / p["after"]), abs_tol=1e-5)
        if p["redundant"]:
            assert p["bits"] == 0 and p["eliminated"] == 0
    ran = [p for p in probes if p["status"] == "ran"]
    assert section["redundant_rate"] == round(sum(p["redundant"] for p in ran) / len(ran), 4)
    assert [c["round"] for c in section["coverage"]] == [1, 2, 3, 4]
    covered = [c["covered"] for c in section["coverage"]]
    assert covered == sorted(covered) and all(c["of"] == 5 for c in section["coverage"])
    reached = set()
    for p in probes:
        reached.update(p["targets"])
        assert set(p["targets"]) <= {"D1", "D2", "D3", "D4", "D5"}
    assert covered[-1] == len(reached)
    mass = section["true_mass"]
    assert list(mass) == ["M0", "M1", "M2", "M3", "M4"] and all(0 <= v <= 1 for v in mass.values())
    assert mass["M4"] > mass["M0"]  # 48 probes teach the engine something true
    errors = section["errors"]
    assert 0 <= errors["exploration"] <= errors["exploration_required"] <= 48
    assert 0 <= errors["exploitation"] <= errors["exploitation_required"]


def test_the_section_needs_only_the_trace(fixed_probe_trace):
    out, report = fixed_probe_trace
    events = read_trace(out)
    alone = score(events)  # a shipped world with the recorded hash: found by name for the true mass
    assert alone == report["exploration"]
    stranger = copy.deepcopy(events)
    stranger[0]["world"] = "no-such-world"
    blind = score(stranger)
    assert blind["true_mass"] == {}  # the only measure that needs the world
    assert {k: v for k, v in blind.items() if k != "true_mass"} == {
        k: v for k, v in alone.items() if k != "true_mass"
    }


def _tools(events):
    return [e for e in events if e.get("type") == "tool"]


def test_a_repeated_probe_is_redundant_and_an_exploration_error(fixed_probe_trace):
    out, _ = fixed_probe_trace
    events = read_trace(out)
    base = score(events)
    first = _tools(events)[0]
    twice = []
    for e in events:
        if e.get("type") == "tool" and e["round"] == 1:
            e = dict(e, n=e["n"] + 1) if e is not first else e
        twice.append(e)
        if e is first:
            twice.append(dict(first, key="tool/r1/dup", n=2))
    section = score(twice)
    dup = section["probes"][1]
    assert (dup["round"], dup["call"]) == (1, 2)
    assert (
        dup["redundant"] is True
        and dup["bits"] == 0
        and dup["targets"] == section["probes"][0]["targets"]
    )
    assert section["errors"]["exploration"] == base["errors"]["exploration"] + 1
    assert section["errors"]["exploration_required"] == base["errors"]["exploration_required"] + 1


def test_a_probe_that_ran_nothing_gives_no_bits(fixed_probe_trace):
    out, _ = fixed_probe_trace
    events = read_trace(out)
    first = _tools(events)[0]
    rejected = [
        dict(e, status="rejected", feedback="[rejected] over the cap") if e is first else e
        for e in events
    ]
    section = score(rejected)
    row = section["probes"][0]
    assert row["bits"] == 0 and row["targets"] == [] and row["before"] == row["after"]
    assert section["errors"]["exploration"] >= 1


def test_a_wrong_report_of_a_resolved_rule_is_an_exploitation_error(fixed_probe_trace):
    out, _ = fixed_probe_trace
    events = read_trace(out)
    base = score(events)
    believed = base["believed"]["M4"]
    # state every rule at M4 as the engine's resolved belief, then one of them wrongly
    right = [
        dict(e, report=dict(believed))
        if e.get("type") == "rule_report" and e["milestone"] == 4
        else e
        for e in events
    ]
    good = score(right)

    def misreport(rid):
        return score(
            [
                dict(e, report=dict(believed, **{rid: "UNKNOWN"}))
                if e.get("type") == "rule_report" and e["milestone"] == 4
                else e
                for e in right
            ]
        )["errors"]

    # the fixed probes resolve D1 on the demo world (one survivor) but leave D2 open (several
    # behaviours)
    assert misreport("D1") == dict(good["errors"], exploitation=good["errors"]["exploitation"] + 1)
    assert (
        misreport("D2") == good["errors"]
    )  # not knowing an unresolved rule is not an exploitation error


def test_report_command_and_replay_show_the_section(fixed_probe_trace, tmp_path):
    out, report = fixed_probe_trace
    runner = CliRunner()
    result = runner.invoke(main, ["report", str(out), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    written = json.loads((out / "report.json").read_text())
    assert written["exploration"] == report["exploration"]
    assert "## Exploration" in (tmp_path / "report.md").read_text()
    page = replay_html(out)
    probe = report["exploration"]["probes"][0]
    assert f"{probe['bits']:.2f} bits" in page and page.count("class='muted exploration'") == 48
    assert exploration.current(read_trace(out), out) == report["exploration"]


def _hostile_loop(rng):
    """A probe within the unit cap (one EMIT) whose loops call rule sites
    tens of thousands of times: cheap to send, costly to simulate under
    every candidate world."""
    n = rng.randrange(25, 45)
    body = rng.choice(
        ["SET t AS OVER(a, b)", "SET t AS PLUCK(STRAND(a, b, 1), 0)", "SET t AS OVER(1, 2)"]
    )
    items = ", ".join(str(rng.randrange(-50, 50)) for _ in range(n))
    return (
        f"SET xs AS STRAND({items})\nSET t AS 0\nSWEEP a IN xs:\n    SWEEP b IN xs:\n"
        f"        SWEEP c IN xs:\n            {body}\nEMIT(t)"
    )


def test_hostile_loops_are_set_aside_within_a_fixed_budget(fixed_probe_trace, demo_env):
    import random

    out, _ = fixed_probe_trace
    events = read_trace(out)
    rng = random.Random(17)
    tools = _tools(events)
    hostile = {id(e) for e in rng.sample(tools, 6)}
    swapped = []
    for e in events:
        if id(e) in hostile:
            code = _hostile_loop(rng)
            outcome = demo_env.run_tool({"code": code})
            assert outcome.status == "ran"  # within the unit cap
            e = dict(e, arguments=json.dumps({"code": code}), feedback=outcome.feedback)
        swapped.append(e)
    section = score(swapped)
    rows = [
        p
        for p, e in zip(section["probes"], sorted(tools, key=lambda e: (e["round"], e["n"])))
        if id(e) in hostile
    ]
    assert len(rows) == 6 and all(p["explained"] == "costly" and p["bits"] == 0 for p in rows)
    assert section["costly"] == 6
    assert section["engine"]["bounds"]["steps_per_run"] == 100_000


def test_a_replay_scores_as_its_original(fixed_probe_trace, demo_env, tmp_path):
    from alienworlds.episode import Episode, Settings, make_agent

    out, report = fixed_probe_trace
    replayed = Episode(
        demo_env, make_agent("replay", demo_env, source=str(out)), tmp_path, Settings()
    ).run()
    assert replayed["exploration"] == report["exploration"]
