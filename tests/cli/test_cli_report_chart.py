"""`robotsrules report --chart` (issue 13, finding 23): agent names are data, drawn as plain
text; the title is inside the picture; numbers on dark cells are readable."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("matplotlib")

from robotsrules._report import AgentSummary, Audit, Differential, _figure
from robotsrules.cli import main

NAMES = ["$\\frac{$", "GPTBot", "a$b$c\x1b[2J", "Googlebot", "x" * 80]


def _verdicts(path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["url", "agent", "allowed", "line", "reason", "origin"])
        for site in range(6):
            origin = f"https://s{site}.example"
            for page in range(5):
                for k, name in enumerate(NAMES):
                    allowed = (site + page + k) % 3 != 0
                    writer.writerow([f"{origin}/{page}", name, str(allowed).lower(), "",
                                     "", origin])


def test_report_chart_with_hostile_agent_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "verdicts.csv"
    _verdicts(table)
    png = tmp_path / "chart.png"
    out = io.StringIO()
    assert main(["report", str(table), "--chart", str(png)], out=out) == 0
    assert capsys.readouterr().err == ""
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "\x1b" not in out.getvalue() or "\\x1b" in out.getvalue()


def _audit() -> Audit:
    agents = [AgentSummary(name, 100, 90, 10 * i, 10, 20, 4 * i, 2)
              for i, name in enumerate(NAMES)]
    differentials = [Differential(a, b, 0 if b == NAMES[0] else 1000 * (j + 1), 1)
                     for a in NAMES for j, b in enumerate(NAMES) if a != b]
    return Audit("t", 500, 20, agents, differentials)


def test_chart_labels_are_plain_text_titles_fit_and_dark_cells_are_white() -> None:
    import matplotlib.pyplot as plt

    figure = _figure(_audit())
    try:
        figure.canvas.draw()  # lays out and draws the labels: mathtext would raise here
        bars, heat = figure.axes[0], figure.axes[1]
        labels = [t.get_text() for t in bars.get_yticklabels()]
        assert labels[0] == "$\\frac{$" and labels[2] == "a$b$c\\x1b[2J"
        assert len(labels[4]) == 28 and labels[4].endswith("\u2026")  # cut
        assert all(not t.get_parse_math() for t in heat.get_xticklabels())
        box = figure.bbox
        for axes in (bars, heat):  # every title inside the picture
            extent = axes.title.get_window_extent()
            assert box.x0 <= extent.x0 and extent.x1 <= box.x1 and extent.y1 <= box.y1
        colours = {t.get_text(): t.get_color() for t in heat.texts}
        assert colours["5,000"] == "white" and colours["0"] == "black"
    finally:
        plt.close(figure)


def test_chart_has_a_title_with_the_input_size_and_labelled_scales() -> None:
    """Issue 25: a reader of the PNG alone knows what was counted, over how much input."""
    import matplotlib.pyplot as plt

    figure = _figure(Audit("/data/$x$\x1b[2J.parquet", 12_345, 678, _audit().agents,
                           _audit().differentials))
    try:
        figure.canvas.draw()
        title = figure.get_suptitle()
        assert title == ("robots.txt verdicts of $x$\\x1b[2J.parquet: 12,345 verdicts, "
                         "678 sites, 5 agents")
        assert not figure._suptitle.get_parse_math()
        extent = figure._suptitle.get_window_extent()
        assert figure.bbox.y0 <= extent.y0 and extent.y1 <= figure.bbox.y1
        bars, heat, scale = figure.axes
        assert bars.get_xlabel() == "share disallowed (%)" and bars.get_ylabel() == "agent"
        assert heat.get_xlabel() == "allowed for this agent"
        assert heat.get_ylabel() == "disallowed for this agent"
        assert scale.get_ylabel() == "URLs"  # the colour bar
    finally:
        plt.close(figure)
