"""The `aliencode` command line (README.md), through click's runner and a real process."""

import json
import subprocess
import sys

from alienworlds.cli.aliencode import main
from click.testing import CliRunner


def invoke(*args, stdin=None, env=None):
    return CliRunner().invoke(
        main, list(args), input=stdin, env={"ALIENCODE_WORLD": "standard", **(env or {})}
    )


def test_run_file(tmp_path):
    prog = tmp_path / "p.alien"
    prog.write_text("EMIT(SHATTER(2, 3))\n")
    result = invoke("run", str(prog))
    assert result.exit_code == 0
    assert result.output == "5\n"


def test_run_stdin_json():
    result = invoke("run", "--json", "-", stdin="EMIT(1, 2)\n")
    assert result.exit_code == 0
    assert json.loads(result.output) == {"output": "1 2", "error": None, "steps": 5, "units": 2}


def test_run_error_exit_1_and_json_error():
    result = invoke("run", "--json", stdin="EMIT(1)\nEMIT(x)")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["output"] == "1"
    assert data["error"] == {
        "kind": "NameError",
        "message": "name 'x' is not defined",
        "line": 2,
        "column": 6,
    }


def test_run_error_text():
    result = invoke("run", stdin="EMIT(1)\nEMIT(x)")
    assert result.exit_code == 1
    assert result.output == "1\n[AlienError] NameError: name 'x' is not defined (line 2)\n"


def test_bad_input_exit_2(tmp_path):
    assert invoke("run", str(tmp_path / "missing.alien")).exit_code == 2
    assert invoke("run", "--world", "no-such-world", stdin="EMIT(1)").exit_code == 2
    bad = tmp_path / "bad.alien"
    bad.write_bytes(b"\xff\xfe")
    assert invoke("run", str(bad)).exit_code == 2


def test_max_steps():
    loop = "SET i AS 0\nWHILE UNDER(i, 5000):\n    SET i AS SHATTER(i, 1)\nEMIT(i)"
    assert invoke("run", "--max-steps", "100", stdin=loop).exit_code == 1
    ok = invoke("run", "--max-steps", "50000", stdin=loop)
    assert ok.exit_code == 0 and ok.output == "5000\n"
    assert invoke("run", "--max-steps", "0", stdin=loop).exit_code == 2
    assert invoke("run", "--max-steps", "20000000", stdin="EMIT(1)").exit_code == 0
    too_many = invoke("run", "--max-steps", "20000001", stdin=loop)
    assert (
        too_many.exit_code == 2 and "20000001 is not in the range 1<=x<=20000000" in too_many.output
    )


def test_version_and_help():
    assert "aliencode" in invoke("--version").output
    assert "--max-steps" in invoke("run", "--help").output


def test_console_script_runs_as_a_process():
    proc = subprocess.run(
        [sys.executable, "-m", "alienworlds.cli.aliencode", "run", "--world", "standard", "-"],
        input='EMIT(FUSE("ok", 1))',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "ok1\n"


def test_default_world_is_main_and_the_environment_overrides_it():
    assert invoke("run", stdin="EMIT(100)", env={"ALIENCODE_WORLD": None}).output == "127\n"
    assert invoke("run", stdin="EMIT(100)", env={"ALIENCODE_WORLD": "demo"}).output == "100\n"
