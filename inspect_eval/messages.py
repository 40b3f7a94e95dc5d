"""The driver's conversation (OpenAI chat-format dicts) to Inspect's chat
messages and back.

An assistant reply keeps Inspect's own message alongside, under
`inspect_message`, so that reasoning blocks and anything else a provider
needs back reach it unchanged on later turns; the `content` and
`tool_calls` fields are what the driver reads.
"""

from __future__ import annotations

import json

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
)
from inspect_ai.tool import ToolCall

NATIVE = "inspect_message"


def _arguments(text: object) -> dict:
    if isinstance(text, dict):
        return text
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        value = None
    return value if isinstance(value, dict) else {}


def to_inspect(message: dict) -> ChatMessage:
    role = message.get("role")
    content = message.get("content") or ""
    if role == "system":
        return ChatMessageSystem(content=content)
    if role == "user":
        return ChatMessageUser(content=content)
    if role == "tool":
        return ChatMessageTool(
            content=content, tool_call_id=message.get("tool_call_id"), function=message.get("name")
        )
    if message.get(NATIVE):
        return ChatMessageAssistant.model_validate(message[NATIVE])
    calls = [
        ToolCall(
            id=c["id"],
            function=(c.get("function") or {}).get("name") or "",
            arguments=_arguments((c.get("function") or {}).get("arguments")),
        )
        for c in message.get("tool_calls") or ()
    ]
    return ChatMessageAssistant(content=content, tool_calls=calls or None)


def from_inspect(message: ChatMessageAssistant, tools_enabled: bool) -> dict:
    """The reply as the driver records it. Tool calls whose arguments did
    not parse keep an unparseable argument text, so the driver rejects
    them as malformed; a tool-disabled reply keeps no tool call."""
    calls = list(message.tool_calls or ()) if tools_enabled else []
    native = (
        message
        if calls or not message.tool_calls
        else message.model_copy(update={"tool_calls": None})
    )
    out: dict = {"role": "assistant", "content": message.text}
    if calls:
        out["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {
                    "name": c.function,
                    "arguments": "" if c.parse_error else json.dumps(c.arguments),
                },
            }
            for c in calls
        ]
    out[NATIVE] = native.model_dump(mode="json", exclude_none=True)
    return out
