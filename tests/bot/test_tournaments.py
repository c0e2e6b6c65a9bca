"""Tournaments through the real bot: the sign-up message, rounds of tables in threads played by
computers, the standings against a hand computation, a crash between a round's tables, a round
robin, people at tables (pinged, dropped, late, a late table closed), and every refusal; each
table dealt and closed through the one path of every change, killed between its commit and its
announcements, and a game's end reaching its tournament once, through a crash too."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from fractions import Fraction
from typing import Any

import pytest

from bot.i18n import t
from bot.pairing import Bye, PlayedTable, RoundPlan
from bot.publisher import Publisher
from bot.store.tournaments import Tournaments
from bot.tournament_rounds import Rounds
from tests.bot.driver import TableDriver, components
from tests.bot.forging import forge_click, forge_slash
from tests.bot.test_broken_states import spy_on_sends
from tests.bot.test_one_path import nothing_announced
from tests.bot.test_settings import admin_of, text_of
from tests.league.test_pairing import assert_a_fair_round

# The computers' pause, the longest a server may set: longer than SimCord's settling (below), so
# that SimCord never waits on the wall clock for a computer's move; ``play_out`` moves its clock.
PAUSE = 60.0
STRING, INTEGER = 3, 4

# A round's start deals and draws every table of it at once: more than SimCord's default 5 s on a
# loaded machine (and less than the computers' pause).
pytestmark = pytest.mark.simcord(settle_timeout=30)


class Tournament:
    """A server with a channel, an organiser with Manage Server who plays no table, and
    ``players`` members; the database as the test's oracle."""

    def __init__(self, env: Any, database: str, players: int = 0, shard: int | None = None) -> None:
        self.env = env
        self.reader = TableDriver(env, database, players=players, shard=shard)
        self.guild = self.reader.guild
        self.channel = self.reader.channel
        self.members = self.reader.members
        self.admin = self.organiser = admin_of(env, self.reader)
        self.id = 0

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        return self.reader.query(sql, *params)

    def value(self, column: str) -> Any:
        return self.query(f"SELECT {column} FROM tournaments WHERE id = ?", self.id)[0][0]

    def tables(self) -> list[tuple[int, int, list[int], int | None, int | None, int | None]]:
        """(round, table, entrants, starter message, thread, game) of every table, byes included."""
        rows = self.query(
            "SELECT round, number, entrants, starter_message_id, thread_id, game_id FROM tournament_tables"
            " WHERE tournament_id = ? ORDER BY round, number",
            self.id,
        )
        return [(r, n, json.loads(e), s, th, g) for r, n, e, s, th, g in rows]

    def names(self) -> dict[int, str]:
        return dict(
            self.query("SELECT entrant, name FROM tournament_entrants WHERE tournament_id = ?", self.id)
        )

    def message(self, message_id: int) -> Any:
        return next(m for m in self.channel.history() if m.id == message_id)

    def signup(self) -> Any:
        return self.message(self.value("message_id"))

    async def create(self, game: str, seats: int, **options: Any) -> Any:
        await self.admin.slash(self.channel, "settings computer_pause", seconds=PAUSE)
        result = await self.organiser.slash(
            self.channel, "tournament create", game=game, seats=seats, **options
        )
        self.id = self.query("SELECT COALESCE(MAX(id), 0) FROM tournaments")[0][0]
        return result

    async def add_computers(self, count: int, level: str = "hard") -> None:
        panel = await self.organiser.click(self.signup(), label="Computers")
        for _ in range(count):
            add = next(c for c in components(panel.response) if c.custom_id.endswith(":add"))
            panel = await self.organiser.select(panel.response, [level], custom_id=add.custom_id)

    async def play_out(self, until_round: int | None = None) -> None:
        """Let the computers play, as people wait, until the tournament ends (or reaches a round)."""
        for _ in range(5000):
            if self.value("status") != "running" or (
                until_round is not None and self.value("round") >= until_round
            ):
                return
            await self.env.advance_time(PAUSE + 0.1)
        raise AssertionError("the tournament never got there")


