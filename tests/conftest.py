"""Suite-wide setup: the tests run with the host's cycle collector tuned as
every command runs it (cli/entry.py), so that audits and generators in a
test cost what they cost on the command line."""

from alienworlds.cli.entry import tune_collector


def pytest_configure(config):
    tune_collector()
