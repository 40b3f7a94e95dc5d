from alienworlds.episode.protocol import CONDITIONS, FEEDBACK_CHARS, FEEDBACK_LINES, cap_feedback, milestone_labels


def test_short_feedback_is_unchanged():
    assert cap_feedback("1\n2\n3") == "1\n2\n3"
    text = "\n".join(str(i) for i in range(FEEDBACK_LINES))
    assert cap_feedback(text) == text


def test_too_many_lines_are_cut_with_a_visible_note():
    text = "\n".join(f"line {i}" for i in range(40))
    capped = cap_feedback(text)
    kept, note = capped.rsplit("\n", 1)
    assert kept.split("\n") == [f"line {i}" for i in range(FEEDBACK_LINES)]
    assert note.startswith("[feedback truncated") and "15 of 40 lines" in note


def test_too_many_characters_are_cut():
    capped = cap_feedback("x" * 2000)
    kept, note = capped.rsplit("\n", 1)
    assert kept == "x" * FEEDBACK_CHARS
    assert "600 of 2000 characters" in note


def test_conditions_and_milestones():
    assert set(CONDITIONS) == {"autonomous", "hindsight", "fixed-probe", "without-tool", "direct", "open-book-m0", "open-book-m4"}
    assert milestone_labels(CONDITIONS["autonomous"]) == [0, 1, 2, 3, 4]
    assert milestone_labels(CONDITIONS["direct"]) == [0]
    assert milestone_labels(CONDITIONS["open-book-m0"]) == [0]
    assert milestone_labels(CONDITIONS["open-book-m4"]) == [0, 1, 2, 3, 4, "4+O"]
