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
    -- The version at which each seat's open decision began: a click made on an older table is stale.
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
)
