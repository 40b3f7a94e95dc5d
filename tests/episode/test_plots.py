import struct
import zlib

from alienworlds.episode.plots import Panel, Series, figure, render, style, write_curves


def _panel(**kw):
    series = [
        Series("oracle", [[100.0] * 5]),
        Series("naive", [[0.0] * 5]),
        Series("fixed", [[0, 20, 40, 45, 60], [0, 10, 30, 50, 70], [0, 15, 35, 55, 65]]),
    ]
    return Panel(
        kw.get("title", "aliencode · world main · autonomous"),
        [f"M{i}" for i in range(5)],
        kw.get("floor", 0.0),
        kw.get("series", series),
    )


def _png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, tag = struct.unpack(">I4s", data[8:16])
    assert tag == b"IHDR"
    body = data[16 : 16 + length]
    assert (
        struct.unpack(">I", data[16 + length : 20 + length])[0]
        == zlib.crc32(tag + body) & 0xFFFFFFFF
    )
    return struct.unpack(">II", body[:8])


def test_png_and_svg_are_written_and_the_same_data_gives_the_same_bytes(tmp_path):
    png_path, svg_path = write_curves(tmp_path, [_panel()])
    png, svg = png_path.read_bytes(), svg_path.read_bytes()
    width, height = _png_size(png)
    assert width >= 600 and height >= 300
    assert svg.startswith(b"<?xml") and b"<svg" in svg
    assert (
        b"<dc:date>" not in svg and b"Matplotlib v" not in svg and b"Software" not in png
    )  # no date, no version
    assert render([_panel()]) == (png, svg)
    other = render([_panel(floor=20.0)])
    assert other[0] != png and other[1] != svg


def test_every_curve_is_drawn_inside_the_axes_with_floor_ceiling_labels_and_legend():
    fig = figure([_panel(floor=10.0)])
    ax = fig.axes[0]
    low, high = ax.get_ylim()
    assert low < 0 and high > 100  # curves at 0 % and 100 % are not hidden by the frame
    assert ax.get_xlabel() == "milestone" and "accuracy" in ax.get_ylabel()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["M0", "M1", "M2", "M3", "M4"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:3] == ["oracle (n=1)", "naive (n=1)", "fixed (n=3)"]
    assert any(t.startswith("floor (10.0") for t in legend) and any(
        t.startswith("ceiling") for t in legend
    )
    drawn = {tuple(round(y, 4) for y in line.get_ydata()) for line in ax.get_lines()}
    assert (
        (100.0,) * 5 in drawn and (0.0,) * 5 in drawn and (10.0, 10.0) in drawn
    )  # oracle, naive, floor line
    assert (0.0, 15.0, 35.0, 50.0, 65.0) in drawn  # fixed: the mean of its three trajectories
    bars = [c for c in ax.containers if c.has_yerr]
    assert len(bars) == 1  # the spread is drawn only where there are several trajectories
    segments = bars[0].lines[2][0].get_segments()
    assert [(round(s[0][1], 4), round(s[1][1], 4)) for s in segments][1:] == [
        (10, 20),
        (30, 40),
        (45, 55),
        (60, 70),
    ]
    assert any("chance-corrected" in a.get_ylabel() for a in ax.child_axes)


def test_equal_curves_stay_apart():
    fig = figure([_panel(series=[Series("a", [[50.0, 60.0]]), Series("b", [[50.0, 60.0]])])])
    xs = [
        tuple(line.get_xdata())
        for line in fig.axes[0].get_lines()
        if len(line.get_xdata()) == 2 and line.get_zorder() == 3
    ]
    assert len(xs) == 2 and xs[0] != xs[1]


def test_hostile_labels_are_shown_literally():
    names = ["$x$", "a$b", "$$", r"\frac{1}{0}", "$\\", "<script>", "_^{}%#&", "$" * 5000]
    panel = _panel(title="$bad$ title", series=[Series(n, [[1.0, 2.0]]) for n in names])
    png, svg = render([panel])  # mathtext would fail on these or typeset them
    assert png and svg
    ax = figure([panel]).axes[0]
    texts = ax.get_legend().get_texts()[: len(names)]
    assert [t.get_text() for t in texts[:-1]] == [f"{n} (n=1)" for n in names[:-1]]
    assert texts[-1].get_text() == "$" * 59 + "… (n=1)"  # long names are cut
    assert not any(t.get_parse_math() for t in texts) and not ax.title.get_parse_math()


def test_one_panel_per_setting_and_partial_curves():
    panels = [
        _panel(),
        Panel("direct", ["M0"], None, [Series("x", [[40.0]])]),
        Panel("partial", ["M0", "M1", "M2"], 50.0, [Series("y", [[10.0, 20.0], [30.0]])]),
    ]
    fig = figure(panels)
    assert len([a for a in fig.axes if a.get_xlabel() == "milestone"]) == 3
    assert Series("y", [[10.0, 20.0], [30.0]]).points() == [
        (0, 20.0, 10.0, 30.0),
        (1, 20.0, 20.0, 20.0),
    ]
    assert render(panels)[0]


def test_a_system_keeps_its_style_across_panels():
    first = Panel("a", ["M0", "M1"], 0.0, [Series("x", [[1.0, 2.0]]), Series("y", [[3.0, 4.0]])])
    second = Panel("b", ["M0", "M1"], 0.0, [Series("y", [[5.0, 6.0]]), Series("x", [[7.0, 8.0]])])
    fig = figure([first, second])

    def styles(ax):
        return {
            line.get_label(): (line.get_color(), line.get_marker())
            for line in ax.get_lines()
            if line.get_zorder() == 3
        }

    assert (
        styles(fig.axes[0]) == styles(fig.axes[1]) and len(set(styles(fig.axes[0]).values())) == 2
    )


def test_a_system_keeps_its_colour_in_every_plot():
    """A sweep and a later report list systems in different orders and
    subsets; each system's style comes from its name alone."""

    def colours(series):
        ax = figure([Panel("p", ["M0", "M1"], 0.0, series)]).axes[0]
        return {
            line.get_label().split(" (n=")[0]: (line.get_color(), line.get_marker())
            for line in ax.get_lines()
            if line.get_zorder() == 3
        }

    names = ["oracle", "naive", "fixed", "explorer", "explorer-random", "explorer-fixed"]
    sweep = colours([Series(n, [[1.0, 2.0]]) for n in names])
    report = colours([Series(n, [[1.0, 2.0]]) for n in reversed(names)])
    alone = colours([Series("fixed", [[1.0, 2.0]])])
    assert sweep == report and alone["fixed"] == sweep["fixed"]
    assert len({colour for colour, _ in sweep.values()}) == len(names)  # the agents we ship differ
    assert sweep["oracle"] == (style("oracle")["color"], style("oracle")["marker"])
