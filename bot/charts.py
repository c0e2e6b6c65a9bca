"""Charts drawn with matplotlib: the match totals on results (and a tournament's points by round),
a player's rating on /stats.

Pure drawing: names and numbers in, PNG bytes out. Nothing here sees a card, a tile or a
game state, so a chart cannot show anything hidden. matplotlib is imported on the first
chart, not when the bot starts (it costs about half a second), and drawing is meant to run
in a worker thread (asyncio.to_thread).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from bot.render import drawable

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import AutoLocator

# Okabe & Ito's colour-blind-safe palette (black left out: it is the target line's colour),
# then the same colours dashed; each player also has a marker of their own.
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "h", "<", ">")
DPI = 100
# How far apart, in points, lines that would draw on top of each other are set: a line's width
# (2) and a gap.
TIE_OFFSET = 3.0
LEGEND_NAME_LIMIT = 16
SCORE_SIZE = (9.0, 4.5)  # inches: 900 x 450 px
# The rating chart is drawn at twice the size Discord shows it (400 x 220 on desktop, 240 x 132 on
# a phone), its text as large as the table pictures' smallest (``bot.render.MIN_FONT``, 37 px):
# few words and numbers, each read at a glance.
RATING_SIZE = (8.0, 4.4)  # 800 x 440 px
RATING_FONT = 27.0  # points: 37.5 px at DPI
RATING_TICKS = 5  # at most, per axis

# matplotlib's font and text caches are shared between threads: one chart at a time.
_drawing = threading.Lock()
# The score chart's figure, its axes and their Agg canvas, kept between charts (see _score_axes).
_score_figure: tuple[FigureCanvasAgg, Axes] | None = None


@dataclass(frozen=True)
class ScoreChart:
    """The match totals after each game, round or manche; ``winner`` is a seat once the match is won."""

    names: Sequence[str]
    totals: Sequence[Sequence[float]]  # per finished game/round/manche, per seat (a tournament's points)
    target: int | None
    winner: int | None
    x_label: str  # "Game", "Round", "Manche" in the reader's language
    y_label: str
    target_label: str
    winner_label: str


@dataclass(frozen=True)
class RatingChart:
    """Each game's skill rating from before the first match (x = 0) to after the last, one line
    per game."""

    series: Sequence[tuple[str, Sequence[float]]]  # (game title, ratings from the start)
    x_label: str
    y_label: str


def shortened(name: str, limit: int = LEGEND_NAME_LIMIT) -> str:
    """A name that fits the legend beside the chart, drawn as the table pictures draw it."""
    name = drawable(name)
    return name if len(name) <= limit else name[: limit - 1] + "…"


class LineStyle(TypedDict):
    color: str
    marker: str
    linestyle: str


def style(index: int) -> LineStyle:
    return {
        "color": OKABE_ITO[index % len(OKABE_ITO)],
        "marker": MARKERS[index % len(MARKERS)],
        "linestyle": "-" if index < len(OKABE_ITO) else "--",
    }


def whole_numbers(bins: int = 12) -> AutoLocator:
    """Ticks on whole numbers only, and no more than ``bins``: each tick costs as much to draw as
    a player's line. matplotlib's own locator, so its steps (1, 2, 2.5, 5) stay: ticks at 0, 5, 10
    on a long match, not at 0, 4, 8 as a plain MaxNLocator's steps would put them."""
    from matplotlib.ticker import AutoLocator

    locator = AutoLocator()
    locator.set_params(integer=True, nbins=bins)
    return locator


def tie_offsets(series: Sequence[Sequence[float]]) -> list[float]:
    """A vertical offset, in points, per line: 0 for a line no earlier one meets; a line that shares a
    point (same round, same total) with earlier ones moves off them, alternately up and down, so
    that every line stays visible."""
    offsets: list[float] = []
    for index, points in enumerate(series):
        meets = sum(
            any(a == b for a, b in zip(points[1:], series[other][1:], strict=True)) for other in range(index)
        )
        step = (meets + 1) // 2
        offsets.append(TIE_OFFSET * step * (1 if meets % 2 else -1))
    return offsets


def _figure(
    size: tuple[float, float], left: float, right: float, bottom: float, top: float = 0.95
) -> tuple[Figure, Axes]:
    # The Figure API without pyplot: no global figure registry, no GUI backend. Fixed margins
    # rather than a layout engine, which would double the drawing time.
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, dpi=DPI)
    figure.subplots_adjust(left=left, right=right, bottom=bottom, top=top)
    axes = figure.add_subplot()
    axes.grid(True, color="#dddddd", linewidth=0.8)
    axes.spines[["top", "right"]].set_visible(False)
    return figure, axes


