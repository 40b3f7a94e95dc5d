"""The AlienLogic grader trusts the checker alone: importing it loads no
module of the prover or the certifier (they load on first use)."""

from __future__ import annotations

import json
import subprocess
import sys

OURS = ("alienworlds", "aliencode", "alienlogic")


def closure(*modules: str) -> dict[str, int]:
    """Our modules a fresh interpreter holds after importing `modules`, each
    with its number of lines (a subprocess: this one has imported more)."""
    code = (
        "import importlib, json, sys\n"
        f"for name in {list(modules)!r}:\n"
        "    importlib.import_module(name)\n"
        "out = {}\n"
        "for name, module in sorted(sys.modules.items()):\n"
        f"    if name.split('.')[0] in {OURS!r} and getattr(module, '__file__', None):\n"
        "        with open(module.__file__, encoding='utf-8') as f:\n"
        "            out[name] = sum(1 for _ in f)\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(done.stdout)


def test_grader_closure_holds_no_prover_certifier_or_search():
    grader = closure("alienworlds.tasks.alienlogic_grading")
    checker = closure("alienlogic.kernel")
    # what the prover and the certifier bring beyond the checker, computed
    untrusted = set(closure("alienlogic.prover", "alienlogic.certify")) - set(checker)
    assert {"alienlogic.prover", "alienlogic.certify", "alienlogic.search"} <= untrusted
    assert "alienlogic.kernel" in grader
    assert not untrusted & set(grader), sorted(untrusted & set(grader))


def test_prover_and_certifier_load_on_first_use():
    code = (
        "import sys, alienlogic\n"
        "assert 'alienlogic.prover' not in sys.modules\n"
        "from alienlogic import prove, find_certificate, check_certificate\n"
        "from alienlogic.prover import prove as direct\n"
        "assert prove is direct and alienlogic.prove is direct\n"
        "import alienlogic.certify as certify\n"
        "assert find_certificate is certify.find_certificate\n"
        "assert check_certificate is certify.check_certificate\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_unknown_attribute_is_an_attribute_error():
    import alienlogic

    try:
        alienlogic.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("alienlogic.no_such_name did not raise")
