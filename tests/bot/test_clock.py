"""Time in a game across days (bot/clock.py): the clock option, the bank's arithmetic, quiet hours
in a player's zone (daylight saving included), away spans and days, and the one deadline."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.clock import (
    AWAY_WINDOW,
    BANK_MAX,
    BANK_MIN,
    DAY,
    HOUR,
    INCREMENT_MAX,
    MINUTE,
    QUIET_MAX,
    AwayEffect,
    Clock,
    PlayerTime,
    QuietHours,
    SeatedGame,
    Span,
    after_quiet,
    automatic_away,
    away_effects,
    away_ended,
    away_left,
    away_span,
    away_used,
    charged,
    check_zone,
    deadline,
    deadline_after,
    is_quiet,
    parse_away,
    parse_clock,
    parse_quiet_hours,
    reminder_at,
    zone_choices,
)
from bot.i18n import LANGUAGES, t
from games.core import GameError


def at(text: str) -> float:
    """A UTC instant written ``2025-03-30 01:30``."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def refused(call, *args) -> GameError:
    with pytest.raises(GameError) as error:
        call(*args)
    return error.value


def says_example(error: GameError, example: str) -> None:
    """The refusal reads, in every language, with an example of a good value."""
    for lang in LANGUAGES:
        text = t(lang, error.key, **error.params)
        assert example in text and "{" not in text, (lang, text)


# ---------------------------------------------------------------------- the clock option


@pytest.mark.parametrize(
    ("text", "clock", "canonical"),
    [
        ("24h", Clock(DAY), "1d"),
        ("30m", Clock(30 * MINUTE), "30m"),
        ("2d", Clock(2 * DAY), "2d"),
        (" 12H ", Clock(12 * HOUR), "12h"),
        ("3d+12h", Clock(3 * DAY, 12 * HOUR), "3d+12h"),
        ("1d12h+30m", Clock(36 * HOUR, 30 * MINUTE), "1d12h+30m"),
        ("3d+0h", Clock(3 * DAY, 0), "3d+0h"),
        ("30d+7d", Clock(30 * DAY, 7 * DAY), "30d+7d"),
        ("2g+6h", Clock(2 * DAY, 6 * HOUR), "2d+6h"),  # Italian and French days too
    ],
)
def test_a_clock_is_a_time_per_move_or_a_bank_with_its_increment(text, clock, canonical):
    assert parse_clock(text) == clock
    assert clock.text() == canonical
    assert parse_clock(clock.text()) == clock


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("0d+0h", "time.error.clock_range"),
        ("0m", "time.error.clock_range"),
        ("8d", "time.error.clock_range"),  # a time per move: a week at most
        ("31d+1h", "time.error.clock_range"),  # a bank: 30 days at most
        ("1d+2d", "time.error.clock_range"),  # more back than the bank holds
        ("20d+8d", "time.error.clock_range"),  # more than a week back
        ("tomorrow", "time.error.clock_unreadable"),
        ("3d+", "time.error.clock_unreadable"),
        ("+12h", "time.error.clock_unreadable"),
        ("3d+12h+1h", "time.error.clock_unreadable"),
        ("-1d", "time.error.clock_unreadable"),
    ],
)
def test_a_bad_clock_is_refused_with_an_example(text, key):
    error = refused(parse_clock, text)
    assert error.key == key
    says_example(error, "3d+12h")


def test_a_bank_pays_a_move_back_up_to_its_start_and_runs_out():
    clock = Clock(3 * DAY, 12 * HOUR)
    assert clock.time_for(None) == 3 * DAY  # nobody moved yet: the whole bank
    assert clock.bank_after(None, DAY, moved=True) == 2 * DAY + 12 * HOUR
    assert clock.bank_after(2 * DAY, 10 * HOUR, moved=True) == 2 * DAY + 2 * HOUR
    assert clock.bank_after(3 * DAY, HOUR, moved=True) == 3 * DAY  # never above its start
    assert clock.bank_after(HOUR, 5 * HOUR, moved=True) == 12 * HOUR  # ran out: the increment alone
    assert clock.bank_after(2 * DAY, DAY, moved=False) == DAY  # a decision ended by others' move
    assert Clock(3 * DAY, 0).bank_after(None, DAY, moved=True) == 2 * DAY
    # A time per move: the full time for each decision, or what an away span left of one.
    assert Clock(DAY).bank_after(5.0, HOUR, moved=True) == DAY
    assert Clock(DAY).time_for(None) == DAY and Clock(DAY).time_for(5.0) == 5.0


