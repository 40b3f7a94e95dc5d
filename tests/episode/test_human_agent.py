"""The human agent: a Player's actions become agent replies under the
unchanged driver (scripted players stand for the person)."""

import json
import string

import pytest
from alienworlds.episode import Episode, Settings
from alienworlds.episode.agent import AgentError
from alienworlds.episode.human_agent import (
    END_OF_ROUND,
    HumanAgent,
    Player,
    PlayerIdError,
    check_player_id,
    earlier_answers,
    is_human,
)
from episode_testing import events_of
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

ID_CHARS = string.ascii_letters + string.digits + "_.-"


class ScriptedPlayer(Player):
    """Plays from a list of probes per round and the answer key; records
    every turn it was asked."""

    def __init__(self, env, probes):
        self.env, self.probes, self.turns, self.stopped = env, probes, [], False

    def probe(self, turn):
        self.turns.append(turn)
        batch = self.probes.get(turn.round, [])
        return batch[turn.probes_made] if turn.probes_made < len(batch) else None

    def note(self, turn):
        self.turns.append(turn)
        return f"notes of round {turn.round}"

    def rule_report(self, turn):
        self.turns.append(turn)
        return self.env.format_rule_report(self.env.true_rule_report())

    def answer(self, turn):
        self.turns.append(turn)
        return self.env.reference_reply(turn.task)

    def stop(self):
        self.stopped = True


def play(env, out, probes, condition="autonomous", player_id="p1", resume=False):
    player = ScriptedPlayer(env, probes)
    agent = HumanAgent(env, player, player_id, earlier_answers(out / "trace.jsonl"))
    report = Episode(
        env, agent, out, Settings(condition=condition, exploration=False), resume=resume
    ).run()
    return player, report


PROBES = {1: ["EMIT(PLUCK(STRAND(7, 8, 9), 0))", "EMIT(SHATTER(2, 3))"], 3: ["EMIT(1)"]}


def test_a_scripted_person_plays_the_demo_world_under_the_protocol(demo_env, tmp_path):
    player, report = play(demo_env, tmp_path, PROBES)
    events = events_of(tmp_path)
    assert events[0]["agent"] == {"name": "human:p1"} and is_human(events[0]["agent"])
    tools = [e for e in events if e["type"] == "tool"]
    assert [json.loads(e["arguments"])["code"] for e in tools] == [
        *PROBES[1],
        *PROBES[3],
    ]
    assert [e["round"] for e in tools] == [1, 1, 3]
    assert all(e["counted"] and e["status"] == "ran" for e in tools)
    assert report["complete"] and report["endpoint"] == 100.0
    assert report["milestones"][-1]["budget"]["calls"] == 3
    # every round ends with the person's "no further probe", recorded as the agent's reply
    ends = [
        e for e in events if e["type"] == "reply" and e["message"].get("content") == END_OF_ROUND
    ]
    assert len(ends) == 4


def test_a_task_is_asked_once_per_milestone_and_answers_every_pass(demo_env, tmp_path):
    player, report = play(demo_env, tmp_path, {})
    asked = [(t.milestone, t.task) for t in player.turns if t.purpose == "answer"]
    milestones = len(report["milestones"])
    assert len(asked) == len(set(asked)) == milestones * len(demo_env.tasks())
    answers = [e for e in events_of(tmp_path) if e["type"] == "answer"]
    assert len(answers) == milestones * len(demo_env.tasks()) * 3
    assert all(m["sigma"] == 0.0 for m in report["milestones"])


def test_each_conversation_message_is_shown_once_and_none_is_missed(demo_env, tmp_path):
    player, _ = play(demo_env, tmp_path, PROBES)
    shown = [m for t in player.turns for m in t.unseen]
    conversation = [e["message"] for e in events_of(tmp_path) if e["type"] == "message"]
    # everything but the person's own replies, in order, each once
    assert shown == [m for m in conversation if m["role"] != "assistant"]
    # a milestone's question comes as the turn's prompt, not as conversation
    answers = [t for t in player.turns if t.purpose == "answer"]
    assert answers and all(t.prompt == demo_env.task_prompt(t.task) for t in answers)
    reports = [t for t in player.turns if t.purpose == "rules"]
    assert reports and all(t.prompt == demo_env.rule_report_prompt() for t in reports)