def _score_axes() -> tuple[FigureCanvasAgg, Axes]:
    """The score chart's axes, empty: made once and emptied of the last chart's lines, texts and
    legend after that. A new figure costs a sixth of a chart, and its axis ticks, made again at
    each first drawing, a quarter; the canvas kept keeps its renderer, whose text sizes matplotlib
    remembers. Called under ``_drawing``."""
    global _score_figure
    if _score_figure is None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        figure, axes = _figure(SCORE_SIZE, left=0.08, right=0.72, bottom=0.13)
        _score_figure = FigureCanvasAgg(figure), axes
        return _score_figure
    canvas, axes = _score_figure
    for artist in [*axes.lines, *axes.texts]:
        artist.remove()
    legend = axes.get_legend()
    if legend is not None:
        legend.remove()
    axes.relim()
    return canvas, axes


def _png(figure: Figure, canvas: FigureCanvasAgg | None = None) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    buffer = io.BytesIO()
    (canvas or FigureCanvasAgg(figure)).print_png(buffer)
    return buffer.getvalue()


def draw_scores(chart: ScoreChart) -> bytes:
    """Running totals per player from 0, the target as a line, the winner starred; legend by final total."""
    with _drawing:
        from matplotlib.transforms import offset_copy

        canvas, axes = _score_axes()
        figure = canvas.figure
        rounds = list(range(len(chart.totals) + 1))
        final = chart.totals[-1] if chart.totals else [0] * len(chart.names)
        series = [[0, *(totals[seat] for totals in chart.totals)] for seat in range(len(chart.names))]
        shifts = [
            offset_copy(axes.transData, fig=figure, y=offset, units="points")
            for offset in tie_offsets(series)
        ]
        for seat, name in enumerate(chart.names):
            (line,) = axes.plot(
                rounds,
                series[seat],
                label=f"{shortened(name)} ({final[seat]})",
                markersize=6,
                linewidth=2,
                **style(seat),
            )
            # Moved after plotting, so the axes still take their limits from the data.
            line.set_transform(shifts[seat])
        if chart.target:
            axes.axhline(chart.target, color="black", linestyle=":", linewidth=1.5)
            axes.annotate(
                f"{chart.target_label} {chart.target}",
                (0, chart.target),
                xytext=(2, 3),
                textcoords="offset points",
                fontsize=9,
            )
        if chart.winner is not None:
            (star,) = axes.plot(
                rounds[-1],
                final[chart.winner],
                marker="*",
                markersize=22,
                color="black",
                markerfacecolor="gold",
                linestyle="none",
                label=f"{chart.winner_label}: {shortened(chart.names[chart.winner])}",
            )
            star.set_transform(shifts[chart.winner])
        axes.set_xlabel(chart.x_label)
        axes.set_ylabel(chart.y_label)
        axes.xaxis.set_major_locator(whole_numbers())
        handles, labels = axes.get_legend_handles_labels()
        players = sorted(range(len(chart.names)), key=lambda seat: -final[seat])
        order = players + list(range(len(chart.names), len(handles)))
        axes.legend(
            [handles[i] for i in order],
            [labels[i] for i in order],
            loc="upper left",
            bbox_to_anchor=(1.01, 1),
        )
        return _png(figure, canvas)


def rating_figure(chart: RatingChart) -> Figure:
    """The rating chart's figure: matches played along (whole numbers from 0), the rating up, named
    above the chart (along its side it would not fit), the games beside it when there are several."""
    several = len(chart.series) > 1
    figure, axes = _figure(RATING_SIZE, left=0.1, right=0.55 if several else 0.96, bottom=0.28, top=0.82)
    axes.tick_params(labelsize=RATING_FONT)
    for index, (title, ratings) in enumerate(chart.series):
        axes.plot(range(len(ratings)), ratings, label=title, markersize=10, linewidth=3, **style(index))
    axes.set_xlabel(chart.x_label, fontsize=RATING_FONT)
    axes.set_title(chart.y_label, fontsize=RATING_FONT, loc="left", pad=RATING_FONT / 2)
    axes.xaxis.set_major_locator(whole_numbers(RATING_TICKS))
    axes.yaxis.set_major_locator(whole_numbers(RATING_TICKS - 1))
    if several:
        axes.legend(
            fontsize=RATING_FONT,
            loc="upper left",
            bbox_to_anchor=(1.0, 1.05),
            handlelength=1.2,
            frameon=False,
        )
    return figure


def draw_ratings(chart: RatingChart) -> bytes:
    with _drawing:
        return _png(rating_figure(chart))
