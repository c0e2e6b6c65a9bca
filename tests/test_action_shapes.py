"""Bad input never raises anything but a GameError, and never changes the state (issue 10).

Every engine, on positions reached by seeded random legal play, gets arbitrary JSON as an
action (and as a seat): it either plays a legal action or raises a GameError, and a refusal
leaves ``to_json()`` as it was. An action that is played must be one the seat may make now,
its fields of the right JSON types, and it must play exactly like its copy without the extra
fields. RumBugz's public view must not tell anything about the hand of the player in turn.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bue import Bue
from games.core import LEAVE, Game, GameError, perform
from games.rumbugz import RumBugz
from games.rumbugz.bugz import ALL_BUGZ, KINDS, hand_order
from games.rummikub import Rummikub
from games.rummikub.tiles import NUMBER_TILES
from games.seriebum import SerieBum
from games.seriebum.tiles import CELLS

from .rumbugz.positions import arrange

EXAMPLES = 150  # per engine, for near misses and for anything: about 10 s of CPU in all
STATES = 10  # positions per engine
PLAYOUTS = 3
PLAYOUT_STEPS = 120
HUGE = (2**63, -(2**63), 2**200, -(10**4000))
# Python refuses str() and repr() of an int this long; hypothesis could not print it either,
# so it is thrown at every field by a plain test.
UNPRINTABLE = 10**5000

# ------------------------------------------------------------------ field types


def an_int(value: Any) -> bool:
    return type(value) is int


def a_str(value: Any) -> bool:
    return type(value) is str


def str_list(value: Any) -> bool:
    return type(value) is list and all(map(a_str, value))


def entries(value: Any) -> bool:
    """RumBugz Bugz in an action: {"bug": code} with an int "value" for a PLYT."""
    return type(value) is list and all(
        type(entry) is dict
        and a_str(entry.get("bug"))
        and (entry.get("value") is None or an_int(entry.get("value")))
        for entry in value
    )


def tiles(value: Any) -> bool:
    return a_str(value) or str_list(value)


# The fields of each action type, and the JSON type a legal action has in each.
Fields = dict[str, Callable[[Any], bool]]


@dataclass(frozen=True)
class Spec:
    kind: type[Game]
    players: tuple[int, ...]
    fields: dict[str, Fields]
    tokens: tuple[Any, ...]  # near-valid values: cell, tile or Bug codes and the like
    legal: Callable[[Any, int], list[dict[str, Any]]]
    exhaustive: bool  # ``legal`` lists every legal action (else a played one is only type-checked)


def bue_legal(game: Bue, seat: int) -> list[dict[str, Any]]:
    """Bué has no legal_actions: the exchanges or reveals open to ``seat``, and the shuffle."""
    if game.finished or not 0 <= seat < game.players or not game.active[seat]:
        return []
    open_types = game.to_act().get(seat, frozenset())
    moves: list[dict[str, Any]] = [{"type": "shuffle"}]
    if "reveal" in open_types:
        hand = game.view(seat)["hands"][seat]
        moves += [{"type": "reveal", "position": p} for p, slot in enumerate(hand) if not slot["revealed"]]
    if "deck" in open_types:
        moves += game.legal_exchanges(seat)
    return moves


SPECS = {
    "bue": Spec(
        Bue,
        (2, 3, 5),
        {
            "deck": {"give": an_int},
            "swap": {"give": an_int, "target": an_int, "take": an_int},
            "reveal": {"position": an_int},
            "shuffle": {},
        },
        (0, 1, 4, 5, -1, 9),
        bue_legal,
        exhaustive=True,
    ),
    "seriebum": Spec(
        SerieBum,
        (2,),
        {
            "flip": {"cell": a_str},
            "move": {"option": a_str},
            "end_turn": {},
            "place": {"option": a_str},
            "steal": {"option": a_str},
            "bum": {"option": a_str},
        },
        (*CELLS[:8], "H9", "new", "0:R10+R20", "R40>0@high"),
        lambda game, seat: game.legal_actions(seat),
        exhaustive=True,
    ),
    "rummikub": Spec(
        Rummikub,
        (2, 3, 4),
        {"draw": {}, "play": {"tiles": tiles}},
        ("j", "joker", "r7 r8 r9", *NUMBER_TILES[::5]),
        lambda game, seat: game.legal_actions(seat),
        exhaustive=False,  # any set of rack tiles the solver can lay is legal
    ),
    "rumbugz": Spec(
        RumBugz,
        (2, 3, 4),
        {
            "draw": {"source": a_str},
            "change": {"sequence": an_int, "add": entries, "remove": str_list},
            "lay": {"kind": a_str, "bugz": entries},
            "discard": {"bug": a_str},
            "bid": {},
            "decline": {},
        },
        ("bag", "discard", *KINDS, *ALL_BUGZ[::7], "Pa", 1, 2),
        lambda game, seat: game.legal_actions(seat),
        exhaustive=False,  # lays and changes are listed once per distinct result
    ),
}

# ------------------------------------------------------------------ positions


def random_move(spec: Spec, game: Game, rng: random.Random) -> tuple[int, dict[str, Any]]:
    seat = rng.choice(sorted(game.to_act()))
    if isinstance(game, Rummikub) and rng.random() < 0.8:
        return seat, {"type": "draw"}  # the solver's plays are slow to list: draw mostly
    moves = spec.legal(game, seat)
    if isinstance(game, Bue) and len(moves) > 1:
        moves = moves[1:]  # shuffling alone never moves the game on
    return seat, rng.choice(moves)


def situation(data: Mapping[str, Any]) -> tuple[Any, ...]:
    """What sets positions apart: the phase, an open bid window, a table with sets on it."""
    return (data.get("phase"), bool(data.get("bids")), bool(data.get("table")), any(data.get("melded", ())))


@functools.cache
def positions(name: str) -> tuple[str, ...]:
    """Saved states, none finished, reached by seeded random legal play: as many situations as
    the playouts meet, taken in turn."""
    spec = SPECS[name]
    met: dict[tuple[Any, ...], list[str]] = {}
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        game = spec.kind.new(spec.players[seed % len(spec.players)], {}, seed)
        for _ in range(PLAYOUT_STEPS):
            data = game.to_json()
            met.setdefault(situation(data), []).append(json.dumps(data))
            game.apply(*random_move(spec, game, rng))
            if game.finished:
                break
    rng = random.Random(0)
    groups = [rng.sample(found, len(found)) for _, found in sorted(met.items(), key=repr)]
    chosen = []
    for index in range(STATES):
        group = groups[index % len(groups)]
        chosen.append(group[index // len(groups) % len(group)])
    return tuple(chosen)


@functools.cache
def legal_for(name: str, saved: str, seat: int) -> list[dict[str, Any]]:
    return SPECS[name].legal(SPECS[name].kind.from_json(json.loads(saved)), seat)


# ------------------------------------------------------------------ strategies

scalars = (
    st.none() | st.booleans() | st.integers() | st.sampled_from(HUGE) | st.floats() | st.text(max_size=12)
)
garbage = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)


def field_values(spec: Spec) -> st.SearchStrategy[Any]:
    token = st.sampled_from(spec.tokens) | st.integers(-2, 13)
    entry = st.fixed_dictionaries({"bug": token | garbage}, optional={"value": token | garbage})
    return garbage | token | st.lists(token | garbage, max_size=5) | st.lists(entry | garbage, max_size=5)


def field_names(spec: Spec) -> st.SearchStrategy[str]:
    names = sorted({name for fields in spec.fields.values() for name in fields})
    return st.sampled_from([*names, "type"]) | st.text(max_size=6)


def actions(spec: Spec, legal: list[dict[str, Any]], near: bool) -> st.SearchStrategy[Any]:
    """Near misses: a legal action with fields spoilt or added, an action of a real type with
    odd fields. Else anything: odd types, and JSON that is no action at all."""
    fields = st.dictionaries(field_names(spec), field_values(spec), max_size=4)
    real_type = st.builds(
        lambda kind, rest: {**rest, "type": kind}, st.sampled_from([*spec.fields, LEAVE]), fields
    )
    if not near:
        return real_type | st.builds(lambda kind, rest: {**rest, "type": kind}, garbage, fields) | garbage
    if not legal:
        return real_type
    spoilt = st.builds(lambda move, rest: {**move, **rest}, st.sampled_from(legal), fields)
    return spoilt | spoilt | real_type


def seats(game: Game, players: int, near: bool) -> st.SearchStrategy[Any]:
    """Near misses: mostly a seat that is to act, so that the action itself is looked at."""
    numbers = st.integers(-2, players + 1)
    if near:
        to_act = st.sampled_from(sorted(game.to_act()))
        return to_act | to_act | to_act | numbers
    odd = st.sampled_from([True, False, 0.0, 1.0, "0", [0], {"seat": 0}, None, *HUGE])
    return numbers | odd | garbage


def players_of(data: Mapping[str, Any]) -> int:
    return data.get("players", 2)


# ------------------------------------------------------------------ the property


def snapshot(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def cleaned(spec: Spec, action: Mapping[str, Any]) -> dict[str, Any]:
    """The action with only its type's fields (a Bug entry with only "bug" and "value")."""
    fields = spec.fields[action["type"]]
    result: dict[str, Any] = {"type": action["type"]}
    for name in fields:
        if name in action:
            value = action[name]
            if fields[name] is entries:
                value = [{key: entry[key] for key in ("bug", "value") if key in entry} for entry in value]
            result[name] = value
    return result


