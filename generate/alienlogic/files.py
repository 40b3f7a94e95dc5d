"""The text of a generated world's files: world.toml, bank.toml, certificates.

Written by hand rather than by a TOML library so that the bytes depend on
the data alone (key order, quoting, layout) and read like the main world's
files. Strings are JSON-quoted with ASCII escapes, which TOML reads as basic
strings; proofs go in multi-line strings (they hold no quotes or backslashes).
"""

from __future__ import annotations

import json

from alienworlds.ruleset.world import Rule

from alienlogic import Proof
from alienlogic.certify import dump_certificate

PROMPT = (
    "Prove the goal from the premises in this world, "
    "or answer ANSWER: UNPROVABLE if it has no proof here."
)
FAMILIES = ("sanity", "single-rule", "two-rule", "multi-rule", "first-order", "unprovable")


def q(text: str) -> str:
    return json.dumps(text, ensure_ascii=True)


def world_toml(name: str, version: str, rules: list[Rule]) -> str:
    lines = [
        f"# A generated AlienLogic world (alienlogic world generate, generator version {version}).",
        "# Keep it, its bank and its seed private: a world whose rules are known measures",
        "# recall, not exploration. Rule ids are opaque; for one inference rule, the order",
        "# of its side conditions below is the order in which they are checked.",
        "",
        "format = 1",
        f"name = {q(name)}",
        'language = "alienlogic"',
        "description = "
        f"""{
            q(
                f"A generated world (generator version {version}): "
                f"{len(rules)} patches of the standard rules."
            )
        }""",
    ]
    for r in rules:
        lines += [
            "",
            "[[rules]]",
            f"id = {q(r.id)}",
            f"name = {q(r.name)}",
            f"target = {q(r.target)}",
            f"layer = {q(r.layer)}",
        ]
        if r.disabled:
            lines.append("disabled = true")
        if r.require:
            lines.append(f"require = {q(r.require)}")
        if r.conclusion:
            lines.append(f"conclusion = {q(r.conclusion)}")
    return "\n".join(lines) + "\n"


def _proof(key: str, proof: Proof) -> list[str]:
    return [f'{key} = """', str(proof).rstrip("\n"), '"""']


def bank_toml(
    world: str,
    version: str,
    audit: dict[str, object],
    examples: list[tuple[str, str, Proof]],
    tasks: list[dict[str, object]],
) -> str:
    """`examples`: (id, prompt, proof); `tasks`: dicts with id, family,
    premises, goal, provable and reference, naive (proofs or None), certificate."""
    families = ", ".join(f"{f} = {audit['families'].get(f, 0)}" for f in FAMILIES)
    lines = [
        f"# Task bank of the generated AlienLogic world {world} (generator version {version}).",
        "# Provable tasks carry a reference proof the world accepts and, when the world refuses",
        "# the standard calculus' proof, that proof as `naive`; unprovable ones carry the",
        "# standard proof as `naive` and a certificate (re-check: alienlogic certify --check).",
        "# Keep this file private, like the world it belongs to.",
        "",
        "format = 1",
        f"world = {q(world)}",
        f"generator = {q(f'alienlogic world generate {version}')}",
        "",
        "[audit]",
        *(f"{k} = {v}" for k, v in audit.items() if k not in ("families", "id_pattern")),
        f"families = {{ {families} }}",
        f"id_pattern = {q(audit['id_pattern'])}",
    ]
    for example_id, prompt, proof in examples:
        lines += [
            "",
            "[[examples]]",
            f"id = {q(example_id)}",
            f"prompt = {q(prompt)}",
            *_proof("program", proof),
            "rules = []",
        ]
    for t in tasks:
        lines += [
            "",
            "[[tasks]]",
            f"id = {q(t['id'])}",
            'kind = "proof"',
            f"family = {q(t['family'])}",
            f"prompt = {q(PROMPT)}",
            f"premises = [{', '.join(q(p) for p in t['premises'])}]",
            f"goal = {q(t['goal'])}",
            f"provable = {'true' if t['provable'] else 'false'}",
        ]
        if t.get("certificate"):
            lines.append(f"certificate = {q(t['certificate'])}")
        if t.get("reference") is not None:
            lines += _proof("reference", t["reference"])
        if t.get("naive") is not None:
            lines += _proof("naive", t["naive"])
    return "\n".join(lines) + "\n"


def certificate_json(data: dict[str, object], task_id: str) -> str:
    """The certificate's file text, naming its task (after format and kind)."""
    head = {k: data[k] for k in ("format", "kind") if k in data}
    return dump_certificate(
        {
            **head,
            "task": task_id,
            **{k: v for k, v in data.items() if k not in head and k != "task"},
        }
    )
