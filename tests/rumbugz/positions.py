"""Hand-built RumBugz positions and checks shared by the tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.rumbugz import RumBugz
from games.rumbugz.bugz import ALL_BUGZ, KINDS, NUMBER_OF, Entry, entry_order, hand_order
from games.rumbugz.engine import TableSequence

# A Bug on a hand-built table: a numbered code, or (PLYT code, the value it stands for).
TableBug = str | tuple[str, int]


def _entry(bug: TableBug) -> Entry:
    if isinstance(bug, tuple):
        return bug
    number = NUMBER_OF[bug]
    assert number is not None, "give a PLYT on the table as (code, value)"
    return (bug, number)


# Seat 0 has laid all four kinds (the 2a, 5b and so on are taken by these).
FOUR_KINDS = [
    (0, "simple", ["4a", "5a", "6a", "7a"]),
    (0, "double", ["1a", "3a", "5b", "7b"]),
    (0, "triple", ["2a", "5c", "8a", "11a"]),
    (0, "match", ["10a", "10b", "10c", "10d"]),
]


def arrange(
    players: int,
    hands: Mapping[int, Iterable[str]],
    *,
    table: Iterable[tuple[int, str, Iterable[TableBug]]] = (),
    discard: Iterable[str] = (),
    bag_top: Iterable[str] = (),
    turn: int = 0,
    phase: str = "play",
    completed: Mapping[int, Iterable[str]] | None = None,
    options: Mapping[str, int] | None = None,
) -> RumBugz:
    """A match in round 1 set to the given position; every Bug not placed is in the bag.

    ``bag_top`` lists the next Bugz the bag gives, first drawn first. ``completed`` defaults
    to the kinds of the sequences each seat owns on ``table``.
    """
    game = RumBugz.new(players, options or {}, seed=7)
    sequences = [
        TableSequence(number, owner, kind, sorted(map(_entry, bugz), key=entry_order))
        for number, (owner, kind, bugz) in enumerate(table, start=1)
    ]
    hand_lists = {seat: list(codes) for seat, codes in hands.items()}
    placed = [code for codes in hand_lists.values() for code in codes]
    placed += [code for sequence in sequences for code, _ in sequence.bugz]
    placed += [*discard, *bag_top]
    assert len(placed) == len(set(placed)), "a Bug is placed twice"
    game.bag = [code for code in ALL_BUGZ if code not in set(placed)] + list(reversed(list(bag_top)))
    game.discard_pile = list(discard)
    game.hands = [sorted(hand_lists.get(seat, []), key=hand_order) for seat in range(players)]
    game.table = sequences
    game.next_sequence_id = len(sequences) + 1
    if completed is None:
        owned = {(sequence.owner, sequence.kind) for sequence in sequences}
        completed = {seat: [kind for kind in KINDS if (seat, kind) in owned] for seat in range(players)}
    game.completed = [list(completed.get(seat, [])) for seat in range(players)]
    game.turn = turn
    game.phase = phase
    game.laid_this_turn = False
    game.bids = None
    game.refills_done = 0
    return game


def every_bug(game: RumBugz) -> list[str]:
    """Every Bug wherever it is: bag, discard pile, set aside, hands, table."""
    found = game.bag + game.discard_pile + game.set_aside
    found += [code for hand in game.hands for code in hand]
    found += [code for sequence in game.table for code, _ in sequence.bugz]
    return found


_EVERY_CODE = frozenset(ALL_BUGZ)


def assert_conserved(game: RumBugz) -> None:
    """Each of the 100 Bugz is in exactly one place."""
    found = every_bug(game)
    assert len(found) == len(ALL_BUGZ) and set(found) == _EVERY_CODE, "Bugz created, lost or doubled"


def codes_in(data: Any) -> set[str]:
    """Every Bug code anywhere in a JSON value (dicts, lists, tuples; keys included) as a whole string."""
    found: set[str] = set()
    pending = [data]
    while pending:
        item = pending.pop()
        item_type = type(item)  # exact JSON types: much faster than isinstance on a hot path
        if item_type is str:
            if item in _EVERY_CODE:
                found.add(item)
        elif item_type is dict:
            if not _EVERY_CODE.isdisjoint(item):  # a code as a key
                found.update(_EVERY_CODE.intersection(item))
            pending.extend(item.values())
        elif item_type is list or item_type is tuple:
            pending.extend(item)
    return found


def hidden_from(game: RumBugz, seat: int | None) -> set[str]:
    """Bug codes ``seat`` must not see: the bag, set-aside Bugz and every other hand."""
    hidden = set(game.bag) | set(game.set_aside)
    for other, hand in enumerate(game.hands):
        if other != seat:
            hidden |= set(hand)
    return hidden


def seq(*bugz: TableBug) -> list[dict[str, Any]]:
    """Action entries: numbered codes as {"bug": code}, PLYTs as (code, value)."""
    return [{"bug": bug[0], "value": bug[1]} if isinstance(bug, tuple) else {"bug": bug} for bug in bugz]
