"""After the game: the score chart on results, ``/stats`` and ``/history``, all from the database."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import charts
from bot.i18n import discord_time, t
from bot.ratings import Skill, default_skill, user_entry
from bot.replies import NothingYet
from bot.store import FinishedMatch, PastResult, Season, Store
from games.core import Event, GameError

if TYPE_CHECKING:
    from bot.adapter import GameAdapter, LoadedGame, Viewer

# The season choice of /leaderboard and /stats that shows every match.
ALL_TIME = "all"
# Discord's limits on an autocomplete's choices: how many, and a choice's name.
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
SCORE_CHART_FILE = "scores.png"
RATING_CHART_FILE = "rating.png"
TREND_MATCHES = 5
LAST_RESULTS = 5
MEDAL = "🏆"
EMBED_DESCRIPTION_LIMIT = 4096


def decimal(language: str, value: float) -> str:
    """One decimal, with the decimal comma Italian and French readers expect."""
    text = f"{value:.1f}"
    return text if language == "en" else text.replace(".", ",")


def game_title(language: str, kind: str) -> str:
    return t(language, f"{kind}.title")


def game_choices(games: Iterable[str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=game_title("en", kind), value=kind) for kind in sorted(games)]


def nothing_yet(games: Iterable[str], language: str, key: str, kind: str | None, **params: str) -> NothingYet:
    """An empty answer that says how to fill it: with the start command of the game asked about,
    or of every game."""
    kinds = [kind] if kind else sorted(games)
    commands = [f"`/{k} start`" for k in kinds]
    listed = t(language, "stats.empty.or").join(
        [", ".join(commands[:-1]), commands[-1]] if kinds[1:] else commands
    )
    return NothingYet(key, start=t(language, "stats.empty.start_any", commands=listed), **params)


# ---------------------------------------------------------------------- seasons


async def chosen_season(store: Store, guild_id: int, value: object) -> Season | None:
    """The season a /leaderboard or /stats shows: the one chosen, else the one running; None: all
    time (and for a server that never ran a season, as before seasons existed). A value that names
    no season of this server (forged, or another server's) is refused."""
    if value is None:
        return await store.seasons.running(guild_id)
    if value == ALL_TIME:
        return None
    text = str(value)
    season = await store.seasons.season(guild_id, int(text)) if text.isdigit() and len(text) < 20 else None
    if season is None:
        raise GameError("season.error.unknown")
    return season


def season_label(language: str, season: Season) -> str:
    """A season as the choices name it: its name, running or with its dates."""
    if season.running:
        return t(language, "season.label_running", name=season.name)
    return t(language, "season.label_closed", name=season.name)


async def season_choices(
    store: Store, guild_id: int, language: str, typed: str
) -> list[app_commands.Choice[str]]:
    """The choices of a ``season`` option: all time, then the server's seasons, newest first, those
    whose name holds what was typed."""
    wanted = typed.casefold()
    choices = [app_commands.Choice(name=t(language, "season.all_time"), value=ALL_TIME)]
    choices += [
        app_commands.Choice(name=season_label(language, season)[:MAX_CHOICE_NAME], value=str(season.id))
        for season in await store.seasons.of_guild(guild_id, MAX_CHOICES)
    ]
    return [choice for choice in choices if wanted in choice.name.casefold()][:MAX_CHOICES]


def with_season(title: str, season: Season | None) -> str:
    return title if season is None else f"{title} · {season.name}"


# ---------------------------------------------------------------------- the chart on results


@dataclass(frozen=True)
class ResultsChart:
    """The match totals so far, for the results message of a move that ends a game, round or
    manche: shown in its last results embed, or in an embed of its own when the game has none
    for a round. The message goes out without it; the chart follows by an edit once drawn."""

    chart: charts.ScoreChart
    title: str
    colour: discord.Colour

    def make_room(self, embeds: list[discord.Embed]) -> None:
        """The embed the chart will sit in, added to the results when they have none."""
        if not embeds:
            embeds.append(discord.Embed(title=self.title, colour=self.colour))

    async def draw(self, embeds: list[discord.Embed]) -> discord.File:
        """The chart, drawn off the event loop, shown in the last of ``embeds`` (see ``make_room``)."""
        png = await asyncio.to_thread(charts.draw_scores, self.chart)
        embeds[-1].set_image(url=f"attachment://{SCORE_CHART_FILE}")
        return discord.File(io.BytesIO(png), filename=SCORE_CHART_FILE)


async def score_chart(
    store: Store, table: LoadedGame, events: Sequence[Event], viewer: Viewer
) -> ResultsChart | None:
    """When ``events`` end a game, round or manche: the chart of the match totals so far."""
    if not table.adapter.ends_round(events):
        return None
    history = await store.records.round_totals(table.row.id)
    if not history:
        return None
    kind = table.row.kind
    unit = viewer.t(f"{kind}.chart_unit")
    left = viewer.t("common.left_mark")
    chart = charts.ScoreChart(
        names=[
            f"{name} {left}" if seat.out else name
            for seat, name in zip(table.seats, viewer.names, strict=True)
        ],
        totals=history,
        target=table.row.options.get("target") or None,
        winner=table.game.winner(),
        x_label=unit,
        y_label=viewer.t("stats.chart.points"),
        target_label=viewer.t("stats.chart.target"),
        winner_label=viewer.t("stats.chart.winner"),
    )
    title = viewer.t(
        "stats.chart.title", game=game_title(viewer.language, kind), unit=unit, number=len(history)
    )
    return ResultsChart(chart, title, table.adapter.colour)


# ---------------------------------------------------------------------- /stats


def trend_text(language: str, ratings: Sequence[Skill], start: Skill | None = None) -> str:
    """How much the rating moved over the last few matches, with an arrow; from ``start`` (the
    model's default) when those are all there are."""
    matches = min(TREND_MATCHES, len(ratings))
    before = ratings[-matches - 1] if len(ratings) > matches else start or default_skill()
    change = ratings[-1].conservative - before.conservative
    arrow = "▲" if change > 0 else "▼" if change < 0 else "▶"
    sign = "+" if change >= 0 else "−"
    return t(
        language,
        "stats.trend",
        arrow=arrow,
        change=sign + decimal(language, abs(change)),
        matches=matches,
    )


def result_line(language: str, result: PastResult) -> str:
    return t(
        language,
        "stats.result_line",
        medal=MEDAL if result.won else "▫️",
        game=game_title(language, result.kind),
        points=result.points,
        date=discord_time(result.finished_at, "d"),
    )


async def stats_embed(
    store: Store,
    adapters: Mapping[str, GameAdapter],
    guild_id: int,
    user: discord.abc.User,
    kind: str | None,
    lang: str,
    season: Season | None = None,
) -> tuple[discord.Embed, discord.File | None]:
    """A player's results, all time or in ``season``."""
    season_id = season.id if season else None
    records = store.records
    record = await records.player_record(guild_id, user.id, kind, season_id)
    if record is None:
        if season is not None:
            raise nothing_yet(
                adapters, lang, "season.error.no_matches", kind, name=user.display_name, season=season.name
            )
        raise nothing_yet(adapters, lang, "stats.error.no_matches", kind, name=user.display_name)
    kinds = [kind] if kind else await records.kinds_played(guild_id, user.id, season_id)
    title_game = game_title(lang, kind) if kind else t(lang, "common.all_games")
    embed = discord.Embed(
        title=with_season(t(lang, "stats.title", name=record.name, game=title_game), season),
        colour=discord.Colour.blurple(),
    )
    embed.add_field(name=t(lang, "stats.matches"), value=str(record.matches))
    embed.add_field(
        name=t(lang, "stats.wins"),
        value=t(
            lang, "stats.wins_value", wins=record.wins, rate=decimal(lang, 100 * record.wins / record.matches)
        ),
    )
    embed.add_field(name=t(lang, "stats.best_total"), value=str(record.best_total))
    entry = user_entry(user.id)
    histories = [(k, await records.rating_history(guild_id, k, entry, season_id)) for k in kinds]
    rated = [(k, ratings) for k, ratings in histories if ratings]
    # In a season, a rating's trend starts where the season started it.
    starts = {
        k: await records.season_start_skill(guild_id, k, entry, season.id) if season else None
        for k, _ in rated
    }
    if rated:
        embed.add_field(
            name=t(lang, "stats.rating"),
            value="\n".join(
                t(
                    lang,
                    "stats.rating_value",
                    game=game_title(lang, k),
                    rating=decimal(lang, ratings[-1].conservative),
                    matches=len(ratings),
                    trend=trend_text(lang, ratings, starts[k]),
                )
                for k, ratings in rated
            )
            + "\n"
            + t(lang, "stats.rating_explained"),
            inline=False,
        )
    for k in kinds:
        feats = await records.feat_counts(guild_id, user.id, k, season_id)
        adapter = adapters.get(k)
        # Every feat the game counts is shown, made or not yet.
        for feat in dict.fromkeys(adapter.feat_events.values() if adapter else ()):
            embed.add_field(name=t(lang, f"stats.feat.{feat}"), value=str(feats.get(feat, 0)))
        if adapter and adapter.points_per_round:
            average = await records.points_per_round(guild_id, user.id, k, season_id)
            if average is not None:
                embed.add_field(
                    name=t(lang, "stats.points_per_round", game=game_title(lang, k)),
                    value=decimal(lang, average),
                )
    last = await records.last_results(guild_id, user.id, kind, LAST_RESULTS, season_id)
    embed.add_field(
        name=t(lang, "stats.last_results"), value="\n".join(result_line(lang, r) for r in last), inline=False
    )
    if not rated:
        return embed, None
    # Each line from where the rating started (x = 0), so one match draws a line, not a lone dot.
    chart = charts.RatingChart(
        series=[
            (
                game_title(lang, k),
                [(starts[k] or default_skill()).conservative, *(r.conservative for r in ratings)],
            )
            for k, ratings in rated
        ],
        x_label=t(lang, "stats.chart.match"),
        y_label=t(lang, "stats.chart.rating"),
    )
    png = await asyncio.to_thread(charts.draw_ratings, chart)
    embed.set_image(url=f"attachment://{RATING_CHART_FILE}")
    return embed, discord.File(io.BytesIO(png), filename=RATING_CHART_FILE)


# ---------------------------------------------------------------------- /history


def match_text(language: str, match: FinishedMatch, number: int, linked: bool = True) -> str:
    """An entry of /history, numbered as its replay button is, with a link to its results where
    links open (``linked``)."""
    left = t(language, "common.left_mark")
    players = " · ".join(
        (f"{MEDAL} **{seat.name}**" if seat.won else seat.name)
        + f" {seat.points}"
        + (f" {left}" if seat.gone else "")
        for seat in match.seats
    )
    link = t(language, "stats.history_link", url=match.jump_url) if match.jump_url and linked else ""
    heading = f"`{number}.` **{game_title(language, match.kind)}** · {discord_time(match.finished_at)}"
    return f"{heading} {link}\n{players}"


def within_limit(parts: Sequence[str], separator: str, limit: int = EMBED_DESCRIPTION_LIMIT) -> str:
    """As many of ``parts`` as fit, whole, from the first."""
    kept: list[str] = []
    for part in parts:
        if len(separator.join([*kept, part])) > limit:
            break
        kept.append(part)
    return separator.join(kept)


def history_embed(
    language: str, kind: str | None, matches: Sequence[FinishedMatch], linked: bool = True
) -> discord.Embed:
    """The last finished matches, of one game or of all, newest first; with links to their results
    where they open (``linked``: not in the playground, ``Settings.discord_links``)."""
    return discord.Embed(
        title=t(
            language,
            "stats.history_title",
            game=game_title(language, kind) if kind else t(language, "common.all_games"),
        ),
        description=within_limit(
            [match_text(language, match, number, linked) for number, match in enumerate(matches, start=1)],
            "\n\n",
        ),
        colour=discord.Colour.blurple(),
    )
