"""The episode loop (docs/episodes.md): manual and worked examples, milestone M0,
rounds of exploration each followed by a milestone.

The driver owns the main conversation, the budgets and the trace. At a
milestone it builds tool-disabled copies of the conversation (the rule
report; every held-out task answered PASSES times, each in a fresh copy) and
discards them. Every step is keyed: on `--resume` the driver runs the
protocol again from the start and takes whatever the trace already records
(replies, tool results, verdicts) instead of redoing it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path

from . import exploration
from .agent import Agent, AgentError, Reply, Request
from .environment import Environment, TaskInfo, ToolOutcome, text_hash
from .interrupt import run_until_signal
from .metrics import compute_report
from .progress import Progress
from .protocol import (
    CALLS_PER_ROUND,
    CONDITIONS,
    FEEDBACK_CHARS,
    FEEDBACK_LINES,
    PASSES,
    TRACE_FORMAT,
    milestone_labels,
)
from .trace import TRACE_NAME, Trace, TraceError, comparable, read_trace
from .verdict_events import answer_event, rule_report_event

REPORT_NAME = "report.json"
ToolRunner = Callable[[str, object], Awaitable[ToolOutcome]]
MAX_TURNS_SLACK = 4  # model turns a round may take beyond one per allowed call


@dataclass
class Settings:
    condition: str = "autonomous"
    seed: int = 0
    probes_from: str | None = None  # hindsight: the trace whose probes are replayed
    fixed_per_round: int = CALLS_PER_ROUND  # fixed-probe: calls per round
    passes: int = PASSES
    exploration: bool = (
        True  # compute report.json's exploration section (episode.exploration) at the end
    )
    rounds: int | None = None  # at most this many exploration rounds (a smoke test)
    tasks: int | None = None  # at most this many held-out tasks (a smoke test; see spread_tasks)


def spread_tasks(tasks: list[TaskInfo], limit: int | None) -> list[TaskInfo]:
    """At most `limit` tasks, taken in turn from each band (in the order the
    bands first appear, the bank's order within a band), so that a small
    selection still spans the bands; all of them when `limit` is None."""
    if limit is None or limit >= len(tasks):
        return list(tasks)
    bands: dict[str, list[TaskInfo]] = {}
    for task in tasks:
        bands.setdefault(task.band, []).append(task)
    chosen: list[TaskInfo] = []
    for depth in range(max(len(group) for group in bands.values())):
        chosen += [group[depth] for group in bands.values() if depth < len(group)]
    keep = {task.id for task in chosen[:limit]}
    return [task for task in tasks if task.id in keep]


def probe_turns(source: str | Path, tool_name: str) -> list[list[list[str]]]:
    """The probes of a recorded trace: per round, per model turn, the tool
    arguments (raw JSON text) in order."""
    events = read_trace(source)
    rounds: dict[int, dict[str, list[str]]] = {}
    for event in events:
        if event.get("type") == "tool" and event.get("name") == tool_name:
            turns = rounds.setdefault(int(event["round"]), {})
            turns.setdefault(event["turn"], []).append(event["arguments"])
    if not rounds:
        raise TraceError(f"{source}: the trace holds no probe to replay")
    return [list(rounds.get(r, {}).values()) for r in range(1, max(rounds) + 1)]


def write_json(path: Path, data: object) -> bool:
    """Write `data` atomically unless the file already holds it; True if written."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return True


class Episode:
    def __init__(
        self,
        env: Environment,
        agent: Agent,
        out: str | Path,
        settings: Settings | None = None,
        resume: bool = False,
        progress: Progress | None = None,
        tool_runner: ToolRunner | None = None,
    ) -> None:
        """`tool_runner(call_id, arguments)` runs a tool call the budget
        allows (default: the environment's `run_tool`; an Inspect solver
        routes it through Inspect's tools)."""
        self.env = env
        self.tool_runner = tool_runner or self._run_tool_here
        self.agent = agent
        self.out = Path(out)
        self.settings = settings or Settings()
        if self.settings.condition not in CONDITIONS:
            raise ValueError(
                f"unknown condition {self.settings.condition!r}; one of {', '.join(CONDITIONS)}"
            )
        self.condition = CONDITIONS[self.settings.condition]
        if self.settings.rounds is not None:
            self.condition = replace(
                self.condition, rounds=min(self.condition.rounds, self.settings.rounds)
            )
        self.progress = progress or Progress(mode="off")
        self.resume = resume
        self.injected: list[list[list[str]]] | None = None
        if self.condition.exploration == "injected":
            self.injected = self._injected_probes()
        self.tasks = spread_tasks(env.tasks(), self.settings.tasks)
        self.conv: list[dict] = []
        self.calls = self.units = self.tokens = self.rejected = 0
        self.milestone_tokens = 0

    # -- setup ----------------------------------------------------------------------
    def _injected_probes(self) -> list[list[list[str]]]:
        arg = self.env.tool_argument
        if self.settings.condition == "fixed-probe":
            sequence = self.env.fixed_probes(
                self.settings.seed, self.condition.rounds, self.settings.fixed_per_round
            )
            return [[[json.dumps({arg: probe})] for probe in batch] for batch in sequence]
        if not self.settings.probes_from:
            raise ValueError(
                "the hindsight condition replays the probes of a trace: give --probes-from DIR"
            )
        return probe_turns(self.settings.probes_from, self.env.tool_name)

    def header(self) -> dict:
        env = self.env
        probes = None
        if self.settings.condition == "hindsight":
            probes = {
                "source": str(self.settings.probes_from),
                "hash": text_hash(json.dumps(self.injected)),
            }
        elif self.settings.condition == "fixed-probe":
            probes = {
                "per_round": self.settings.fixed_per_round,
                "hash": text_hash(json.dumps(self.injected)),
            }
        runtime = getattr(self.agent, "runtime", None)
        return {
            "type": "header",
            "key": "header",
            "format": TRACE_FORMAT,
            "language": env.language,
            "world": env.world_name,
            "world_hash": env.world_hash,
            "manual_hash": env.manual_hash,
            "bank_hash": env.bank_hash(),
            "system_prompt_hash": text_hash(
                env.system_prompt(open_book=self.condition.open_book == "m0")
            ),
            "seed": self.settings.seed,
            "condition": self.settings.condition,
            "agent": self.agent.config(),
            "floor": env.floor,
            "protocol": {
                "rounds": self.condition.rounds,
                "calls_per_round": env.calls_per_round,
                "max_total_calls": env.max_total_calls,
                "probe_cap": getattr(env, "probe_cap", None),
                "feedback_lines": FEEDBACK_LINES,
                "feedback_chars": FEEDBACK_CHARS,
                "passes": self.settings.passes,
                "milestones": [str(m) for m in milestone_labels(self.condition)],
            },
            "probes": probes,
            "tasks": [t.as_dict() for t in self.tasks],
            "rules": env.rule_ids() if env.has_rule_report else [],
            "runtime": runtime() if callable(runtime) else {},
        }

    # -- running ----------------------------------------------------------------------
    def run(self) -> dict:
        """Run (or resume) the episode in an event loop of its own; the
        report. SIGINT or SIGTERM stops it cleanly (`interrupt.Interrupted`)."""

        async def owned() -> dict:
            try:
                return await self.arun()
            finally:
                await self.agent.aclose()

        return run_until_signal(owned())

    async def arun(self) -> dict:
        """The episode inside a running event loop (e.g. an Inspect solver)."""
        self.out.mkdir(parents=True, exist_ok=True)
        interval = 0.5 if getattr(self.agent, "offline", False) else 0.0
        try:
            with Trace(self.out / TRACE_NAME, resume=self.resume, sync_interval=interval) as trace:
                self.trace = trace
                self._start()
                if not trace.finished:
                    # a bar shows the protocol on a terminal; elsewhere it is a phase
                    if self.progress.mode != "bar":
                        with self.progress.phase("protocol", self.progress.steps):
                            await self._protocol()
                    else:
                        await self._protocol()
                    trace.append({"type": "end", "key": "end"})
                report = compute_report(trace.events)
                if self.settings.exploration:
                    with self.progress.phase("scoring exploration"):
                        section = exploration.compute(
                            trace.events, self.out, getattr(self.env, "world", None)
                        )
                    if section is not None:
                        report["exploration"] = section
        finally:
            self.progress.close()
        write_json(self.out / REPORT_NAME, report)
        return report

    def _start(self) -> None:
        header = self.header()
        recorded = self.trace.append(header)[0]
        old, new = comparable(recorded), comparable(header)
        for derived in ("runtime", "floor"):  # the floor follows from world and bank, both compared
            old.pop(derived, None)
            new.pop(derived, None)
        if old != new:
            differs = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
            raise TraceError(
                f"{self.trace.path} was recorded with a different {', '.join(differs)}; "
                "resume it with the same world, agent, condition and seed, or choose another --out"
            )

    async def _protocol(self) -> None:
        env, cond = self.env, self.condition
        labels = milestone_labels(cond)
        self.progress.start(
            total=len(labels) * (len(self.tasks) * self.settings.passes + 1) + cond.rounds
        )
        self._push(
            {"role": "system", "content": env.system_prompt(open_book=cond.open_book == "m0")}
        )
        await self._milestone(0)
        for round_no in range(1, cond.rounds + 1):
            self.progress.label(f"round {round_no}")
            if cond.exploration == "autonomous":
                await self._autonomous_round(round_no)
            elif cond.exploration == "injected":
                await self._injected_round(round_no)
            elif cond.exploration == "reflect-only":
                await self._reflect_round(round_no)
            self.progress.advance()
            await self._milestone(round_no)
        if cond.open_book == "m4":
            await self._milestone(labels[-1], disclose=True)

    # -- the main conversation ----------------------------------------------------------------
    def _push(self, message: dict) -> None:
        index = len(self.conv)
        recorded = self.trace.append(
            {"type": "message", "key": f"msg/{index}", "index": index, "message": message}
        )[0]
        if recorded["message"] != message:
            raise TraceError(
                f"{self.trace.path}: the conversation differs from the recorded one at message "
                f"{index}; "
                "the world, the agent or the code changed since the trace was written"
            )
        self.conv.append(recorded["message"])

    def _request_event(self, request: Request, base: int, extra: list[dict]) -> dict:
        return {
            "type": "request",
            "key": f"request/{request.key}",
            "purpose": request.purpose,
            "base": base,
            "extra": extra,
            "tools_enabled": request.tools_enabled,
            "milestone": request.milestone,
            "round": request.round,
            "task": request.task,
            "pass": request.answer_pass,
        }

    def _recorded_reply(self, key: str) -> Reply | None:
        event = self.trace.get(f"reply/{key}")
        if event is None:
            return None
        return Reply(event["message"], event.get("usage") or {}, event.get("attempts", 1))

    def _reply_event(self, key: str, reply: Reply) -> dict:
        return {"type": "reply", "key": f"reply/{key}", **reply.as_dict()}

    async def _ask(
        self,
        key: str,
        purpose: str,
        extra: list[dict] | None = None,
        tools: bool = False,
        **meta: object,
    ) -> Reply:
        """One request on the main conversation (plus `extra` messages)."""
        recorded = self._recorded_reply(key)
        if recorded is not None:
            return recorded
        extra = extra or []
        request = Request(key, purpose, self.conv + extra, [self.env.tool_spec()], tools, **meta)
        sent = self._request_event(request, len(self.conv), extra)
        if not self.agent.offline:
            self.trace.append(sent)  # recorded before a remote request goes out
        reply = await self.agent.respond_async(request)
        reply = Reply(_clean(reply.message, tools), reply.usage, reply.attempts)
        self.trace.append(sent, self._reply_event(key, reply))
        await asyncio.sleep(
            0
        )  # a stop signal is handled between requests, even for an offline agent
        return reply

    async def _explore_turn(self, key: str, purpose: str, tools: bool, round_no: int) -> dict:
        reply = await self._ask(key, purpose, tools=tools, round=round_no)
        self.tokens += reply.tokens
        self._push(reply.message)
        return reply.message

    # -- exploration ----------------------------------------------------------------------
    def _budget_left(self, used_this_round: int) -> bool:
        if used_this_round >= self.env.calls_per_round:
            return False
        return self.env.max_total_calls is None or self.calls < self.env.max_total_calls

    async def _run_tool_here(self, call_id: str, arguments: object) -> ToolOutcome:
        return self.env.run_tool(arguments)

    async def _tool(
        self, round_no: int, number: int, turn: str, call: dict, counted_this_round: int
    ) -> bool:
        """Run (or take from the trace) one tool call; push its result.
        Return whether it counted against the budget."""
        fn = call.get("function") or {}
        name, arguments = fn.get("name"), fn.get("arguments")
        key = f"tool/r{round_no}/{number}"
        event = self.trace.get(key)
        if event is None:
            event = {
                "type": "tool",
                "key": key,
                "round": round_no,
                "n": number,
                "turn": turn,
                "call_id": call["id"],
                "name": name,
                "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
            }
            if not self._budget_left(counted_this_round):
                event.update(
                    status="over-budget",
                    units=0,
                    counted=False,
                    feedback="[not run] no tool calls are left in this round (at most "
                    f"{self.env.calls_per_round} a round"
                    + (f", {self.env.max_total_calls} in all" if self.env.max_total_calls else "")
                    + ").",
                )
            elif name != self.env.tool_name:
                event.update(
                    status="invalid",
                    units=0,
                    counted=True,
                    feedback=f"[rejected] there is no tool named {name!r}; the tool is "
                    f"{self.env.tool_name}. Nothing was run.",
                )
            else:
                try:
                    decoded = json.loads(arguments) if isinstance(arguments, str) else arguments
                except ValueError:
                    decoded = None
                outcome = await self.tool_runner(call["id"], decoded)
                event.update(
                    status=outcome.status,
                    units=outcome.units,
                    counted=True,
                    feedback=outcome.feedback,
                    output_chars=len(outcome.output),
                    output_lines=outcome.output.count("\n") + 1,
                )
            event = self.trace.append(event)[0]
        if event["counted"]:
            self.calls += 1
            self.units += int(event["units"])
            self.rejected += event["status"] != "ran"
        self._push({"role": "tool", "tool_call_id": call["id"], "content": event["feedback"]})
        return bool(event["counted"])

    async def _autonomous_round(self, round_no: int) -> None:
        self._push(
            {"role": "user", "content": self.env.round_prompt(round_no, self.condition.rounds)}
        )
        counted = number = 0
        for turn in range(1, self.env.calls_per_round + MAX_TURNS_SLACK + 1):
            key = f"r{round_no}/turn{turn}"
            message = await self._explore_turn(key, "explore", True, round_no)
            calls = message.get("tool_calls") or []
            if not calls:
                return
            for call in calls:
                number += 1
                counted += await self._tool(round_no, number, key, call, counted)
            if not self._budget_left(counted):
                return

    async def _injected_round(self, round_no: int) -> None:
        env = self.env
        self._push(
            {
                "role": "user",
                "content": (
                    f"Exploration round {round_no} of {self.condition.rounds}. In this round the "
                    "probes are chosen for you: each is "
                    f"run through {env.tool_name} and you see its result. After each result, "
                    "note your current hypotheses."
                ),
            }
        )
        turns = self.injected[round_no - 1] if round_no <= len(self.injected) else []
        counted = number = 0
        for turn_no, group in enumerate(turns, start=1):
            if not self._budget_left(counted):
                break
            key = f"r{round_no}/turn{turn_no}"
            calls = [
                {
                    "id": f"call_probe_r{round_no}_{number + i + 1}",
                    "type": "function",
                    "function": {"name": env.tool_name, "arguments": arguments},
                }
                for i, arguments in enumerate(group)
            ]
            self._push({"role": "assistant", "content": None, "tool_calls": calls})
            for call in calls:
                number += 1
                counted += await self._tool(round_no, number, key, call, counted)
            await self._explore_turn(f"r{round_no}/note{turn_no}", "reflect", False, round_no)

    async def _reflect_round(self, round_no: int) -> None:
        self._push(
            {"role": "user", "content": self.env.reflect_prompt(round_no, self.condition.rounds)}
        )
        await self._explore_turn(f"r{round_no}/turn1", "reflect", False, round_no)

    # -- milestones ----------------------------------------------------------------------
    async def _milestone(self, label: object, disclose: bool = False) -> None:
        env = self.env
        name = f"M{label}"
        self.progress.label(name)
        budget = {
            "calls": self.calls,
            "units": self.units,
            "tokens": self.tokens,
            "rejected": self.rejected,
        }
        prefix = (
            [
                {
                    "role": "user",
                    "content": "The world's complete rule set is now disclosed to you.\n\n"
                    + env.disclosure(),
                }
            ]
            if disclose
            else []
        )
        if env.has_rule_report and f"rules/{name}" not in self.trace:
            reply = await self._ask(
                f"{name}/rules",
                "rules",
                extra=prefix + [{"role": "user", "content": env.rule_report_prompt()}],
                milestone=label,
            )
            self.milestone_tokens += reply.tokens
            self.trace.append(rule_report_event(env, name, reply.message.get("content") or ""))
        self.progress.advance()
        jobs = [
            (task.id, k)
            for task in self.tasks
            for k in range(1, self.settings.passes + 1)
            if f"answer/{name}/{task.id}/{k}" not in self.trace
        ]
        self.progress.advance(len(self.tasks) * self.settings.passes - len(jobs))
        await self._answer_all(label, name, jobs, prefix)
        self.trace.append(
            {"type": "milestone", "key": f"milestone/{name}", "milestone": label, "budget": budget}
        )
        self.trace.fsync()
        report = compute_report(self.trace.events)
        write_json(self.out / REPORT_NAME, report)  # the partial report stays current
        reached = next((m for m in report["milestones"] if f"M{m['t']}" == name), None)
        self.progress.milestone(name, reached["accuracy"] if reached else None)

    def _answer_request(
        self, label: object, name: str, task_id: str, k: int, prefix: list[dict]
    ) -> Request:
        extra = prefix + [{"role": "user", "content": self.env.task_prompt(task_id)}]
        return Request(
            f"{name}/{task_id}/{k}",
            "answer",
            self.conv + extra,
            [self.env.tool_spec()],
            False,
            milestone=label,
            task=task_id,
            answer_pass=k,
        )

    def _record_answer(self, name: str, task_id: str, k: int, reply: Reply, *before: dict) -> None:
        """Grade a reply and record the verdict (after `before`, in one write)."""
        self.trace.append(
            *before, answer_event(self.env, name, task_id, k, reply.message.get("content") or "")
        )
        self.milestone_tokens += reply.tokens
        self.progress.advance()

    async def _answer_all(
        self, label: object, name: str, jobs: list[tuple[str, int]], prefix: list[dict]
    ) -> None:
        """Answer the milestone's tasks, at most `agent.concurrency` requests
        in flight (an asyncio semaphore, served in order). A request is
        recorded when it is sent and its reply with its verdict as soon as it
        arrives; on a stop signal the requests waiting for the semaphore
        never start and those in flight are cancelled."""
        pending: list[tuple[str, int, Request]] = []
        for task_id, k in jobs:
            recorded = self._recorded_reply(f"{name}/{task_id}/{k}")
            if recorded is not None:
                self._record_answer(name, task_id, k, recorded)
            else:
                pending.append((task_id, k, self._answer_request(label, name, task_id, k, prefix)))
        if not pending:
            return
        base = len(self.conv)
        gate = asyncio.Semaphore(max(1, int(getattr(self.agent, "concurrency", 1) or 1)))
        offline = self.agent.offline

        async def answer(task_id: str, k: int, request: Request) -> None:
            async with gate:
                sent = self._request_event(request, base, request.messages[base:])
                if not offline:
                    self.trace.append(sent)  # recorded before it goes out
                reply = self._clean_reply(await self.agent.respond_async(request))
            before = (
                (sent, self._reply_event(request.key, reply))
                if offline
                else (self._reply_event(request.key, reply),)
            )
            self._record_answer(name, task_id, k, reply, *before)
            await asyncio.sleep(
                0
            )  # a stop signal is handled between answers, even for an offline agent

        try:
            async with asyncio.TaskGroup() as group:
                for task_id, k, request in pending:
                    group.create_task(answer(task_id, k, request))
        except BaseExceptionGroup as failed:  # the first failure cancelled the rest
            error = _first_error(failed)
            if isinstance(error, AgentError) or not isinstance(error, Exception):
                raise error from None
            raise AgentError(f"{type(error).__name__}: {error}") from error

    @staticmethod
    def _clean_reply(reply: Reply) -> Reply:
        return Reply(_clean(reply.message, False), reply.usage, reply.attempts)


def _first_error(group: BaseExceptionGroup) -> BaseException:
    error: BaseException = group
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


def _clean(message: dict, tools: bool) -> dict:
    """An assistant message as the conversation keeps it: every field the
    agent returned (reasoning fields included) except null ones; tool calls
    only when tools were enabled, each with an id."""
    out = {k: v for k, v in (message or {}).items() if v is not None or k == "content"}
    out["role"] = "assistant"
    out.setdefault("content", None)
    calls = out.get("tool_calls")
    if not tools or not calls:
        out.pop("tool_calls", None)
        if out.get("content") is None:
            out["content"] = ""
        return out
    fixed = []
    for index, call in enumerate(calls):
        call = dict(call) if isinstance(call, dict) else {}
        call.setdefault("type", "function")
        if not call.get("id"):
            call["id"] = f"call_{index + 1}"
        fn = call.get("function") if isinstance(call.get("function"), dict) else {}
        call["function"] = {
            **fn,
            "name": fn.get("name"),
            "arguments": fn.get("arguments") if fn.get("arguments") is not None else "{}",
        }
        fixed.append(call)
    out["tool_calls"] = fixed
    return out