def check_played(spec: Spec, saved: str, seat: Any, action: Any, legal: list[dict[str, Any]], events: Any):
    """What was played was legal: seat and type open, fields well typed, extra fields ignored."""
    before = spec.kind.from_json(json.loads(saved))
    assert an_int(seat), f"seat {seat!r} was accepted"
    assert isinstance(action, Mapping) and action.get("type") in spec.fields, action
    kind = action["type"]
    # Bué's shuffle is open to any seat still playing at any time; everything else is in to_act.
    assert kind == "shuffle" or kind in before.to_act().get(seat, ()), (seat, action)
    for name, well_typed in spec.fields[kind].items():
        assert name not in action or well_typed(action[name]), f"{name}={action[name]!r} was accepted"
    clean = cleaned(spec, action)
    if spec.exhaustive:
        assert clean in legal, f"{action} was played but is not legal"
    replay_events = before.apply(seat, clean)
    assert replay_events == events
    return before


@pytest.mark.parametrize("near", [True, False], ids=["near-misses", "anything"])
@pytest.mark.parametrize("name", list(SPECS))
def test_any_action_is_played_legally_or_refused_with_the_state_untouched(name: str, near: bool) -> None:
    spec = SPECS[name]
    saved_states = positions(name)

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=True,
    )
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        saved = data.draw(st.sampled_from(saved_states), label="state")
        game = spec.kind.from_json(json.loads(saved))
        before = snapshot(game)
        players = players_of(json.loads(saved))
        seat = data.draw(seats(game, players, near), label="seat")
        legal = legal_for(name, saved, seat) if an_int(seat) else []
        action = data.draw(actions(spec, legal, near), label="action")
        try:
            events = game.apply(seat, action)
        except GameError as error:
            assert isinstance(error.key, str) and error.key
            json.dumps(error.params)  # a message's parameters are plain JSON
            assert snapshot(game) == before, f"refused {action!r} changed the state"
            return
        replayed = check_played(spec, saved, seat, action, legal, events)
        assert snapshot(replayed) == snapshot(game)

    check()


