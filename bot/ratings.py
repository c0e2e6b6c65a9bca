"""Skill ratings: openskill's Plackett-Luce model, one rating per entry, server and game.

An entry is who sat at a seat: a person (``user:<id>``) or a computer level (``robot:<level>``),
so each level of computer player is rated like one more player. Ratings move only at the end
of a match, from each entry's place in it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
USER_PREFIX = "user:"
ROBOT_PREFIX = "robot:"
# What a new season adds to each player's uncertainty, in quadrature (see ``season_start``).
SEASON_WIDENING = MODEL.sigma / 2


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """The figure shown to players: the skill they are very likely above (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


def default_skill() -> Skill:
    return Skill(MODEL.mu, MODEL.sigma)


def season_start(all_time: Skill | None) -> Skill:
    """Where a player's rating starts in a new season: their all-time rating (None: never rated,
    the model's default) with its uncertainty widened by ``SEASON_WIDENING`` in quadrature, as
    TrueSkill's dynamics widen a rating between periods, and never past a newcomer's.

    A regular's sigma (about 5.6 after 20 two-player matches) starts the season near 7, the
    uncertainty of someone with 8 matches: the season's first matches move it as they moved
    theirs, so the season's board follows this season's play within a few evenings, while the
    skill it keeps (mu) spares it the lottery of a reset to the default."""
    if all_time is None:
        return default_skill()
    return Skill(all_time.mu, min(math.hypot(all_time.sigma, SEASON_WIDENING), MODEL.sigma))


def user_entry(user_id: int) -> str:
    return f"{USER_PREFIX}{user_id}"


def robot_entry(level: str) -> str:
    return f"{ROBOT_PREFIX}{level}"


def places(points: Sequence[int], won: Sequence[bool], gone: Sequence[bool]) -> list[int]:
    """Each seat's place (1 is first; equal places are ties) at the end of a match.

    The winner is first even when a tie-break settled equal totals; the others follow by
    total, equal totals tied; seats that left the match share the last place. A match closed
    before anyone won it (a late tournament table) is placed by its totals alone.
    """
    staying = [seat for seat in range(len(points)) if not gone[seat]]
    last = len(staying) + 1
    first_after_winner = 2 if any(won) else 1
    result = []
    for seat, total in enumerate(points):
        if won[seat]:
            result.append(1)
        elif gone[seat]:
            result.append(last)
        else:
            ahead = sum(1 for other in staying if not won[other] and points[other] > total)
            result.append(first_after_winner + ahead)
    return result


def rate(standings: Sequence[tuple[str, int]], prior: Mapping[str, Skill]) -> dict[str, Skill]:
    """New ratings from one match: ``standings`` is (entry, place) per seat, ``prior`` the
    entries' ratings before it (a missing entry starts at the model's default).

    One entry may hold several seats (two computers of the same level): each seat is rated
    as its own player from the same prior, and the entry takes the mean of their results.
    """
    start = default_skill()
    teams = [
        [MODEL.rating(mu=prior.get(entry, start).mu, sigma=prior.get(entry, start).sigma)]
        for entry, _ in standings
    ]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in standings])
    by_entry: defaultdict[str, list[Skill]] = defaultdict(list)
    for (entry, _), (rating,) in zip(standings, rated, strict=True):
        by_entry[entry].append(Skill(rating.mu, rating.sigma))
    return {
        entry: Skill(fmean(skill.mu for skill in skills), fmean(skill.sigma for skill in skills))
        for entry, skills in by_entry.items()
    }