def place_of(totals: list[int], winner: int | None, seat: int) -> int:
    """By hand: the winner first; the others by total, equal totals sharing a place."""
    if seat == winner:
        return 1
    return (2 if winner is not None else 1) + sum(
        1 for other, total in enumerate(totals) if other != winner and total > totals[seat]
    )


def hand_standings(tour: Tournament, seats: int) -> list[tuple[str, Fraction, Fraction, int]]:
    """The final standings worked out from the games' rows alone: (name, points, opponents'
    points, match totals), best first. A place p at a table of n scores (seats-1)(n-p)/(n-1),
    places shared share their points; a bye scores (seats-1)/2."""
    points: dict[int, Fraction] = {}
    totals: dict[int, int] = {}
    met: dict[int, list[int]] = {}
    for _, _, entrants, _, _, game_id in tour.tables():
        for entrant in entrants:
            points.setdefault(entrant, Fraction(0))
            totals.setdefault(entrant, 0)
            met.setdefault(entrant, [])
        if game_id is None:  # a bye
            points[entrants[0]] += Fraction(seats - 1, 2)
            continue
        game_totals = [
            total
            for (total,) in tour.query("SELECT total FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        ]
        won = tour.query("SELECT seat FROM results WHERE game_id = ? AND won = 1", game_id)
        winner = won[0][0] if won else None
        n = len(entrants)
        places = [place_of(game_totals, winner, seat) for seat in range(n)]
        for seat, entrant in enumerate(entrants):
            spanned = range(places[seat], places[seat] + places.count(places[seat]))
            points[entrant] += sum(Fraction((seats - 1) * (n - p), n - 1) for p in spanned) / len(spanned)
            totals[entrant] += game_totals[seat]
            met[entrant] += [other for other in entrants if other != entrant]
    names = tour.names()
    rows = [
        (
            entrant,
            names[entrant],
            points[entrant],
            sum((points[o] for o in met[entrant]), Fraction(0)),
            totals[entrant],
        )
        for entrant in points
    ]
    rows.sort(key=lambda row: (-row[2], -row[3], -row[4], row[0]))
    return [row[1:] for row in rows]


def shown(value: Fraction) -> str:
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


async def test_thirteen_computers_play_a_swiss_bue_tournament_through_a_crash_and_end_as_worked_out_by_hand(
    simcord_env, database, make_bot, monkeypatch
):
    tour = Tournament(simcord_env, database)
    created = await tour.create("bue", 4, rounds=3, options="target=10")
    assert not created.response.ephemeral
    await tour.add_computers(13)
    assert "13 entrants" in tour.signup().embeds[0].fields[0].name
    await tour.organiser.click(tour.signup(), label="Begin")

    # Round 1: thirteen at four seats sit as one full table and three tables one seat short.
    first = [entrants for round_number, _, entrants, *_ in tour.tables() if round_number == 1]
    assert [len(table) for table in first] == [4, 3, 3, 3]
    await tour.play_out(until_round=2)

    # The bot dies between round 2's tables: table 2's call is posted, its id not yet kept.
    sent = spy_on_sends(monkeypatch)
    kept = Tournaments.set_starter

    async def dies_at_table_two(self, tournament_id, round_number, number, message_id) -> None:
        if (round_number, number) == (3, 2):
            raise asyncio.CancelledError
        await kept(self, tournament_id, round_number, number, message_id)

    with monkeypatch.context() as patch:
        patch.setattr(Tournaments, "set_starter", dies_at_table_two)
        await tour.play_out(until_round=3)
        third = [row for row in tour.tables() if row[0] == 3]
        assert third[0][5] is not None and third[1][3] is None and third[1][5] is None
    await simcord_env.restart_bot(make_bot())
    await tour.play_out()

    # Every table of every round was made once: one call, one thread, one game each.
    tables = [row for row in tour.tables() if len(row[2]) > 1]
    assert all(starter and thread == starter and game for _, _, _, starter, thread, game in tables)
    games = [game for *_, game in tables]
    assert len(set(games)) == len(games) == tour.query("SELECT COUNT(*) FROM games")[0][0]
    assert {status for (status,) in tour.query("SELECT status FROM games")} == {"finished"}
    calls = [
        nonce for channel, text, nonce in sent if channel == tour.channel.id and "Round 3, table 2" in text
    ]
    assert len(calls) == 2 and calls[0] == calls[1]  # sent again with its nonce: Discord keeps one
    for round_number in (1, 2, 3):
        seated = sorted(e for r, _, entrants, *_ in tour.tables() if r == round_number for e in entrants)
        assert seated == list(range(1, 14))

    # Rounds 2 and 3 by standing, with no repeat seating an equal swap would have avoided.
    played: list[Any] = []
    byes: list[Any] = []
    for round_number in (1, 2, 3):
        rows = [row for row in tour.tables() if row[0] == round_number]
        plan = RoundPlan(
            tuple(tuple(r[2]) for r in rows if len(r[2]) > 1), tuple(r[2][0] for r in rows if len(r[2]) == 1)
        )
        everyone = list(range(1, 14))
        assert_a_fair_round(plan, round_number, everyone, set(everyone), played, byes, 4, 2)
        for _, _, entrants, _, _, game_id in rows:
            if len(entrants) == 1:
                byes.append(Bye(round_number, entrants[0]))
                continue
            game_totals = [
                x for (x,) in tour.query("SELECT total FROM seats WHERE game_id = ? ORDER BY seat", game_id)
            ]
            won = tour.query("SELECT seat FROM results WHERE game_id = ? AND won = 1", game_id)
            places = tuple(place_of(game_totals, won[0][0] if won else None, s) for s in range(len(entrants)))
            played.append(PlayedTable(round_number, tuple(entrants), places, tuple(game_totals)))

    # The final standings, as worked out by hand from the games' rows.
    assert tour.value("status") == "finished"
    final = tour.channel.last_message
    assert final.content.startswith("🏁 The tournament is over")
    lines = final.embeds[0].description.split("\n\n")[0].splitlines()
    expected = hand_standings(tour, 4)
    assert len(lines) == 13
    for line, (name, points, opponents, totals) in zip(lines, expected, strict=True):
        assert f"**{name}** · **{shown(points)}** · opp. {shown(opponents)} · Σ {totals}" in line
    assert expected[0][0] in final.content
    assert [a.filename for a in final.attachments] == ["standings.png"]
    assert final.embeds[0].image.url == "attachment://standings.png"
    # Every table's replay is a click away from the final standings.
    replays = [c for c in components(final) if c.custom_id.startswith("rp:")]
    assert len(replays) == len(tables)
    opened = await tour.organiser.click(final, custom_id=replays[0].custom_id)
    assert opened.response.ephemeral


async def test_a_round_robin_of_five_at_two_seats_meets_everyone_once(simcord_env, database):
    tour = Tournament(simcord_env, database)
    await tour.create("seriebum", 2, format="round_robin", options="target=100")
    await tour.add_computers(5)
    await tour.organiser.click(tour.signup(), label="Begin")
    assert tour.value("rounds") == 5
    await tour.play_out()
    assert tour.value("status") == "finished"
    tables = tour.tables()
    pairs = [frozenset(entrants) for _, _, entrants, *_ in tables if len(entrants) == 2]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, itertools.combinations(range(1, 6), 2)))
    assert sorted(entrants[0] for _, _, entrants, *_ in tables if len(entrants) == 1) == [1, 2, 3, 4, 5]
    expected = hand_standings(tour, 2)
    lines = tour.channel.last_message.embeds[0].description.split("\n\n")[0].splitlines()
    for line, (name, points, _, _) in zip(lines, expected, strict=True):
        assert f"**{name}** · **{shown(points)}**" in line


