"""1,000 seeded random matches of 2 to 10 players: they end, the 58 cards stay accounted
for at every step, and no seat is ever shown another seat's hidden card.

Card codes are tagged with their id for these runs ("b7#12"), so a code in a view or an
event names one physical card and a leak cannot hide behind a twin of the same value.
"""

import json
import random
import re
from collections import Counter
from dataclasses import dataclass

import pytest

from games.bue import engine
from games.bue.cards import DECK, DECK_SIZE, Card
from games.bue.scoring import BUE, best_value
from games.core import perform, replay

from .helpers import play_random, snapshot

MATCHES = 1000
PUBLIC_ENDINGS = {"bue.event.bue", "bue.event.superbue", "bue.event.all_revealed"}
PRIVATE = {"bue.event.your_hand", "bue.event.you_drew", "bue.event.you_swapped", "bue.event.you_were_swapped"}
TAG = re.compile(r"#(\d+)")


@dataclass(frozen=True)
class TaggedCard(Card):
    code: str = ""  # a plain field here: "b7#12", computed once


TAGGED = tuple(TaggedCard(card.id, card.kind, card.value, f"{card.code}#{card.id}") for card in DECK)
CODES = [card.code for card in TAGGED]


@pytest.fixture
def tagged_codes(monkeypatch):
    monkeypatch.setattr(engine, "DECK", TAGGED)


def card_ids(value):
    """Every card id named anywhere in a JSON-like value (only tagged codes contain "#")."""
    return {int(found) for found in TAG.findall(str(value))}


def hidden_by_seat(game):
    return [{slot.card for slot in hand if not slot.revealed} for hand in game.hands]


def check_cards(game):
    ids = [slot.card for hand in game.hands for slot in hand] + game.deck + game.discard + game.set_aside
    assert sorted(ids) == list(range(DECK_SIZE))


def check_step(game, pre, seat, action, events, aside, looked_at):
    """Views and events after one action: only what each seat may know.

    ``pre`` is (hidden ids per seat, card ids per seat, reveal choices as card ids, game
    number) before the action; ``aside`` maps each card set aside in this game to the seat
    that held it. Events are checked for every seat; views for the seats in ``looked_at``.
    """
    pre_hidden, pre_own, pre_reveals, pre_game = pre
    post_hidden = hidden_by_seat(game)
    received, public = {}, set(pre_reveals)
    if action["type"] == "swap":
        target = action["target"]
        received[seat] = {pre_own[target][action["take"]]}
        received[target] = {pre_own[seat][action["give"]]}
    elif action["type"] == "deck":
        public.add(pre_own[seat][action["give"]])  # face up on the discard pile
    elif action["type"] == "reveal":
        public.add(pre_own[seat][action["position"]])
    elif action["type"] == "leave":
        aside.update(dict.fromkeys(pre_own[seat], seat))
    named = [card_ids(event.params) for event in events]
    for event, ids in zip(events, named, strict=True):
        if event.seats is not None:
            assert event.key in PRIVATE and len(event.seats) == 1, event
        if event.key in ("bue.event.bue", "bue.event.superbue"):
            assert best_value([TAGGED[card] for card in sorted(ids)]).total == BUE
    dealt = [i for i, event in enumerate(events) if event.key == "bue.event.dealt"]
    if dealt:
        aside.clear()
    hidden_now = set().union(*post_hidden)
    hidden_before = set().union(*pre_hidden)
    owned = [[CODES[slot.card] for slot in hand] for hand in game.hands]
    public_hands = [[CODES[slot.card] if slot.revealed else None for slot in hand] for hand in game.hands]
    for viewer in (None, *range(game.players)):
        visible = [(event, ids) for event, ids in zip(events, named, strict=True) if event.visible_to(viewer)]
        deals = [i for i, (event, _) in enumerate(visible) if event.key == "bue.event.dealt"]
        assert len(deals) == len(dealt)  # a deal is public
        if viewer not in looked_at and not any(ids for _, ids in visible):
            continue
        forbidden_now = hidden_now - post_hidden[viewer] if viewer is not None else set(hidden_now)
        forbidden_now |= {card for card, owner in aside.items() if owner != viewer}
        if viewer in looked_at:
            view = game.view(viewer)
            for owner, hand in enumerate(view["hands"]):
                shown = [slot["card"] for slot in hand]
                assert shown == (owned[owner] if owner == viewer else public_hands[owner])
            rest = {key: value for key, value in view.items() if key != "hands"}
            assert not card_ids(rest) & forbidden_now, (viewer, rest)
        mine = set(pre_own[viewer]) | received.get(viewer, set()) if viewer is not None else set()
        if dealt:
            # Events up to the first deal close the old game; after the last deal, a new one.
            forbidden_before = hidden_before - pre_hidden[viewer] if viewer is not None else hidden_before
            for event, ids in visible[: deals[0]]:
                if event.key not in PUBLIC_ENDINGS:
                    assert not (ids & forbidden_before) - mine - public, (viewer, event)
            for event, ids in visible[deals[-1] :]:
                if event.key not in PUBLIC_ENDINGS:  # a Bué at the deal may end the match
                    assert not ids & forbidden_now, (viewer, event)
                if event.key == "bue.event.your_hand":
                    assert ids == {slot.card for slot in game.hands[viewer]}
        else:
            assert game.game_number == pre_game
            for event, ids in visible:
                if event.key not in PUBLIC_ENDINGS:
                    assert not (ids & forbidden_now) - mine, (viewer, event)


