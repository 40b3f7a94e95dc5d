"""generate/toml_string.py: every text reads back from the basic string written for it."""

import tomllib

from alienworlds.generate.toml_string import basic_string
from hypothesis import given
from hypothesis import strategies as st


@given(st.text())
def test_every_text_reads_back(text):
    assert tomllib.loads(f"key = {basic_string(text)}")["key"] == text


def test_json_escapes_are_kept_and_del_is_escaped():
    assert basic_string('a"\\\n\x7fé') == '"a\\"\\\\\\n\\u007fé"'
