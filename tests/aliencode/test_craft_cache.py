"""CRAFTs of the top level compiled once and shared (aliencode/craft_cache.py)
give a program the same code, object for object, as compiling them in place:
every field of every code object (bytecode, constants, names, positions,
qualified names), the operation sites and the rules the program binds, on
generated programs, the main bank's programs and the validity battery's
candidates, under worlds, limits and budgets that change what a CRAFT
compiles to."""

from __future__ import annotations

import sys
from pathlib import Path
from types import CodeType

import pytest
from hypothesis import given

from aliencode import AlienSyntaxError, Limits, Session, compile_source, parse
from aliencode import compiler as compiler_module
from aliencode.compiler import compile_program
from aliencode.craft_cache import CACHE, VARIANTS, CompiledCraft, CraftCache, code_size
from aliencode.world_schema import load

sys.path.insert(0, str(Path(__file__).parent))
from test_properties import PROPERTY, programs  # noqa: E402

STANDARD = load("standard")
MAIN = load("main")

CODE_FIELDS = (
    "co_argcount",
    "co_posonlyargcount",
    "co_kwonlyargcount",
    "co_nlocals",
    "co_stacksize",
    "co_flags",
    "co_code",
    "co_names",
    "co_varnames",
    "co_freevars",
    "co_cellvars",
    "co_filename",
    "co_name",
    "co_qualname",
    "co_firstlineno",
    "co_linetable",
    "co_exceptiontable",
)


def assert_same_code(a: object, b: object, path: str = "code") -> None:
    if isinstance(a, CodeType):
        assert isinstance(b, CodeType), path
        for name in CODE_FIELDS:
            assert getattr(a, name) == getattr(b, name), f"{path}: {name}"
        assert len(a.co_consts) == len(b.co_consts), path
        for k, (x, y) in enumerate(zip(a.co_consts, b.co_consts, strict=True)):
            assert_same_code(x, y, f"{path}.{k}")
    else:
        assert type(a) is type(b), path
        assert a == b or (a != a and b != b), path  # NaN constants


def outcome(source: str, world, limits: Limits, shared: bool, by_text: bool = True) -> object:
    """The program compiled in place (`shared` false), or with the cache,
    looked up by the CRAFTs' texts as compile_source does, or by their trees."""
    try:
        if shared and by_text:
            return compile_source(source, world, limits)
        tree = parse(source, world.keywords, limits)
        return compile_program(tree, world, limits, shared_crafts=shared)
    except AlienSyntaxError as exc:
        return str(exc)


def assert_shared_as_in_place(source: str, world=MAIN, limits: Limits | None = None) -> None:
    limits = limits or Limits()
    in_place = outcome(source, world, limits, False)
    # compiled, then (a CRAFT seen before) found in the cache, by text and by tree
    for by_text in (True, True, False, False):
        shared = outcome(source, world, limits, True, by_text)
        if isinstance(in_place, str):
            assert shared == in_place, source
            continue
        assert not isinstance(shared, str), shared
        assert_same_code(in_place.code, shared.code)
        assert list(in_place.op_sites.items()) == list(shared.op_sites.items())
        assert list(in_place.rules) == list(shared.rules)
        assert all(in_place.rules[k] is shared.rules[k] for k in in_place.rules)
        assert (in_place.units, in_place.nesting) == (shared.units, shared.nesting)


LIBRARY = """CRAFT twice(x):
    DELIVER SHATTER(x, x)
CRAFT fact(n):
    UPON UNDER(n, 2):
        DELIVER 1
    DELIVER PARE(n, fact(WEAVE(n, 1)))
CRAFT walk(xs):
    SET out AS STRAND()
    SWEEP v IN xs:
        ANNEX(out, twice(v))
    DELIVER FUSE(out, "-")
"""


