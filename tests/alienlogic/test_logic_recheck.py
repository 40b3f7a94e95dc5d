"""The independent re-checker: the stored certificates hold and are refused
wherever their goal is provable; the invariant they claim holds on accepted
proofs and on every sequent saturation derives; its verdicts agree with the
search side's own soundness check; malformed certificates get a list of
problems, never an internal error, and bounded work."""

import json
import random
import resource
from itertools import product
from pathlib import Path

import pytest
from alienworlds.cli.alienlogic import cli
from alienworlds.ruleset.world import parse_world
from alienworlds.tasks.alienlogic_grading import logic_tasks
from alienworlds.tasks.bank import load_bank
from certgen import mutate, named_cases
from click.testing import CliRunner
from fuzzing import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logic_models import open_assumptions
from logic_proofgen import ProofGen
from test_logic_main_world import PLAN

from alienlogic import Formula, check, load_world, parse_formula, parse_proof
from alienlogic import recheck as R
from alienlogic.certify import check_certificate, world_text
from alienlogic.formulas import Bot, Eq, Exists, Fn, Forall, Name, Pred, children
from alienlogic.matrices import Algebra, Model, algebra_from_data, library, unsound_rules, value
from alienlogic.saturation import Bounds, closure, ground_terms, saturate
from alienlogic.semantics import signature
from alienlogic.world_schema import SCHEMA

ROOT = Path(__file__).resolve().parents[2]
MAIN = load_world("main")
MAIN_TEXT = world_text(MAIN)
CERTS = {
    p.stem: json.loads(p.read_text(encoding="utf-8"))
    for p in sorted((ROOT / "tasks/alienlogic/certificates").glob("*.json"))
}
TASKS = {t.id: t for t in logic_tasks(load_bank("alienlogic", "main"))}


def recheck(data: object, world: str | None = MAIN_TEXT) -> tuple[str, list[str]]:
    return R.recheck(data if isinstance(data, str) else json.dumps(data), world)


def world_file(*rules: tuple[str, str, str]) -> str:
    """A world's TOML text from (target, key, value) rules."""
    out = ['format = 1\nname = "w"\nlanguage = "alienlogic"']
    for i, (target, key, val) in enumerate(rules):
        out.append(
            f'[[rules]]\nid = "R{i}"\nname = "rule {i}"\ntarget = "{target}"\n'
            + (f"{key} = true" if key == "disabled" else f"{key} = {json.dumps(val)}")
        )
    return "\n\n".join(out) + "\n"


# -- the bank's certificates ------------------------------------------------------------------


def test_every_stored_certificate_holds_and_the_kinds_are_all_used():
    assert len(CERTS) == 25
    for name, data in CERTS.items():
        assert recheck(data) == ("holds", []), name
        assert check_certificate(data, MAIN, TASKS[name].theorem).ok
    assert any(d["top_level"] == "designated" for d in CERTS.values())
    assert any(d["singletons"] for d in CERTS.values())
    assert any(len(d["classes"]) > 1 and not d["singletons"] for d in CERTS.values())
    assert any(d["model"]["named"] != list(range(d["model"]["domain"])) for d in CERTS.values())


def test_each_certificate_is_refused_where_its_goal_is_provable():
    """The standard calculus and the world without the rules the naive proof
    runs into both accept the naive proof: no certificate may hold there. Nor
    where any single patch is switched off and the naive proof goes through."""
    from alienworlds.tasks.alienlogic_audit import blocking_patches

    for name, data in CERTS.items():
        task = TASKS[name]
        naive = parse_proof(task.naive)
        assert recheck(data, None)[0] == "fails", name
        blocking, _ = blocking_patches(MAIN, naive, task.theorem)
        weaker = MAIN.without(*blocking)
        assert check(naive, weaker, task=task.theorem).accepted
        assert recheck(data, world_text(weaker))[0] == "fails", (name, blocking)
        for rule in MAIN.rules:
            w = MAIN.without(rule.id)
            if check(naive, w, task=task.theorem).accepted:
                assert recheck(data, world_text(w))[0] == "fails", (name, rule.id)


# -- the invariant a certificate claims -----------------------------------------------------------


