"""A bank's classification keys (band, family, representation, depth) are
checked for program tasks and left as written for proof tasks, whichever
language reads the bank: the kind decides, not the language's name."""

from __future__ import annotations

import pytest
from alienworlds.episode.languages import LANGUAGES
from alienworlds.tasks.bank import (
    BANDS,
    CLASSIFIED_KINDS,
    DEPTHS,
    FAMILIES,
    KINDS,
    REPRESENTATIONS,
    BankError,
    parse_bank,
)
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

ALLOWED = {"band": BANDS, "family": FAMILIES, "representation": REPRESENTATIONS, "depth": DEPTHS}
# what every kind needs besides its classification, so that only that is judged
NEEDS = {
    "synthesis": 'reference = "EMIT 1"\nnaive = "EMIT 1"\n',
    "prediction": 'program = "EMIT 1"\n',
    "proof": "",
}


def bank_text(kind: str, key: str, value: str) -> str:
    return (
        "format = 1\n[[tasks]]\n"
        f'id = "T01"\nkind = "{kind}"\nprompt = "p"\n{key} = "{value}"\n{NEEDS[kind]}'
    )


def refused(language: str, text: str) -> list[str]:
    try:
        parse_bank(language, "w", text, "bank.toml")
    except BankError as exc:
        return exc.problems
    return []


@settings(max_examples=examples(120), deadline=None)
@given(
    language=st.sampled_from(sorted(LANGUAGES)),
    kind=st.sampled_from(KINDS),
    key=st.sampled_from(sorted(ALLOWED)),
    value=st.text(st.characters(categories=("Ll", "Nd", "Pd")), max_size=12),
)
def test_a_classification_is_checked_exactly_for_program_tasks(language, kind, key, value):
    problems = refused(language, bank_text(kind, key, value))
    expected = kind in CLASSIFIED_KINDS and value not in ALLOWED[key]
    assert bool(problems) == expected, problems
    if expected:
        assert problems == [
            f"bank.toml: task T01: key '{key}': expected one of " + ", ".join(ALLOWED[key])
        ]


@pytest.mark.parametrize("kind", CLASSIFIED_KINDS)
def test_every_listed_value_is_accepted(kind):
    for key, allowed in ALLOWED.items():
        for value in allowed:
            assert refused("aliencode", bank_text(kind, key, value)) == []
