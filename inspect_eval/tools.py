"""The environment's probe as an Inspect tool.

The driver keeps deciding what a call may do (the round's budget, unknown
tool names, malformed arguments: the same rules as every episode); a call
it lets run goes through Inspect's `execute_tools`, so the log shows it as
a tool call of the model with its result. The tool runs the environment's
own `run_tool`: the same unit cap and feedback cap.
"""

from __future__ import annotations

from alienworlds.episode.environment import Environment, ToolOutcome
from inspect_ai.model import ChatMessageAssistant, execute_tools
from inspect_ai.tool import ToolCall, ToolDef, ToolParams


class ProbeTool:
    def __init__(self, env: Environment) -> None:
        self.env = env
        self._outcome: ToolOutcome | None = None
        spec = env.tool_spec()["function"]

        async def probe(**arguments: object) -> str:
            self._outcome = env.run_tool(arguments)
            return self._outcome.feedback

        self.tooldef = ToolDef(
            probe,
            name=spec["name"],
            description=spec["description"],
            parameters=ToolParams(**spec["parameters"]),
        )

    async def run(self, call_id: str, arguments: object) -> ToolOutcome:
        """The driver's tool runner."""
        if not (
            isinstance(arguments, dict)
            and set(arguments) == {self.env.tool_argument}
            and isinstance(arguments[self.env.tool_argument], str)
        ):
            return self.env.run_tool(
                arguments
            )  # malformed: the environment's own refusal, nothing to run
        self._outcome = None
        call = ToolCall(id=call_id, function=self.env.tool_name, arguments=arguments)
        await execute_tools([ChatMessageAssistant(content="", tool_calls=[call])], [self.tooldef])
        if self._outcome is None:
            raise RuntimeError(f"Inspect did not run the tool call {call_id}")
        return self._outcome
