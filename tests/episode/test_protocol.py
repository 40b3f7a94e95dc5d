from alienworlds.episode.protocol import (
    CONDITIONS,
    FEEDBACK_CHARS,
    FEEDBACK_LINES,
    TRUNCATION_NOTE,
    cap_feedback,
    milestone_labels,
)
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st


def test_short_feedback_is_unchanged():
    assert cap_feedback("1\n2\n3") == "1\n2\n3"
    text = "\n".join(str(i) for i in range(FEEDBACK_LINES))
    assert cap_feedback(text) == text


def test_too_many_lines_are_cut_with_a_visible_note():
    text = "\n".join(f"line {i}" for i in range(40))
    capped = cap_feedback(text)
    kept, note = capped.rsplit("\n", 1)
    assert kept.split("\n") == [f"line {i}" for i in range(FEEDBACK_LINES)]
    assert note == TRUNCATION_NOTE == "[feedback truncated]"


def test_too_many_characters_are_cut():
    capped = cap_feedback("x" * 2000)
    kept, note = capped.rsplit("\n", 1)
    assert kept == "x" * FEEDBACK_CHARS
    assert note == TRUNCATION_NOTE


@given(st.text(min_size=1, max_size=1200), st.text(max_size=300))
@settings(max_examples=examples(200))
def test_cut_feedback_reveals_nothing_past_the_cut(text, extra):
    # once output is cut, what follows the cut (and so the withheld size)
    # changes nothing in the feedback
    capped = cap_feedback(text)
    if capped == text:
        return
    assert capped == cap_feedback(text + extra)
    assert capped.endswith("\n" + TRUNCATION_NOTE)
    assert len(capped) <= FEEDBACK_CHARS + len(TRUNCATION_NOTE) + 1


def test_conditions_and_milestones():
    assert set(CONDITIONS) == {
        "autonomous",
        "hindsight",
        "fixed-probe",
        "without-tool",
        "direct",
        "open-book-m0",
        "open-book-m4",
    }
    assert milestone_labels(CONDITIONS["autonomous"]) == [0, 1, 2, 3, 4]
    assert milestone_labels(CONDITIONS["direct"]) == [0]
    assert milestone_labels(CONDITIONS["open-book-m0"]) == [0]
    assert milestone_labels(CONDITIONS["open-book-m4"]) == [0, 1, 2, 3, 4, "4+O"]
