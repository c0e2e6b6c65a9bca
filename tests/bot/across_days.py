"""What the tests of games played across days share: people in Rome and New York with their quiet
hours, the oracle of who is asleep when (worked out here from the zone database, not by the bot's
own functions), and what the bot planned and said.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

HOUR, DAY = 3600, 86400
ROME, NEW_YORK = "Europe/Rome", "America/New_York"

# Each person's time zone, quiet hours as typed, and those hours as the oracle reads them (keyed by
# their place in ``tests.bot.driver.NAMES``: anna, bruno, carla, dario).
PEOPLE: dict[int, tuple[str, str, float, float]] = {
    0: (ROME, "23-08", 23.0, 8.0),
    1: (NEW_YORK, "22-07", 22.0, 7.0),
    2: (ROME, "00:30-09", 0.5, 9.0),
    3: (NEW_YORK, "23:30-07:30", 23.5, 7.5),
}


def asleep(instant: float, person: int) -> bool:
    """Whether ``instant`` falls in the person's quiet hours, in their own zone's wall clock."""
    zone, _, starts, ends = PEOPLE[person]
    wall = datetime.fromtimestamp(instant, ZoneInfo(zone))
    hour = wall.hour + wall.minute / 60 + wall.second / 3600
    return hour >= starts or hour < ends if starts > ends else starts <= hour < ends


def awake_again(instant: float, person: int) -> float:
    """The first minute at or after ``instant`` out of the person's quiet hours."""
    while asleep(instant, person):
        instant = (int(instant) // 60 + 1) * 60
    return instant


def at(message: Any) -> float:
    return message.created_at.timestamp()


async def living(driver: Any, seats: dict[int, tuple[str, str, float, float]]) -> None:
    for seat, (zone, quiet, _, _) in seats.items():
        member = driver.members[seat]
        await member.slash(driver.channel, "preferences timezone", value=zone)
        await member.slash(driver.channel, "preferences quiet_hours", value=quiet)


def timers(driver: Any, *kinds: str) -> list[tuple[int, str, float]]:
    marks = ", ".join("?" for _ in kinds)
    return driver.query(
        f"SELECT seat, kind, due_at FROM timers WHERE game_id = ? AND kind IN ({marks}) ORDER BY due_at",
        driver.game_id,
        *kinds,
    )


def now(env: Any) -> float:
    return env.now().timestamp()


def calls_in(content: str) -> list[list[str]]:
    """The people each "your move" line of a message calls, as it calls them: pinged or named."""
    return [
        line.split(": your move")[0].split("👉 ")[-1].split(", ")
        for line in content.splitlines()
        if ": your move" in line
    ]


def said(driver: Any, text: str) -> int:
    return sum(text in (message.content or "") for message in driver.channel.history())
