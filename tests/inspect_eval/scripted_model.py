"""The built-in scripted agents (oracle, naive, fixed) as an Inspect model:
`aw-scripted/<agent>`, with model argument `world`. The model sees only
what any model sees (messages, tools, tool choice) and tells the request's
purpose from the protocol's prompts, then answers as the agent would."""

import json
import re

from alienworlds.episode.agent import Request
from alienworlds.episode.agent_registry import make_agent
from alienworlds.episode.environment_loader import make_environment
from alienworlds.inspect_eval.messages import from_inspect
from inspect_ai.model import ChatMessageAssistant, ModelAPI, ModelOutput, modelapi
from inspect_ai.tool import ToolCall


def as_dict(message):
    if isinstance(message, ChatMessageAssistant):
        return from_inspect(message, True)
    out = {"role": message.role, "content": message.text}
    if message.role == "tool":
        out["tool_call_id"] = message.tool_call_id
    return out


def purpose(messages, tools_enabled):
    last_user = next(m["content"] for m in reversed(messages) if m["role"] == "user")
    if tools_enabled:
        return "explore", int(re.search(r"Exploration round (\d+)", last_user).group(1)), None
    if "rule report" in last_user:
        return "rules", None, None
    task = re.search(r"Held-out task (\w+)", last_user)
    if task:
        return "answer", None, task.group(1)
    return "reflect", None, None


@modelapi(name="aw-scripted")
class ScriptedModel(ModelAPI):
    def __init__(
        self, model_name, base_url=None, api_key=None, config=None, world="demo", **model_args
    ):
        super().__init__(model_name, base_url, api_key, [], config)
        self.env = make_environment("aliencode", world)
        self.agent = make_agent(model_name, self.env, seed=0)

    async def generate(self, input, tools, tool_choice, config):
        messages = [as_dict(m) for m in input]
        tools_enabled = tool_choice != "none"
        kind, round_no, task = purpose(messages, tools_enabled)
        reply = self.agent.respond(
            Request(
                "k",
                kind,
                messages,
                [self.env.tool_spec()],
                tools_enabled,
                round=round_no,
                task=task,
            )
        )
        calls = [
            ToolCall(
                id=c["id"],
                function=c["function"]["name"],
                arguments=json.loads(c["function"]["arguments"]),
            )
            for c in reply.message.get("tool_calls") or ()
        ]
        message = ChatMessageAssistant(
            content=reply.message.get("content") or "",
            tool_calls=calls or None,
            model=self.model_name,
        )
        return ModelOutput.from_message(message)
