"""`aliencode play` and `alienlogic play` as a person runs them: a real
process, its standard input scripted."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from alienworlds.episode.environment_loader import make_environment
from alienworlds.episode.trace import comparable, read_trace

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
LOGIC_BANK = ROOT / "tests" / "episode" / "data" / "alienlogic_demo.toml"
PROBE = "EMIT(PLUCK(STRAND(7, 8, 9), 0))"


def command(language, out, *extra):
    return [
        sys.executable,
        "-m",
        f"alienworlds.cli.{language}",
        "play",
        "--player",
        "tester",
        "--out",
        str(out),
        "--no-exploration",
        *extra,
    ]


def play(language, out, stdin, *extra, timeout=180):
    return subprocess.run(
        command(language, out, *extra),
        input=stdin,
        capture_output=True,
        text=True,
        env=ENV,
        cwd=ROOT,
        timeout=timeout,
    )


def events(out):
    return [comparable(e) for e in read_trace(out / "trace.jsonl")]


@pytest.fixture(scope="module")
def demo():
    return make_environment("aliencode", "demo")


def block(text):
    assert "\n.\n" not in f"\n{text}\n"  # a lone dot would end the text early
    return f"{text}\n.\n"


def typed_milestone(env):
    """Stdin for one milestone: the rule report, then every task, typed."""
    rules = env.format_rule_report(env.true_rule_report())
    return block(rules) + "".join(block(env.reference_reply(t.id)) for t in env.tasks())


def answers_dir(env, folder):
    folder.mkdir()
    for task in env.tasks():
        (folder / f"{task.id}.txt").write_text(env.reference_reply(task.id), encoding="utf-8")
    if env.has_rule_report:
        (folder / "rules.txt").write_text(env.format_rule_report(env.true_rule_report()))
    return folder


def test_a_person_plays_the_demo_world_typing_everything(demo, tmp_path):
    milestone = typed_milestone(demo)
    stdin = (
        milestone
        + block(PROBE)
        + ":end\n"
        + milestone
        + ":end\n"
        + milestone
        + block("EMIT(SHATTER(2, 3))")
        + ":end\n"
        + milestone
        + ":end\n"
        + milestone
    )
    done = play("aliencode", tmp_path / "run", stdin, "--world", "demo")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert report["agent"] == {"name": "human:tester"} and report["complete"]
    assert [m["accuracy"] for m in report["milestones"]] == [100.0] * 5
    tools = [e for e in events(tmp_path / "run") if e["type"] == "tool"]
    assert [json.loads(e["arguments"])["code"] for e in tools] == [PROBE, "EMIT(SHATTER(2, 3))"]
    assert "[result]\n9" in done.stdout  # what the world printed, shown to the person
    assert "=== BRIEFING ===" in done.stdout and "done. Accuracy" in done.stdout
    assert "human:tester" in (tmp_path / "run" / "report.md").read_text()


def test_answers_come_from_files_the_milestone_folder_first(demo, tmp_path):
    folder = answers_dir(demo, tmp_path / "answers")
    (folder / "M0").mkdir()
    (folder / "M0" / "T2.txt").write_text(demo.naive_reply("T2"))
    done = play(
        "aliencode",
        tmp_path / "run",
        block(PROBE) + ":end\n" * 4,
        "--world",
        "demo",
        "--answers-dir",
        str(folder),
    )
    assert done.returncode == 0, done.stderr
    trace = {e["key"]: e for e in events(tmp_path / "run")}
    assert trace["reply/M0/T2/1"]["message"]["content"] == demo.naive_reply("T2")
    assert trace["reply/M1/T2/1"]["message"]["content"] == demo.reference_reply("T2")
    assert trace["answer/M0/T2/3"]["passed"] is False and trace["answer/M1/T2/3"]["passed"]
    assert f"[answered from {folder / 'M0' / 'T2.txt'}]" in done.stdout


def test_the_editor_and_a_file_give_a_probe(demo, tmp_path):
    folder = answers_dir(demo, tmp_path / "answers")
    (tmp_path / "edited.txt").write_text("EMIT(11)\n")
    (tmp_path / "loaded.txt").write_text("EMIT(12)\n")
    stdin = f":edit\n:load {tmp_path / 'loaded.txt'}\n:end\n" + ":end\n" * 3
    done = subprocess.run(
        command("aliencode", tmp_path / "run", "--world", "demo", "--answers-dir", str(folder)),
        input=stdin,
        capture_output=True,
        text=True,
        env={**ENV, "EDITOR": f"cp {tmp_path / 'edited.txt'}", "VISUAL": ""},
        cwd=ROOT,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    tools = [e for e in events(tmp_path / "run") if e["type"] == "tool"]
    assert [json.loads(e["arguments"])["code"] for e in tools] == ["EMIT(11)", "EMIT(12)"]


def test_alienlogic_play_runs_the_same_protocol(tmp_path):
    env = make_environment("alienlogic", "demo", LOGIC_BANK)
    folder = answers_dir(env, tmp_path / "answers")
    proof = "1. P -> P  premise"
    done = play(
        "alienlogic",
        tmp_path / "run",
        block(proof) + ":end\n" * 4,
        "--world",
        "demo",
        "--bank",
        str(LOGIC_BANK),
        "--answers-dir",
        str(folder),
    )
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert report["complete"] and report["agent"] == {"name": "human:tester"}
    assert report["milestones"][-1]["budget"]["calls"] == 1
    assert "[result]" in done.stdout


def wait_for(predicate, proc, seconds=60):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def probes_recorded(out):
    path = out / "trace.jsonl"
    if not path.exists():
        return 0
    return sum(e["type"] == "tool" for e in read_trace(path))


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_an_interrupted_session_resumes_with_nothing_lost(demo, tmp_path, how):
    """Kill (or Ctrl-C) the player while it waits for the second probe;
    `--resume` shows the session so far and play goes on."""
    folder = answers_dir(demo, tmp_path / "answers")
    out = tmp_path / "run"
    args = ("--world", "demo", "--answers-dir", str(folder))
    proc = subprocess.Popen(
        command("aliencode", out, *args),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        cwd=ROOT,
    )
    proc.stdin.write(block(PROBE))
    proc.stdin.flush()
    wait_for(lambda: probes_recorded(out) == 1, proc)
    time.sleep(0.3)  # it now waits for the next probe
    started = time.monotonic()
    proc.send_signal(how)
    proc.wait(timeout=30)
    if how == signal.SIGINT:  # a clean stop even while waiting for a line
        assert proc.returncode == 128 + signal.SIGINT
        assert time.monotonic() - started < 5
        assert "--resume" in proc.stderr.read()
    else:
        assert proc.returncode == -signal.SIGKILL
    proc.stdin.close()
    proc.stderr.close()
    before = events(out)
    assert before[-1]["type"] == "request" and before[-1]["key"] == "request/r1/turn2"
    done = play("aliencode", out, block("EMIT(5)") + ":end\n" * 4, *args, "--resume")
    assert done.returncode == 0, done.stderr
    after = events(out)
    assert after[: len(before)] == before  # nothing recorded is lost or rewritten
    codes = [json.loads(e["arguments"])["code"] for e in after if e["type"] == "tool"]
    assert codes == [PROBE, "EMIT(5)"]
    assert after[-1]["type"] == "end"
    assert f"[probe]\n{PROBE}" in done.stdout  # the resumed person sees what they did


def test_input_ending_early_stops_with_one_line_and_resumes(demo, tmp_path):
    folder = answers_dir(demo, tmp_path / "answers")
    args = ("--world", "demo", "--answers-dir", str(folder))
    stopped = play("aliencode", tmp_path / "run", block(PROBE), *args)
    assert stopped.returncode == 1
    assert "Traceback" not in stopped.stderr and "--resume" in stopped.stderr
    done = play("aliencode", tmp_path / "run", ":end\n" * 4, *args, "--resume")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "extra, message",
    [
        (("--player", "../escape"), "player id"),
        (("--world", "no-such-world"), "no-such-world"),
        (("--condition", "hindsight"), "--probes-from"),
    ],
)
def test_bad_input_is_one_line_and_status_two(tmp_path, extra, message):
    done = play("aliencode", tmp_path / "run", "", *extra)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_an_existing_trace_needs_resume(demo, tmp_path):
    folder = answers_dir(demo, tmp_path / "answers")
    args = ("--world", "demo", "--answers-dir", str(folder))
    assert play("aliencode", tmp_path / "run", ":end\n" * 4, *args).returncode == 0
    again = play("aliencode", tmp_path / "run", ":end\n" * 4, *args)
    assert again.returncode == 2 and "--resume" in again.stderr


def test_play_starts_only_after_consent_and_records_it(demo, tmp_path):
    folder = answers_dir(demo, tmp_path / "answers")
    consent = tmp_path / "consent.txt"
    consent.write_text("This study records your probes and answers under a pseudonym.\n")
    args = ("--world", "demo", "--answers-dir", str(folder), "--consent", str(consent))
    refused = play("aliencode", tmp_path / "no", "no\n", *args)
    assert refused.returncode == 1 and "no consent" in refused.stderr
    assert not (tmp_path / "no" / "trace.jsonl").exists()
    assert "records your probes" in refused.stdout
    given = play("aliencode", tmp_path / "yes", "yes\n" + block(PROBE) + ":end\n" * 4, *args)
    assert given.returncode == 0, given.stderr
    record = json.loads((tmp_path / "yes" / "consent.json").read_text())
    assert record["player"] == "tester" and record["answer"] == "yes"
    tools = [e for e in events(tmp_path / "yes") if e["type"] == "tool"]
    assert [json.loads(e["arguments"])["code"] for e in tools] == [PROBE]


def test_a_person_at_a_real_terminal_stops_with_ctrl_c_and_resumes(demo, tmp_path):
    """A pseudo-terminal: line editing by the terminal, Ctrl-C from the keyboard."""
    pexpect = pytest.importorskip("pexpect")
    folder = answers_dir(demo, tmp_path / "answers")
    out = tmp_path / "run"
    argv = command("aliencode", out, "--world", "demo", "--answers-dir", str(folder))

    def spawn(*extra):
        return pexpect.spawn(
            argv[0],
            argv[1:] + list(extra),
            env={**ENV, "TERM": "dumb"},
            cwd=str(ROOT),
            encoding="utf-8",
            timeout=120,
            dimensions=(40, 120),
        )

    child = spawn()
    try:
        child.expect_exact("probe 1 of 12")
        child.sendline("EMIT(PLUCK(STRAND(7, 8, 9), 1))")
        child.sendline(".")
        child.expect_exact("[result]")
        child.expect_exact("probe 2 of 12")
        child.sendintr()
        child.expect_exact("continue with --resume")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 128 + signal.SIGINT
    child = spawn("--resume")
    try:
        child.expect_exact("[probe]\r\nEMIT(PLUCK(STRAND(7, 8, 9), 1))")
        child.expect_exact("probe 2 of 12")
        for _ in range(4):
            child.sendline(":end")
        child.expect_exact("done. Accuracy")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    codes = [json.loads(e["arguments"])["code"] for e in events(out) if e["type"] == "tool"]
    assert codes == ["EMIT(PLUCK(STRAND(7, 8, 9), 1))"]
