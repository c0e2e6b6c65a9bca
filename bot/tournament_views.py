"""What a tournament shows: its sign-up message, each round's standings with its tables, the line
that opens a table's thread, and the final standings' chart. Built from the store's rows through
the pure pairing module; nothing here reads the database or talks to Discord."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import discord

from bot import charts
from bot.i18n import duration_text, t
from bot.pairing import ROUND_ROBIN, Bye, PlayedTable, Standing, standings
from bot.records import game_title, within_limit
from bot.store.tournaments import EntrantRow, TableRow, TournamentRow

TOURNAMENT_COLOUR = 0xF1C40F
# Lines of standings a channel message shows (Discord allows 6,000 characters over a message's
# embeds): the rest are a /tournament standings away.
STANDINGS_SHOWN = 40
# Entrants the sign-up message names; the count says how many more.
ENTRANTS_NAMED = 40
# The final chart follows the leaders only: more lines would not be told apart.
CHART_LEADERS = 10
STAND_IN_MARK = "🔁"
DROPPED_MARK = "✖"


def fraction_text(language: str, value: Fraction) -> str:
    """Points as people write them: 3, 1.5, 0.75 (a decimal comma in Italian and French)."""
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text if language == "en" else text.replace(".", ",")


@dataclass(frozen=True)
class Field:
    """A tournament's results so far, as the pure pairing module takes them."""

    entrants: list[int]  # every entrant, in entry order
    tables: list[PlayedTable]
    byes: list[Bye]
    names: dict[int, str]
    dropped: set[int]


def field_of(entrants: Sequence[EntrantRow], tables: Sequence[TableRow]) -> Field:
    played = [
        PlayedTable(table.round, table.entrants, table.places, table.totals, table.stood_in)
        for table in tables
        if not table.is_bye
    ]
    byes = [Bye(table.round, table.entrants[0]) for table in tables if table.is_bye]
    return Field(
        [entrant.entrant for entrant in entrants],
        played,
        byes,
        {entrant.entrant: entrant.name for entrant in entrants},
        {entrant.entrant for entrant in entrants if entrant.dropped_round is not None},
    )


def current_standings(field: Field, seats: int) -> list[Standing]:
    return standings(field.entrants, field.tables, field.byes, seats)


def tournament_title(language: str, tournament: TournamentRow) -> str:
    return t(language, "tournament.title", game=game_title(language, tournament.kind))


def settings_lines(language: str, tournament: TournamentRow, option_texts: Sequence[str]) -> list[str]:
    """The tournament's format, seats, rounds, clock and the games' options."""
    if tournament.format == ROUND_ROBIN:
        rounds = t(language, "tournament.round_robin")
    else:
        rounds = t(language, "tournament.swiss", rounds=tournament.rounds)
    return [
        rounds,
        t(language, "tournament.seats", seats=tournament.seats),
        t(language, "tournament.clock", clock=duration_text(language, tournament.turn_timeout)),
        *option_texts,
    ]


def late_entry_open(tournament: TournamentRow) -> bool:
    """Late entries are taken until round 2 begins, in a Swiss tournament."""
    return tournament.status == "running" and tournament.round == 1 and tournament.format != ROUND_ROBIN


def signup_state(tournament: TournamentRow) -> str:
    """What the sign-up message says of where the tournament stands (a key)."""
    if tournament.status == "signup":
        return "tournament.signup_how"
    if late_entry_open(tournament):
        return "tournament.signup_late"
    if tournament.status == "running":
        return "tournament.signup_running"
    return f"tournament.signup_{tournament.status}"


def signup_embed(
    language: str,
    tournament: TournamentRow,
    entrants: Sequence[EntrantRow],
    option_texts: Sequence[str],
    colour: discord.Colour | int = TOURNAMENT_COLOUR,
) -> discord.Embed:
    """The sign-up message: what is played, by whom, and how to enter."""
    embed = discord.Embed(
        title=tournament_title(language, tournament),
        description="\n".join(
            [
                *settings_lines(language, tournament, option_texts),
                t(language, "tournament.organiser", organiser=f"<@{tournament.organiser_id}>"),
                "",
                t(language, signup_state(tournament)),
            ]
        ),
        colour=colour,
    )
    named = [entrant for entrant in entrants if entrant.dropped_round is None]
    listed = ", ".join(entrant.name for entrant in named[:ENTRANTS_NAMED])
    if len(named) > ENTRANTS_NAMED:
        listed += " " + t(language, "tournament.and_more", count=len(named) - ENTRANTS_NAMED)
    embed.add_field(
        name=t(language, "tournament.entrants", count=len(named)), value=listed or "—", inline=False
    )
    return embed


def standing_line(language: str, standing: Standing, field: Field) -> str:
    marks = (f" {STAND_IN_MARK}" if standing.stood_in else "") + (
        f" {DROPPED_MARK}" if standing.entrant in field.dropped else ""
    )
    return t(
        language,
        "tournament.standing_line",
        rank=standing.rank,
        name=field.names[standing.entrant],
        points=fraction_text(language, standing.points),
        opponents=fraction_text(language, standing.opponents_points),
        totals=standing.totals,
        marks=marks,
    )


