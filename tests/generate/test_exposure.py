"""The exposure check and drawing one rule again (the generator's speed-ups)."""

from __future__ import annotations

from alienworlds.generate.aliencode import Knobs
from alienworlds.generate.aliencode.exposure import shows
from alienworlds.generate.aliencode.world_draw import Drawer
from alienworlds.porting.compensation import Memo
from alienworlds.ruleset import Rule

SHIFT = "(get seq (- i 1))"


def pluck(rule_id: str, scope: str, actual: str) -> Rule:
    return Rule(id=rule_id, name="", target="PLUCK", actual=actual, layer="positions", scope=scope)


def test_an_altered_rule_that_templates_reach_shows():
    assert shows("A", (pluck("A", "anywhere", SHIFT),))


def test_a_rule_hidden_in_every_scope_does_not_show():
    herrings = tuple(pluck(f"H{scope}", scope, "IDENTITY") for scope in ("top", "function", "loop"))
    assert not shows("A", (*herrings, pluck("A", "anywhere", SHIFT)))
    # and each herring, hiding nothing the others do not, shows only where it alone hides the rule
    assert shows("Hloop", (herrings[2], pluck("A", "anywhere", SHIFT)))


def test_shows_ignores_rule_ids_and_names():
    one = shows("A", (pluck("A", "anywhere", SHIFT),))
    other = shows(
        "G07",
        (
            Rule(
                id="G07",
                name="PLUCK counts from 1",
                target="PLUCK",
                actual=SHIFT,
                layer="positions",
            ),
        ),
    )
    assert one == other


def _drawn(seed: str) -> Drawer:
    drawer = Drawer(seed, Knobs(altered=6, red_herrings=2, scoped=1, renamed=1), 0, Memo())
    drawer.run()
    return drawer


def test_drawing_one_rule_again_keeps_the_rest_and_never_the_same_rule():
    drawer = _drawn("exposure-redraw")
    before = drawer.result()
    victim = next(
        r for r in before.world.rules if not r.red_herring and r.target not in ("PLUCK", "CARVE")
    )
    assert drawer.redraw(victim.id)
    after = drawer.result()
    place = lambda r: (r.target, r.scope, r.actual)  # noqa: E731
    assert place(victim) not in {place(r) for r in after.world.rules}
    kept = {place(r) for r in before.world.rules} - {place(victim)}
    assert kept <= {place(r) for r in after.world.rules}
    assert after.world.keywords == before.world.keywords
    # the knobs still hold, and every draw is counted: kept rules plus rejections
    rules = after.world.rules
    assert sum(not r.red_herring for r in rules) == 6 and sum(r.red_herring for r in rules) == 2
    assert after.draws == len(rules) + sum(after.rejected.values())
    assert after.rejected["no bank task entered it"] == 1


def test_drawing_a_keystone_rule_again_draws_another_keystone_rule():
    drawer = _drawn("k3")
    before = drawer.result().world.rules
    carve = next(r for r in before if r.target == "CARVE" and r.scope == "anywhere")
    # red herrings rarely shadow the keystone pair (generator version 5), so
    # how many go with the CARVE rule is read from the world, not assumed
    shadowing = sum(r.red_herring and r.target == "CARVE" for r in before)
    assert drawer.redraw(carve.id)
    after = drawer.result()
    rules = after.world.rules
    assert after.rejected["its rule was drawn again"] == shadowing
    assert any(
        r.target == "CARVE" and r.scope == "anywhere" and r.actual != carve.actual for r in rules
    )
    # red herrings shadowing the old rule went with it and were drawn again
    assert sum(r.red_herring for r in rules) == 2
    for k, r in enumerate(rules):
        if r.red_herring:
            assert any(
                o.target == r.target and o.scope == "anywhere" and not o.red_herring
                for o in rules[k + 1 :]
            )
