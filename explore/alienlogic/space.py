"""The hypothesis space of a world: per inference rule, every patching of
that rule (up to the grammar's bounds) consistent with the observations.

A hypothesis about one rule is: the rule is disabled; or it keeps the
standard conclusion or has a `conclusion` patch c, and carries up to two
`require` conditions (a1, a2) in file order. Each patch reports its own
opaque id; a hypothesis also binds the ids it has been seen to report.
Rules are independent (a step's fate depends on its own rule's patches
only), so the space of a world is the product of the rules' spaces.

Candidates are grouped into observational equivalence classes (same values
on the pool's steps and on every observed step); hypotheses range over
classes. For one rule the surviving hypotheses are kept as mixtures, one
per assignment of the rule's observed ids to roles (which id, if any, is
the conclusion patch's); within a mixture the constraints on the
conclusion and on the requires are independent, so the mixture is a product
of two small tables: conclusion classes, and rows (a1, a2) of require
classes with the ids bound to their slots. Everything is rebuilt from the
observations when they change, so the space is a pure function of them.

Prior: disabled 0.1; otherwise a conclusion patch with probability 0.2
(candidates weighed 2^(-cost/2)), and 0, 1 or 2 requires with probabilities
0.4, 0.4, 0.2 (each weighed likewise).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from alienlogic import RULES

from .grammar import grammar
from .observe import APPLIES, DISABLED, PASS, SIDE, STANDARD, Observation, StepRecord
from .pool import pool

P_DISABLED = 0.1
P_CONCLUSION = 0.2
P_REQUIRES = (0.4, 0.4, 0.2)
NEW = "new"  # an id not seen yet, in predicted outcomes


@dataclass
class Seen:
    """An observed step with every candidate's value there."""

    record: StepRecord
    require: list[bool] | None = None
    conclusion: list[bool] | None = None

    @property
    def standard_ok(self) -> bool:
        return self.record.facts.failure is None


def seen(record: StepRecord) -> Seen:
    view = record.facts.view
    if view is None:
        return Seen(record)
    req, conc = grammar(record.rule).evaluate(view)
    return Seen(record, req, conc)


@dataclass
class Classes:
    """Candidates grouped by their values on the pool and the observed steps."""

    members: list[list[int]]  # candidate indices per class
    rep: list[int]  # the simplest member of each class
    weight: np.ndarray  # prior weight per class
    bits: list[int]  # each class's mask over pool + observed steps


def _group(
    sigs: list[int], costs: list[int], weights: np.ndarray, skip: int | None
) -> tuple[Classes, float]:
    """Classes of candidates by signature; candidates whose signature is
    `skip` are set apart, their weight returned."""
    groups: dict[int, list[int]] = {}
    skipped = 0.0
    for i, s in enumerate(sigs):
        if s == skip:
            skipped += float(weights[i])
        else:
            groups.setdefault(s, []).append(i)
    keyed = sorted(groups.items(), key=lambda kv: min((costs[i], i) for i in kv[1]))
    members = [m for _, m in keyed]
    rep = [min(m, key=lambda i: (costs[i], i)) for m in members]
    weight = np.array([float(weights[m].sum()) for m in members], dtype=float)
    return Classes(members, rep, weight, [s for s, _ in keyed]), skipped


@dataclass
class Mixture:
    """Hypotheses sharing one role assignment of the rule's ids."""

    conc_id: int  # index in RuleSpace.ids of the conclusion patch's id; -1 none seen
    c: np.ndarray  # conclusion class per row (0: the standard conclusion)
    cw: np.ndarray
    a1: np.ndarray  # require class per slot (-1: no such slot)
    a2: np.ndarray
    rw: np.ndarray
    b1: np.ndarray  # id bound to each slot (-1: none yet)
    b2: np.ndarray
    seen_ids: set[int] = field(default_factory=set)

    @property
    def mass(self) -> float:
        return float(self.cw.sum()) * float(self.rw.sum())

    @property
    def count(self) -> int:
        return len(self.c) * len(self.a1)

    def copy(self) -> Mixture:
        return Mixture(
            self.conc_id,
            self.c,
            self.cw,
            self.a1,
            self.a2,
            self.rw,
            self.b1,
            self.b2,
            set(self.seen_ids),
        )

    def keep_c(self, mask: np.ndarray) -> None:
        self.c, self.cw = self.c[mask], self.cw[mask]

    def keep_r(self, mask: np.ndarray) -> None:
        self.a1, self.a2, self.rw, self.b1, self.b2 = (
            self.a1[mask],
            self.a2[mask],
            self.rw[mask],
            self.b1[mask],
            self.b2[mask],
        )