@pytest.mark.parametrize("name", list(SPECS))
def test_perform_refuses_a_leave_with_a_bad_seat_or_action(name: str) -> None:
    spec = SPECS[name]
    game = spec.kind.from_json(json.loads(positions(name)[-1]))
    before = snapshot(game)
    for seat, action in [
        (True, {"type": LEAVE}),
        (0.0, {"type": LEAVE}),
        ("0", {"type": LEAVE}),
        (UNPRINTABLE, {"type": LEAVE}),
        (-1, {"type": LEAVE}),
        (0, [LEAVE]),
        (0, LEAVE),
        (0, None),
        (0, {"type": [LEAVE]}),
        (0, {"type": {"leave": 1}}),
    ]:
        with pytest.raises(GameError):
            perform(game, seat, action)
        assert snapshot(game) == before, (seat, action)


@pytest.mark.parametrize("name", list(SPECS))
def test_an_int_too_long_to_print_is_refused_anywhere(name: str) -> None:
    spec = SPECS[name]
    for saved in positions(name):
        game = spec.kind.from_json(json.loads(saved))
        before = snapshot(game)
        (seat, *_) = sorted(game.to_act())
        tries: list[tuple[Any, Any]] = [(UNPRINTABLE, {"type": kind}) for kind in spec.fields]
        tries += [(seat, {"type": UNPRINTABLE}), (seat, [UNPRINTABLE])]
        for kind, fields in spec.fields.items():
            for field in fields:
                for value in (UNPRINTABLE, [UNPRINTABLE], [{"bug": UNPRINTABLE, "value": UNPRINTABLE}]):
                    tries.append((seat, {"type": kind, field: value}))
        for who, action in tries:
            with pytest.raises(GameError) as error:
                game.apply(who, action)
            json.dumps(error.value.params)
            assert snapshot(game) == before


