"""Inspect's model as an episode agent: each request the driver makes is a
`generate` call of the model under evaluation (its log shows every one),
with the probe tool listed and, for tool-disabled requests, tool_choice
"none"."""

from __future__ import annotations

from alienworlds.episode.agent import Agent, Reply, Request
from inspect_ai.model import GenerateConfig, Model
from inspect_ai.tool import ToolDef

from .messages import from_inspect, to_inspect


class InspectModelAgent(Agent):
    name = "inspect"

    def __init__(
        self, model: Model, tool: ToolDef, seed: int | None = None, concurrency: int = 10
    ) -> None:
        self.model = model
        self.tool = tool
        self.seed = seed
        self.concurrency = max(
            1, int(concurrency)
        )  # Inspect's max_connections limits requests per model too

    def config(self) -> dict[str, object]:
        return {"name": self.name, "model": str(self.model)}

    async def respond_async(self, request: Request) -> Reply:
        output = await self.model.generate(
            [to_inspect(m) for m in request.messages],
            tools=[self.tool],
            tool_choice="auto" if request.tools_enabled else "none",
            config=GenerateConfig(seed=self.seed),
        )
        usage = output.usage
        return Reply(
            from_inspect(output.message, request.tools_enabled),
            {
                "prompt_tokens": usage.input_tokens if usage else 0,
                "completion_tokens": usage.output_tokens if usage else 0,
            },
        )
