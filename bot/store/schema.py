"""The schema, as numbered migrations written once for SQLite and PostgreSQL.

Migration i brings the schema from version i to i + 1 (SQLite's user_version, PostgreSQL's
schema_version table). The SQL is the common subset of both dialects: BIGINT for Discord ids
(SQLite gives it integer affinity), DOUBLE PRECISION for times (PostgreSQL's REAL is too short
for a timestamp), 0/1 integers for flags. The one column type they spell differently is
written as a field that each backend fills in (``Backend.schema_fields``):

- ``{auto_id}``: a 64-bit primary key the database numbers (and a copy may set explicitly).
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id {auto_id},
        kind TEXT NOT NULL,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        host_id BIGINT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'aborted')),
        options TEXT NOT NULL,
        turn_timeout INTEGER NOT NULL,
        locale TEXT NOT NULL,
        seed BIGINT NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        message_id BIGINT,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'running');
    CREATE INDEX games_by_status ON games (status);

    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        locale TEXT NOT NULL,
        total INTEGER NOT NULL DEFAULT 0,
        gone INTEGER NOT NULL DEFAULT 0,
        dm_notice_sent INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );

    CREATE TABLE actions (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        by_timeout INTEGER NOT NULL DEFAULT 0,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, number)
    );

    CREATE TABLE timers (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('remind', 'expire')),
        decision TEXT NOT NULL,
        due_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat, kind)
    );
    CREATE INDEX timers_by_due ON timers (due_at);

    CREATE TABLE results (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        guild_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        points INTEGER NOT NULL,
        won INTEGER NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_by_board ON results (guild_id, kind);
    """,
    """
    -- The version at which each seat's open decision last changed: a click drawn before it is stale.
    ALTER TABLE seats ADD COLUMN decision_since INTEGER NOT NULL DEFAULT 0;

    -- What a committed move must still tell players (the transactional outbox): written with the
    -- move, delivered after it, deleted once delivered; ``delivered`` lists the parts already sent.
    CREATE TABLE outbox (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        publication TEXT NOT NULL,
        delivered TEXT NOT NULL DEFAULT '[]',
        PRIMARY KEY (game_id, version)
    );
    """,
    """
    -- A due timer is taken by one process until this time (a lease): another process sharing the
    -- database leaves it alone meanwhile, and takes it over if the first died before firing it.
    ALTER TABLE timers ADD COLUMN claimed_until DOUBLE PRECISION;
    """,
    """
    -- Computer players: a seat with a level is a computer; robot_state is its memory and random
    -- stream. Their user ids are negative, never a Discord id.
    ALTER TABLE seats ADD COLUMN robot TEXT;
    ALTER TABLE seats ADD COLUMN robot_state TEXT;

    -- A third kind of timer: a computer's move, due after its pause.
    CREATE TABLE timers_new (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('remind', 'expire', 'robot')),
        decision TEXT NOT NULL,
        due_at DOUBLE PRECISION NOT NULL,
        claimed_until DOUBLE PRECISION,
        PRIMARY KEY (game_id, seat, kind)
    );
    INSERT INTO timers_new SELECT * FROM timers;
    DROP TABLE timers;
    ALTER TABLE timers_new RENAME TO timers;
    CREATE INDEX timers_by_due ON timers (due_at);

    -- Each player's DM channel, so a DM is one request, not a user fetch and a channel opening first.
    CREATE TABLE dm_channels (
        user_id BIGINT PRIMARY KEY,
        channel_id BIGINT NOT NULL
    );
    """,
    # After the game: a results row per seat (an entry is a person or a computer level), the
    # match totals after each game/round/manche, feats (Bué, SuperBué), skill ratings, and
    # the results message /history links to.
    """
    CREATE TABLE seat_results (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        guild_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        entry TEXT NOT NULL,  -- who is rated: 'user:<id>', or 'robot:<level>' with a NULL user_id
        user_id BIGINT,
        name TEXT NOT NULL,
        points INTEGER NOT NULL,
        won INTEGER NOT NULL,
        gone INTEGER NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    INSERT INTO seat_results
        SELECT results.game_id, seats.seat, results.guild_id, results.kind, 'user:' || results.user_id,
            results.user_id, results.name, results.points, results.won, seats.gone, results.finished_at
        FROM results JOIN seats ON seats.game_id = results.game_id AND seats.user_id = results.user_id;
    DROP TABLE results;
    ALTER TABLE seat_results RENAME TO results;
    CREATE INDEX results_by_board ON results (guild_id, kind, finished_at);
    CREATE INDEX results_by_user ON results (guild_id, user_id, finished_at);

    CREATE TABLE round_totals (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        total INTEGER NOT NULL,
        PRIMARY KEY (game_id, number, seat)
    );

    CREATE TABLE feats (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        feat TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat, feat)
    );

    CREATE TABLE ratings (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        entry TEXT NOT NULL,
        guild_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, entry)
    );
    CREATE INDEX ratings_by_board ON ratings (guild_id, kind, entry, finished_at);

    ALTER TABLE games ADD COLUMN results_message_id BIGINT;
    """,
    # Stand-ins: a computer playing a person's seat, while they are away or after they left.
    """
    -- The level of the computer standing in for the seat's person (NULL: the person plays it);
    -- stood_in: one did while the person was away, so the match is not rated for them;
    -- left_total: the person's total when they left (what they scored; the seat plays on).
    ALTER TABLE seats ADD COLUMN stand_in TEXT;
    ALTER TABLE seats ADD COLUMN stood_in INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN left_total INTEGER;

    -- A seat left to a stand-in has two results: the person who left (last) and the computer
    -- that finished for them; rated = 0 keeps a person's rating out of a match a stand-in
    -- played for them.
    CREATE TABLE results_new (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        guild_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        entry TEXT NOT NULL,
        user_id BIGINT,
        name TEXT NOT NULL,
        points INTEGER NOT NULL,
        won INTEGER NOT NULL,
        gone INTEGER NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        rated INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (game_id, seat, entry)
    );
    INSERT INTO results_new SELECT game_id, seat, guild_id, kind, entry, user_id, name, points, won, gone,
        finished_at, 1 FROM results;
    DROP TABLE results;
    ALTER TABLE results_new RENAME TO results;
    CREATE INDEX results_by_board ON results (guild_id, kind, finished_at);
    CREATE INDEX results_by_user ON results (guild_id, user_id, finished_at);
    """,
    """
    -- Which process holds a timer's claim (its own id, random per start): a process that starts
    -- takes back its shards' claims made before it, rather than wait for a dead process's lease.
    ALTER TABLE timers ADD COLUMN claimed_by TEXT;
    """,
    """
    -- People whose DMs were found closed (50007), and when: not tried again for a while, since
    -- Discord counts each refusal towards banning the bot (see bot.tables.DM_CLOSED_FOR).
    CREATE TABLE closed_dms (
        user_id BIGINT PRIMARY KEY,
        closed_at DOUBLE PRECISION NOT NULL
    );
    """,
    # Running it for a community: a server's settings, each player's preferences, a heartbeat.
    """
    -- A server's settings, one column each; NULL is the default (see bot/community.py).
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        language TEXT,
        channels TEXT,  -- a JSON list of the channel ids games may start in; NULL: every channel
        role_id BIGINT,  -- the role needed to start or join a game
        turn_timeout INTEGER,
        reminder INTEGER,  -- the share of a turn, in percent, after which its player is reminded; 0: never
        computers_rated INTEGER,  -- 0: a match with computer players is not rated
        stand_in INTEGER,
        computer_pause DOUBLE PRECISION
    );

    -- A player's preferences, the same in every server; NULL is the default.
    CREATE TABLE player_preferences (
        user_id BIGINT PRIMARY KEY,
        language TEXT,
        dm_hand INTEGER,
        ping INTEGER,
        game_options TEXT  -- JSON: the start options of the games they host, by game
    );

    -- What a game keeps of its server's settings when it starts (a later change leaves it be).
    ALTER TABLE games ADD COLUMN server_settings TEXT NOT NULL DEFAULT '{{}}';

    -- Each bot process's last sign of life (python -m bot.health), by the shards it holds.
    CREATE TABLE heartbeats (
        process TEXT PRIMARY KEY,
        at DOUBLE PRECISION NOT NULL,
        gateway INTEGER NOT NULL
    );
    """,
    """
    -- The application commands each scope ('global', 'guild <id>') was last given: a digest of what
    -- was sent, so a start syncs only when they changed (bot/command_sync.py); claimed_at: when a
    -- process began giving Discord this digest, NULL once Discord took it.
    CREATE TABLE command_syncs (
        scope TEXT PRIMARY KEY,
        digest TEXT NOT NULL,
        claimed_at DOUBLE PRECISION
    );
    """,
    # Seasons and tournaments: a server's league (bot/store/seasons.py, bot/store/tournaments.py).
    """
    -- A season: a server's standings from its start to its end (NULL while it runs; one runs at a
    -- time). A match belongs to the season running when its game was opened, if it finishes
    -- before that season ends: a closed season's standings never change.
    CREATE TABLE seasons (
        id {auto_id},
        guild_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        ended_at DOUBLE PRECISION
    );
    CREATE UNIQUE INDEX one_running_season ON seasons (guild_id) WHERE ended_at IS NULL;
    CREATE INDEX seasons_by_guild ON seasons (guild_id, started_at);

    -- The season a result counts in (NULL: none, only all time), written with the result.
    ALTER TABLE results ADD COLUMN season_id BIGINT;
    CREATE INDEX results_by_season ON results (season_id, kind);

    -- Ratings within a season, beside the all-time ones (ratings): each player starts the season
    -- from their all-time rating with its uncertainty widened (bot.ratings.season_start).
    CREATE TABLE season_ratings (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        entry TEXT NOT NULL,
        season_id BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
        guild_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, entry)
    );
    CREATE INDEX season_ratings_by_board ON season_ratings (season_id, kind, entry, finished_at);

    -- A tournament: sign-up, then rounds of tables, each an ordinary game in a thread of its
    -- channel. ``round`` is the round under way (0: sign-up); ``schedule`` a round robin's every
    -- round, fixed when it begins (JSON, see bot/pairing.py).
    CREATE TABLE tournaments (
        id {auto_id},
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        organiser_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('swiss', 'round_robin')),
        seats INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        options TEXT NOT NULL,
        turn_timeout INTEGER NOT NULL,
        locale TEXT NOT NULL,
        seed BIGINT NOT NULL,
        server_settings TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
        round INTEGER NOT NULL DEFAULT 0,
        schedule TEXT,
        message_id BIGINT,
        standings_message_id BIGINT,
        created_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX tournaments_by_channel ON tournaments (channel_id, status);
    CREATE INDEX tournaments_by_status ON tournaments (status);

    -- Its entrants, numbered in entry order; a computer's user id is negative, its level in robot.
    -- joined_round: the round they joined in (0: at sign-up, paired from the next round on);
    -- dropped_round: the round in which they dropped out (not paired after it).
    CREATE TABLE tournament_entrants (
        tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        entrant INTEGER NOT NULL,
        user_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        locale TEXT NOT NULL,
        robot TEXT,
        joined_round INTEGER NOT NULL,
        dropped_round INTEGER,
        PRIMARY KEY (tournament_id, entrant),
        UNIQUE (tournament_id, user_id)
    );

    -- A round's tables, written all at once when the round is paired; then, table by table, each
    -- step of its start before the next (the message its thread is made from, the thread, the
    -- game), so that a restart resumes a round rather than repeat it; and once it is over, each
    -- seat's place, total and stand-in mark (JSON lists by seat). A bye is a table of one.
    CREATE TABLE tournament_tables (
        tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        entrants TEXT NOT NULL,
        starter_message_id BIGINT,
        thread_id BIGINT,
        game_id BIGINT UNIQUE REFERENCES games (id),
        places TEXT,
        totals TEXT,
        stood_in TEXT,
        closed INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament_id, round, number)
    );

    -- Who may create tournaments besides members with Manage Server.
    ALTER TABLE guild_settings ADD COLUMN tournament_role_id BIGINT;
    """,
    # A game across days: time banks, quiet hours, away days, /turns (see bot/clock.py).
    """
    -- A game's clock: turn_timeout is the time per move, or with an increment the bank's start
    -- (NULL: a time per move); started_at, when its first deal was made (its first decisions' start).
    ALTER TABLE games ADD COLUMN clock_increment INTEGER;
    ALTER TABLE games ADD COLUMN started_at DOUBLE PRECISION;

    -- The time the seat's clock had when it last started: what its bank held, or what an away span
    -- left of a decision's time (NULL: the clock's full time).
    ALTER TABLE seats ADD COLUMN bank_left DOUBLE PRECISION;
    -- 1 while the seat's game runs (set as it starts, cleared as it ends): what /turns' index holds.
    ALTER TABLE seats ADD COLUMN in_play INTEGER NOT NULL DEFAULT 0;
    UPDATE seats SET in_play = 1 WHERE game_id IN (SELECT id FROM games WHERE status = 'running');

    -- A server's clock (with turn_timeout, as a game keeps it) and its players' away days per 30 days.
    ALTER TABLE guild_settings ADD COLUMN clock_increment INTEGER;
    ALTER TABLE guild_settings ADD COLUMN away_days INTEGER;

    -- A player's IANA time zone and quiet hours in it ('23-08'); and their last away span, as the
    -- away_spans table has it, for the seats' read at each move (one join, no further lookup).
    ALTER TABLE player_preferences ADD COLUMN time_zone TEXT;
    ALTER TABLE player_preferences ADD COLUMN quiet_hours TEXT;
    ALTER TABLE player_preferences ADD COLUMN away_from DOUBLE PRECISION;
    ALTER TABLE player_preferences ADD COLUMN away_until DOUBLE PRECISION;

    -- Each time a player was or is away: /away, their clocks stopped in every game meanwhile; or
    -- (automatic) an away day used for one game as their time ran out there. The spans of the last
    -- 30 days count against their away days.
    CREATE TABLE away_spans (
        user_id BIGINT NOT NULL,
        starts_at DOUBLE PRECISION NOT NULL,
        ends_at DOUBLE PRECISION NOT NULL,
        automatic INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, starts_at)
    );

    -- /turns: a player's seats in running games, each joined to its game and timer by key.
    CREATE INDEX seats_in_play ON seats (user_id, game_id) WHERE in_play = 1 AND gone = 0;
    """,
    # A game across days, second part: deadlines from each seat's clock, pings held through quiet
    # hours, a busy channel's table posted anew.
    """
    -- When the seat's clock last started (its deadline counts from then, see bot/timekeeping.py):
    -- for a running game's seat, from its expiry (the time per move before it), else its last change.
    ALTER TABLE seats ADD COLUMN decision_at DOUBLE PRECISION;
    UPDATE seats SET decision_at = COALESCE(
        (SELECT timers.due_at - games.turn_timeout FROM timers JOIN games ON games.id = timers.game_id
         WHERE timers.game_id = seats.game_id AND timers.seat = seats.seat AND timers.kind = 'expire'),
        (SELECT updated_at FROM games WHERE games.id = seats.game_id))
    WHERE in_play = 1;

    -- Messages posted in the game's channel after its kept message (saved every few, see bot/traffic.py).
    ALTER TABLE games ADD COLUMN messages_after INTEGER NOT NULL DEFAULT 0;

    -- A fourth kind of timer: a call to move held through the player's quiet hours, due as they end.
    CREATE TABLE timers_new (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('remind', 'expire', 'robot', 'ping')),
        decision TEXT NOT NULL,
        due_at DOUBLE PRECISION NOT NULL,
        claimed_until DOUBLE PRECISION,
        claimed_by TEXT,
        PRIMARY KEY (game_id, seat, kind)
    );
    INSERT INTO timers_new (game_id, seat, kind, decision, due_at, claimed_until, claimed_by)
        SELECT game_id, seat, kind, decision, due_at, claimed_until, claimed_by FROM timers;
    DROP TABLE timers;
    ALTER TABLE timers_new RENAME TO timers;
    CREATE INDEX timers_by_due ON timers (due_at);
    """,
    """
    -- When the seat's open decision began (with decision_since): /turns lists the longest-waiting
    -- first by it. Its clock's start (decision_at) is no measure of that: away time moves it on.
    ALTER TABLE seats ADD COLUMN waiting_since DOUBLE PRECISION;
    UPDATE seats SET waiting_since = decision_at WHERE in_play = 1;
    """,
)