async def test_people_are_pinged_to_their_table_play_it_in_its_thread_and_may_join_late_or_drop(
    simcord_env, database
):
    tour = Tournament(simcord_env, database, players=3)
    anna, bruno, carla = tour.members
    # People who do not move get a computer standing in, and the round goes on.
    await tour.create("bue", 2, rounds=2, options="target=10", clock="2h")
    for member in (anna, bruno):
        await member.click(tour.signup(), label="Join")
    again = await anna.click(tour.signup(), label="Join")
    assert again.response.ephemeral and "already" in text_of(again)
    await tour.add_computers(1)
    # Only the organiser begins.
    refused = await anna.click(tour.signup(), label="Begin")
    assert refused.response.ephemeral and t("en", "tournament.error.organiser_only") in text_of(refused)
    await tour.organiser.click(tour.signup(), label="Begin")
    # Begun: late entries until round 2, and dropping out.
    assert [c.label for c in components(tour.signup())] == ["Join", "Leave"]

    ((_, _, entrants, starter, thread_id, game_id), bye) = tour.tables()
    call = tour.message(starter)
    people = {1: anna, 2: bruno}
    for entrant in entrants:
        if entrant in people:
            assert people[entrant].mention in call.content
    assert tour.query("SELECT channel_id FROM games WHERE id = ?", game_id) == [(thread_id,)]
    assert bye[2] in ([1], [2], [3])

    # Carla enters late, during round 1: paired from round 2 on, with nothing for round 1.
    await carla.click(tour.signup(), label="Join")
    assert tour.query("SELECT joined_round FROM tournament_entrants WHERE user_id = ?", carla.id) == [(1,)]

    standings = await carla.slash(tour.channel, "tournament standings")
    assert standings.response.ephemeral
    assert "round 1 of 2" in standings.response.embeds[0].title

    # Bruno drops out: not paired after this round.
    dropped = await bruno.slash(tour.channel, "tournament drop")
    assert "drops out" in text_of(dropped)
    await tour.play_out(until_round=2)
    second = [entrants for r, _, entrants, *_ in tour.tables() if r == 2]
    seated = sorted(e for table in second for e in table)
    assert 2 not in seated and 4 in seated
    # Joining after round 2 began is refused, privately (from a client still showing Join), and
    # changes nothing.
    assert [c.label for c in components(tour.signup())] == ["Leave"]
    before = tour.query("SELECT COUNT(*) FROM tournament_entrants")
    dario = tour.guild.add_member(simcord_env.create_user("dario"))
    closed = await forge_click(simcord_env, dario, tour.channel, tour.signup(), f"tourney:{tour.id}:join")
    assert closed.response.ephemeral and t("en", "tournament.error.join_closed") in text_of(closed)
    assert tour.query("SELECT COUNT(*) FROM tournament_entrants") == before


