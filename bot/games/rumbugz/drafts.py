"""A panel's partial choice, carried in its custom_ids: the Bugz picked, the kind, the numbers
named for PLYTs (and the PLYT numbers worth offering)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.adapter import number
from bot.games.rumbugz.steps import KIND_OF_LETTER
from bot.games.rumbugz.text import table_entries
from games.core import JSON, GameError
from games.rumbugz.bugz import (
    HIGHEST_NUMBER,
    KIND_STEPS,
    LOWEST_NUMBER,
    NUMBER_OF,
    Entry,
    hand_order,
    is_plyt,
)

# ---------------------------------------------------------------------- PLYT numbers


def plyt_guesses(kind: str, known: Sequence[int], count: int) -> list[int]:
    """Numbers for ``count`` PLYTs completing ``known`` as a ``kind`` sequence: the gaps first,
    then the ends, upwards first. A starting guess the player can change in the panel."""
    if not count:
        return []
    if not known:
        return [LOWEST_NUMBER] * count
    step = KIND_STEPS[kind]
    if not step:
        return [known[0]] * count
    low, high = min(known), max(known)
    gaps = [value for value in range(low, high + 1, step) if value not in known]
    above = list(range(high + step, HIGHEST_NUMBER + 1, step))
    below = list(range(low - step, LOWEST_NUMBER - 1, -step))
    guesses = (gaps + above + below)[:count]
    # Too many PLYTs for one sequence: the check refuses it whatever they stand for.
    return guesses + [high] * (count - len(guesses))


# ---------------------------------------------------------------------- partial choices


def _malformed() -> GameError:
    return GameError("error.out_of_date")


@dataclass(frozen=True)
class Picks:
    """Bugz picked from a hand, with the numbers named for PLYTs; "7a,Pa5,12c" in a custom_id."""

    codes: tuple[str, ...] = ()
    named: Mapping[str, int] = field(default_factory=dict)

    def encode(self) -> str:
        return ",".join(code + (str(self.named[code]) if code in self.named else "") for code in self.codes)

    @classmethod
    def decode(cls, text: str) -> Picks:
        codes: list[str] = []
        named: dict[str, int] = {}
        for item in filter(None, text.split(",")):
            code, value = (item[:2], item[2:]) if item.startswith("P") else (item, "")
            if code not in NUMBER_OF:
                raise _malformed()
            codes.append(code)
            if value:
                named[code] = number(value)
        return cls(tuple(codes), named)

    @classmethod
    def of(cls, entries: Iterable[Mapping[str, Any]]) -> Picks:
        """From an engine action's entries (a suggestion)."""
        listed = list(entries)
        named = {entry["bug"]: entry["value"] for entry in listed if is_plyt(entry["bug"])}
        return cls(tuple(entry["bug"] for entry in listed), named)

    def choose(self, offered: Sequence[str], chosen: Iterable[str]) -> Picks:
        """The picks after a menu offering ``offered`` came back with ``chosen``."""
        kept = [code for code in self.codes if code not in offered]
        codes = tuple(sorted({*kept, *chosen}, key=hand_order))
        return Picks(codes, {code: value for code, value in self.named.items() if code in codes})

    def name(self, code: str, value: int) -> Picks:
        if code not in self.codes or not LOWEST_NUMBER <= value <= HIGHEST_NUMBER:
            raise _malformed()
        return Picks(self.codes, {**self.named, code: value})

    def entries(self, kind: str, around: Sequence[int] = ()) -> list[Entry]:
        """The picks as sequence entries of ``kind``: a PLYT not named yet gets a guess that fits
        ``around`` (the numbers already in the sequence) and the other picks."""
        numbers = {code: number for code in self.codes if (number := NUMBER_OF[code]) is not None}
        known = [*around, *numbers.values(), *self.named.values()]
        unnamed = [code for code in self.codes if is_plyt(code) and code not in self.named]
        guesses = dict(zip(unnamed, plyt_guesses(kind, known, len(unnamed)), strict=True))
        values = numbers | guesses | dict(self.named)
        return [(code, values[code]) for code in self.codes]


def action_entries(entries: Iterable[Entry]) -> list[JSON]:
    return [{"bug": code, "value": value} for code, value in entries]


@dataclass(frozen=True)
class LayDraft:
    """A lay being put together: "<kind letter>.<picks>" (the panel's version is the click's)."""

    kind: str | None = None
    picks: Picks = Picks()

    def encode(self) -> str:
        return f"{self.kind[0] if self.kind else ''}.{self.picks.encode()}"

    @classmethod
    def decode(cls, parts: Sequence[str]) -> LayDraft:
        if len(parts) < 2 or (parts[0] and parts[0] not in KIND_OF_LETTER):
            raise _malformed()
        return cls(KIND_OF_LETTER.get(parts[0]), Picks.decode(parts[1]))

    def entries(self) -> list[Entry]:
        return self.picks.entries(self.kind) if self.kind else []

    def action(self) -> JSON:
        return {"type": "lay", "kind": self.kind, "bugz": action_entries(self.entries())}


@dataclass(frozen=True)
class ChangeDraft:
    """A change being put together: "<sequence id>.<picks to add>.<codes taken off>" (the panel's
    version is the click's)."""

    sequence: int
    add: Picks = Picks()
    remove: tuple[str, ...] = ()

    def encode(self) -> str:
        return f"{self.sequence}.{self.add.encode()}.{','.join(self.remove)}"

    @classmethod
    def decode(cls, parts: Sequence[str]) -> ChangeDraft:
        if len(parts) < 3:
            raise _malformed()
        remove = tuple(filter(None, parts[2].split(",")))
        if any(code not in NUMBER_OF for code in remove):
            raise _malformed()
        return cls(number(parts[0]), Picks.decode(parts[1]), remove)

    def added(self, sequence: Mapping[str, Any]) -> list[Entry]:
        kept = [value for code, value in table_entries(sequence) if code not in self.remove]
        return self.add.entries(sequence["kind"], kept)

    def action(self, sequence: Mapping[str, Any]) -> JSON:
        return {
            "type": "change",
            "sequence": self.sequence,
            "add": action_entries(self.added(sequence)),
            "remove": list(self.remove),
        }
