"""Seeded random playouts (issue 5: 10,000 of them, in batches of BATCH seeds).

After every action the 100 Bugz are all accounted for. Illegal actions (one every ILLEGAL_EVERY
actions) are refused and change nothing. Every match ends, and its winner has the top total.

Views: no view (every seat's and the public one) may show a Bug hidden from its seat. All of
them are searched at the deal, after every round end, refill and removal, and after a random
VIEW_CHECK_SHARE of the other actions that may hide a Bug: a draw (a bid won included) puts one
in a hand, a change may take one off the table into a hand. Lays and discards only move Bugz
from a hand to the open table or pile, so they hide nothing. Searching every view costs about
as much as six actions and a match has about fifty draws: searching after each of them would
make the playouts about three times as slow. Over the 10,000 seeds every view is still searched
after thousands of deals, round ends, draws and refills, and hundreds of bids won, removals and
changes that took a Bug off the table.

The random players are cheap and keen, so that a match takes about a hundred actions and rounds
end by going out as well as by an empty bag: each builds one random legal action of the type it
picks instead of listing them all, lays whenever it can (the match kind first, the rarest),
takes the discard when the hand can then lay, discards the Bug with the fewest partners, and
with the four kinds changes sequences to empty its hand. Every full batch must show each
situation in COVERED. RUMBUGZ_PLAYOUTS sets the number of seeds.
"""

from __future__ import annotations

import functools
import os
import random
from collections import Counter
from typing import Any

import pytest

from games.core import Event, GameError
from games.rumbugz import RumBugz
from games.rumbugz.bugz import (
    ALL_BUGZ,
    HIGHEST_NUMBER,
    KIND_STEPS,
    KINDS,
    LOWEST_NUMBER,
    MIN_SEQUENCE_LENGTH,
    NUMBER_OF,
    can_change,
    can_lay,
    candidate_changes,
    changed_sequence,
    hand_by_number,
    is_plyt,
    one_of_each,
)

from ..seeds import seed_batches
from .positions import assert_conserved, codes_in, hidden_from

PLAYOUTS = int(os.environ.get("RUMBUGZ_PLAYOUTS", 10_000))
BATCH = 500
MAX_ACTIONS = 20_000
ILLEGAL_EVERY = 25
REMOVAL_CHANCE = 0.001
VIEW_CHECK_SHARE = 0.03

# The matches: mostly one round, some of two rounds or to a points target.
TARGET_SHARE = 0.1
TARGETS = (30, 80)
TWO_ROUNDS_SHARE = 0.1

# How the random players choose.
BIDDER_CHANCE = 0.2
DISCARD_CHANCE = 0.1
CHANGE_CHANCE = 0.1
FINAL_CHANGE_CHANCE = 0.9
LONGER_CHANCE = 0.3
PLYT_FOR_NUMBER = 0.1
RANDOM_DISCARD_CHANCE = 0.1

# Events that name a situation to cover; the views are searched after those marked True.
TALLIED_EVENTS: dict[str, tuple[str, bool]] = {
    "rumbugz.event.bid_won": ("bid won", False),
    "rumbugz.event.bids_lapsed": ("bids lapsed", False),
    "rumbugz.event.bag_refilled": ("refill", True),
    "rumbugz.event.all_kinds": ("all four kinds", False),
    "rumbugz.event.went_out": ("went out", True),
    "rumbugz.event.bag_exhausted": ("bag exhausted", True),
    "rumbugz.event.tie_break": ("tie break", False),
    "rumbugz.event.player_removed": ("removal", True),
    "rumbugz.event.no_result": ("no result", False),
}
COVERED = frozenset(
    {
        "bid",
        "bid won",
        "bids lapsed",
        "plyt laid",
        "plyt replaced",
        "change",
        "end pushed out",
        "refill",
        "all four kinds",
        "final phase lay",
        "final phase change",
        "went out",
        "bag exhausted",
        "removal",
        "no result",
        "several rounds",
        "target reached",
        "winner",
    }
)


def _options(rng: random.Random) -> dict[str, int]:
    """Mostly one round; some matches of two rounds or to a points target."""
    options = {"plyt_value": rng.choice((15, 5)), "refills": rng.choice((1, 3))}
    kind_of_match = rng.random()
    if kind_of_match < TARGET_SHARE:
        options["target"] = rng.choice(TARGETS)
    else:
        options["rounds"] = 2 if kind_of_match < TARGET_SHARE + TWO_ROUNDS_SHARE else 1
    return options