async def test_the_organiser_closes_a_late_table_and_its_totals_decide_the_places(simcord_env, database):
    tour = Tournament(simcord_env, database, players=1)
    (anna,) = tour.members
    await tour.create("bue", 2, rounds=2, options="target=10", clock="1h")
    await anna.click(tour.signup(), label="Join")
    await tour.add_computers(1)
    await tour.organiser.click(tour.signup(), label="Begin")
    ((_, number, _, _, _, game_id),) = tour.tables()
    # Anna does not move; only the organiser may close her table, and not one that does not exist.
    refused = await anna.slash(tour.channel, "tournament close", table=number)
    assert refused.response.ephemeral and t("en", "tournament.error.organiser_only") in text_of(refused)
    missing = await tour.organiser.slash(tour.channel, "tournament close", table=7)
    assert missing.response.ephemeral and "no table 7" in text_of(missing)
    closed = await tour.organiser.slash(tour.channel, "tournament close", table=number)
    assert not closed.response.ephemeral
    assert tour.query("SELECT status FROM games WHERE id = ?", game_id) == [("aborted",)]
    (places,) = tour.query("SELECT places FROM tournament_tables WHERE game_id = ?", game_id)[0]
    totals = [x for (x,) in tour.query("SELECT total FROM seats WHERE game_id = ? ORDER BY seat", game_id)]
    assert json.loads(places) == [place_of(totals, None, seat) for seat in range(2)]
    assert tour.value("round") == 2  # the next round began
    # Closing round 2's late table ends the tournament; nothing is left to close.
    await tour.organiser.slash(tour.channel, "tournament close", table=number)
    assert tour.value("status") == "finished"
    again = await tour.organiser.slash(tour.channel, "tournament close", table=number)
    assert again.response.ephemeral and t("en", "tournament.error.not_running") in text_of(again)
    # A closed table has no replay (it was not played to its end): the final standings offer none.
    assert not [c for c in components(tour.channel.last_message) if c.custom_id.startswith("rp:")]


