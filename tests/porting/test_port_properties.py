"""Property: a ported program agrees with the manual-semantics program on
random inputs, in random generated worlds.

The programs are the main bank's manual-trusting solutions (written in the
manual's semantics); each function is called on random arguments of the
types its public example shows, and a program reading inputs gets random
inputs of the types its example inputs show. Calls and bindings are
manual-semantics code ported like the program, so both sides compute on the
same values.
"""

from __future__ import annotations

from functools import cache

from alienworlds.generate.aliencode import Knobs
from alienworlds.generate.aliencode.world_draw import draw_world
from alienworlds.porting import Porter
from alienworlds.porting.types import infer
from alienworlds.ruleset import standard_world
from alienworlds.tasks.bank import load_bank
from bank_tasks import bindings, field
from fuzzing import examples
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from port_values import text, values

from aliencode import Session, compile_source, parse
from aliencode import syntax as s

STANDARD = standard_world("aliencode")
TASKS = [t for t in load_bank("aliencode", "main").tasks if t.naive]
SEEDS = range(3)


@cache
def porter(seed: int) -> Porter:
    return Porter(
        draw_world(f"property-{seed}", Knobs(altered=5, red_herrings=1, scoped=1, renamed=2)).world
    )


def outputs(world, *sources: str) -> list[str]:
    session = Session()
    out = []
    for source in sources:
        result = session.execute(compile_source(source, world))
        out.append(result.text())
        if result.error:
            break
    return out


def random_inputs(data, task) -> tuple[list[str], str] | None:
    """Bindings like the task's example inputs, of random values of their
    types: (the example bindings, the random ones as a program)."""
    inputs = field(task, "inputs", ())
    if not inputs:
        return None
    shown = bindings(field(task, "example_inputs", {}) or inputs[0])
    tree = parse("\n".join(shown) + "\n")
    types = infer(tree, [])
    drawn = [
        f"SET {st.targets[0]} AS {text(data.draw(values(types.of(st.values[0]))))}"
        for st in tree.body
    ]
    return shown, "\n".join(drawn) + "\n"


def random_call(data, task) -> str | None:
    """A call like the task's example, on random arguments of its types."""
    if not task.calls or not task.example:
        return None
    example = parse(task.example).body[0].expr
    emit = isinstance(example, s.OpCall) and example.op == "EMIT"
    call = example.args[0] if emit else example
    types = infer(parse(task.naive), [parse(task.example)], world_callers=False)
    args = ", ".join(text(data.draw(values(types.of(a)))) for a in call.args)
    written = f"{call.func.id}({args})"
    return f"EMIT({written})" if emit else written


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), seed=st.sampled_from(SEEDS), task=st.sampled_from(TASKS))
def test_ported_programs_agree_with_the_manual(data, seed, task):
    p = porter(seed)
    call, inputs = random_call(data, task), random_inputs(data, task)
    before, after = [], []
    examples = [task.example] if call is not None else []
    if inputs is not None:
        examples, binding = inputs
        before = [binding]
    if call is not None:
        after = [call]
    want = outputs(STANDARD, *before, task.naive, *after)
    assume(not any("[AlienError]" in o for o in want))
    port = [p.port(source, keywords={}, callers="manual").source for source in before]
    port.append(p.port(task.naive, examples, keywords={}, callers="manual").source)
    port += [p.port(source, keywords={}, callers="manual").source for source in after]
    assert outputs(p.world, *port) == want