def _kinds_open(game: RumBugz, seat: int) -> tuple[str, ...]:
    """The kinds ``seat`` may lay: those not completed yet, or all four in the final phase."""
    done = game.completed[seat]
    return KINDS if len(done) == len(KINDS) else tuple(kind for kind in KINDS if kind not in done)


def _action_entry(code: str, value: int) -> dict[str, Any]:
    return {"bug": code, "value": value} if is_plyt(code) else {"bug": code}


def _random_match(
    copies: dict[int, list[str]], plyts: list[str], rng: random.Random
) -> list[tuple[str, int]] | None:
    """A random match the hand can make, at least one numbered Bug in it, or None."""
    numbers = [number for number, codes in copies.items() if len(codes) + len(plyts) >= MIN_SEQUENCE_LENGTH]
    if not numbers:
        return None
    number = rng.choice(numbers)
    length = rng.randint(MIN_SEQUENCE_LENGTH, len(copies[number]) + len(plyts))
    numbered = rng.randint(max(1, length - len(plyts)), min(len(copies[number]), length))
    return [(code, number) for code in copies[number][:numbered] + plyts[: length - numbered]]


def _random_run(
    step: int, copies: dict[int, list[str]], plyts: list[str], rng: random.Random
) -> list[tuple[str, int]] | None:
    """A random run of ``step`` the hand can make, sometimes longer than four, or None."""
    starts = list(range(LOWEST_NUMBER, HIGHEST_NUMBER + 1 - (MIN_SEQUENCE_LENGTH - 1) * step))
    rng.shuffle(starts)
    for start in starts:
        values = list(range(start, start + MIN_SEQUENCE_LENGTH * step, step))
        gaps = sum(value not in copies for value in values)
        if gaps > len(plyts) or gaps == len(values):
            continue
        while rng.random() < LONGER_CHANCE:
            value = rng.choice((values[0] - step, values[-1] + step))
            if not LOWEST_NUMBER <= value <= HIGHEST_NUMBER or (value not in copies and gaps == len(plyts)):
                break
            gaps += value not in copies
            values = sorted([*values, value])
        spare_plyts = len(plyts) - gaps
        numbered_left = len(values) - gaps
        unused_plyts = list(plyts)
        entries: list[tuple[str, int]] = []
        for value in values:
            if value in copies and (not spare_plyts or numbered_left == 1 or rng.random() >= PLYT_FOR_NUMBER):
                entries.append((copies[value][0], value))
                continue
            if value in copies:
                spare_plyts -= 1
                numbered_left -= 1
            entries.append((unused_plyts.pop(), value))
        return entries
    return None


