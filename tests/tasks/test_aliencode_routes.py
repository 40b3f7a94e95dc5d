"""Route coverage: a capability is unavoidable when no manual route computes
it without an altered rule, at any place (tasks/aliencode_routes.py)."""

from __future__ import annotations

from alienworlds.tasks.aliencode_routes import (
    Capability,
    capabilities,
    routes,
    unavoidable,
    unavoidable_rules,
)

from aliencode.world_schema import load


def world(tmp_path, *rules: tuple[str, str, str, str]):
    """A world file with rules (id, target, actual, scope)."""
    text = 'format = 1\nname = "routes"\nlanguage = "aliencode"\ndescription = "test"\n'
    for rule_id, target, actual, scope in rules:
        text += (
            f'\n[[rules]]\nid = "{rule_id}"\nname = "{rule_id}"\ntarget = "{target}"\n'
            f'actual = "{actual}"\nscope = "{scope}"\n'
        )
    path = tmp_path / f"w{len(list(tmp_path.iterdir()))}.toml"
    path.write_text(text, encoding="utf-8")
    return load(str(path))


SUM = "CRAFT add(a, b):\n    DELIVER SHATTER(a, b)\n"


def test_capabilities_are_sites_with_the_arities_used():
    source = 'SWEEP x IN STRAND(1, 2):\n    EMIT(SHATTER(x, 2.5), "a", YES)\n'
    assert capabilities(source, load("standard")) == {
        Capability("SWEEP", 0),
        Capability("STRAND", 2),
        Capability("EMIT", 3),
        Capability("SHATTER", 2),
        Capability("literal.int", 0),
        Capability("literal.float", 0),
        Capability("literal.str", 0),
        Capability("literal.bool", 0),
    }


def test_routes_include_the_manuals_identities():
    assert frozenset({"WEAVE", "literal.int"}) in routes(Capability("SHATTER", 2))
    assert frozenset({"GAUGE", "STRAND", "literal.bool"}) in routes(Capability("literal.int", 0))
    assert routes(Capability("literal.str", 0)) == (frozenset({"literal.str"}),)


def test_a_changed_operation_with_an_open_identity_is_avoidable(tmp_path):
    assert unavoidable(world(tmp_path, ("X1", "SHATTER", "(* a b)", "anywhere")), SUM) == {}


def test_closing_every_route_makes_it_unavoidable(tmp_path):
    w = world(
        tmp_path, ("X1", "SHATTER", "(* a b)", "anywhere"), ("X2", "WEAVE", "(- b a)", "anywhere")
    )
    assert unavoidable(w, SUM) == {Capability("SHATTER", 2): ("X1",)}
    assert unavoidable_rules(w, SUM) == ("X1",)


def test_a_rule_of_one_scope_leaves_the_other_places_open(tmp_path):
    w = world(tmp_path, ("X1", "SHATTER", "(* a b)", "top"), ("X2", "WEAVE", "(- b a)", "anywhere"))
    assert unavoidable(w, SUM) == {}


def test_a_red_herring_keeps_its_place_open(tmp_path):
    w = world(
        tmp_path,
        ("X0", "SHATTER", "IDENTITY", "loop"),
        ("X1", "SHATTER", "(* a b)", "anywhere"),
        ("X2", "WEAVE", "(- b a)", "anywhere"),
    )
    assert unavoidable(w, SUM) == {}


def test_literals(tmp_path):
    ints = world(tmp_path, ("X1", "literal.int", "(+ n 1)", "anywhere"))
    assert unavoidable(ints, "EMIT(3)\n") == {}  # counted as GAUGE(STRAND(YES, YES, YES))
    closed = world(
        tmp_path,
        ("X1", "literal.int", "(+ n 1)", "anywhere"),
        ("X2", "GAUGE", "(+ (len seq) 1)", "anywhere"),
    )
    assert unavoidable_rules(closed, "EMIT(3)\n") == ("X1",)
    text = world(tmp_path, ("X1", "literal.str", "(reverse s)", "function"))
    assert unavoidable(text, 'EMIT("ab")\n') == {}
    everywhere = world(tmp_path, ("X1", "literal.str", "(reverse s)", "anywhere"))
    assert unavoidable_rules(everywhere, 'EMIT("ab")\n') == ("X1",)


def test_main_reports_unavoidable_rules_that_change_their_site():
    main = load("main")
    for source in (
        "EMIT(SHATTER(1, 2))\n",
        'EMIT(FUSE("a", "b"))\n',
        "EMIT(PLUCK(STRAND(1, 2), 0))\n",
    ):
        for rule_id in unavoidable_rules(main, source):
            rule = main.rule(rule_id)
            assert not rule.red_herring and rule.target in {
                c.site for c in capabilities(source, main)
            }
