"""The episode scorecard explains every column it shows."""

import re

from alienworlds.cli.aliencode import main
from click.testing import CliRunner


def test_every_scorecard_header_is_explained(tmp_path):
    result = CliRunner().invoke(
        main,
        ["episode", "--agent", "naive", "--world", "demo", "--out", str(tmp_path), "--no-progress"],
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("agent"))
    legend = "\n".join(
        lines[lines.index(header) + 3 :]
    )  # after the rule and the one trajectory line
    for column in header.split()[1:]:
        if re.fullmatch(r"M\d", column):
            assert "M0..M4:" in legend
        else:
            assert re.search(rf"(^|[ ·]){re.escape(column)}[:,]", legend, re.M), column