def _random_lay(game: RumBugz, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random valid new sequence, of the match kind if the hand can make one (the rarest)."""
    copies, plyts = hand_by_number(game.hands[seat])
    kinds = list(_kinds_open(game, seat))
    rng.shuffle(kinds)
    kinds.sort(key=lambda kind: KIND_STEPS[kind] != 0)
    for kind in kinds:
        step = KIND_STEPS[kind]
        entries = _random_run(step, copies, plyts, rng) if step else _random_match(copies, plyts, rng)
        if entries is not None:
            return {
                "type": "lay",
                "kind": kind,
                "bugz": [_action_entry(code, value) for code, value in entries],
            }
    raise AssertionError(f"a lay is offered to seat {seat} but its hand {game.hands[seat]} makes none")


def _random_change(game: RumBugz, seat: int, shrink: bool, rng: random.Random) -> dict[str, Any]:
    """A random legal single-Bug change; with ``shrink``, one that only adds if there is one."""
    stand_ins = one_of_each(game.hands[seat])
    candidates = [
        (sequence, added, removed)
        for sequence in game.table
        for added, removed in candidate_changes(sequence.kind, sequence.bugz, stand_ins)
    ]
    rng.shuffle(candidates)
    if shrink:
        candidates.sort(key=lambda candidate: bool(candidate[2]))
    for sequence, added, removed in candidates:
        try:
            changed_sequence(sequence.kind, sequence.bugz, added, removed)
        except GameError:
            continue
        return {
            "type": "change",
            "sequence": sequence.id,
            "add": [_action_entry(code, value) for code, value in added],
            "remove": removed,
        }
    raise AssertionError(f"a change is offered to seat {seat} but none is legal")


def _can_change(game: RumBugz, seat: int) -> bool:
    """Whether ``seat`` can change a table sequence now (it has laid one, and a Bug fits)."""
    stand_ins = one_of_each(game.hands[seat])
    return bool(game.completed[seat]) and any(
        can_change(sequence.kind, sequence.bugz, stand_ins) for sequence in game.table
    )


def _random_draw(game: RumBugz, seat: int, rng: random.Random) -> dict[str, Any]:
    """The discard when the hand can lay with it, and now and then anyway; else the bag."""
    if game.discard_pile and (
        rng.random() < DISCARD_CHANCE
        or can_lay([*game.hands[seat], game.discard_pile[-1]], _kinds_open(game, seat))
    ):
        return {"type": "draw", "source": "discard"}
    return {"type": "draw", "source": "bag"}


@functools.cache
def _partner_bits(kinds: tuple[str, ...]) -> tuple[int, ...]:
    """By number, the other numbers that can share a shortest sequence of one of ``kinds`` with
    it, as bits (bit m set: number m)."""
    partners = [0] * (HIGHEST_NUMBER + 1)
    for number in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1):
        for step in {KIND_STEPS[kind] for kind in kinds} - {0}:
            for times in range(1 - MIN_SEQUENCE_LENGTH, MIN_SEQUENCE_LENGTH):
                other = number + step * times
                if other != number and LOWEST_NUMBER <= other <= HIGHEST_NUMBER:
                    partners[number] |= 1 << other
    return tuple(partners)


def _random_discard(game: RumBugz, seat: int, rng: random.Random) -> str:
    """Mostly a Bug with the fewest partners in the hand; never a PLYT then.

    A number's partners are the other numbers held that can share a shortest sequence of a kind
    still open with it, and its own copies while the match kind is open.
    """
    hand = game.hands[seat]
    copies = Counter(map(NUMBER_OF.__getitem__, hand))
    del copies[None]
    if not copies or rng.random() < RANDOM_DISCARD_CHANCE:
        return rng.choice(hand)
    kinds = _kinds_open(game, seat)
    partner_bits = _partner_bits(kinds)
    held = sum(1 << number for number in copies)
    match_open = "match" in kinds
    partners = {
        number: (held & partner_bits[number]).bit_count() + (copies[number] if match_open else 0)
        for number in copies
    }
    fewest = min(partners.values())
    return rng.choice([code for code in hand if partners.get(NUMBER_OF[code]) == fewest])


def _choose(game: RumBugz, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A seat to act and a random legal action for it."""
    to_act = game.to_act()
    bidders = [seat for seat in to_act if seat != game.turn]
    if game.turn not in to_act or (bidders and rng.random() < BIDDER_CHANCE):
        return rng.choice(bidders), {"type": rng.choice(("bid", "decline"))}
    seat = game.turn
    types = to_act[seat]
    if "draw" in types:
        return seat, _random_draw(game, seat, rng)
    # to_act lists "lay" and "change" through the play phase whatever the hand: ask the hand.
    if "lay" in types and can_lay(game.hands[seat], _kinds_open(game, seat)):
        return seat, _random_lay(game, seat, rng)
    final_phase = len(game.completed[seat]) == len(KINDS)
    if (
        "change" in types
        and _can_change(game, seat)
        and rng.random() < (FINAL_CHANGE_CHANCE if final_phase else CHANGE_CHANCE)
    ):
        return seat, _random_change(game, seat, final_phase, rng)
    return seat, {"type": "discard", "bug": _random_discard(game, seat, rng)}


def _illegal_variant(
    game: RumBugz, seat: int, action: dict[str, Any], rng: random.Random
) -> tuple[int, dict[str, Any]]:
    """A broken copy of a legal action (or the right action from a seat not to act)."""
    others = [other for other in range(game.players) if other not in game.to_act()]
    foreign = next(code for code in ALL_BUGZ if code not in game.hands[seat])
    variants: list[tuple[int, dict[str, Any]]] = [
        (seat, {"type": "fly"}),
        (seat, {**action, "type": "lay", "kind": "zigzag"}),
        (seat, {"type": "discard", "bug": foreign}),
        (seat, {"type": "lay", "kind": "simple", "bugz": [{"bug": foreign}]}),
        (seat, {"type": "change", "sequence": 999, "add": []}),
        (seat, {"type": "draw", "source": "pocket"}),
    ]
    if others:
        variants.append((rng.choice(others), action))
    return rng.choice(variants)


def _assert_refused(game: RumBugz, seat: int, action: dict[str, Any]) -> None:
    before = game.to_json()
    try:
        game.apply(seat, action)
    except GameError:
        assert game.to_json() == before, f"a refused action changed the state: {seat} {action}"
    else:
        raise AssertionError(f"illegal action accepted: {seat} {action}")


def _check_views(game: RumBugz) -> None:
    """No view shows a Bug hidden from its seat.

    The public view is searched whole. A seat's view is searched where it differs from the public
    one: what they share shows no Bug hidden from anybody, so none hidden from that seat either.
    """
    public = game.view(None)
    assert not codes_in(public) & hidden_from(game, None), "the public view shows hidden Bugz"
    for seat in range(game.players):
        view = game.view(seat)
        own = {key: value for key, value in view.items() if key not in public or public[key] != value}
        assert not codes_in(own) & hidden_from(game, seat), f"the view of seat {seat} shows hidden Bugz"


def _play(game: RumBugz, seat: int, action: dict[str, Any], covered: Counter[str]) -> list[Event]:
    """Apply a legal action and count the situations it went through."""
    final_phase = len(game.completed[seat]) == len(KINDS)
    events = game.apply(seat, action)
    action_type = action["type"]
    if action_type == "bid":
        covered["bid"] += 1
    elif action_type == "lay":
        covered["final phase lay"] += final_phase
        covered["plyt laid"] += any(is_plyt(entry["bug"]) for entry in action["bugz"])
    elif action_type == "change":
        covered["change"] += 1
        covered["final phase change"] += final_phase
        covered["plyt replaced"] += any(is_plyt(code) for code in action["remove"])
        covered["end pushed out"] += any(not is_plyt(code) for code in action["remove"])
    return events


def _assert_won_by_the_top_total(game: RumBugz) -> None:
    winner = game.winner()
    if winner is not None:
        totals = game.totals()
        assert totals[winner] == max(total for seat, total in enumerate(totals) if not game.removed[seat])


def play_out(seed: int, covered: Counter[str]) -> RumBugz:
    """One random match from ``seed``, checked all along; its situations are added to ``covered``."""
    rng = random.Random(seed)
    game = RumBugz.new(2 + seed % 5, _options(rng), seed)
    assert_conserved(game)
    _check_views(game)
    for step in range(MAX_ACTIONS):
        if game.finished:
            _assert_won_by_the_top_total(game)
            covered["winner"] += game.winner() is not None
            covered["target reached"] += game.winner() is not None and game.settings["target"] > 0
            covered["several rounds"] += game.round_number > 1
            return game
        seat, action = _choose(game, rng)
        if step % ILLEGAL_EVERY == 0:
            _assert_refused(game, *_illegal_variant(game, seat, action, rng))
        if rng.random() < REMOVAL_CHANCE and len(game.to_act()) == 1:
            playing = [other for other in range(game.players) if not game.removed[other]]
            events = game.remove_player(rng.choice(playing))
            may_hide = True
        else:
            events = _play(game, seat, action, covered)
            may_hide = action["type"] == "draw" or (action["type"] == "change" and bool(action["remove"]))
        assert_conserved(game)
        search_views = may_hide and rng.random() < VIEW_CHECK_SHARE
        for event in events:
            if event.key in TALLIED_EVENTS:
                situation, always_search = TALLIED_EVENTS[event.key]
                covered[situation] += 1
                search_views |= always_search
        if search_views:
            covered["views searched"] += 1
            _check_views(game)
    raise AssertionError(f"playout {seed} did not end")


@pytest.mark.parametrize("seeds", seed_batches(PLAYOUTS, BATCH))
def test_seeded_random_playouts_conserve_bugz_hide_hands_and_end(seeds: range) -> None:
    covered: Counter[str] = Counter()
    for seed in seeds:
        play_out(seed, covered)
    if len(seeds) == BATCH:
        missed = COVERED - set(+covered)
        assert not missed, f"seeds {seeds.start}-{seeds.stop - 1} never showed {sorted(missed)}"
