"""Suite-wide setup.

* The tests run with the host's cycle collector tuned as every command runs
  it (cli/entry.py), so that audits and generators in a test cost what they
  cost on the command line.
* The suite's processes share a cache directory of their own ($XDG_CACHE_HOME),
  empty when the run starts and removed when it ends: grammar tables and the
  audits environments read (episode/audit_cache.py) are computed once in a run,
  by whichever process needs them first, and never read from an earlier run or
  from the user's own cache.
"""

import os
import shutil
import tempfile

from alienworlds.cli.entry import tune_collector


def pytest_configure(config):
    tune_collector()
    if not hasattr(config, "workerinput"):  # the first process: the workers inherit its environment
        config.suite_cache = tempfile.mkdtemp(prefix="alienworlds-suite-cache-")
        os.environ["XDG_CACHE_HOME"] = config.suite_cache


def pytest_unconfigure(config):
    if hasattr(config, "suite_cache"):
        shutil.rmtree(config.suite_cache, ignore_errors=True)