def random_model(alg: Algebra, shape: dict, formulas, rng: random.Random) -> Model:
    sig = signature(formulas)
    n, named = shape["domain"], tuple(shape["named"])
    dom = range(n)
    size = alg.matrix.size
    return Model(
        n,
        named,
        {p: rng.randrange(size) for p, a in sig.predicates if a == 0},
        {
            (p, a): {args: rng.randrange(size) for args in product(dom, repeat=a)}
            for p, a in sig.predicates
            if a > 0
        },
        {c: rng.choice(named) for c in sig.constants},
        {
            (f, a): {args: rng.randrange(n) for args in product(dom, repeat=a)}
            for f, a in sig.functions
        },
    )


def violation(alg: Algebra, shape: dict, premises, lines, rng: random.Random, tries: int = 6):
    """A (line, model) breaking the invariant: g0 ∧ open assumptions ≤ truth,
    g0 the premises' meet, or top in models where every premise is top."""
    m = alg.matrix
    formulas = [*premises, *(f for f, _ in lines), *(a for _, ctx in lines for a in ctx)]
    for _ in range(tries):
        model = random_model(alg, shape, formulas, rng)
        memo: dict[Formula, int] = {}

        def v(f: Formula) -> int:
            if f not in memo:
                memo[f] = value(f, alg, model)
            return memo[f]

        g0 = m.top
        for p in premises:
            g0 = m.meet[g0][v(p)]
        if alg.mode == "designated" and g0 != m.top:
            continue
        for f, ctx in lines:
            g = g0
            for a in ctx:
                g = m.meet[g][v(a)]
            if not m.leq[g][v(f)]:
                return f, ctx, model
    return None


def _old_l49():
    """The proof of the first bank's wrong label, as the bounded search finds it."""
    from alienlogic import Theorem
    from alienlogic.bounded import bounded_search

    found = bounded_search(MAIN, Theorem((), parse_formula("IMPL(p, IMPL(q, IMPL(r, AND(p, q))))")))
    assert found.proved
    return found.proof


def _main_proofs():
    bank = load_bank("alienlogic", "main")
    out = [parse_proof(t.reference) for t in logic_tasks(bank) if t.provable]
    out += [parse_proof(e.program) for e in bank.examples]
    out += [parse_proof(text) for text, expected in PLAN if expected == "ok"]
    return out + [_old_l49()]


def test_the_invariant_holds_on_every_line_of_accepted_main_proofs():
    rng = random.Random(12)
    for proof in _main_proofs():
        assert check(proof, MAIN).accepted
        lines = list(zip((s.formula for s in proof.steps), open_assumptions(proof)))
        for name, data in CERTS.items():
            alg = algebra_from_data(data)
            assert violation(alg, data["model"], proof.premises, lines, rng) is None, (
                name,
                str(proof),
            )


def _random_theorem(rng: random.Random, first_order: bool):
    gen = ProofGen(rng, first_order)
    return [gen.formula(2) for _ in range(rng.randint(0, 2))], gen.formula(3)


@pytest.mark.parametrize("seed", range(6))
def test_every_sequent_saturation_derives_keeps_the_invariant(seed):
    """Saturation derives sequents with the kernel's own rule code and the
    world's patches; every certificate's algebra must keep all of them."""
    rng = random.Random(seed)
    premises, goal = _random_theorem(rng, first_order=seed % 2 == 1)
    from alienlogic import Theorem

    t = Theorem(tuple(premises), goal)
    terms = tuple(ground_terms([*premises, goal])) + (Name("k1"),)
    result = saturate(MAIN, t, Bounds(tuple(closure((*premises, goal, Bot()), terms)), terms, 2))
    lines = [(f, ctx) for ctx, fs in result.derived.items() for f in fs]
    for name, data in CERTS.items():
        assert (
            violation(algebra_from_data(data), data["model"], premises, lines, rng, tries=3) is None
        ), (name, seed)


# -- agreement with the search side
# -----------------------------------------------------------------

REQUIRES = [
    "(== depth 0)",
    "(> depth 0)",
    "(<= depth 1)",
    "(not (is NOT (ref 1)))",
    "(!= (ref 1) (last 1))",
    "(== (left (ref 2)) (ref 1))",
    "(is EQ (ref 2))",
    "(== (size conclusion) (size (sub (ref 1))))",
    "(== (size (ref 1)) (size (sub conclusion)))",
    "(== (times-cited (refline 1)) 0)",
    "(< (refline 1) (refline 2))",
    "(is ATOM conclusion)",
    "(not (is IMPL (ref 1)))",
    "(== (sub (ref 2)) (ref 1))",
    "(or (== depth 0) (is PRED conclusion))",
    "(if (is AND (ref 1)) (== depth 0) true)",
    "(== (ref 1) 0)",
    "(> (size conclusion) 2)",
    "(not (== nrefs 1))",
]
CONCLUSIONS = [
    "(ref 1)",
    "(left (ref 1))",
    "(right (ref 1))",
    "(last 1)",
    "(sub (ref 1))",
    "(ref 2)",
]
RULE_NAMES = [
    "reit",
    "AND_I",
    "AND_E1",
    "AND_E2",
    "OR_I1",
    "OR_I2",
    "OR_E",
    "IMPL_I",
    "IMPL_E",
    "NOT_I",
    "NOT_E",
    "BOT_E",
    "DNE",
    "LEM",
    "FORALL_I",
    "FORALL_E",
    "EXISTS_I",
    "EXISTS_E",
    "EQ_I",
    "EQ_E",
]