# ------------------------------------------------------------------ RumBugz privacy


def public_face(game: RumBugz) -> tuple[Any, ...]:
    """All a seat other than the one in turn may learn, and what the referee waits for."""
    others = [seat for seat in range(game.players) if seat != game.turn]
    return (
        game.view(None),
        [
            {key: value for key, value in game.view(seat).items() if key not in ("hand", "hand_value")}
            for seat in others
        ],
        game.to_act(),
        game.optional_actions(),
        game.required_to_act(),
    )


def with_hand(game: RumBugz, hand: list[str]) -> RumBugz:
    """The same position with the player in turn holding ``hand`` (same size); the bag makes up."""
    data = game.to_json()
    old = data["hands"][game.turn]
    assert len(hand) == len(old)
    freed = [code for code in old if code not in hand]
    taken = [code for code in hand if code not in old]
    assert set(taken) <= set(data["bag"])
    data["bag"] = [freed.pop() if code in taken else code for code in data["bag"]]
    data["hands"][game.turn] = sorted(hand, key=hand_order)
    return RumBugz.from_json(data)


def check_same_public_face(one: RumBugz, other: RumBugz) -> None:
    assert public_face(one) == public_face(other)
    for game in (one, other):
        # The referee's move on a timeout stays legal whatever the hand.
        trial = RumBugz.from_json(game.to_json())
        trial.apply(game.turn, game.default_action(game.turn))


def test_rumbugz_public_view_does_not_tell_whether_the_hand_can_lay() -> None:
    table = [(1, "simple", ["4a", "5a", "6a", "7a"])]
    can = arrange(2, {0: ["1b", "2b", "3b", "Pa"], 1: ["2c"]}, table=table)
    cannot = with_hand(can, ["1b", "2b", "3b", "12c"])
    assert any(move["type"] == "lay" for move in can.legal_actions(0))
    assert not any(move["type"] == "lay" for move in cannot.legal_actions(0))
    check_same_public_face(can, cannot)
    assert cannot.to_act() == {0: frozenset({"lay", "change", "discard"})}
    before = snapshot(cannot)
    with pytest.raises(GameError):
        cannot.apply(
            0, {"type": "lay", "kind": "simple", "bugz": [{"bug": c} for c in ("1b", "2b", "3b", "12c")]}
        )
    assert snapshot(cannot) == before


def test_rumbugz_public_view_does_not_tell_whether_the_hand_can_change() -> None:
    table = [(0, "simple", ["4a", "5a", "6a", "7a"])]
    can = arrange(2, {0: ["8b", "1b"], 1: ["2b"]}, table=table)
    cannot = with_hand(can, ["12c", "1b"])
    assert any(move["type"] == "change" for move in can.legal_actions(0))
    assert not any(move["type"] == "change" for move in cannot.legal_actions(0))
    check_same_public_face(can, cannot)
    before = snapshot(cannot)
    with pytest.raises(GameError):
        cannot.apply(0, {"type": "change", "sequence": 1, "add": [{"bug": "12c"}]})
    assert snapshot(cannot) == before


def test_rumbugz_public_view_is_the_same_for_any_hand_of_the_same_size() -> None:
    """From random positions in every phase: the hand in turn dealt again from the bag."""
    rng = random.Random(3)
    checked = 0
    for saved in positions("rumbugz"):
        game = RumBugz.from_json(json.loads(saved))
        hand = game.hands[game.turn]
        for _ in range(5):
            pool = [*hand, *game.bag]
            other = with_hand(game, rng.sample(pool, len(hand)))
            check_same_public_face(game, other)
            checked += 1
    assert checked
