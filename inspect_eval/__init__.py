"""The ExplorationBench protocol as Inspect AI tasks (the `[inspect]` extra).

    inspect eval alienworlds/aliencode --model openai/gpt-4o -T world=main
    inspect eval alienworlds/alienlogic --model mockllm/model --epochs 3

Inspect finds the tasks through the `inspect_ai` entry point of this
distribution (`_registry.py`). Each sample is one trajectory: the episode
driver runs the protocol with Inspect's model as the agent (`agent.py`) and
the probe as an Inspect tool (`tools.py`); the scorer grades the recorded
milestone replies with this project's graders (`scorers.py`). Nothing here
is imported by the rest of the project.
"""