@pytest.mark.parametrize("world", [STANDARD, MAIN], ids=["standard", "main"])
@pytest.mark.parametrize(
    "source",
    [
        LIBRARY + 'EMIT(fact(5), walk(STRAND(1, 2.5, "a")))',
        # the same CRAFTs further down, after other statements and literals
        'SET a AS 3\nEMIT(FUSE("x", 2))\n' + LIBRARY + "EMIT(twice(a))",
        # defined in a branch and a loop of the top level, and defined again
        "UPON YES:\n    CRAFT f(x):\n        DELIVER x\nSWEEP i IN EXTENT(3):\n"
        "    CRAFT f(x):\n        DELIVER SHATTER(x, i)\n    EMIT(f(i))\n",
        # mutual recursion, a CRAFT within a CRAFT, a lazy operand, STRAIN
        "CRAFT even(n):\n    UPON AKIN(n, 0):\n        DELIVER YES\n    DELIVER odd(WEAVE(n, 1))\n"
        "CRAFT odd(n):\n    UPON AKIN(n, 0):\n        DELIVER NO\n    DELIVER even(WEAVE(n, 1))\n"
        "CRAFT outer(k):\n    CRAFT inner(v):\n        DELIVER OVER(v, k)\n"
        "    DELIVER STRAIN(inner, EXTENT(10))\n"
        "EMIT(even(10), BOND(odd(3), even(2)), outer(4))\n",
        # refused while compiling a CRAFT: the same error, nothing kept
        "CRAFT f(x, x):\n    DELIVER x\n",
        "CRAFT f(x):\n    CEASE\n",
    ],
)
def test_shared_crafts_compile_as_in_place(source: str, world) -> None:
    assert_shared_as_in_place(source, world)


@pytest.mark.parametrize("task_id", ["T05", "T31", "T67"])
def test_the_battery_candidates_of_main_compile_as_in_place(task_id: str) -> None:
    """Every strategy's candidates for three tasks of main: programs that
    share their helper CRAFTs, at the same lines and at others."""
    from alienworlds.tasks.aliencode_grading import AlienCodeGrader
    from alienworlds.tasks.aliencode_validity import candidates
    from alienworlds.tasks.bank import load_bank, own_bank_path

    bank = load_bank("aliencode", MAIN.name, own_bank_path("aliencode", MAIN))
    task = bank.task(task_id)
    grader = AlienCodeGrader(MAIN, bank, Limits())
    found = candidates(task, MAIN, Limits(), [], budget=grader.budget(task))
    answers = list(dict.fromkeys(a for shown in found.values() for a in shown))
    assert len(answers) > 50
    for answer in [task.reference, task.naive, *answers]:
        assert_shared_as_in_place(answer)


@PROPERTY
@given(programs())
def test_generated_programs_compile_as_in_place(source: str) -> None:
    for world in (STANDARD, MAIN):
        assert_shared_as_in_place(source, world)


def test_a_craft_found_by_its_text_moves_to_its_line() -> None:
    """The same CRAFTs at other lines, after blank lines and comments, with
    CR LF line ends and without a final line feed."""
    for head in ("", "\n\n", "# a comment\nSET a AS 1\n", "EMIT(1)\n" * 40):
        source = head + LIBRARY + "EMIT(fact(3), walk(STRAND(1)))"
        assert_shared_as_in_place(source)
        assert_shared_as_in_place(source.replace("\n", "\r\n"))
    # an error inside a CRAFT found in the cache is reported at its own line
    results = []
    for head in ("", "\n" * 7):
        program = outcome(head + LIBRARY + 'EMIT(fact("x"))', MAIN, Limits(), True)
        with Session(Limits()) as session:
            results.append(session.execute(program).error)
    assert results[0].line + 7 == results[1].line


def test_the_same_craft_under_other_worlds_and_limits() -> None:
    """A CRAFT compiled under one world or limits is never reused under
    another: each compiles as it does in place there."""
    source = LIBRARY + "EMIT(fact(4), twice(2**70))\n".replace("2**70", "1180591620717411303424")
    for world, limits in [
        (STANDARD, Limits()),
        (MAIN, Limits()),
        (MAIN, Limits(max_int_bits=64)),
        (STANDARD, Limits(max_length=4)),
        (MAIN, Limits()),
    ]:
        assert_shared_as_in_place(source, world, limits)
    small = outcome(source, MAIN, Limits(max_int_bits=64), True)
    large = outcome(source, MAIN, Limits(), True)
    assert small.code != large.code


def craft_code(program, name: str) -> CodeType:
    top = next(c for c in program.code.co_consts if isinstance(c, CodeType))
    return next(c for c in top.co_consts if isinstance(c, CodeType) and c.co_name == name)