def test_the_open_book_milestone_shows_the_disclosed_rules(demo_env, tmp_path):
    player, report = play(demo_env, tmp_path, {}, condition="open-book-m4")
    late = [t for t in player.turns if t.milestone == "4+O"]
    early = [t for t in player.turns if t.milestone == 4]
    assert late and all(demo_env.disclosure() in t.prompt for t in late)
    assert early and not any(demo_env.disclosure() in t.prompt for t in early)
    assert report["open_book"]["accuracy"] == 100.0


def test_the_budget_shown_to_the_person_counts_down(demo_env, tmp_path):
    probes = {1: [f"EMIT({i})" for i in range(demo_env.calls_per_round + 3)]}
    player, report = play(demo_env, tmp_path, probes)
    round_one = [t for t in player.turns if t.purpose == "explore" and t.round == 1]
    assert [t.probes_made for t in round_one] == list(range(demo_env.calls_per_round))
    assert {t.probes_allowed for t in round_one} == {demo_env.calls_per_round}
    assert report["milestones"][1]["budget"]["calls"] == demo_env.calls_per_round


def test_a_round_without_a_tool_asks_for_notes(demo_env, tmp_path):
    player, report = play(demo_env, tmp_path, {}, condition="without-tool")
    notes = [t for t in player.turns if t.purpose == "reflect"]
    assert [t.round for t in notes] == [1, 2, 3, 4]
    replies = [e for e in events_of(tmp_path) if e["type"] == "reply" and "/turn1" in e["key"]]
    assert [r["message"]["content"] for r in replies] == [
        f"notes of round {r}" for r in (1, 2, 3, 4)
    ]


class StopAfter(ScriptedPlayer):
    """Stands for a person whose session ends (a kill) after `limit` turns."""

    def __init__(self, env, probes, limit):
        super().__init__(env, probes)
        self.limit = limit

    def _count(self):
        if len(self.turns) >= self.limit:
            raise AgentError("the person left")

    def probe(self, turn):
        self._count()
        return super().probe(turn)

    def answer(self, turn):
        self._count()
        return super().answer(turn)

    def rule_report(self, turn):
        self._count()
        return super().rule_report(turn)


@pytest.mark.parametrize("limit", [3, 9, 25])
def test_an_interrupted_session_resumes_without_asking_again(demo_env, tmp_path, limit):
    player = StopAfter(demo_env, PROBES, limit)
    with pytest.raises(AgentError):
        Episode(
            demo_env, HumanAgent(demo_env, player, "p1"), tmp_path, Settings(exploration=False)
        ).run()
    before = events_of(tmp_path)
    asked_before = {t.key for t in player.turns}
    again, report = play(demo_env, tmp_path, PROBES, resume=True)
    after = events_of(tmp_path)
    assert after[: len(before)] == before  # nothing recorded is lost or rewritten
    assert report["complete"]
    answered_before = {k for k in asked_before if k.count("/") == 2}
    asked_again = {t.key for t in again.turns}
    # an answer given before the stop is never asked again, for any pass
    assert not {(k.rsplit("/", 1)[0]) for k in answered_before} & {
        k.rsplit("/", 1)[0] for k in asked_again if k.count("/") == 2
    }
    # the resumed person is first shown the conversation so far
    assert again.turns[0].unseen[0]["role"] == "system"


def test_a_resume_by_another_player_is_refused(demo_env, tmp_path):
    play(demo_env, tmp_path, {})
    with pytest.raises(Exception, match="different agent"):
        play(demo_env, tmp_path, {}, player_id="someone-else", resume=True)


def test_the_human_agent_needs_a_person(demo_env):
    with pytest.raises(AgentError, match="play"):
        HumanAgent.from_options(demo_env, 0, {})


@given(st.text(alphabet=ID_CHARS, min_size=1, max_size=40))
def test_ids_of_allowed_characters_are_accepted(player_id):
    if player_id[0] in "_.-":
        with pytest.raises(PlayerIdError):
            check_player_id(player_id)
    else:
        assert check_player_id(player_id) == player_id


@settings(max_examples=examples(200))
@given(
    st.one_of(
        st.text(alphabet=ID_CHARS, min_size=41, max_size=200),
        st.text(min_size=1, max_size=40).filter(lambda s: any(c not in ID_CHARS for c in s)),
        st.just(""),
        st.sampled_from(["../x", "a/b", "a b", "a\n", "a\x00", "é"]),
    )
)
def test_ids_that_could_escape_a_folder_or_a_report_are_refused(player_id):
    with pytest.raises(PlayerIdError):
        check_player_id(player_id)
