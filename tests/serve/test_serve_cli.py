"""The `alienworlds` command: create prints the links, every mistake is one
line and exit 2, --help explains."""

import os
import re
import subprocess
import sys

import pytest
from alienworlds.serve import tokens
from alienworlds.serve.store import Store


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "alienworlds.cli.alienworlds", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_create_prints_one_private_link_per_participant(tmp_path):
    data = tmp_path / "data"
    done = run(
        "create", "--data", str(data), "--world", "demo", "--participants", "3",
        "--study", "pilot", "--base-url", "http://127.0.0.1:9000/",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("study pilot: aliencode world demo, condition autonomous")
    links = dict(line.split("\t") for line in lines[1:])
    assert list(links) == ["researcher", "pilot-p1", "pilot-p2", "pilot-p3"]
    store = Store(data)
    for name, link in links.items():
        match = re.fullmatch(r"http://127\.0\.0\.1:9000/([pr])/([A-Za-z0-9_-]+)", link)
        assert match and tokens.well_formed(match.group(2)), link
        grant = store.grant(match.group(2))
        assert grant.role == ("researcher" if name == "researcher" else "participant")
    assert len(set(links.values())) == 4


@pytest.mark.parametrize(
    "args, says",
    [
        (("--world", "no-such-world"), "no-such-world"),
        (("--world", "demo", "--participants", "0"), "0 is not in the range"),
        (("--world", "demo", "--condition", "hindsight"), "hindsight"),
        (("--world", "demo", "--study", "../up"), "is not an identifier"),
        (("--world", "demo", "--study", "Caps"), "is not an identifier"),
        (("--world", "demo", "--bank", "/no/such/bank.toml"), "no such file"),
        (("--world", "demo", "--passes", "0"), "--passes"),
        (("--world", "demo", "--consent", "/no/such/consent.txt"), "--consent"),
    ],
)
def test_create_refuses_in_one_line(tmp_path, args, says):
    base = ("create", "--data", str(tmp_path / "data"))
    if "--participants" not in args:
        args = (*args, "--participants", "2")
    done = run(*base, *args)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_study_id_is_used_once(tmp_path):
    args = ("create", "--data", str(tmp_path / "d"), "--world", "demo", "--participants", "1")
    assert run(*args, "--study", "once").returncode == 0
    again = run(*args, "--study", "once")
    assert again.returncode == 2 and "already exists" in again.stderr


def test_serve_refuses_a_missing_data_directory(tmp_path):
    done = run("serve", "--data", str(tmp_path / "missing"))
    assert done.returncode == 2 and "no such data directory" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [(), ("create",), ("serve",)])
def test_help_explains(command):
    done = run(*command, "--help")
    assert done.returncode == 0
    assert "Usage: alienworlds" in done.stdout
    if command == ("create",):
        assert "--participants" in done.stdout and "private link" in done.stdout
    if command == ("serve",):
        assert "--rate" in done.stdout and "continues" in done.stdout


def _create(tmp_path, stdin, stdout, stderr=subprocess.PIPE, text=b"Consent.\n"):
    command = [sys.executable, "-c", LAUNCH, "create", "--data", str(tmp_path / "d")]
    command += ["--world", "demo", "--participants", "2", "--consent", "-"]
    process = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=stderr)
    _, err = process.communicate(text if stdin == subprocess.PIPE else None, timeout=120)
    return process.returncode, (err or b"").decode()


# the console script as pip installs it: sys.argv[0] is its name
LAUNCH = (
    "import sys; sys.argv[0] = 'alienworlds'; "
    "from alienworlds.cli.alienworlds import entry; entry()"
)


def test_a_failing_standard_output_ends_in_one_line_and_exit_74(tmp_path):
    with open("/dev/full", "wb") as full:
        status, err = _create(tmp_path, subprocess.PIPE, full)
    assert status == 74 and err.splitlines() == [
        "alienworlds: cannot write standard output: No space left on device"
    ]
    read, write = os.pipe()
    os.close(read)
    with os.fdopen(write, "wb") as broken:
        status, err = _create(tmp_path, subprocess.PIPE, broken)
    assert status == 74 and err.splitlines() == [
        "alienworlds: cannot write standard output: Broken pipe"
    ]


def test_the_consent_text_from_standard_input(tmp_path):
    status, err = _create(tmp_path, subprocess.PIPE, subprocess.DEVNULL, text=b"Read this.\n")
    assert status == 0, err
    (study,) = Store(tmp_path / "d").studies()
    assert study.consent == "Read this."
    status, err = _create(tmp_path, subprocess.DEVNULL, subprocess.DEVNULL, text=None)
    assert status == 2 and "consent text must have 1 to" in err
    status, err = _create(tmp_path, subprocess.PIPE, subprocess.DEVNULL, text=b"\xff\xfe")
    assert status == 2 and err.splitlines() == ["alienworlds: --consent: - is not UTF-8 text"]


def test_a_usage_error_is_one_line_with_exit_2():
    done = run("--no-such-option")
    assert done.returncode == 2 and done.stderr.splitlines() == [
        "alienworlds: No such option '--no-such-option'. Try 'alienworlds --help'."
    ]


def test_a_closed_standard_input_ends_in_one_line_and_exit_74(tmp_path):
    command = [sys.executable, "-c", LAUNCH, "create", "--data", str(tmp_path / "d")]
    command += ["--world", "demo", "--participants", "1", "--consent", "-"]
    done = subprocess.run(command, capture_output=True, timeout=120, preexec_fn=lambda: os.close(0))
    assert done.returncode == 74
    assert done.stderr.decode().splitlines() == [
        "alienworlds: cannot read standard input: it is closed"
    ]
