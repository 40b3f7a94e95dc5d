"""Milestone curves drawn with matplotlib: one panel per setting (world,
condition), one curve per system with its trajectories' spread as error
bars, the bank's floor and the ceiling as reference lines.

Rendering goes through the Agg canvas of a private `Figure` (never
pyplot), so the process-wide backend and pyplot state are left alone.
Output is made reproducible: no date or software version in the files, a
fixed SVG hash salt, text drawn as paths, and the fonts matplotlib ships.
The same data and matplotlib version give the same bytes.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # matplotlib loads when a chart is drawn, not when the command line starts
    from matplotlib.figure import Figure

PNG_NAME = "curves.png"
SVG_NAME = "curves.svg"

_STYLE = {
    "svg.hashsalt": "alienworlds",  # SVG element ids stay the same from run to run
    "svg.fonttype": "path",  # glyphs as paths: no dependence on the viewer's fonts
    "font.family": "DejaVu Sans",  # ships with matplotlib
    "axes.unicode_minus": False,
}
_PNG_METADATA = {"Software": None}
_SVG_METADATA = {"Date": None, "Creator": None}
_COLORS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")
_LINES = ("-", "--", "-.", ":")
_DODGE = 0.07  # horizontal offset between systems, so that equal curves stay apart


@dataclass
class Series:
    """One system's curves: accuracy per milestone for each trajectory."""

    label: str
    curves: list[list[float]]

    def points(self) -> list[tuple[int, float, float, float]]:
        """(milestone index, mean, lowest, highest) over the trajectories
        that reached that milestone."""
        out = []
        for i in range(max((len(c) for c in self.curves), default=0)):
            values = [c[i] for c in self.curves if len(c) > i and c[i] is not None]
            if values:
                out.append((i, sum(values) / len(values), min(values), max(values)))
        return out


@dataclass
class Panel:
    """The curves of one setting (a world and a condition)."""

    title: str
    milestones: list[str]
    floor: float | None
    series: list[Series] = field(default_factory=list)


def short(text: str, width: int = 60) -> str:
    """A label of at most `width` characters (names come from traces, of
    any length). Labels are drawn with mathematics parsing off, so that
    $...$ in a name is shown as written."""
    text = str(text)
    return text if len(text) <= width else text[: width - 1] + "…"


# The agents the toolchain ships take the first styles, so that they never
# share one; any other name is hashed.
_SHIPPED = ("oracle", "naive", "fixed", "explorer", "explorer-random", "explorer-fixed")


def style(label: str) -> dict[str, str]:
    """A system's colour, marker and line, from its name alone, so that an
    agent looks the same in every plot (a sweep's and a later report's list
    systems in different orders)."""
    if label in _SHIPPED:
        h = _SHIPPED.index(label) * (len(_MARKERS) + 1)
    else:
        h = int.from_bytes(hashlib.sha256(label.encode("utf-8")).digest()[:8], "big")
    return {
        "color": _COLORS[h % len(_COLORS)],
        "marker": _MARKERS[(h // len(_COLORS)) % len(_MARKERS)],
        "linestyle": _LINES[(h // (len(_COLORS) * len(_MARKERS))) % len(_LINES)],
    }


def figure(panels: list[Panel]) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    width = 9.0
    fig = Figure(figsize=(width, 0.6 + 3.9 * max(1, len(panels))), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(max(1, len(panels)), 1, squeeze=False)[:, 0]
    for ax, panel in zip(axes, panels):
        _draw(ax, panel)
    return fig


def _draw(ax, panel: Panel) -> None:
    labels = panel.milestones or ["M0"]
    ax.set_xlim(-0.4, len(labels) - 0.6)
    ax.set_ylim(-5, 105)  # curves at 0 % and 100 % stay clear of the frame
    ax.set_xticks(range(len(labels)), labels)
    ax.set_yticks(range(0, 101, 20))
    ax.set_xlabel("milestone")
    ax.set_ylabel("accuracy (%)")
    ax.set_title(short(panel.title, 100), fontsize=11, parse_math=False)
    ax.grid(axis="y", color="#e6e6e6", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.axhline(
        100, color="#555555", linestyle=":", linewidth=1.2, zorder=1, label="ceiling (100 %)"
    )
    if panel.floor is not None:
        ax.axhline(
            panel.floor,
            color="#888888",
            linestyle="--",
            linewidth=1.2,
            zorder=1,
            label=f"floor ({panel.floor:.1f} %, best trivial strategy)",
        )
        if panel.floor < 100:
            f = panel.floor
            right = ax.secondary_yaxis(
                "right",
                functions=(lambda a: 100 * (a - f) / (100 - f), lambda c: f + c * (100 - f) / 100),
            )
            right.set_ylabel("chance-corrected (%)")
    handles = []
    k = len(panel.series)
    for i, series in enumerate(panel.series):
        pts = series.points()
        if not pts:
            continue
        offset = (i - (k - 1) / 2) * _DODGE
        xs = [p[0] + offset for p in pts]
        means = [p[1] for p in pts]
        n = len(series.curves)
        drawn = {
            **style(series.label),
            "linewidth": 2,
            "markersize": 6,
            "zorder": 3,
            "label": f"{short(series.label)} (n={n})",
        }
        if n > 1:
            spread = [[m - lo for _, m, lo, _ in pts], [hi - m for _, m, _, hi in pts]]
            handles.append(ax.errorbar(xs, means, yerr=spread, capsize=4, elinewidth=1.2, **drawn))
        else:
            handles += ax.plot(xs, means, **drawn)
    lines = [line for line in ax.get_lines() if line.get_zorder() == 1]  # ceiling and floor
    legend = ax.legend(
        handles=handles + lines,
        loc="upper left",
        bbox_to_anchor=(1.12, 1.0),
        fontsize=8,
        frameon=False,
        title="mean of n trajectories;\nbars: lowest to highest",
        title_fontsize=8,
    )
    for text in legend.get_texts():
        text.set_parse_math(False)


def render(panels: list[Panel]) -> tuple[bytes, bytes]:
    """The chart as PNG and SVG bytes."""
    import matplotlib

    with matplotlib.rc_context(_STYLE):
        fig = figure(panels)
        png, svg = io.BytesIO(), io.BytesIO()
        fig.savefig(png, format="png", dpi=100, metadata=_PNG_METADATA)
        fig.savefig(svg, format="svg", metadata=_SVG_METADATA)
    return png.getvalue(), svg.getvalue()


def write_curves(directory: Path, panels: list[Panel]) -> tuple[Path, Path]:
    """DIR/curves.png and DIR/curves.svg."""
    png, svg = render(panels)
    paths = (directory / PNG_NAME, directory / SVG_NAME)
    for path, data in zip(paths, (png, svg)):
        path.write_bytes(data)
    return paths
