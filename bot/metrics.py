"""Optional Prometheus metrics: with ``METRICS_PORT`` set (and the ``metrics`` extra installed),
``python -m bot`` serves them on 127.0.0.1 at that port (``start``). Until then every call here
does nothing, and prometheus_client is not even imported (a twentieth of a second at start-up),
so the code that counts need not know whether anyone reads.

What a supervisor wants to see: games running and announcements pending (read from the database
at each heartbeat), moves committed, how long the bot takes to answer an interaction, and what
Discord refused or rate limited: every answer Discord gives the bot, counted where discord.py
makes its requests (its ``http_trace``, ``discord_trace``), whichever part of the bot asked.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

# Answer times a person notices (seconds): Discord waits 3 for the first answer.
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
RATE_LIMITED = 429
# The route of an interaction's answer: the moment the person's click or command is answered.
INTERACTION_ANSWER = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


class _Metrics:
    """The process's metrics, registered with prometheus_client's default registry."""

    def __init__(self) -> None:
        import prometheus_client

        self.games_running = prometheus_client.Gauge(
            "tabletop_games_running", "Running games of this process's shards"
        )
        self.announcements_pending = prometheus_client.Gauge(
            "tabletop_announcements_pending", "Committed moves whose announcements are not delivered yet"
        )
        self.moves = prometheus_client.Counter("tabletop_moves", "Moves committed (people's and computers')")
        self.answer_latency = prometheus_client.Histogram(
            "tabletop_answer_latency_seconds",
            "From an interaction's creation (its snowflake) to Discord's acceptance of the bot's answer",
            buckets=LATENCY_BUCKETS,
        )
        self.discord_errors = prometheus_client.Counter(
            "tabletop_discord_errors", "Requests Discord refused or failed, by HTTP status", ["status"]
        )
        self.rate_limits = prometheus_client.Counter(
            "tabletop_discord_rate_limits", "Requests Discord answered with 429 (retried by discord.py)"
        )


_metrics: _Metrics | None = None


def enable() -> None:
    """Count from now on (once per process); ImportError without the metrics extra."""
    global _metrics
    if _metrics is None:
        _metrics = _Metrics()


def start(port: int) -> None:
    """Count, and serve the metrics on 127.0.0.1:``port``."""
    try:
        enable()
    except ImportError:
        raise RuntimeError('METRICS_PORT needs the metrics extra: pip install -e ".[metrics]"') from None
    import prometheus_client

    prometheus_client.start_http_server(port, addr="127.0.0.1")


def enabled() -> bool:
    return _metrics is not None


def discord_trace() -> aiohttp.TraceConfig:
    """The hook discord.py gives every request it makes (``http_trace``): each answer of Discord's
    that refuses (4xx) or fails (5xx) is counted by status, a 429 as a rate limit met (discord.py
    waits and tries again), a request that got no answer by its error; an interaction's answer
    accepted times the answer from the interaction's creation (its id's snowflake time)."""
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_answered_by_discord)
    trace.on_request_exception.append(_unanswered)
    return trace


async def _answered_by_discord(
    _session: aiohttp.ClientSession, _context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
) -> None:
    if _metrics is None:  # every request of the bot passes here: nothing to do unless counted
        return
    status = params.response.status
    answer = INTERACTION_ANSWER.search(params.url.path)
    if answer is not None and status < 400:
        created = discord.utils.snowflake_time(int(answer.group(1)))
        answered((discord.utils.utcnow() - created).total_seconds())
    if status == RATE_LIMITED:
        rate_limited()
    elif status >= 400:
        discord_error(status)


async def _unanswered(
    _session: aiohttp.ClientSession, _context: SimpleNamespace, params: aiohttp.TraceRequestExceptionParams
) -> None:
    discord_error(type(params.exception).__name__)


def move() -> None:
    if _metrics is not None:
        _metrics.moves.inc()


def answered(seconds: float) -> None:
    if _metrics is not None:
        _metrics.answer_latency.observe(max(seconds, 0.0))


def discord_error(status: Any) -> None:
    if _metrics is not None:
        _metrics.discord_errors.labels(status=str(status)).inc()


def rate_limited() -> None:
    if _metrics is not None:
        _metrics.rate_limits.inc()


def tables(running: int, pending: int) -> None:
    if _metrics is not None:
        _metrics.games_running.set(running)
        _metrics.announcements_pending.set(pending)