def test_the_budgets_a_program_shares_decide_what_is_found(monkeypatch) -> None:
    """Splicing rules and folding constants draw on budgets of the whole
    program: the same CRAFT at the same place, after a first line that spent
    one budget or the other, compiles otherwise, and is compiled so
    whichever program came first; what follows a CRAFT found in the cache
    finds the budgets as compiling it left them."""
    monkeypatch.setattr(
        compiler_module, "SPLICE_BUDGET", 13 * 3 * compiler_module.HOST_PER_RULE_NODE
    )
    limits = Limits(fold_steps=30)
    spliced = "EMIT(" + ", ".join(["SHATTER(a, a)"] * 14) + ")\n" + LIBRARY
    folded = "EMIT(" + ", ".join(["7"] * 40) + ")\n" + LIBRARY
    plain = "EMIT(a)\n" + LIBRARY
    # after CRAFTs found in the cache, the budgets are where compiling them left them
    after = LIBRARY + "EMIT(" + ", ".join(["SHATTER(a, a)"] * 12 + ["7"] * 28) + ")\n"
    CACHE.clear()
    for source in (spliced, plain, folded, plain, spliced, folded, after, after):
        assert_shared_as_in_place(source, MAIN, limits)
    compiled = {
        k: outcome(v, MAIN, limits, True) for k, v in [("s", spliced), ("f", folded), ("p", plain)]
    }
    assert craft_code(compiled["s"], "a_twice") != craft_code(compiled["p"], "a_twice")
    assert craft_code(compiled["f"], "a_fact") != craft_code(compiled["p"], "a_fact")


def test_options_are_numbered_afresh_with_an_empty_cache(monkeypatch) -> None:
    """Past MAX_OPTIONS worlds and limits, numbers start again and the CRAFTs
    kept under the old numbers go: no two options ever share a number."""
    # the numbers below are this test's own: entries kept under other numbers go
    CACHE.clear()
    monkeypatch.setattr(compiler_module, "_OPTIONS", {})
    monkeypatch.setattr(compiler_module, "_BY_WORLD", {})
    monkeypatch.setattr(compiler_module, "MAX_OPTIONS", 3)
    # 2**65 is refused within 65 bits, a constant within 66
    big = "CRAFT big():\n    DELIVER 36893488147419103232\n"
    sources = [big + LIBRARY + "EMIT(fact(3))", big + LIBRARY + "EMIT(twice(2))"]
    try:
        for bits in (64, 65, 66, 67, 64, 68):
            for source in sources:
                assert_shared_as_in_place(source, MAIN, Limits(max_int_bits=bits))
        assert len(compiler_module._OPTIONS) <= 3
    finally:
        CACHE.clear()


def test_equal_worlds_share_a_number_and_others_do_not(monkeypatch) -> None:
    """A world is found again by identity, and a world equal to it (another
    object) gets its number; a world that differs in a rule, a keyword, the
    limits or the options gets another."""
    from dataclasses import replace

    monkeypatch.setattr(compiler_module, "_OPTIONS", {})
    monkeypatch.setattr(compiler_module, "_BY_WORLD", {})
    number = compiler_module._options_id
    limits = Limits()
    first = number(MAIN, limits, True, True)
    assert number(MAIN, limits, True, True) == first
    assert number(replace(MAIN, rules=tuple(MAIN.rules)), limits, True, True) == first
    others = [
        number(replace(MAIN, rules=MAIN.rules[1:]), limits, True, True),
        number(replace(MAIN, keywords={**MAIN.keywords, "SET": "PLACE"}), limits, True, True),
        number(MAIN, Limits(max_int_bits=70), True, True),
        number(MAIN, limits, False, True),
        number(MAIN, limits, True, False),
    ]
    assert len({first, *others}) == 6


def test_runs_of_shared_and_in_place_code_agree() -> None:
    source = LIBRARY + "EMIT(fact(6), walk(STRAND(3, 4)))\nEMIT(PLUCK(STRAND(), 9))\n"
    results = []
    for shared in (False, True, True):
        program = outcome(source, MAIN, Limits(), shared)
        with Session(Limits()) as session:
            result = session.execute(program)
        results.append((result.as_dict(), session.meter.peak))
    assert results[0] == results[1] == results[2]
    assert "[AlienError]" in results[0][0]["output"] or results[0][0]["error"]


def compiled_craft(code: CodeType) -> CompiledCraft:
    """An entry that fits every budget."""
    return CompiledCraft(1, code, {}, {}, 0, 0, False, None, ())


