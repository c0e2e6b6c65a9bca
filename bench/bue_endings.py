"""How Bué games end between one computer (the hero) and a field: who makes the Bués, by whose
exchange, how often the hero hands one to another seat, and the points each side takes a game.

    python bench/bue_endings.py --seats 4 --matches 150 --first-seed 20000
    python bench/bue_endings.py --seats 4 --hero hard --field random --matches 100

Seats, seeds and robots are the arena's (``bench/arena.py``): the hero's seat rotates, each
robot observes its own seat's view and events after every action.
"""

from __future__ import annotations

import argparse
from collections import Counter

from bench.arena import player
from games.bue import Bue
from games.core import JSON

BUE_EVENTS = ("bue.event.bue", "bue.event.superbue")


def hero_or_field(seat: int, hero: int) -> str:
    return "hero" if seat == hero else "field"


def play(seats: int, hero_level: str, field_level: str, seeds: range) -> Counter[str]:
    counts: Counter[str] = Counter()
    for seed in seeds:
        hero = seed % seats
        match = Bue.new(seats, {}, seed)
        robots = [
            player("bue", hero_level if seat == hero else field_level, seed * 16 + seat, match)
            for seat in range(seats)
        ]
        while not match.finished and match.to_act():
            seat = min(match.to_act())
            action: JSON = robots[seat].decide(match.view(seat))
            actor = hero_or_field(seat, hero)
            known_take = action["type"] == "swap" and str(action["take"]) in robots[seat].memory.get(
                "known", {}
            ).get(str(action["target"]), {})
            if action["type"] in ("deck", "swap"):
                counts[f"{actor} exchanges"] += 1
                counts[f"{actor} exchanges: {action['type']}"] += 1
            events = match.apply(seat, action)
            for event in events:
                if event.key in BUE_EVENTS:
                    maker = hero_or_field(event.params["seat"], hero)
                    if event.params["seat"] == seat:
                        how = "by a take it knew" if known_take else f"on its own {action['type']}"
                        counts[f"{maker} Bué {how}"] += 1
                    else:
                        counts[f"{maker} Bué handed by the {actor}"] += 1
                elif event.key == "bue.event.game_scored":
                    points = event.params["points"]
                    counts["games"] += 1
                    counts["hero points"] += points[hero]
                    counts["field points per seat"] += (sum(points) - points[hero]) / (seats - 1)
                    if event.params["sums"] is not None:
                        counts["games without a Bué"] += 1
            for other, robot in enumerate(robots):
                robot.observe(match.view(other), [event for event in events if event.visible_to(other)])
        counts["matches"] += 1
        counts["hero match wins"] += match.winner() == hero
    return counts


def report(counts: Counter[str], seats: int) -> list[str]:
    games = counts["games"]

    def share(part: float, whole: float) -> str:
        return f"{part / whole:.1%}" if whole else "-"

    hero_own = sum(v for k, v in counts.items() if k.startswith("hero Bué on its own") or "knew" in k)
    field_own = sum(v for k, v in counts.items() if k.startswith("field Bué on its own"))
    hero_bues = sum(v for k, v in counts.items() if k.startswith("hero Bué"))
    field_bues = sum(v for k, v in counts.items() if k.startswith("field Bué"))
    handed = counts["field Bué handed by the hero"]
    lines = [f"{key}: {value:g}" for key, value in sorted(counts.items())]
    lines += [
        f"hero match wins: {share(counts['hero match wins'], counts['matches'])}",
        f"games ending in the hero's Bué: {share(hero_bues, games)}; "
        f"each field seat's: {share(field_bues / (seats - 1), games)}; "
        f"no Bué: {share(counts['games without a Bué'], games)}",
        f"Bué per own exchange: hero {share(hero_own, counts['hero exchanges'])}, "
        f"field {share(field_own, counts['field exchanges'])}",
        f"Bués the hero handed to the field: {share(handed, games)} of games, "
        f"{share(handed, counts['hero exchanges: swap'])} of its swaps",
        f"points a game: hero {counts['hero points'] / games:.2f}, "
        f"field {counts['field points per seat'] / games:.2f} per seat",
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--hero", default="hard")
    parser.add_argument("--field", default="easy")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    arguments = parser.parse_args()
    seeds = range(arguments.first_seed, arguments.first_seed + arguments.matches)
    counts = play(arguments.seats, arguments.hero, arguments.field, seeds)
    print("\n".join(report(counts, arguments.seats)))


if __name__ == "__main__":
    main()
