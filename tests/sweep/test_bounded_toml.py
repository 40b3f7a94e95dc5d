"""The bounded TOML reader: the depth counted on the text agrees with the
parsed data for random documents whose strings and comments are full of
brackets and quotes; every bound is refused with a BoundsError (never a
RecursionError or ValueError), whatever the nesting, dotted keys or digits."""

from __future__ import annotations

import json
import tomllib

import pytest
from alienworlds.sweep.bounded_toml import BoundsError, TomlBounds, depth, load, shape
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st

WIDE = TomlBounds(max_bytes=1 << 22, max_depth=10_000)
TIGHT = TomlBounds(max_bytes=1 << 20, max_depth=32)

# text that would confuse a scanner that did not know strings and comments
TRICKY = st.text(
    st.sampled_from(list("[]{}\"'#\\\n\tab=,.") + ["\u00e9", "\U0001f600"]), max_size=12
)


def basic(text: str) -> str:
    """A TOML basic string (JSON escapes, which TOML shares, and DEL)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


@st.composite
def string(draw) -> tuple[str, str]:
    """(TOML source, value) of a string in one of TOML's four spellings."""
    text = draw(TRICKY)
    style = draw(st.sampled_from(["basic", "literal", "multi-basic", "multi-literal"]))
    if style == "literal" and not any(c in text for c in "'\n"):
        return f"'{text}'", text
    if style == "multi-literal" and "'" not in text:
        # a newline right after the opening quotes is trimmed by TOML: start with a character
        return f"'''x{text}'''", "x" + text
    if style == "multi-basic":
        return '"""' + basic(text)[1:-1] + '"""', text
    return basic(text), text


keys = st.text(st.sampled_from(list("ab]['#")), min_size=1, max_size=4)


def values(leaf):
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3).map(
                lambda items: ("[" + ", ".join(s for s, _ in items) + "]", [v for _, v in items])
            ),
            st.dictionaries(keys, inner, max_size=3).map(
                lambda table: (
                    "{" + ", ".join(f"{basic(k)} = {s}" for k, (s, _) in table.items()) + "}",
                    {k: v for k, (_, v) in table.items()},
                )
            ),
        ),
        max_leaves=30,
    )


leaves = st.one_of(
    string(),
    st.integers(-(10**20), 10**20).map(lambda n: (str(n), n)),
    st.booleans().map(lambda b: ("true" if b else "false", b)),
)


@st.composite
def documents(draw) -> tuple[str, dict]:
    entries = draw(st.dictionaries(keys, values(leaves), min_size=1, max_size=4))
    lines = []
    for key, (source, _) in entries.items():
        lines.append(f"# {draw(TRICKY).replace(chr(10), ' ')}")
        lines.append(f"{basic(key)} = {source}  # ]]]{{")
    return "\n".join(lines) + "\n", {key: value for key, (_, value) in entries.items()}


@settings(max_examples=examples(150), deadline=None)
@given(documents())
def test_the_depth_read_from_the_text_is_the_depth_of_the_data(document):
    text, expected = document
    parsed = tomllib.loads(text)
    assert parsed == expected
    assert shape(text).depth + 1 == depth(parsed)


@settings(max_examples=examples(60), deadline=None)
@given(
    levels=st.integers(1, 6000),
    opener=st.sampled_from(["[", "{a = ", "[{b = ["]),
    tail=st.booleans(),
)
def test_any_nesting_is_refused_by_its_depth_on_the_text_alone(levels, opener, tail):
    closer = {"[": "]", "{a = ": "}", "[{b = [": "]}]"}[opener]
    body = opener * levels + "1" + closer * levels
    text = ("x = " + body + "\n") if not tail else ('y = "[[[[" # [[[\nx = ' + body + "\n")
    found = shape(text).depth
    assert found == levels * opener.count("[") + levels * opener.count("{")
    if found + 1 > TIGHT.max_depth:
        with pytest.raises(
            BoundsError, match=r"line \d+: arrays and tables nest deeper than 32 levels"
        ):
            load(text.encode(), TIGHT)
    else:
        assert depth(load(text.encode(), TIGHT)[1]) == found + 1


@settings(max_examples=examples(40), deadline=None)
@given(parts=st.integers(1, 100_000), header=st.booleans(), spaced=st.booleans())
def test_a_dotted_key_is_refused_by_its_parts_before_parsing(parts, header, spaced):
    key = (" . " if spaced else ".").join(["a"] * parts)
    text = f"[{key}]\nx = 1\n" if header else f"{key} = 1.5\n"
    if parts > TIGHT.max_depth:
        with pytest.raises(BoundsError, match="line 1: a dotted key of more than 32 parts"):
            load(text.encode(), TIGHT)
    elif parts + header > TIGHT.max_depth:  # the header's tables hold a table of their own
        with pytest.raises(BoundsError, match="dotted keys"):
            load(text.encode(), TIGHT)
    else:
        assert depth(load(text.encode(), TIGHT)[1]) == parts + header


@settings(max_examples=examples(40), deadline=None)
@given(header=st.integers(0, 32), key=st.integers(1, 32))
def test_a_header_and_the_keys_under_it_nest_together_and_are_bounded_together(header, key):
    text = (
        ("[" + ".".join(["h"] * header) + "]\n" if header else "")
        + ".".join(["k"] * key)
        + " = 1\n"
    )
    if (
        header + key > TIGHT.max_depth
    ):  # the top table, the header's tables, the key's but its last part
        with pytest.raises(BoundsError, match="dotted keys"):
            load(text.encode(), TIGHT)
    else:
        assert depth(load(text.encode(), TIGHT)[1]) == header + key


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(4000, 20000), st.booleans())
def test_integers_past_the_digit_limit_are_refused_in_one_line(digits, negative):
    text = f"seed = {'-' if negative else ''}1{'0' * (digits - 1)}\n"
    try:
        load(text.encode(), TIGHT)
    except BoundsError as exc:
        assert "\n" not in str(exc) and digits > 4300
    else:
        assert digits <= 4300


def test_size_and_encoding_are_checked_before_parsing():
    with pytest.raises(BoundsError, match="more than the 1,048,576"):
        load(b"#" * (TIGHT.max_bytes + 1), TIGHT)
    with pytest.raises(BoundsError, match=r"not UTF-8 text \(byte 5\)"):
        load(b"x = \xff\n", TIGHT)
    with pytest.raises(BoundsError, match="not valid TOML"):
        load(b"x = [", TIGHT)


def test_the_depth_of_a_scalar_and_of_nested_data():
    assert (
        depth(1) == 0
        and depth({}) == 1
        and depth({"a": [[1]]}) == 3
        and depth({"a": {"b": {}}}) == 3
    )
    assert load(b"x = 1\n", WIDE) == ("x = 1\n", {"x": 1})