def random_world(rng: random.Random, conditions: bool = True) -> str:
    rules, patched = [], set()
    for _ in range(rng.randint(1, 6)):
        target = rng.choice(RULE_NAMES)
        kind = rng.choice(["disabled", "conclusion"] + (["require"] * 3 if conditions else []))
        if kind == "conclusion" and (
            target in patched
            or target in ("LEM", "EQ_I")
            or target.startswith(("FORALL", "EXISTS", "EQ"))
        ):
            continue
        patched |= {target} if kind == "conclusion" else set()
        rules.append((target, kind, rng.choice(REQUIRES if kind == "require" else CONCLUSIONS)))
    return world_file(*rules)


def _plain_certificate(m, mode: str, domain: int) -> dict:
    return {
        "format": 2,
        "kind": "matrix",
        "premises": [],
        "goal": "p",
        **Algebra.plain(m, mode).as_data(),
        "model": {
            "domain": domain,
            "named": list(range(domain)),
            "atoms": {"p": m.elements[m.bottom]},
        },
    }


def rule_problems(data: dict, world: str | None) -> list[str]:
    return [p for p in recheck(data, world)[1] if not p.startswith("model:")]


def test_the_re_checker_agrees_with_the_search_side_on_plain_matrices():
    """Without side conditions the two independent soundness checks must
    agree exactly; with them, the search side (which ignores them) may only
    be stricter."""
    rng = random.Random(3)
    for i in range(40):
        conditions = i % 2 == 1
        text = random_world(rng, conditions)
        w = parse_world(text, "w.toml", SCHEMA)
        for m in library():
            search = {p.split(":")[0] for p in unsound_rules(m, w, 1)}
            re = {p.split(":")[0] for p in rule_problems(_plain_certificate(m, "any", 1), text)}
            if conditions:
                assert re <= search, (text, m.name)
            else:
                assert re == search, (text, m.name)


def test_sequents_from_random_worlds_keep_the_invariant_of_every_algebra_the_re_checker_accepts():
    rng = random.Random(5)
    algebras = [(algebra_from_data(d), d["model"], d) for d in CERTS.values()]
    algebras += [
        (Algebra.plain(m, mode), {"domain": 1, "named": [0]}, None)
        for m in library()
        for mode in ("any", "designated")
    ]
    accepted = 0
    for i in range(16):
        if i % 2:
            text = random_world(rng)
        else:  # the main world with some patches switched back to the manual
            text = world_text(
                MAIN.without(*rng.sample([r.id for r in MAIN.rules], rng.randint(1, 4)))
            )
        w = parse_world(text, "w.toml", SCHEMA)
        premises, goal = _random_theorem(rng, first_order=rng.random() < 0.4)
        from alienlogic import Theorem

        terms = tuple(ground_terms([*premises, goal])) + (Name("k1"),)
        try:
            result = saturate(
                w,
                Theorem(tuple(premises), goal),
                Bounds(tuple(closure((*premises, goal, Bot()), terms)), terms, 2),
            )
        except ValueError:
            continue  # a conclusion patch saturation cannot over-approximate
        lines = [(f, ctx) for ctx, fs in result.derived.items() for f in fs]
        for alg, shape, data in algebras:
            data = data or {
                "format": 2,
                "kind": "matrix",
                "premises": [],
                "goal": "p",
                **alg.as_data(),
                "model": {**shape, "atoms": {"p": alg.matrix.elements[0]}},
            }
            if rule_problems(data, text):
                continue
            accepted += 1
            assert violation(alg, shape, premises, lines, rng, tries=2) is None, (text, alg.name)
    assert accepted >= 50


# -- the three-valued reading of side conditions
# -------------------------------------------------------