@given(
    bank=st.integers(BANK_MIN, BANK_MAX),
    share=st.floats(0, 1),
    left=st.none() | st.floats(-10 * DAY, 70 * DAY),
    used=st.floats(0, 100 * DAY),
    moved=st.booleans(),
)
def test_a_bank_never_exceeds_its_start_nor_goes_below_nothing(bank, share, left, used, moved):
    clock = Clock(bank, int(min(INCREMENT_MAX, bank) * share))
    after = clock.bank_after(left, used, moved)
    assert after is not None and 0 <= after <= bank
    assert 0 <= clock.time_for(left) <= bank


# ---------------------------------------------------------------------- quiet hours and zones


@pytest.mark.parametrize(
    ("text", "starts", "ends", "canonical"),
    [
        ("23-08", 23 * 60, 8 * 60, "23-08"),
        ("22:30-07:00", 22 * 60 + 30, 7 * 60, "22:30-07"),
        ("2230-0715", 22 * 60 + 30, 7 * 60 + 15, "22:30-07:15"),
        ("13-15", 13 * 60, 15 * 60, "13-15"),
        ("22-24", 22 * 60, 0, "22-00"),
        ("0 – 6", 0, 6 * 60, "00-06"),
    ],
)
def test_quiet_hours_read_as_players_write_them(text, starts, ends, canonical):
    hours = parse_quiet_hours(text)
    assert (hours.starts, hours.ends, hours.text()) == (starts, ends, canonical)
    assert parse_quiet_hours(hours.text()) == hours


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("25-99", "time.error.quiet_unreadable"),
        ("23-08:75", "time.error.quiet_unreadable"),
        ("night", "time.error.quiet_unreadable"),
        ("23", "time.error.quiet_unreadable"),
        ("08-08", "time.error.quiet_range"),
        ("18-10", "time.error.quiet_range"),  # 16 hours: more than QUIET_MAX
    ],
)
def test_bad_quiet_hours_are_refused_with_an_example(text, key):
    error = refused(parse_quiet_hours, text)
    assert error.key == key
    says_example(error, "23-08")


def test_a_zone_is_known_by_its_iana_name_in_any_case():
    assert check_zone("Europe/Rome") == "Europe/Rome"
    assert check_zone(" europe/ROME ") == "Europe/Rome"
    assert check_zone("america/new york") == "America/New_York"
    for unknown in ("Mars/Olympus_Mons", "../../etc/passwd", "", "Rome", "posix/Europe/Rome"):
        error = refused(check_zone, unknown)
        assert error.key == "time.error.zone"
        says_example(error, "Europe/Rome")


def test_zone_choices_put_the_best_matches_first_and_never_more_than_25():
    assert zone_choices("rome")[0] == "Europe/Rome"
    assert zone_choices("Europe/Rome")[0] == "Europe/Rome"
    assert zone_choices("new y")[0] == "America/New_York"
    assert zone_choices("europe/pa")[0] == "Europe/Paris"
    assert len(zone_choices("e")) == 25 and len(zone_choices("")) == 25
    assert zone_choices("")[:2] == ["Europe/Rome", "Europe/Paris"]
    assert zone_choices("zzzz") == []
    assert all(check_zone(name) == name for name in zone_choices("america"))


ROME = PlayerTime("Europe/Rome", QuietHours(23 * 60, 8 * 60))
NEW_YORK = PlayerTime("America/New_York", QuietHours(23 * 60, 8 * 60))


