"""Suite-wide setup.

* The tests run with the host's cycle collector tuned as every command runs
  it (cli/entry.py), so that audits and generators in a test cost what they
  cost on the command line.
* The suite's processes share a cache directory of their own ($XDG_CACHE_HOME),
  empty when the run starts and removed when it ends: grammar tables and the
  audits environments read (episode/audit_cache.py) are computed once in a run,
  by whichever process needs them first, and never read from an earlier run or
  from the user's own cache.
* Hypothesis properties draw the examples tests/fuzzing.py gives them: a
  quarter of their stated size unless ALIENWORLDS_FUZZ asks for more. That
  includes the properties that state no size (hypothesis's 100). Tests that
  replay a corpus replay the part of it the first process draws.
* Files run in the order tests/suite_order.py gives them: the invariants
  test first, whose audit of main the environment tests then read from the
  run's cache, then the dearest files.
"""

import os
import shutil
import tempfile

import pytest
from alienworlds.cli.entry import tune_collector
from fuzzing import SCALE, FuzzSettingError, examples, offset
from hypothesis import settings
from suite_order import first_files_first

settings.register_profile("suite", max_examples=examples(100))
settings.load_profile("suite")


def pytest_report_header(config):
    if SCALE is None:
        return (
            "fuzzing: a quarter of each property's examples and part "
            f"{offset()} of each corpus (ALIENWORLDS_FUZZ_OFFSET; ALIENWORLDS_FUZZ=full for all)"
        )
    return f"fuzzing: {SCALE} times each property's examples, every corpus whole (ALIENWORLDS_FUZZ)"


def pytest_collection_modifyitems(config, items):
    first_files_first(items)


def pytest_configure(config):
    tune_collector()
    if not hasattr(config, "workerinput"):  # the first process: the workers inherit its environment
        try:
            offset()  # drawn once, for every process of the run
        except FuzzSettingError as error:
            raise pytest.UsageError(str(error)) from None
        config.suite_cache = tempfile.mkdtemp(prefix="alienworlds-suite-cache-")
        os.environ["XDG_CACHE_HOME"] = config.suite_cache


def pytest_unconfigure(config):
    if hasattr(config, "suite_cache"):
        shutil.rmtree(config.suite_cache, ignore_errors=True)
