"""Score and rating charts: drawn for every game from names and totals only, as valid PNGs."""

from __future__ import annotations

import io
import sys
from dataclasses import fields
from types import SimpleNamespace

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image

from bot import charts, records
from bot.adapter import Viewer
from bot.games.bue import ADAPTER as BUE
from bot.games.rumbugz import ADAPTER as RUMBUGZ
from bot.games.rummikub import ADAPTER as RUMMIKUB
from bot.games.seriebum import ADAPTER as SERIEBUM
from bot.render import DESKTOP, PHONE, SMALLEST_GLYPH, faces_in
from bot.store import GameRow, SeatRow
from bot.tables import LoadedGame
from games.core import Event
from tests.bot.driver import NAMES

ADAPTERS = (BUE, SERIEBUM, RUMMIKUB, RUMBUGZ)
# Two players and ten, or as many as the game takes.
CASES = [
    (adapter, count) for adapter in ADAPTERS for count in sorted({2, min(10, adapter.engine.max_players)})
]


def png_size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        image.verify()
        return image.size


def table_of(adapter, players: int, target: int) -> LoadedGame:
    row = GameRow(1, adapter.name, 5, 6, 1, "running", {"target": target}, 60, "en", 3, None, 1, 9)
    seats = [SeatRow(seat, 100 + seat, NAMES[seat], "en", 0, seat == 1, False) for seat in range(players)]
    return LoadedGame(row, seats, adapter.engine.new(players, {}, 3), adapter)


def running_totals(players: int, rounds: int) -> list[list[int]]:
    return [[(seat + 1) * number * 3 for seat in range(players)] for number in range(1, rounds + 1)]


@pytest.mark.parametrize(("adapter", "players"), CASES, ids=lambda case: getattr(case, "name", case))
async def test_a_round_end_brings_a_chart_of_names_and_totals_only(adapter, players, monkeypatch):
    drawn: list[charts.ScoreChart] = []
    draw = charts.draw_scores

    def spy(chart: charts.ScoreChart) -> bytes:
        drawn.append(chart)
        return draw(chart)

    monkeypatch.setattr(charts, "draw_scores", spy)
    totals = running_totals(players, 20)

    async def round_totals(game_id: int) -> list[list[int]]:
        return totals

    table = table_of(adapter, players, target=100)
    embeds = []
    ended = [Event(key) for key in adapter.round_end_events]
    viewer = Viewer("it", table.names)
    results = await records.score_chart(
        SimpleNamespace(records=SimpleNamespace(round_totals=round_totals)), table, ended, viewer
    )
    assert results is not None and drawn == []  # its numbers are read; it is drawn last
    results.make_room(embeds)
    file = await results.draw(embeds)

    (chart,) = drawn
    # Names, numbers and words: nothing of a hand, a rack or a tile can reach the image.
    assert list(chart.names) == [NAMES[0], f"{NAMES[1]} (ha lasciato)", *NAMES[2:players]]
    assert chart.totals == totals and chart.target == 100 and chart.winner is None
    assert all(isinstance(value, int) for row in chart.totals for value in row)
    words = [getattr(chart, field.name) for field in fields(chart) if field.name.endswith("_label")]
    assert all(isinstance(word, str) for word in words) and "Punti della sfida" in words
    png = file.fp.read()
    assert png_size(png) == (900, 450)
    assert faces_in(png) == []
    # Games without a results embed for a round get one for the chart.
    assert embeds[-1].image.url == "attachment://scores.png"


async def test_nothing_is_drawn_while_no_round_has_ended():
    async def round_totals(game_id: int) -> list[list[int]]:
        raise AssertionError("not asked")

    table = table_of(BUE, 2, target=110)
    store = SimpleNamespace(records=SimpleNamespace(round_totals=round_totals))
    viewer = Viewer("en", table.names)
    assert await records.score_chart(store, table, [Event("bue.event.dealt")], viewer) is None


def test_the_winner_is_starred_in_the_legend_and_ten_players_stay_apart():
    chart = charts.ScoreChart(
        names=list(NAMES),
        totals=running_totals(10, 20),
        target=None,
        winner=9,
        x_label="Round",
        y_label="Points",
        target_label="Target",
        winner_label="Winner",
    )
    assert png_size(charts.draw_scores(chart)) == (900, 450)
    looks = {tuple(sorted(charts.style(index).items())) for index in range(10)}
    assert len(looks) == 10  # colour, marker and line style together tell every player apart