async def test_the_organiser_drops_only_a_player_who_missed_two_moves_in_a_row(simcord_env, database):
    tour = Tournament(simcord_env, database, players=2)
    anna, bruno = tour.members
    await tour.create("bue", 2, rounds=2, options="target=50", clock="1h")
    for member in (anna, bruno):
        await member.click(tour.signup(), label="Join")
    await tour.organiser.click(tour.signup(), label="Begin")
    refused = await tour.organiser.slash(tour.channel, "tournament drop", player=anna.user)
    assert refused.response.ephemeral and "has not missed two moves" in text_of(refused)
    # Two turns run out: a computer now plays for whoever's turns they were.
    ((*_, game_id),) = [row for row in tour.tables() if len(row[2]) == 2]
    for _ in range(60):
        if tour.query("SELECT COUNT(*) FROM seats WHERE game_id = ? AND stand_in IS NOT NULL", game_id)[0][0]:
            break
        await simcord_env.advance_time(3600)
    (user_id,) = tour.query("SELECT user_id FROM seats WHERE game_id = ? AND stand_in IS NOT NULL", game_id)[
        0
    ]
    away = anna if user_id == anna.id else bruno
    dropped = await tour.organiser.slash(tour.channel, "tournament drop", player=away.user)
    assert "drops out" in text_of(dropped)
    assert tour.query("SELECT dropped_round FROM tournament_entrants WHERE user_id = ?", away.id) == [(1,)]


def create_options(game: str = "bue", seats: int = 4, **more: tuple[int, Any]) -> dict[str, tuple[int, Any]]:
    return {"game": (STRING, game), "seats": (INTEGER, seats), **more}