def check_rules(game, seats):
    if game.finished:
        return
    for seat in seats:
        if game.active[seat]:
            # A Bué is declared the moment it happens: no hand in play is left at 50.
            assert best_value([TAGGED[slot.card] for slot in game.hands[seat]]).total != BUE
    if game.phase == "exchange":
        order = game._exchange_order()
        assert game.turn == next(s for s in order if s not in game.exchanged)


def playout(seed, seen):
    rnd = random.Random(seed)
    players = 2 + seed % 9
    # One match in twenty plays to the default target (several games, the dealer rotating);
    # the others to the lowest target, so each is a single game and the run stays short.
    options = {} if seed % 20 == 0 else {"target": 10}
    leave_rate = 0.01 if seed % 4 == 1 else 0.0
    audit = seed % 10 == 5  # refusals checked against a JSON snapshot, and a replay at the end
    everyone = (None, *range(players))
    game, events = engine.Bue.begin(players, options, seed)
    check_cards(game)
    log, aside = [], {}
    nothing = [[] for _ in range(players)]
    check_step(game, ([set()] * players, nothing, [], 0), None, {"type": "begin"}, events, aside, everyone)
    saved_at, saved = rnd.randrange(40), None
    for step in range(20_000):
        if game.finished:
            break
        if audit and step == saved_at:
            saved = json.loads(json.dumps(game.to_json()))
        own = [[slot.card for slot in hand] for hand in game.hands]
        reveals = [own[s][p] for s, p in game.reveals.items()]
        pre = (hidden_by_seat(game), own, reveals, game.game_number)
        dealer = game.dealer
        seat, action, events = play_random(game, rnd, leave_rate=leave_rate, check_refusals=audit)
        log.append((seat, action))
        seen.update(event.key for event in events)
        for event in events:
            if event.key == "bue.event.dealt":  # the dealer moves one seat per game
                dealer = next(
                    s for s in ((dealer + i) % players for i in range(1, players + 1)) if game.active[s]
                )
                assert event.params["dealer_seat"] == dealer
        check_cards(game)
        # Every seat's view after every step in the audited matches; elsewhere the table's,
        # the seats the action touched and one more seat at random (views cost the most).
        touched = {seat, action.get("target", seat)}
        if audit or any(event.key == "bue.event.dealt" for event in events):
            looked_at = everyone
        else:
            looked_at = {None, *touched, rnd.randrange(players)}
        check_step(game, pre, seat, action, events, aside, looked_at)
        check_rules(game, range(players) if looked_at is everyone else touched)
    assert game.finished, f"seed {seed} did not end"
    if sum(game.active) >= 2:
        assert game.winner() is not None
        assert max(game.totals()[s] for s in range(players) if game.active[s]) >= game.target
    else:
        assert game.winner() is None
    if audit:
        assert snapshot(replay(engine.Bue, players, options, seed, log)) == snapshot(game)
        if saved is not None:  # a saved state plays on to the same end
            loaded = engine.Bue.from_json(saved)
            for seat, action in log[saved_at:]:
                perform(loaded, seat, action)
            assert snapshot(loaded) == snapshot(game)
    return game


def test_random_playouts(tagged_codes):
    seats, games, left, seen = set(), 0, 0, Counter()
    for seed in range(MATCHES):
        game = playout(seed, seen)
        seats.add(game.players)
        games += game.game_number
        left += game.players - sum(game.active)
    assert seats == set(range(2, 11))
    assert games > MATCHES and left > 0
    # The runs went through every kind of moment the rules name.
    for key in (
        "bue.event.bue",
        "bue.event.all_revealed",
        "bue.event.revealed",
        "bue.event.deck_refilled",
        "bue.event.swapped",
        "bue.event.exchanged_deck",
        "bue.event.shuffled",
        "bue.event.player_left",
        "bue.event.match_abandoned",
        "bue.event.match_won",
    ):
        assert seen[key] > 0, key