@pytest.mark.parametrize(
    ("player", "raw", "moved_to"),
    [
        # Rome, the night clocks go forward (30 March 2025, 02:00 CET -> 03:00 CEST).
        (ROME, "2025-03-28 23:00", "2025-03-29 07:00"),  # 00:00 CET -> 08:00 CET
        (ROME, "2025-03-29 23:00", "2025-03-30 06:00"),  # 00:00 CET -> 08:00 CEST
        (ROME, "2025-03-30 01:30", "2025-03-30 06:00"),  # 03:30 CEST
        (ROME, "2025-03-30 05:59", "2025-03-30 06:00"),
        (ROME, "2025-03-30 06:00", "2025-03-30 06:00"),  # 08:00 CEST: quiet hours over
        (ROME, "2025-03-30 20:59", "2025-03-30 20:59"),  # 22:59 CEST: not yet quiet
        # Rome, the night clocks go back (26 October 2025, 03:00 CEST -> 02:00 CET).
        (ROME, "2025-10-25 21:30", "2025-10-26 07:00"),  # 23:30 CEST -> 08:00 CET
        (ROME, "2025-10-26 00:30", "2025-10-26 07:00"),  # 02:30 CEST, the first of two
        (ROME, "2025-10-26 01:30", "2025-10-26 07:00"),  # 02:30 CET, the second
        (ROME, "2025-10-26 06:59", "2025-10-26 07:00"),
        # New York, forward (9 March 2025, 02:00 EST -> 03:00 EDT) and back (2 November 2025).
        (NEW_YORK, "2025-03-09 06:00", "2025-03-09 12:00"),  # 01:00 EST -> 08:00 EDT
        (NEW_YORK, "2025-03-09 04:30", "2025-03-09 12:00"),  # 23:30 EST on the 8th
        (NEW_YORK, "2025-11-02 05:30", "2025-11-02 13:00"),  # 01:30 EDT -> 08:00 EST
        (NEW_YORK, "2025-11-02 06:30", "2025-11-02 13:00"),  # 01:30 EST, the second
    ],
)
def test_a_deadline_in_quiet_hours_moves_to_their_end_across_daylight_saving(player, raw, moved_to):
    raw_at, expected = at(raw), at(moved_to)
    assert deadline_after(raw_at - 3600, 3600, player) == expected
    assert after_quiet(raw_at, player) == expected
    assert not is_quiet(expected, player)


def test_a_minute_before_the_end_is_still_quiet():
    # 12:58 UTC on 8 March 2025 is 07:58 EST in New York.
    assert is_quiet(at("2025-03-08 12:58"), NEW_YORK)
    assert deadline_after(at("2025-03-08 11:58"), 3600, NEW_YORK) == at("2025-03-08 13:00")


def test_quiet_hours_ending_in_a_skipped_or_repeated_hour():
    skipped = PlayerTime("Europe/Rome", QuietHours(0, 2 * 60 + 30))
    # 02:30 never happens on 30 March 2025 in Rome: the quiet hours end when clocks jump to 03:00.
    assert after_quiet(at("2025-03-30 00:30"), skipped) == at("2025-03-30 01:00")
    repeated = PlayerTime("Europe/Rome", QuietHours(60, 2 * 60 + 30))
    # 02:30 happens twice on 26 October 2025: the first reading after the instant ends them.
    assert after_quiet(at("2025-10-25 23:30"), repeated) == at("2025-10-26 00:30")
    assert after_quiet(at("2025-10-26 01:10"), repeated) == at("2025-10-26 01:30")


def test_without_a_zone_quiet_hours_change_nothing():
    player = PlayerTime(None, QuietHours(0, 12 * 60))
    assert deadline_after(at("2025-06-01 02:00"), HOUR, player) == at("2025-06-01 03:00")
    assert not is_quiet(at("2025-06-01 02:00"), player)


def test_a_reminder_comes_once_the_share_of_the_time_is_used_out_of_quiet_hours_or_not_at_all():
    now = at("2025-06-01 18:00")  # 20:00 in Rome
    due = deadline(now, Clock(12 * HOUR), None, ROME)
    assert due == at("2025-06-02 06:00")  # 06:00 UTC is 08:00 in Rome, quiet hours over
    # Half of the 12 hours is 02:00 in Rome: it would come with the deadline, so none comes.
    assert reminder_at(now, 12 * HOUR, due, 0.5, ROME) is None
    assert reminder_at(now, 12 * HOUR, due, 0.2, ROME) == now + 0.2 * 12 * HOUR
    assert reminder_at(now, 12 * HOUR, due, 0, ROME) is None
    # Four hours from 20:00: the deadline moves to 08:00, the reminder stays at 22:00.
    short = deadline(now, Clock(4 * HOUR), None, ROME)
    assert short == due and reminder_at(now, 4 * HOUR, short, 0.5, ROME) == now + 2 * HOUR
    # Away meanwhile: the reminder waits for the player's return, as the clock does.
    away = ROME.away_with(Span(now + 30 * MINUTE, now + 90 * MINUTE))
    assert reminder_at(now, 2 * HOUR, deadline(now, Clock(2 * HOUR), None, away), 0.5, away) == now + 2 * HOUR


# ---------------------------------------------------------------------- away spans