async def test_every_refusal_is_private_and_saves_nothing(simcord_env, database, caplog):
    tour = Tournament(simcord_env, database, players=1)
    (member,) = tour.members
    refusals = [
        (
            create_options(seats=1, rounds=(INTEGER, 3)),
            t("en", "tournament.error.seats", minimum=2, maximum=10),
        ),
        (create_options(rounds=(INTEGER, 0)), t("en", "tournament.error.rounds", maximum=20)),
        (create_options(), t("en", "tournament.error.rounds", maximum=20)),
        (
            create_options("seriebum", 3, rounds=(INTEGER, 2)),
            t("en", "tournament.error.seats", minimum=2, maximum=2),
        ),
        (create_options("chess", 2, rounds=(INTEGER, 2)), t("en", "error.forged_options")),
        (
            create_options(format=(STRING, "round_robin"), rounds=(INTEGER, 2)),
            t("en", "tournament.error.round_robin_rounds"),
        ),
        (create_options(format=(STRING, "knockout"), rounds=(INTEGER, 2)), t("en", "error.forged_options")),
        (
            create_options(rounds=(INTEGER, 2), options=(STRING, "colour=3")),
            t("en", "error.option_unknown", option="colour"),
        ),
        (
            create_options(rounds=(INTEGER, 2), clock=(STRING, "soon")),
            t("en", "error.timeout_unreadable", text="soon"),
        ),
    ]
    with caplog.at_level(logging.ERROR):
        for options, expected in refusals:
            refused = await forge_slash(tour.organiser, tour.channel, "tournament create", options)
            assert refused.response.ephemeral and expected in text_of(refused), (options, text_of(refused))
        # Neither Manage Server nor the server's organisers' role.
        refused = await member.slash(tour.channel, "tournament create", game="bue", seats=4, rounds=2)
        assert refused.response.ephemeral and t("en", "tournament.error.organiser") in text_of(refused)
        # A channel games are not allowed in.
        games_here = tour.guild.create_text_channel("games-only")
        await tour.organiser.slash(tour.channel, "settings channels", action="add", channel=games_here)
        refused = await tour.organiser.slash(tour.channel, "tournament create", game="bue", seats=4, rounds=2)
        assert refused.response.ephemeral and f"<#{games_here.id}>" in text_of(refused)
    assert tour.query("SELECT COUNT(*) FROM tournaments") == [(0,)]

    # The organisers' role lets a member create one, where games are allowed.
    organisers = tour.guild.create_role("organisers")
    await tour.organiser.slash(tour.channel, "settings tournament_role", role=organisers)
    tour.channel = games_here
    tour.organiser = tour.guild.add_member(simcord_env.create_user("olga"), roles=[organisers])
    made = await tour.create("bue", 3, rounds=1)
    assert not made.response.ephemeral and tour.id

    # Forged buttons, and another server's: refused privately, nothing changed.
    elsewhere = Tournament(simcord_env, database, players=1)
    signup = tour.signup()
    with caplog.at_level(logging.ERROR):
        for actor, channel, custom_id, expected in [
            (
                elsewhere.members[0],
                elsewhere.channel,
                f"tourney:{tour.id}:join",
                "tournament.error.elsewhere",
            ),
            (member, tour.channel, f"tourney:{2**62}:join", "tournament.error.unknown"),
            (member, tour.channel, f"tourney:{tour.id}:explode", "error.unknown_action"),
            (member, tour.channel, f"tourneysel:{tour.id}:add", "tournament.error.organiser_only"),
        ]:
            answer = await forge_click(simcord_env, actor, channel, signup, custom_id)
            assert answer.response.ephemeral and t("en", expected) in text_of(answer), custom_id
    assert tour.query("SELECT COUNT(*) FROM tournament_entrants") == [(0,)]
    few = await tour.organiser.click(tour.signup(), label="Begin")
    assert few.response.ephemeral and t("en", "tournament.error.too_few", minimum=3) in text_of(few)
    assert tour.value("status") == "signup"
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


async def test_a_round_robin_too_long_to_play_is_refused_at_its_start(simcord_env, database):
    tour = Tournament(simcord_env, database)
    await tour.create("seriebum", 2, format="round_robin")
    await tour.add_computers(22)
    refused = await tour.organiser.click(tour.signup(), label="Begin")
    # Acknowledged at once (its pairing may take a moment), then told privately.
    (answer,) = refused.followups
    assert answer.ephemeral
    assert t("en", "tournament.error.round_robin_long", rounds=21, maximum=20) in answer.content
    assert (tour.value("status"), tour.value("round")) == ("signup", 0)
    assert tour.tables() == []


async def test_a_tables_deal_killed_before_its_announcements_is_announced_once_after_a_restart(
    simcord_env, database, make_bot, monkeypatch
):
    """A round's tables are dealt through the one path: their deals committed, then the bot dies
    before telling anyone; each table is shown once in its thread, however often it restarts."""
    tour = Tournament(simcord_env, database)
    await tour.create("bue", 2, rounds=1, options="target=10")
    await tour.add_computers(4)
    with monkeypatch.context() as patch:
        patch.setattr(Publisher, "deliver", nothing_announced)
        await tour.organiser.click(tour.signup(), label="Begin")
    games = [game for *_, game in tour.tables()]
    assert len(games) == 2 and tour.query("SELECT COUNT(*) FROM outbox")[0][0] == 2
    assert tour.query("SELECT COUNT(*) FROM games WHERE status = 'running' AND message_id IS NULL") == [(2,)]
    shown = []
    for _ in range(2):  # however often the bot restarts
        await simcord_env.restart_bot(make_bot())
        assert tour.query("SELECT COUNT(*) FROM outbox") == [(0,)]
        threads = {thread.id: thread for thread in tour.channel.threads}
        shown.append({thread_id: [m.id for m in thread.history()] for thread_id, thread in threads.items()})
        for game_id in games:
            ((thread_id, message_id),) = tour.query(
                "SELECT channel_id, message_id FROM games WHERE id = ?", game_id
            )
            assert [m.id for m in threads[thread_id].history()].count(message_id) == 1
    assert shown[0] == shown[1]
    # Nothing else was made: a table's game once, dealt once.
    assert tour.query("SELECT COUNT(*) FROM games") == [(2,)]
    assert tour.query("SELECT MAX(version) FROM games") == [(1,)]