def found(cache: CraftCache, key: tuple) -> CompiledCraft | None:
    return cache.get(key, 0, ())


def test_the_cache_holds_at_most_its_bytes_of_code() -> None:
    small, large = (compile("def f():\n    return 1\n" * k, "x", "exec") for k in (1, 40))
    cache = CraftCache(capacity=100, capacity_bytes=code_size(large) + code_size(small))
    entry = {c: compiled_craft(c) for c in (small, large)}
    cache.put(("huge",), compiled_craft(compile("x = 1\n" * 50_000, "x", "exec")))
    assert found(cache, ("huge",)) is None  # over the bound alone: not kept
    cache.put(("a",), entry[small])
    cache.put(("b",), entry[large])
    cache.put(("c",), entry[small])  # a goes
    assert found(cache, ("a",)) is None and found(cache, ("b",)) is entry[large]
    assert cache._bytes == code_size(large) + code_size(small)


def test_the_cache_keeps_the_most_recently_used() -> None:
    cache = CraftCache(capacity=2)
    entry = compiled_craft(compile("", "x", "exec"))
    cache.put(("a",), entry)
    cache.put(("b",), entry)
    assert found(cache, ("a",)) is entry  # now the most recent
    cache.put(("c",), entry)
    assert found(cache, ("b",)) is None
    assert found(cache, ("a",)) is entry and found(cache, ("c",)) is entry


def test_the_cache_counts_every_form_of_a_craft() -> None:
    """Forms of one CRAFT under other budgets count against the capacity,
    at most VARIANTS of them per CRAFT, the oldest going first."""
    code = compile("", "x", "exec")
    forms = [CompiledCraft(1, code, {}, {}, k, 0, True, None, ()) for k in range(12)]
    cache = CraftCache(capacity=10)
    for form in forms:
        cache.put(("a",), form)
    assert cache._count == VARIANTS and cache._bytes == VARIANTS * code_size(code)
    assert cache.get(("a",), 3, ()) is None and cache.get(("a",), 11, ()) is forms[11]
    cache.put(("b",), forms[0])
    cache.put(("c",), forms[0])  # 10 forms: still all kept
    cache.put(("d",), forms[0])  # 11: the least recently used CRAFT goes, all its forms
    assert cache.get(("a",), 11, ()) is None and cache._count == 3


def test_a_craft_is_found_under_any_budget_that_covers_it(monkeypatch) -> None:
    """A CRAFT that spliced every rule it asked to, and folded nothing, is
    compiled once whatever the statements before it spent of either budget;
    given less than it spent, or after folding, it is compiled again, and
    every program's code is what compiling it in place gives."""
    compiled = []
    alone = compiler_module.Compiler._craft_alone

    def counted(self, st, ctx):
        compiled.append(st.name)
        return alone(self, st, ctx)

    monkeypatch.setattr(compiler_module.Compiler, "_craft_alone", counted)
    monkeypatch.setattr(
        compiler_module, "SPLICE_BUDGET", 16 * 3 * compiler_module.HOST_PER_RULE_NODE
    )
    CACHE.clear()
    craft = "CRAFT twice(x):\n    DELIVER SHATTER(x, x)\n"
    folding = "CRAFT seven():\n    DELIVER SHATTER(3, 4)\n"
    heads = ["EMIT(a)\n", "EMIT(SHATTER(a, a))\n", "EMIT(SHATTER(a, a), SHATTER(a, a))\n"]
    # the whole budget spent before it: its rule is not spliced
    short = "EMIT(" + ", ".join(["SHATTER(a, a)"] * 16) + ")\n"
    sources = [short + craft + "EMIT(twice(2))"]
    sources += [head + craft + "EMIT(twice(2))" for head in heads]
    sources += [head + folding + "EMIT(seven())" for head in heads]
    sources += ["EMIT(SHATTER(1, 2))\n" + folding + "EMIT(seven())"]
    counts = []
    for source in sources:
        compile_source(source, MAIN)
        counts.append((compiled.count("twice"), compiled.count("seven")))
    # compiled short of budget, then again with enough and found under every
    # budget that covers it; found while the fold meter stands alike,
    # compiled again after a fold
    assert counts == [(1, 0), (2, 0), (2, 0), (2, 0), (2, 1), (2, 1), (2, 1), (2, 2)]
    for source in sources:
        assert_shared_as_in_place(source, MAIN)
