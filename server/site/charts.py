"""Per-year bar charts drawn on the server as SVG (readable without JavaScript), with the numbers as a table."""

from __future__ import annotations

from dataclasses import dataclass

from weft.graph.reads.facets import Trend

WIDTH, HEIGHT, AXIS = 320, 120, 16
"""The drawing's size in SVG units, and the band under the bars for the first and last year."""


@dataclass(frozen=True)
class Bar:
    """One year's bar: its value and where it is drawn."""

    year: int
    value: int
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Chart:
    """A bar per year (every year from the first to the last, empty ones too) of one series of a trend."""

    label: str
    bars: list[Bar]
    most: int
    width: int = WIDTH
    height: int = HEIGHT
    axis: int = AXIS


def bar_chart(trend: Trend, series: str, label: str) -> Chart | None:
    """The chart of `series` (`works` or `citations`) per year; None when every year is 0."""
    return chart_of({y.year: (y.works if series == "works" else y.citations) for y in trend.years}, label)


def chart_of(values: dict[int, int], label: str) -> Chart | None:
    """Bars of `values` per year, every year from the first to the last counted; None when none is counted."""
    shown = {year: value for year, value in values.items() if value}
    if not shown:
        return None
    first, last = min(shown), max(shown)
    years = list(range(first, last + 1))
    most = max(shown.values())
    step = WIDTH / len(years)
    bars: list[Bar] = []
    for i, year in enumerate(years):
        value = values.get(year, 0)
        height = (HEIGHT - AXIS - 4) * value / most
        x, y = round(i * step + step * 0.1, 2), round(HEIGHT - AXIS - height, 2)
        bars.append(Bar(year, value, x, y, round(step * 0.8, 2), round(height, 2)))
    return Chart(label, bars, most)


def trend_context(trend: Trend) -> dict[str, object]:
    """What an entity page's per-year column shows: the trend (its table) and its charts (works, citations)."""
    charts = [bar_chart(trend, "works", "Works"), bar_chart(trend, "citations", "Citations")]
    return {"trend": trend, "charts": [c for c in charts if c is not None]}