async def test_a_crash_between_a_tables_end_and_its_tournament_hearing_of_it_loses_nothing(
    simcord_env, database, make_bot, monkeypatch
):
    """The table service tells the tournament of a game's end once it is committed; should the bot
    die in between, the tournament goes on from its rows at the next start."""
    tour = Tournament(simcord_env, database)
    await tour.create("bue", 2, rounds=2, options="target=10")
    await tour.add_computers(2)
    await tour.organiser.click(tour.signup(), label="Begin")
    ((*_, game_id),) = tour.tables()
    with monkeypatch.context() as patch:
        # The bot dies before the tournament hears of the game's end.
        patch.setattr(Rounds, "_after_game", nothing_announced)
        for _ in range(500):
            if tour.query("SELECT status FROM games WHERE id = ?", game_id) == [("finished",)]:
                break
            await simcord_env.advance_time(PAUSE + 0.1)
        assert tour.query("SELECT status FROM games WHERE id = ?", game_id) == [("finished",)]
        await simcord_env.advance_time(PAUSE + 0.1)
        assert tour.value("round") == 1 and tour.query("SELECT places FROM tournament_tables") == [(None,)]
    await simcord_env.restart_bot(make_bot())
    assert tour.value("round") == 2
    assert tour.query("SELECT places FROM tournament_tables WHERE round = 1") != [(None,)]


async def test_a_late_table_closed_is_told_once_in_its_thread_through_a_crash(
    simcord_env, database, make_bot, monkeypatch
):
    """Closing a late table is an abort by the organiser through the one path: committed with its
    announcement, told once in the table's thread after a crash, and the round goes on."""
    tour = Tournament(simcord_env, database, players=2)
    anna, bruno = tour.members
    await tour.create("bue", 2, rounds=2, options="target=10", clock="1h")
    for member in (anna, bruno):
        await member.click(tour.signup(), label="Join")
    await tour.organiser.click(tour.signup(), label="Begin")
    ((_, number, _, _, thread_id, game_id),) = tour.tables()
    with monkeypatch.context() as patch:
        patch.setattr(Publisher, "deliver", nothing_announced)
        closed = await tour.organiser.slash(tour.channel, "tournament close", table=number)
    assert not closed.response.ephemeral
    assert tour.query("SELECT status FROM games WHERE id = ?", game_id) == [("aborted",)]
    (thread,) = [thread for thread in tour.channel.threads if thread.id == thread_id]
    for _ in range(2):
        await simcord_env.restart_bot(make_bot())
        told = [m for m in thread.history() if "closed by" in (m.content or "")]
        assert len(told) == 1 and tour.organiser.mention in told[0].content
        assert not told[0].embeds and not components(told[0])
    assert tour.value("round") == 2


async def test_each_tables_end_reaches_its_tournament_once(simcord_env, database, monkeypatch):
    """The table service tells the tournament of each game's end exactly once."""
    told: list[int] = []
    heard = Rounds._after_game

    async def counted(self: Rounds, game_id: int) -> None:
        told.append(game_id)
        await heard(self, game_id)

    monkeypatch.setattr(Rounds, "_after_game", counted)
    tour = Tournament(simcord_env, database)
    await tour.create("bue", 2, rounds=2, options="target=10")
    await tour.add_computers(4)
    await tour.organiser.click(tour.signup(), label="Begin")
    await tour.play_out()
    games = [game for *_, game in tour.tables() if game is not None]
    assert len(games) == 4 and sorted(told) == sorted(games)