def _step(depth=(0, 0), refs=("A",), out="A", env=None):
    cert = R.Certificate(
        _plain_certificate(library()[0], "any", 1)
        | {"classes": {"any": "*", "not": "NOT", "=p": "ATOM"}, "singletons": {"=p": "p"}}
    )
    return R.Step(
        cert,
        depth,
        list(refs),
        out,
        env or {"A": ("any", 1), "B": ("not", 0), "P": ("=p", 1), "Q": ("=p", 0)},
    )


@pytest.mark.parametrize(
    "expr, depth, expected",
    [
        ("(== depth 0)", (0, 0), True),
        ("(== depth 0)", (2, R.INF), False),
        ("(<= depth 1)", (2, R.INF), False),
        ("(> depth 1)", (1, 1), False),
        ("(> depth 1)", (2, R.INF), True),
        ("(== depth 5)", (2, R.INF), R.U),
        ("(== (times-cited (refline 1)) 0)", (0, 0), R.U),
        ("(not (premise? (refline 1)))", (0, 0), R.U),
        ("(and (== depth 0) (== line 3))", (1, 1), False),
        ("(or (== depth 0) (== line 3))", (0, 0), True),
        ("(if (== depth 0) true (== line 1))", (0, 0), True),
        ("(== nrefs 1)", (0, 0), True),
        ("(== (ref 2) none)", (0, 0), True),
        ("(== (ref 1) 0)", (0, 0), False),
        ("(is NOT (ref 1))", (0, 0), R.U),
        ("(+ depth 1)", (0, 0), R.U),
    ],
)
def test_side_conditions_are_decided_only_when_every_step_agrees(expr, depth, expected):
    assert _step(depth).eval(R.sexpr(expr)) == expected


def test_formulas_compare_by_value_shape_and_singleton_class():
    s = _step(refs=("A", "B", "P", "Q", ("NOT", "A")))
    assert s.eval(R.sexpr("(== (ref 1) (ref 2))")) is False  # different classes
    assert s.eval(R.sexpr("(== (ref 3) (ref 4))")) is True  # one formula per singleton class
    assert s.eval(R.sexpr("(== (ref 1) (ref 1))")) is True
    assert (
        s.eval(R.sexpr("(== (sub (ref 5)) (ref 1))")) is True
        and s.eval(R.sexpr("(is NOT (ref 5))")) is True
    )
    assert s.eval(R.sexpr("(left (ref 2))")) == R.NONE  # a negation has no left part
    assert (
        _step(env={"A": ("any", 1), "B": ("any", 1)}, refs=("A", "B")).eval(
            R.sexpr("(== (ref 1) (ref 2))")
        )
        == R.U
    )


def test_sizes_of_instances_are_compared_symbolically():
    extra = {("sub", "Q"): "BODY"}
    for growth, expected in (("0", True), ("+", False)):
        s = _step(refs=("Q",), out="INST")
        s.extra = {
            **extra,
            ("size", "BODY"): ("size", "x", "0"),
            ("size", "INST"): ("size", "x", growth),
        }
        assert s.eval(R.sexpr("(== (size conclusion) (size (sub (ref 1))))")) is expected


# -- its own reading of formulas
# ---------------------------------------------------------------------


def as_tuple(f) -> tuple:
    if type(f) is Pred:
        return ("P", f.name, tuple(_term(t) for t in f.terms))
    if type(f) is Bot:
        return ("BOT",)
    if type(f) is Eq:
        return ("EQ", _term(f.left), _term(f.right))
    if type(f) in (Forall, Exists):
        return (f.shape, f.var, as_tuple(f.body))
    return (f.shape, *(as_tuple(c) for c in children(f)))


def _term(t) -> tuple:
    return (t.name, ()) if type(t) is Name else (t.name, tuple(_term(a) for a in t.terms))


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.booleans())
def test_the_re_checker_reads_formulas_as_the_parser_does(seed, first_order):
    f = ProofGen(random.Random(seed), first_order).formula(4)
    f = Eq(Fn("f", (Name("a"), Name("x"))), Name("b")) if seed % 17 == 0 else f
    assert R.parse_formula(str(f)) == as_tuple(parse_formula(str(f)))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "p q",
        "NOT(p",
        "AND(p)",
        "P(X)",
        "FORALL(X, p)",
        "EQ(p, q)" + ")",
        "p,",
        "f()",
        "NOT(" * 70 + "p" + ")" * 70,
    ],
)
def test_the_re_checker_refuses_what_the_parser_refuses(text):
    with pytest.raises(R.Refused):
        R.parse_formula(text)