def test_the_clock_stops_while_away():
    now = at("2025-06-02 10:00")
    away = PlayerTime(away=(Span(now + 2 * HOUR, now + 10 * HOUR),))
    assert deadline_after(now, 5 * HOUR, away) == now + 13 * HOUR  # 2 h, stopped 8 h, then 3 h
    assert deadline_after(now, HOUR, away) == now + HOUR  # runs out before they go
    # Running out the moment they go: due when they are back, not while they are away.
    assert deadline_after(now, 2 * HOUR, away) == now + 10 * HOUR
    already = PlayerTime(away=(Span(now - HOUR, now + 4 * HOUR),))
    assert deadline_after(now, 5 * HOUR, already) == now + 9 * HOUR
    assert deadline_after(now, 0, already) == now + 4 * HOUR  # no deadline while away
    assert charged(now, now + 9 * HOUR, already.away) == 5 * HOUR


def test_quiet_hours_and_away_spans_push_a_deadline_past_both():
    now = at("2025-06-01 19:00")  # 21:00 in Rome
    ends_in_quiet = ROME.away_with(Span(now, at("2025-06-01 23:00")))  # back at 01:00 in Rome
    assert deadline_after(now, 0, ends_in_quiet) == at("2025-06-02 06:00")
    quiet_ends_away = ROME.away_with(Span(at("2025-06-02 05:00"), at("2025-06-02 09:00")))
    assert deadline_after(now, 4 * HOUR, quiet_ends_away) == at("2025-06-02 09:00")


def test_away_days_are_counted_over_the_last_30_days():
    now = at("2025-06-30 12:00")
    spans = [
        Span(now - 40 * DAY, now - 38 * DAY),  # too long ago
        Span(now - 31 * DAY, now - 29 * DAY),  # half of it in the window
        Span(now - 5 * DAY, now - 3 * DAY),
    ]
    assert away_used(now, spans) == 3 * DAY
    assert away_left(now, spans, 7) == 4 * DAY
    assert away_span(now, 4 * DAY, spans, 7) == Span(now, now + 4 * DAY)
    error = refused(away_span, now, 5 * DAY, spans, 7)
    assert error.key == "time.error.away_too_long" and error.params["left"] == "4d"
    says_example(error, "2d")
    assert refused(away_span, now, 900 * DAY, [], 7).key == "time.error.away_too_long"
    assert refused(away_span, now, HOUR, [], 0).key == "time.error.away_too_long"


def test_away_again_while_away_ends_the_span_anew_and_off_ends_it_now():
    now = at("2025-06-30 12:00")
    current = Span(now - DAY, now + DAY)
    assert away_span(now, 3 * DAY, [current], 7) == Span(now - DAY, now + 3 * DAY)
    assert away_span(now, HOUR, [current], 7) == Span(now - DAY, now + HOUR)  # shortened
    assert refused(away_span, now, 7 * DAY, [current], 7).key == "time.error.away_too_long"
    assert away_ended(now, [current]) == Span(now - DAY, now)
    assert refused(away_ended, now, [Span(now - 3 * DAY, now - DAY)]).key == "time.error.not_away"
    assert away_left(now, [current], 7) == 5 * DAY  # a day spent, a day booked


@pytest.mark.parametrize(
    ("text", "seconds"), [("2d", 2 * DAY), ("3h", 3 * HOUR), ("1d 6h", 30 * HOUR), ("off", None)]
)
def test_away_durations(text, seconds):
    assert parse_away(text) == seconds


@pytest.mark.parametrize("text", ["soon", "2x", "30s", "", "-2d"])
def test_an_unreadable_away_duration_is_refused_with_an_example(text):
    error = refused(parse_away, text)
    assert error.key == "time.error.away_unreadable"
    says_example(error, "2d")


def test_an_away_day_is_used_automatically_while_some_is_left():
    now = at("2025-06-30 12:00")
    assert automatic_away(now, [], 7) == Span(now, now + DAY)
    half_left = [Span(now - 7 * DAY, now - DAY / 2)]
    assert automatic_away(now, half_left, 7) == Span(now, now + DAY / 2)
    assert automatic_away(now, [Span(now - 7 * DAY, now - 10 * MINUTE)], 7) is None
    assert automatic_away(now, [], 0) is None