@dataclass(frozen=True)
class Belief:
    """The most probable hypothesis about one rule."""

    rule: str
    disabled: bool
    disabled_id: str | None
    conclusion: str | None  # expression text; None: the standard conclusion
    conclusion_id: str | None
    requires: tuple[tuple[str, str | None], ...]  # (expression text, id or None)
    probability: float

    @property
    def patched(self) -> bool:
        return self.disabled or self.conclusion is not None or bool(self.requires)


def _truth(classes: Classes, n_pool: int, n_obs: int) -> np.ndarray:
    """Each class's value at each observed step: a bool matrix [class, step]."""
    out = np.zeros((len(classes.bits), n_obs), dtype=bool)
    for k, b in enumerate(classes.bits):
        obs = b >> n_pool
        for j in range(n_obs):
            if obs >> j & 1:
                out[k, j] = True
    return out


class RuleSpace:
    """The surviving hypotheses about one rule (see the module doc)."""

    def __init__(self, rule: str, steps: list[Seen], shape: list[Seen] = ()) -> None:
        """The space after `steps`; `shape` are further observed steps that
        only refine the classes (so that `add` can apply them later)."""
        self.rule = rule
        self.steps: list[Seen] = []
        self.ids: list[str] = []
        self.unexplained = 0  # observed steps no hypothesis could explain (set aside)
        g, pl = grammar(rule), pool(rule)
        n_pool = len(pl.steps)
        viewed = self.viewed = [s for s in (*steps, *shape) if s.require is not None]
        self._column = {id(s): j for j, s in enumerate(viewed)}
        n_obs = len(viewed)
        full = (1 << (n_pool + n_obs)) - 1
        req_sig = list(pl.require_bits)
        conc_sig = list(pl.conclusion_bits)
        std_sig = pl.standard_bits
        for j, s in enumerate(viewed):
            bit = 1 << (n_pool + j)
            for i, v in enumerate(s.require):
                if v:
                    req_sig[i] |= bit
            for i, v in enumerate(s.conclusion):
                if v:
                    conc_sig[i] |= bit
            if s.standard_ok:
                std_sig |= bit
        rw = np.array([c.weight for c in g.requires])
        rw = rw / rw.sum()
        self.req, trivial = _group(req_sig, [c.cost for c in g.requires], rw, full)
        if g.conclusions:
            cw = np.array([c.weight for c in g.conclusions])
            cw = cw / cw.sum()
            # a conclusion patch that derives what the standard rule derives is still
            # observable: a wrong line is refused with its id, not as WRONG_CONCLUSION
            conc, _ = _group(conc_sig, [c.cost for c in g.conclusions], cw, None)
            self.conc = Classes(
                [[]] + conc.members,
                [-1] + conc.rep,
                np.concatenate([[1 - P_CONCLUSION], P_CONCLUSION * conc.weight]),
                [std_sig] + conc.bits,
            )
        else:
            self.conc = Classes([[]], [-1], np.array([1.0]), [std_sig])
        self.req_truth = _truth(self.req, n_pool, n_obs)
        self.conc_truth = _truth(self.conc, n_pool, n_obs)
        # the steps that passed rule out whole classes at once: a cheaper start
        pass_cols = [
            self._column[id(s)] for s in steps if s.record.outcome == PASS and s.require is not None
        ]
        alive_r = (
            self.req_truth[:, pass_cols].all(axis=1)
            if pass_cols
            else np.ones(len(self.req.bits), bool)
        )
        alive_c = (
            self.conc_truth[:, pass_cols].all(axis=1)
            if pass_cols
            else np.ones(len(self.conc.bits), bool)
        )
        if (
            not alive_c.any()
        ):  # a conclusion outside the grammar: keep the standard one, note the steps
            alive_c[0] = True
            self.unexplained += sum(1 for j in pass_cols if not self.conc_truth[0, j])
        self.dis_weight = P_DISABLED
        self.dis_id: int = -1
        self.mixtures = [self._initial(alive_c, alive_r, trivial, rw)]
        for s in steps:
            self.add(s)

    def add(self, s: Seen) -> None:
        """Apply one more observed step (one of the steps the classes were built on)."""
        self.steps.append(s)
        self._apply(s)

    # -- building ---------------------------------------------------------------------
    def _initial(
        self, alive_c: np.ndarray, alive_r: np.ndarray, trivial: float, rw: np.ndarray
    ) -> Mixture:
        p0, p1, p2 = P_REQUIRES
        z = 1.0 - float((rw**2).sum())
        c = np.flatnonzero(alive_c)
        cw = (1 - P_DISABLED) * self.conc.weight[c]
        alive = np.flatnonzero(alive_r)
        w = self.req.weight[alive]
        n = len(alive)
        a1 = [np.array([-1]), alive]
        a2 = [np.array([-1]), np.full(n, -1)]
        ws = [
            np.array([p0 + p1 * trivial + p2 * trivial * trivial / z]),
            p1 * w + 2 * p2 * w * trivial / z,
        ]
        if n > 1:
            i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
            off = i != j
            a1.append(alive[i[off]])
            a2.append(alive[j[off]])
            ws.append(p2 * w[i[off]] * w[j[off]] / z)
        a1c, a2c = np.concatenate(a1), np.concatenate(a2)
        none = np.full(len(a1c), -1, dtype=np.int32)
        return Mixture(-1, c, cw, a1c, a2c, np.concatenate(ws), none, none.copy())

    def _id(self, rid: str | None) -> int:
        rid = rid or "?"
        if rid not in self.ids:
            self.ids.append(rid)
        return self.ids.index(rid)

    def _slots_failing(self, m: Mixture, col: int) -> np.ndarray:
        """Per row: 0 when every require holds at the step, else the first failing slot."""
        t = self.req_truth[:, col]
        f1 = (m.a1 >= 0) & ~t[np.maximum(m.a1, 0)]
        f2 = (m.a2 >= 0) & ~t[np.maximum(m.a2, 0)]
        return np.where(f1, 1, np.where(f2, 2, 0))

    def _apply(self, s: Seen) -> None:
        """Apply one refused step's outcome; an outcome no hypothesis explains is set aside."""
        before = (self.dis_weight, self.dis_id, [m.copy() for m in self.mixtures], list(self.ids))
        self._filter(s)
        if self.dis_weight == 0 and not any(m.count for m in self.mixtures):
            self.dis_weight, self.dis_id, self.mixtures, self.ids = before
            self.unexplained += 1

    def _filter(self, s: Seen) -> None:
        outcome = s.record.outcome
        if outcome == PASS:
            self.dis_weight = 0.0
            col = self._column.get(id(s))
            if col is not None:
                ct, rt = self.conc_truth[:, col], self.req_truth[:, col]
                for m in self.mixtures:
                    m.keep_c(ct[m.c])
                    m.keep_r(
                        ((m.a1 < 0) | rt[np.maximum(m.a1, 0)])
                        & ((m.a2 < 0) | rt[np.maximum(m.a2, 0)])
                    )
                self.mixtures = [m for m in self.mixtures if m.count]
            return
        if outcome == DISABLED:
            x = self._id(s.record.reason_id)
            if self.dis_id not in (-1, x):
                self.dis_weight = 0.0
            self.dis_id = x
            self.mixtures = []
            return
        self.dis_weight = 0.0
        if outcome == APPLIES:
            return
        col = self._column[id(s)]
        ct = self.conc_truth[:, col]
        if outcome == STANDARD:
            for m in self.mixtures:
                m.keep_c(m.c == 0)
            self.mixtures = [m for m in self.mixtures if m.count]
            return
        assert outcome == SIDE
        x = self._id(s.record.reason_id)
        out = []
        for m in self.mixtures:
            if m.conc_id == x:
                m.keep_c((m.c != 0) & ~ct[m.c])
                out.append(m)
                continue
            if m.conc_id == -1 and x not in m.seen_ids:
                spawn = m.copy()
                spawn.conc_id = x
                spawn.seen_ids.add(x)
                spawn.keep_c((spawn.c != 0) & ~ct[spawn.c])
                out.append(spawn)
            m.seen_ids.add(x)
            m.keep_c(ct[m.c])
            slot = self._slots_failing(m, col)
            bound = np.where(slot == 1, m.b1, np.where(slot == 2, m.b2, -2))
            other = np.where(slot == 1, m.b2, m.b1)
            ok = (slot > 0) & ((bound == x) | ((bound == -1) & (other != x)))
            m.keep_r(ok)
            slot = slot[ok]
            m.b1 = np.where(slot == 1, x, m.b1).astype(np.int32)
            m.b2 = np.where(slot == 2, x, m.b2).astype(np.int32)
            out.append(m)
        self.mixtures = [m for m in out if m.count]

    # -- summaries ------------------------------------------------------------------------
    @property
    def count(self) -> int:
        """Surviving hypotheses (classes), disabled included."""
        return (1 if self.dis_weight > 0 else 0) + sum(m.count for m in self.mixtures)

    @property
    def mass(self) -> float:
        return self.dis_weight + sum(m.mass for m in self.mixtures)

    def entropy(self) -> float:
        """Entropy in bits of the posterior over this rule's hypotheses."""
        total = self.mass
        if total <= 0:
            return 0.0
        h = 0.0
        parts = [self.dis_weight] + [m.mass for m in self.mixtures]
        for p in parts:
            if p > 0:
                h -= p / total * math.log2(p / total)
        for m in self.mixtures:
            q = m.mass / total
            if q > 0:
                h += q * (_entropy(m.cw) + _entropy(m.rw))
        return h

    def belief(self) -> Belief:
        """The most probable hypothesis (ties: the simplest, by build order)."""
        total = self.mass or 1.0
        best = (self.dis_weight, None)
        for m in self.mixtures:
            i, j = int(np.argmax(m.cw)), int(np.argmax(m.rw))
            value = float(m.cw[i]) * float(m.rw[j])
            if value > best[0] + 1e-15:
                best = (value, (m, i, j))
        value, found = best
        if found is None:
            did = self.ids[self.dis_id] if self.dis_id >= 0 else None
            return Belief(self.rule, True, did, None, None, (), value / total)
        m, i, j = found
        g = grammar(self.rule)
        c = int(m.c[i])
        conclusion = g.conclusions[self.conc.rep[c]].text if c > 0 else None
        cid = self.ids[m.conc_id] if c > 0 and m.conc_id >= 0 else None
        requires = []
        for a, b in ((m.a1[j], m.b1[j]), (m.a2[j], m.b2[j])):
            if a >= 0:
                requires.append(
                    (g.requires[self.req.rep[int(a)]].text, self.ids[int(b)] if b >= 0 else None)
                )
        return Belief(self.rule, False, None, conclusion, cid, tuple(requires), value / total)

    def cautious(self, threshold: float) -> Belief:
        """The most probable hypothesis with every further require whose
        posterior probability reaches `threshold` added (a proof that meets
        them all passes more of the surviving hypotheses)."""
        best = self.belief()
        total = self.mass
        if best.disabled or total <= 0:
            return best
        g = grammar(self.rule)
        marginal = np.zeros(len(self.req.bits))
        for m in self.mixtures:
            c = float(m.cw.sum())
            for a in (m.a1, m.a2):
                on = a >= 0
                np.add.at(marginal, a[on], m.rw[on] * c)
        marginal /= total
        have = {text for text, _ in best.requires}
        extra = [
            (g.requires[self.req.rep[k]].text, None)
            for k in np.argsort(-marginal, kind="stable")
            if marginal[k] >= threshold and g.requires[self.req.rep[k]].text not in have
        ]
        return Belief(
            self.rule,
            False,
            None,
            best.conclusion,
            best.conclusion_id,
            best.requires + tuple(extra[:2]),
            best.probability,
        )

    # -- prediction -----------------------------------------------------------------------
    def predict(
        self, steps: list[tuple[int, object, list[bool] | None, list[bool] | None]]
    ) -> tuple[dict, float]:
        """The distribution of this rule's first failure among `steps` of a
        proof: (step number, outcome kind, id) -> probability, and the
        probability that none fails. `steps` holds (number, facts, require
        values, conclusion values) in order; values are None for a step that
        fails the standard rule's applicability (the last one)."""
        total = self.mass
        events: dict[tuple, float] = {}
        if total <= 0 or not steps:
            return events, 1.0
        if self.dis_weight > 0:
            did = self.ids[self.dis_id] if self.dis_id >= 0 else NEW
            events[(steps[0][0], DISABLED, did)] = self.dis_weight / total
        viewed = [s for s in steps if s[2] is not None]
        last_applies = steps[-1] if steps[-1][2] is None else None
        m_steps = len(viewed)
        none_total = 0.0
        if m_steps:
            tr = (
                np.array([[s[2][r] for s in viewed] for r in self.req.rep], dtype=bool)
                if self.req.rep
                else np.zeros((0, m_steps), bool)
            )
            tc = np.array(
                [
                    [(s[1].failure is None) if r < 0 else s[3][r] for s in viewed]
                    for r in self.conc.rep
                ],
                dtype=bool,
            )
        for mx in self.mixtures:
            if m_steps == 0:
                none_total += mx.mass
                continue
            cpass = tc[mx.c]
            fc = np.where(cpass.all(axis=1), m_steps, np.argmin(cpass, axis=1))
            f1 = (mx.a1[:, None] >= 0) & ~tr[np.maximum(mx.a1, 0)]
            f2 = (mx.a2[:, None] >= 0) & ~tr[np.maximum(mx.a2, 0)]
            anyf = f1 | f2
            fr = np.where(anyf.any(axis=1), np.argmax(anyf, axis=1), m_steps)
            rows = np.arange(len(fr))
            frc = np.minimum(fr, m_steps - 1)
            slot1 = f1[rows, frc]
            rid = np.where(slot1, mx.b1, mx.b2)
            c_fail = np.bincount(fc, weights=mx.cw, minlength=m_steps + 1)
            r_fail = np.bincount(fr, weights=mx.rw, minlength=m_steps + 1)
            # sums over later steps, added from the end (so that nothing left is exactly 0)
            r_from = np.cumsum(r_fail[::-1])[::-1]  # mass failing at or after each step (or never)
            c_after = np.concatenate([np.cumsum(c_fail[::-1])[::-1][1:], [0.0]])  # strictly after
            std = mx.c == 0
            std_mass = np.bincount(fc[std], weights=mx.cw[std], minlength=m_steps + 1)
            side_mass = np.bincount(fc[~std], weights=mx.cw[~std], minlength=m_steps + 1)
            for i, s in enumerate(viewed):
                num = s[0]
                if c_fail[i] > 0:
                    if std_mass[i] > 0:
                        key = (num, STANDARD, s[1].failure.reason_id if s[1].failure else "?")
                        events[key] = events.get(key, 0.0) + std_mass[i] * r_from[i] / total
                    if side_mass[i] > 0:
                        key = (num, SIDE, self.ids[mx.conc_id] if mx.conc_id >= 0 else NEW)
                        events[key] = events.get(key, 0.0) + side_mass[i] * r_from[i] / total
                if r_fail[i] > 0 and c_after[i] > 0:
                    at = fr == i
                    for b in np.unique(rid[at]):
                        key = (num, SIDE, self.ids[int(b)] if b >= 0 else NEW)
                        events[key] = (
                            events.get(key, 0.0)
                            + float(mx.rw[at][rid[at] == b].sum()) * c_after[i] / total
                        )
            none_total += float(c_fail[m_steps]) * float(r_fail[m_steps])
        none = none_total / total
        if last_applies is not None and none > 0:
            key = (last_applies[0], APPLIES, last_applies[1].failure.reason_id)
            events[key] = events.get(key, 0.0) + none
            none = 0.0
        return events, none