def test_the_re_checker_stands_alone():
    import ast
    import io
    import tokenize

    source = (ROOT / "alienlogic" / "recheck.py").read_text(encoding="utf-8")
    modules = {
        a.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import) for a in n.names
    }
    modules |= {n.module for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)}
    assert modules == {"__future__", "json", "re", "tomllib", "itertools"}
    # Short enough to audit by reading. Counted in tokens, which formatting
    # leaves alone (the formatter's line breaks grew it from 828 to 1,040 lines
    # without adding a token): 9,092 now.
    words = [
        t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
        and t.type != tokenize.COMMENT
    ]
    assert len(words) < 10_000


# -- malformed certificates
# --------------------------------------------------------------------------


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def test_named_faults_list_every_problem_and_exit_2(tmp_path):
    valid = CERTS["L04"]
    runner = CliRunner()
    for name, case in named_cases(valid).items():
        text = case if isinstance(case, str) else json.dumps(case)
        start = cpu()
        status, problems = R.recheck(text, MAIN_TEXT)
        assert cpu() - start < 1.0, name
        assert status == "malformed" and problems, (name, status, problems)
        path = tmp_path / "c.json"
        path.write_text(text, encoding="utf-8")
        result = runner.invoke(cli, ["certify", "--world", "main", "--check", str(path)])
        assert (
            result.exit_code == 2
            and result.exception is None
            or isinstance(result.exception, SystemExit)
        ), (name, result.output)
        assert result.exit_code == 2, (name, result.output)
        assert "problem:" in result.output and "internal error" not in result.output.lower()
    several = dict(
        valid,
        goal=7,
        model=dict(valid["model"], domain=10**9),
        connectives=dict(valid["connectives"], atoms=["p"]),
    )
    status, problems = recheck(several)
    assert status == "malformed" and len(problems) >= 3
    assert (
        any(p.startswith("goal") for p in problems)
        and any("model.domain" in p for p in problems)
        and any("atoms" in p for p in problems)
    )


def test_a_singleton_claim_must_be_earned():
    """A class named like the wildcard, or a rule on any parts producing a
    singleton class, would let a certificate treat many formulas as one."""
    l18 = CERTS["L18"]
    single = next(iter(l18["singletons"]))
    cheat = json.loads(json.dumps(l18))
    cheat["classes"]["*"] = "ATOM"
    assert any("wildcard" in p for p in recheck(cheat)[1])
    cheat = json.loads(json.dumps(l18))
    cheat["connectives"]["atoms"]["*"] = single
    assert any("holds only the formula" in p for p in recheck(cheat)[1])
    cheat = json.loads(json.dumps(l18))
    cheat["connectives"]["NOT"].insert(0, {"args": ["*"], "class": single, "table": ["0", "0"]})
    assert recheck(cheat)[0] == "malformed"


def test_work_is_refused_up_front():
    big = json.loads(json.dumps(CERTS["L58"]))
    values = [f"v{i}" for i in range(6)]
    big["truth"] = {"values": values, "order": [[a, b] for a, b in zip(values, values[1:])]}
    big["classes"] = {f"c{i}": "*" for i in range(8)}
    start = cpu()
    status, problems = recheck(big)
    assert status == "malformed" and cpu() - start < 1.0
    assert any("the check would take" in p for p in problems) or any("table" in p for p in problems)


@pytest.mark.parametrize("name", ["L04", "L18", "L28", "L35", "L58", "L01"])
def test_mutated_certificates_never_crash_and_stay_cheap(name):
    rng = random.Random(name)
    worst = 0.0
    for _ in range(120):
        case = mutate(CERTS[name], rng)
        start = cpu()
        status, problems = recheck(case)
        worst = max(worst, cpu() - start)
        assert status in ("holds", "fails", "malformed")
        assert (status == "holds") == (problems == [])
        result = check_certificate(case, MAIN, TASKS[name].theorem)
        assert result.status in ("holds", "fails", "malformed")
    assert worst < 2.0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    JSON,
    st.sampled_from(sorted(CERTS)),
    st.sampled_from(
        ["truth", "classes", "connectives", "model", "premises", "goal", "singletons", "top_level"]
    ),
)
def test_any_json_in_any_place_gets_a_verdict(junk, name, key):
    assert recheck(junk)[0] == "malformed"
    status, problems = recheck(dict(CERTS[name], **{key: junk}))
    assert status in ("fails", "malformed", "holds") and (status == "holds") == (not problems)