def test_what_an_away_means_for_each_game():
    now = at("2025-06-02 10:00")
    games = [SeatedGame(1, now + 10 * HOUR), SeatedGame(2, None)]
    away = PlayerTime().away_with(Span(now, now + 2 * DAY))
    assert away_effects(now, PlayerTime(), away, games) == [
        AwayEffect(1, now + 2 * DAY + 10 * HOUR),
        AwayEffect(2, None),
    ]
    # Back a day early: the clock runs again from now with the 10 hours it had.
    back = PlayerTime().away_with(Span(now - DAY, now))
    assert away_effects(
        now, away.away_with(Span(now - DAY, now)), back, [SeatedGame(1, now + 2 * DAY + 10 * HOUR)]
    ) == [AwayEffect(1, now + 10 * HOUR)]
    # In Rome, the deadline the away moves to 03:00 goes on to 08:00.
    rome_away = ROME.away_with(Span(now, at("2025-06-03 01:00")))
    assert away_effects(now, ROME, rome_away, [SeatedGame(3, now)]) == [AwayEffect(3, at("2025-06-03 06:00"))]


# ---------------------------------------------------------------------- properties

ZONES = (
    "Europe/Rome",
    "America/New_York",
    "Australia/Lord_Howe",  # daylight saving of half an hour
    "Asia/Kathmandu",
    "America/St_Johns",
    "Pacific/Chatham",
    "UTC",
)
NOW = st.integers(int(at("2020-01-01 00:00")), int(at("2032-01-01 00:00")))
QUIET = st.builds(
    lambda starts, minutes: QuietHours(starts, (starts + minutes) % 1440),
    st.integers(0, 1439),
    st.integers(1, QUIET_MAX),
)


@st.composite
def players(draw: st.DrawFn, now: float) -> PlayerTime:
    spans = draw(
        st.lists(
            st.builds(
                lambda start, length: Span(now + start, now + start + length),
                st.integers(-3 * DAY, 10 * DAY),
                st.integers(MINUTE, 5 * DAY),
            ),
            max_size=3,
        )
    )
    zone = draw(st.none() | st.sampled_from(ZONES))
    player = PlayerTime(zone, draw(st.none() | QUIET))
    for span in spans:
        player = player.away_with(span)
    return player


@settings(max_examples=400, deadline=None)
@given(data=st.data(), now=NOW, left=st.integers(0, 30 * DAY))
def test_a_deadline_or_reminder_is_never_early_quiet_or_away_and_never_charges_away_time(data, now, left):
    player = data.draw(players(now))
    due = deadline_after(now, left, player)
    assert due >= now
    assert not is_quiet(due, player)
    assert not any(span.holds(due) for span in player.away)
    assert charged(now, due, player.away) >= left - 1e-6
    reminder = reminder_at(now, left, due, data.draw(st.floats(0.05, 0.95)), player)
    if reminder is not None:
        assert now <= reminder < due and not is_quiet(reminder, player)
        assert not any(span.holds(reminder) for span in player.away)


@settings(max_examples=300, deadline=None)
@given(instant=NOW, zone=st.sampled_from(ZONES), quiet=QUIET)
def test_a_ping_is_never_delivered_in_quiet_hours(instant, zone, quiet):
    player = PlayerTime(zone, quiet)
    delivered = after_quiet(instant, player)
    assert delivered >= instant and not is_quiet(delivered, player)
    assert delivered - instant <= quiet.minutes * MINUTE + 2 * HOUR  # their end, not a later one
    assert delivered == instant or is_quiet(instant, player)


@given(
    now=NOW,
    days=st.integers(0, 30),
    past=st.lists(st.tuples(st.integers(-40 * DAY, 0), st.integers(MINUTE, 10 * DAY)), max_size=4),
    asked=st.integers(MINUTE, 40 * DAY),
)
def test_an_away_never_goes_beyond_the_allowance(now, days, past, asked):
    spans = [Span(now + start, min(now, now + start + length)) for start, length in past]
    try:
        span = away_span(now, asked, spans, days)
    except GameError:
        assert away_used(now, spans) + asked > days * DAY
        return
    after = [*spans, span]
    assert away_used(now, after) + away_booked_after(now, after) <= days * DAY + 1e-6
    assert away_used(now + span.length, after) <= days * DAY + 1e-6


def away_booked_after(now: float, spans: list[Span]) -> float:
    return sum(span.overlap(now, span.ends) for span in spans)


def test_the_window_is_thirty_days():
    assert AWAY_WINDOW == 30 * DAY
