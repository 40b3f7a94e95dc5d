"""The study server's parts on their own: the rate limiter (fake clock),
tokens, the data directory, the mailbox, and the page's answer wrapping
(read back by the episode's own answer readers)."""

import asyncio
import json
import threading

import pytest
from alienworlds.episode.agent import Reply
from alienworlds.serve import tokens
from alienworlds.serve.limits import Limiter, Rate
from alienworlds.serve.mailbox import Mailbox, Stale, Stopped
from alienworlds.serve.store import Store, StoreError
from alienworlds.serve.view import REFUSAL, reply_content
from alienworlds.tasks import aliencode_reader, alienlogic_reader
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@settings(max_examples=examples(200), deadline=None)
@given(
    rate=st.floats(0.0, 50.0),
    burst=st.integers(1, 40),
    gaps=st.lists(st.floats(0.0, 2.0), min_size=1, max_size=300),
)
def test_a_bucket_never_lets_more_through_than_its_burst_and_refill(rate, burst, gaps):
    clock = Clock()
    limiter = Limiter(Rate(rate, burst), clock)
    allowed = []
    for gap in gaps:
        clock.now += gap
        wait = limiter.take("k")
        if wait == 0.0:
            allowed.append(clock.now)
        else:
            assert wait > 0
    # in every window [a, b] of request times, at most burst + rate * (b - a) were allowed
    for i, start in enumerate(allowed):
        for j in range(i, len(allowed)):
            assert j - i + 1 <= burst + rate * (allowed[j] - start) + 1e-6


@settings(max_examples=examples(100), deadline=None)
@given(rate=st.floats(0.01, 50.0), burst=st.integers(1, 10), spent=st.integers(1, 30))
def test_waiting_the_time_a_refusal_names_is_enough(rate, burst, spent):
    clock = Clock()
    limiter = Limiter(Rate(rate, burst), clock)
    for _ in range(burst + spent):
        wait = limiter.take("k")
    assert wait > 0
    clock.now += wait * (1 + 1e-9) + 1e-9
    assert limiter.take("k") == 0.0


def test_a_flood_of_new_keys_cannot_grow_the_table(tally):
    clock = Clock()
    limiter = Limiter(Rate(1.0, 3), clock, max_keys=100)
    for n in range(5000):
        clock.now += 0.001
        limiter.take(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
        tally.check("request flood", len(limiter) <= 100, f"{len(limiter)} keys")


def test_tokens_are_random_urlsafe_and_long_enough():
    made = {tokens.new_token() for _ in range(2000)}
    assert len(made) == 2000
    assert all(tokens.well_formed(t) for t in made)
    assert tokens.TOKEN_BYTES * 8 >= 128
    assert len({tokens.digest(t) for t in made}) == 2000


def test_the_data_directory_keeps_digests_never_tokens(tmp_path):
    store = Store(tmp_path / "data", create=True)
    study, researcher, links = store.create("aliencode", "demo", None, "autonomous", 3, 0, 30, "x")
    written = "".join(p.read_text() for p in (tmp_path / "data").rglob("*.json"))
    for token in [researcher, *(t for _, t in links)]:
        assert token not in written
        assert store.grant(token) is not None
    assert store.grant(researcher).role == "researcher"
    assert {store.grant(t).participant for _, t in links} == set(study.participants)
    with pytest.raises(StoreError, match="already exists"):
        store.create("aliencode", "demo", None, "autonomous", 3, 0, 1, "x")
    for count in (0, -1, 1001):
        with pytest.raises(StoreError, match="participants"):
            store.create("aliencode", "demo", None, "autonomous", 3, 0, count, "y")


def test_a_study_created_while_the_server_runs_is_seen(tmp_path):
    running = Store(tmp_path / "data", create=True)
    _, researcher, _ = Store(tmp_path / "data").create(
        "aliencode", "demo", None, "autonomous", 3, 0, 1, "late"
    )
    assert running.grant(researcher).study == "late"


def _mailbox():
    loop = asyncio.new_event_loop()
    return loop, Mailbox(loop, {"phase": "starting"})


def test_the_mailbox_takes_one_reply_for_the_request_that_waits():
    loop, box = _mailbox()
    got = []
    worker = threading.Thread(target=lambda: got.append(box.ask("r1/turn1", {"phase": "explore"})))
    worker.start()
    while box.posted.key is None:
        pass
    with pytest.raises(Stale):
        box.deliver("r1/turn2", Reply({"role": "assistant", "content": "x"}))
    version = box.deliver("r1/turn1", Reply({"role": "assistant", "content": "y"}))
    with pytest.raises(Stale):  # a second reply to the same request
        box.deliver("r1/turn1", Reply({"role": "assistant", "content": "z"}))
    worker.join(5)
    assert got[0].message["content"] == "y" and box.version == version
    assert box.posted.view["phase"] == "working"
    loop.close()


def test_a_stopping_server_releases_the_waiting_driver():
    loop, box = _mailbox()
    errors = []

    def ask():
        try:
            box.ask("M0/rules", {"phase": "rules"})
        except Stopped as exc:
            errors.append(exc)

    worker = threading.Thread(target=ask)
    worker.start()
    while box.posted.key is None:
        pass
    box.stop()
    worker.join(5)
    assert len(errors) == 1
    loop.close()


LINE = st.text(
    st.characters(
        blacklist_characters="`~\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
        blacklist_categories=("Cs",),
    ),
    min_size=1,
    max_size=30,
).filter(lambda s: s.strip())


@settings(max_examples=examples(150), deadline=None)
@given(lines=st.lists(LINE, min_size=1, max_size=6))
def test_a_typed_output_reaches_the_grader_as_typed(demo_env, lines):
    text = "\n".join(lines)
    prediction = next(t for t in demo_env.bank.tasks if t.kind == "prediction")
    reply = reply_content("answer", "output", text)
    assert aliencode_reader.read_answer(prediction, reply, demo_env.world.keywords).answer == text


@settings(max_examples=examples(150), deadline=None)
@given(lines=st.lists(LINE, min_size=1, max_size=6))
def test_a_typed_program_reaches_the_grader_as_typed(demo_env, lines):
    text = "\n".join(lines)
    synthesis = next(t for t in demo_env.bank.tasks if t.kind == "synthesis")
    reply = reply_content("answer", "program", text)
    assert aliencode_reader.read_answer(synthesis, reply, demo_env.world.keywords).answer == text


def test_a_typed_proof_and_a_refusal_reach_the_grader(logic_env):
    for task in logic_env.bank.tasks:
        proof = task.reference.strip()
        if proof:
            reading = alienlogic_reader.read_answer(reply_content("answer", "proof", proof))
            assert reading.answer.strip() == proof
    refusal = reply_content("answer", "proof", "ignored", refuse=True)
    assert refusal == REFUSAL
    assert alienlogic_reader.read_answer(refusal).refused
    assert json.dumps(reply_content("rules", None, "D1: (+ n 1)")) == '"D1: (+ n 1)"'