def test_a_rating_chart_is_a_png_twice_the_size_discord_shows():
    chart = charts.RatingChart([("Bué", [0.0, 1.5, 3.2]), ("Rummikub", [0.0, -0.4])], "Match", "Rating")
    assert png_size(charts.draw_ratings(chart)) == (2 * DESKTOP.width, 2 * 220)


def test_the_rating_after_one_match_is_drawn_from_the_start_along_whole_matches():
    """Issue 39: one match drew a lone dot on an axis reading 0.95 ... 1.05."""
    figure = charts.rating_figure(charts.RatingChart([("Bué", [0.0, 3.4])], "Matches played", "Skill rating"))
    FigureCanvasAgg(figure).draw()
    (axes,) = figure.axes
    low, high = axes.get_xlim()
    shown = [tick for tick in axes.get_xticks() if low <= tick <= high]
    assert shown == [0, 1]
    assert list(axes.lines[0].get_xdata()) == [0, 1]


@pytest.mark.parametrize("box", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_rating_charts_text_reads_at_the_size_discord_shows_it(box):
    """Every text of the chart (ticks, axis names, games) is drawn at one size: its digits reach
    the smallest the table pictures may show (``SMALLEST_GLYPH``) once scaled to ``box``."""
    from matplotlib.text import Text
    from matplotlib.textpath import TextPath

    series = [("Bué", [0.0, 1.5, 3.2]), ("Serie Bum!", [0.0, -0.4])]
    chart = charts.RatingChart(series, "Sfide giocate", "Punteggio di abilità")
    figure = charts.rating_figure(chart)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    (axes,) = figure.axes
    texts = [axes.xaxis.label, *axes.get_legend().get_texts()]
    texts += [title for title in axes.findobj(Text) if title.get_text() == chart.y_label]
    for axis, (low, high) in ((axes.xaxis, axes.get_xlim()), (axes.yaxis, axes.get_ylim())):
        ticks = axis.get_major_ticks()
        texts += [tick.label1 for tick in ticks if low <= tick.get_loc() <= high]
    assert len(texts) >= 8 and {text.get_fontsize() for text in texts} == {charts.RATING_FONT}
    pixels = charts.RATING_FONT * charts.DPI / 72
    digits = TextPath((0, 0), "0123456789", size=pixels).get_extents().height
    size = png_size(charts.draw_ratings(chart))
    assert digits * box.scale(size) >= SMALLEST_GLYPH[box]
    # Nothing is cut off at the figure's edges.
    renderer = canvas.get_renderer()
    for text in texts:
        extent = text.get_window_extent(renderer)
        assert extent.x0 >= 0 and extent.x1 <= size[0] and extent.y0 >= 0 and extent.y1 <= size[1], text


def test_a_chart_drawn_after_others_shows_what_it_shows_drawn_first(monkeypatch):
    """The score chart's figure is kept from chart to chart (issue 22): whatever came before
    (more players, a target, a winner, or none), a chart's pixels are those of its figure made anew."""
    cases = [
        charts.ScoreChart(
            names=list(NAMES[:players]),
            totals=running_totals(players, rounds),
            target=target,
            winner=winner,
            x_label="Game",
            y_label="Points",
            target_label="Target",
            winner_label="Winner",
        )
        for players, rounds, target, winner in (
            (10, 20, None, 9),
            (2, 1, 110, None),
            (3, 4, 60, 1),
            (2, 1, 110, None),
        )
    ]
    monkeypatch.setattr(charts, "_score_figure", None)
    in_turn = [charts.draw_scores(chart) for chart in cases]
    for chart, drawn in zip(cases, in_turn, strict=True):
        monkeypatch.setattr(charts, "_score_figure", None)
        anew = charts.draw_scores(chart)
        with Image.open(io.BytesIO(drawn)) as image, Image.open(io.BytesIO(anew)) as reference:
            assert image.tobytes() == reference.tobytes()


def test_the_rounds_are_marked_on_whole_numbers_in_steps_of_one_two_or_five():
    assert list(charts.whole_numbers().tick_values(0, 4)) == [0, 1, 2, 3, 4]
    assert list(charts.whole_numbers().tick_values(0, 39)) == [0, 5, 10, 15, 20, 25, 30, 35, 40]


def test_the_bot_starts_without_importing_matplotlib(tmp_path):
    import subprocess

    code = "import sys, bot.client, bot.records; print('matplotlib' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout.strip() == "False"
