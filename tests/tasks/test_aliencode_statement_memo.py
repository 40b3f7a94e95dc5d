"""The statement memo gives what computing afresh gives (tasks/aliencode_statement_memo.py)."""

from __future__ import annotations

from alienworlds.tasks import aliencode_statement_memo as memo
from alienworlds.tasks.aliencode_compact import (
    CONSTANT,
    Rewriter,
    _inline_once,
    count,
    tokens,
)
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from aliencode import parse
from aliencode import syntax as s
from aliencode.unparse import unparse
from aliencode.walk import nodes

SNIPPETS = (
    "SET x AS SHATTER(1, 2)",
    'EMIT(FUSE("ab", "c"), YES)',
    "CRAFT f(a, b):\n    UPON AKIN(a, b):\n        DELIVER a\n    DELIVER PARE(a, 2)",
    "SWEEP k IN STRAND(1, 2, 3):\n    EMIT(k)",
    "WHILE NO:\n    CEASE",
    'SET zq_c1 AS GAUGE("x")\nSET zq_c2 AS GAUGE("xx")\nEMIT(SHATTER(zq_c1, zq_c2))',
    'SET zq_c3 AS GAUGE("xxx")\nCRAFT g(v):\n    DELIVER SHATTER(v, zq_c3)\nEMIT(g(zq_c3))',
)
# statements parsed once and shared, as the strategies' library pieces are
POOL = tuple(st_ for text in SNIPPETS for st_ in parse(text, {}).body)
SPELLINGS = ({}, {"SET": "PUT", "EMIT": "SHOUT"}, {"CRAFT": "MAKE", "DELIVER": "GIVE"})

bodies = st.lists(
    st.one_of(
        st.sampled_from(POOL),
        # a fresh copy: equal to a pooled statement, another object
        st.sampled_from(SNIPPETS).map(lambda text: parse(text + "\n\n", {}).body[0]),
    ),
    max_size=8,
).map(tuple)


@settings(max_examples=examples(150), deadline=None)
@given(bodies, st.sampled_from(SPELLINGS), st.sampled_from(SPELLINGS))
def test_program_text_is_the_unparsed_program(body, first, second):
    for keywords in (first, second, first):
        assert memo.program_text(body, keywords) == unparse(s.Program(body), keywords)


def test_the_memo_computes_once_per_object_and_starts_afresh_when_full(monkeypatch):
    monkeypatch.setattr(memo, "LIMIT", 3)
    found = memo.IdentityMemo()
    made: list[int] = []
    objects = [parse(f"EMIT({k})", {}).body[0] for k in range(5)]
    for obj in objects + objects[::-1]:
        k = objects.index(obj)
        assert found.get(obj, "x", lambda k=k: made.append(k) or k * 10) == k * 10
    assert made[:5] == [0, 1, 2, 3, 4]  # each object once while its entry lives
    assert len(made) < 10
    twin = parse("EMIT(0)\n\n", {}).body[0]  # equal to objects[0], another object
    assert found.get(twin, "x", lambda: "twin") == "twin"


def _inline_everywhere(body):
    """_inline_once as written before the memo: every statement rewritten."""
    uses: dict[str, int] = {}
    for node in nodes(s.Program(body)):
        if isinstance(node, s.Name) and node.id.startswith(CONSTANT):
            uses[node.id] = uses.get(node.id, 0) + 1
    resolver = Rewriter(frozenset())
    for st_ in body:
        name = st_.targets[0] if isinstance(st_, s.Set) else ""
        if name.startswith(CONSTANT) and uses.get(name) == 1:
            resolver.names[name] = resolver.expr(st_.values[0])
    kept = [
        st_ for st_ in body if not (isinstance(st_, s.Set) and st_.targets[0] in resolver.names)
    ]
    return resolver.body(tuple(kept))


@settings(max_examples=examples(150), deadline=None)
@given(bodies)
def test_inlining_keeps_untouched_statements_and_matches_a_full_rewrite(body):
    got = _inline_once(body)
    assert got == _inline_everywhere(body)
    inlined = {st_.targets[0] for st_ in body if isinstance(st_, s.Set)} - {
        st_.targets[0] for st_ in got if isinstance(st_, s.Set)
    }
    for st_ in got:
        names = {n.id for n in nodes(st_) if isinstance(n, s.Name)}
        if st_ in body and not names & inlined:
            assert any(st_ is original for original in body)


@settings(max_examples=examples(100), deadline=None)
@given(bodies)
def test_tokens_counted_by_statement_are_the_programs_count(body):
    program = s.Program(body)
    assert tokens(program) == count(program) == tokens(program)