def _entropy(w: np.ndarray) -> float:
    s = float(w.sum())
    if s <= 0:
        return 0.0
    p = w[w > 0] / s
    return float(-(p * np.log2(p)).sum())


class Space:
    """The hypothesis space of a world, from the observations so far."""

    def __init__(self) -> None:
        self.observations: list[Observation] = []
        self._steps: dict[str, list[Seen]] = {r: [] for r in RULES}
        self._rules: dict[str, RuleSpace] = {}

    def add(self, observation: Observation) -> None:
        self.observations.append(observation)
        for record in observation.records:
            self._steps[record.rule].append(seen(record))
            self._rules.pop(record.rule, None)

    def rule(self, name: str) -> RuleSpace:
        space = self._rules.get(name)
        if space is None:
            space = self._rules[name] = RuleSpace(name, self._steps[name])
        return space

    def log2_count(self) -> float:
        """log2 of the number of surviving hypotheses about the whole world."""
        return sum(math.log2(max(self.rule(r).count, 1)) for r in RULES)

    def beliefs(self) -> list[Belief]:
        return [self.rule(r).belief() for r in RULES]

    def cautious_beliefs(self, threshold: float) -> list[Belief]:
        return [self.rule(r).cautious(threshold) for r in RULES]

    def acceptance(self, proof) -> float:
        """The posterior probability that the checker accepts every step of `proof`."""
        return self.predict(proof).get(("ok",), 0.0)

    def predict(self, proof) -> dict[tuple, float]:
        """The distribution of the verdict on `proof` under the posterior:
        (step, outcome kind, id) for a refusal, ("ok",) for a proof whose
        every step passes, ("place", step) for a failure no world changes."""
        from alienlogic.kernel import PLACE, walk

        facts = walk(proof)
        end = None
        if facts and facts[-1].stage == PLACE:
            end = ("place", facts[-1].number)
            facts = facts[:-1]
        by_rule: dict[str, list] = {}
        for f in facts:
            if f.view is not None:
                req, conc = grammar(f.rule).evaluate(f.view)
            else:
                req = conc = None
            by_rule.setdefault(f.rule, []).append((f.number, f, req, conc))
        per_rule = {r: self.rule(r).predict(steps) for r, steps in by_rule.items()}
        return combine(per_rule, end or ("ok",))


def combine(per_rule: dict[str, tuple[dict, float]], end: tuple) -> dict[tuple, float]:
    """The verdict distribution from each rule's first-failure distribution
    (rules are independent; the earliest failing step decides)."""
    events = sorted((k, r) for r, (ev, _) in per_rule.items() for k in ev)
    out: dict[tuple, float] = {}
    # survival of each rule up to (not including) a step, updated as steps pass
    failed_before: dict[str, float] = {r: 0.0 for r in per_rule}
    for key, r in events:
        p = per_rule[r][0][key]
        others = 1.0
        for r2 in per_rule:
            if r2 != r:
                others *= 1.0 - failed_before[r2]
        out[key] = out.get(key, 0.0) + p * others
        failed_before[r] += p
    rest = 1.0
    for _, none in per_rule.values():
        rest *= none
    if rest > 0:
        out[end] = out.get(end, 0.0) + rest
    return out


def entropy(dist: dict[tuple, float]) -> float:
    total = sum(dist.values())
    return (
        -sum(p / total * math.log2(p / total) for p in dist.values() if p > 0) if total > 0 else 0.0
    )