def table_line(language: str, table: TableRow, field: Field) -> str:
    """A table of the round: where it is played and, once over, each seat's place."""
    if table.is_bye:
        return t(language, "tournament.bye_line", name=field.names[table.entrants[0]])
    where = f"<#{table.thread_id}>" if table.thread_id else t(language, "tournament.table_starting")
    if table.places is None:
        players = ", ".join(field.names[entrant] for entrant in table.entrants)
        return t(language, "tournament.table_playing", number=table.number, where=where, players=players)
    order = sorted(range(len(table.entrants)), key=lambda seat: table.places[seat] if table.places else 0)
    results = ", ".join(
        f"{table.places[seat]}. {field.names[table.entrants[seat]]}"
        + (f" {STAND_IN_MARK}" if table.stood_in and table.stood_in[seat] else "")
        for seat in order
        if table.places is not None
    )
    key = "tournament.table_closed" if table.closed else "tournament.table_over"
    return t(language, key, number=table.number, where=where, results=results)


def standings_embeds(
    language: str,
    tournament: TournamentRow,
    entrants: Sequence[EntrantRow],
    tables: Sequence[TableRow],
    *,
    shown: int = STANDINGS_SHOWN,
    highlight: int | None = None,
) -> list[discord.Embed]:
    """The standings after the tables over so far, and the round's tables; ``highlight``: an
    entrant whose line is added when it is not among those shown (a private answer)."""
    field = field_of(entrants, tables)
    ranked = current_standings(field, tournament.seats)
    lines = [standing_line(language, standing, field) for standing in ranked[:shown]]
    if len(ranked) > shown:
        mine = next((standing for standing in ranked[shown:] if standing.entrant == highlight), None)
        if mine is not None:
            lines.append("…")
            lines.append(standing_line(language, mine, field))
        lines.append(t(language, "tournament.more_standings", count=len(ranked) - shown))
    finished = tournament.status == "finished"
    key = "tournament.final_title" if finished else "tournament.round_title"
    title = t(
        language,
        key,
        title=tournament_title(language, tournament),
        round=tournament.round,
        rounds=tournament.rounds,
    )
    legend = t(language, "tournament.legend", stand_in=STAND_IN_MARK, dropped=DROPPED_MARK)
    embed = discord.Embed(
        title=title, description=within_limit([*lines, "", legend], "\n"), colour=TOURNAMENT_COLOUR
    )
    if tournament.round == 0:
        return [embed]
    this_round = [table for table in tables if table.round == tournament.round]
    round_text = within_limit([table_line(language, table, field) for table in this_round], "\n")
    tables_embed = discord.Embed(
        title=t(language, "tournament.round_tables", round=tournament.round),
        description=round_text or "—",
        colour=TOURNAMENT_COLOUR,
    )
    return [embed, tables_embed]


def starter_text(
    language: str, tournament: TournamentRow, table: TableRow, entrants: Mapping[int, EntrantRow]
) -> str:
    """The line a table's thread is made from, calling its players (computers are named)."""
    players = ", ".join(
        entrants[entrant].name if entrants[entrant].is_robot else f"<@{entrants[entrant].user_id}>"
        for entrant in table.entrants
    )
    return t(
        language,
        "tournament.table_call",
        round=table.round,
        number=table.number,
        game=game_title(language, tournament.kind),
        players=players,
    )


def thread_name(language: str, table: TableRow) -> str:
    return t(language, "tournament.thread_name", round=table.round, number=table.number)


def final_chart(
    language: str, tournament: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[TableRow]
) -> charts.ScoreChart:
    """The leaders' points after each round, the winner starred (the results' score chart)."""
    field = field_of(entrants, tables)
    final = current_standings(field, tournament.seats)
    leaders = [standing.entrant for standing in final[:CHART_LEADERS]]
    by_round = []
    for number in range(1, tournament.round + 1):
        after = standings(
            field.entrants,
            [table for table in field.tables if table.round <= number],
            [bye for bye in field.byes if bye.round <= number],
            tournament.seats,
        )
        points = {standing.entrant: standing.points for standing in after}
        by_round.append([chart_number(points[entrant]) for entrant in leaders])
    return charts.ScoreChart(
        names=[field.names[entrant] for entrant in leaders],
        totals=by_round,
        target=None,
        winner=0 if leaders else None,
        x_label=t(language, "tournament.chart.round"),
        y_label=t(language, "tournament.chart.points"),
        target_label="",
        winner_label=t(language, "stats.chart.winner"),
    )


def chart_number(value: Fraction) -> float:
    """A whole number of points as an int (drawn "3", not "3.0")."""
    return int(value) if value.denominator == 1 else float(value)
