"""RumBugz: a rummy with NumBugz, played to docs/rules/rumbugz.md.

Bug codes are explained in games.rumbugz.bugz ("7a" is a 7, "Pa" is a PLYT). A Bug on the
table or in an action is an entry {"bug": code, "value": n}; "value" is only needed (and only
meaningful) for a PLYT, the number it stands for.

Actions:
  {"type": "draw", "source": "bag" | "discard"}
  {"type": "change", "sequence": <id>, "add": [entry, ...], "remove": [code, ...]}
  {"type": "lay", "kind": "simple" | "double" | "triple" | "match", "bugz": [entry, ...]}
  {"type": "discard", "bug": code}
  {"type": "bid"}, {"type": "decline"}    (bid window, 3 or more players)

A turn moves through phases: "draw" (step 1), then "play" (step 2 "change", step 3 "lay",
step 4 "discard"), then "discard" only, once a sequence was laid in a turn that began with
fewer than four kinds. A turn that began with all four kinds stays in "play" until the
discard (the final phase: any number of changes and lays of any kind). Replacements (step 5),
going out, bids and the next turn follow by themselves.

Where the rules (docs/rules/rumbugz.md) are silent this engine decides: a change must add at
least one Bug from the hand; the final phase's freedom starts with the turn after the fourth
kind is laid; "no Bug can be drawn" means the bag is empty and cannot be refilled (the discard
pile holds only its top, or the round's refills, a setting, are used up), checked when a turn
starts and whenever a Bug is owed from the bag; tied lowest hands each score the other hands;
rounds after the first are started by the next seat; equal leading totals at the end play
another round.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from games.core import JSON, Event, Game, GameError, Option, SeededRandom, action_type, is_int, shown
from games.rumbugz.bugz import (
    ALL_BUGZ,
    HIGHEST_NUMBER,
    KINDS,
    LOWEST_NUMBER,
    NUMBER_OF,
    Entry,
    bug_points,
    candidate_lays,
    changed_sequence,
    check_sequence,
    entry_order,
    hand_order,
    is_plyt,
    legal_changes,
    one_of_each,
)

HAND_SIZE = 6
REPLACEMENTS = 4
MIN_PLAYERS_FOR_BIDS = 3
DRAW_SOURCES = ("bag", "discard")
OPTIONAL_TYPES = frozenset({"change", "lay", "bid", "decline"})
TYPES_BY_PHASE = {
    "draw": frozenset({"draw"}),
    "play": frozenset({"change", "lay", "discard"}),
    "discard": frozenset({"discard"}),
}
BID_TYPES = frozenset({"bid", "decline"})


def _round_result_copy(result: Mapping[str, Any] | None) -> JSON | None:
    """A copy of ``last_round``: a flat mapping whose only mutable values are lists."""
    if result is None:
        return None
    return {key: list(value) if isinstance(value, list) else value for key, value in result.items()}


@dataclass
class TableSequence:
    id: int
    owner: int
    kind: str
    bugz: list[Entry]

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "owner": self.owner,
            "kind": self.kind,
            "bugz": [{"bug": code, "value": value} for code, value in self.bugz],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSequence:
        bugz = [(entry["bug"], entry["value"]) for entry in data["bugz"]]
        return cls(id=data["id"], owner=data["owner"], kind=data["kind"], bugz=bugz)


@dataclass
class BidWindow:
    """Open from a discard until the next player draws."""

    eligible: list[int]
    bidders: list[int] = field(default_factory=list)
    declined: list[int] = field(default_factory=list)

    def undecided(self) -> list[int]:
        return [seat for seat in self.eligible if seat not in self.bidders and seat not in self.declined]

    def to_json(self) -> JSON:
        return {
            "eligible": list(self.eligible),
            "bidders": list(self.bidders),
            "declined": list(self.declined),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BidWindow:
        return cls(
            eligible=list(data["eligible"]), bidders=list(data["bidders"]), declined=list(data["declined"])
        )


@dataclass
class RumBugz(Game):
    name = "rumbugz"
    min_players = 2
    max_players = 6
    # target 0: the match is "rounds" rounds; target > 0: rounds are played until a total
    # reaches the target (and "rounds" is ignored). refills: how many times a round may refill
    # the bag from the discard pile; a round whose players cannot go out would never end.
    options = (
        Option("rounds", 3, 1, 20),
        Option("target", 0, 0, 1000),
        Option("plyt_value", 15, 0, 50),
        Option("refills", 3, 1, 20),
    )

    players: int
    settings: dict[str, int]
    rng: SeededRandom
    totals_by_seat: list[int]
    removed: list[bool]
    round_number: int = 0
    starter: int = 0
    start_draw: list[JSON] = field(default_factory=list)
    bag: list[str] = field(default_factory=list)
    discard_pile: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    table: list[TableSequence] = field(default_factory=list)
    completed: list[list[str]] = field(default_factory=list)
    next_sequence_id: int = 1
    refills_done: int = 0
    turn: int = 0
    phase: str = "draw"
    laid_this_turn: bool = False
    bids: BidWindow | None = None
    last_round: JSON | None = None
    match_over: bool = False
    match_winner: int | None = None

    # ----------------------------------------------------------------- contract

    @classmethod
    def begin(cls, players: int, options: Mapping[str, int], seed: int) -> tuple[Self, list[Event]]:
        """A new match and the events of round 1: the starting draw and each seat's 6 Bugz."""
        cls.check_player_count(players)
        game = cls(
            players=players,
            settings=cls.resolve_options(options),
            rng=SeededRandom(seed),
            totals_by_seat=[0] * players,
            removed=[False] * players,
        )
        return game, game._start_round()

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        kind = action_type(seat, action)
        if self.match_over:
            raise GameError("rumbugz.error.match_over")
        if not self._is_playing(seat):
            raise GameError("rumbugz.error.not_playing")
        handlers = {
            "draw": self._draw,
            "change": self._change,
            "lay": self._lay,
            "discard": self._discard,
            "bid": self._bid,
            "decline": self._decline,
        }
        if kind not in handlers:
            raise GameError("rumbugz.error.unknown_action", action=shown(kind))
        return handlers[kind](seat, action)

    def to_act(self) -> dict[int, frozenset[str]]:
        """Action types the rules open now, per seat.

        Everyone sees these, so they never depend on a hidden hand: "change" and "lay" stay
        open through the play phase even when the hand makes none (``apply`` refuses it then,
        ``legal_actions`` lists none).
        """
        if self.match_over:
            return {}
        result = {self.turn: TYPES_BY_PHASE[self.phase]}
        for seat in self.bids.undecided() if self.bids is not None else []:
            result[seat] = BID_TYPES
        return result

    def optional_actions(self) -> dict[int, frozenset[str]]:
        """The part of ``to_act()`` a seat may take but need not.

        A seat whose open types are all optional (a possible bidder) has no timer and no
        reminder; its window simply closes when the next player draws. ``default_action``
        still answers for it ({"type": "decline"}) should an adapter time it out anyway.
        """
        return self._optional_part(self.to_act())

    @staticmethod
    def _optional_part(to_act: dict[int, frozenset[str]]) -> dict[int, frozenset[str]]:
        return {seat: types & OPTIONAL_TYPES for seat, types in to_act.items() if types & OPTIONAL_TYPES}

    def legal_actions(self, seat: int) -> list[JSON]:
        """Ready-made actions for menus: every draw, bid and discard (one per number), and one
        change or lay per distinct result (numbered Bugz preferred, a PLYT only for a gap)."""
        types = self.to_act().get(seat, frozenset())
        return [action for action_type in sorted(types) for action in self._legal_of_type(seat, action_type)]

    def turn_goes_on(self, seat: int) -> bool:
        """Laying, changing and discarding after the turn's draw."""
        return self.turn == seat and self.phase in ("play", "discard") and self.bids is None

    def default_action(self, seat: int) -> JSON:
        types = self.to_act().get(seat, frozenset())
        if "draw" in types:
            return {"type": "draw", "source": "bag"}
        if "discard" in types:
            points = self.settings["plyt_value"]
            highest = max(self.hands[seat], key=lambda code: (bug_points(code, points), hand_order(code)))
            return {"type": "discard", "bug": highest}
        if "decline" in types:
            return {"type": "decline"}
        raise GameError("rumbugz.error.not_your_turn")

    def remove_player(self, seat: int) -> list[Event]:
        if self.match_over:
            raise GameError("rumbugz.error.match_over")
        if not self._is_playing(seat):
            raise GameError("rumbugz.error.not_playing")
        events = [Event("rumbugz.event.player_removed", {"seat": seat})]
        self.removed[seat] = True
        self.set_aside.extend(self.hands[seat])
        self.hands[seat] = []
        if len(self._active_seats()) < self.min_players:
            self.match_over = True
            self.bids = None
            events.append(Event("rumbugz.event.no_result"))
        elif self.turn == seat:
            self._begin_turn(self._next_active(seat), None, events)
        elif self.bids is not None:
            if len(self._active_seats()) < MIN_PLAYERS_FOR_BIDS:
                self.bids = None
            else:
                for seats in (self.bids.eligible, self.bids.bidders, self.bids.declined):
                    if seat in seats:
                        seats.remove(seat)
        return events

    def hand(self, seat: int) -> object:
        return list(self.hands[seat])

    def view(self, seat: int | None) -> JSON:
        to_act = self.to_act()
        optional = self._optional_part(to_act)
        points = self.settings["plyt_value"]
        public: JSON = {
            "game": self.name,
            "seat": seat,
            "players": self.players,
            "options": dict(self.settings),
            "round": self.round_number,
            "totals": list(self.totals_by_seat),
            "removed": list(self.removed),
            "starter": self.starter,
            "start_draw": [dict(draw) for draw in self.start_draw],
            "turn": self.turn,
            "phase": self.phase,
            "laid_this_turn": self.laid_this_turn,
            "bag_count": len(self.bag),
            "refills_left": self.settings["refills"] - self.refills_done,
            "discard_top": self.discard_pile[-1] if self.discard_pile else None,
            "discard_count": len(self.discard_pile),
            "set_aside_count": len(self.set_aside),
            "hand_counts": [len(hand) for hand in self.hands],
            "completed": [list(kinds) for kinds in self.completed],
            "table": [sequence.to_json() for sequence in self.table],
            "bids": None if self.bids is None else self.bids.to_json(),
            "to_act": [sorted(to_act.get(other, ())) for other in range(self.players)],
            "optional": [sorted(optional.get(other, ())) for other in range(self.players)],
            "last_round": _round_result_copy(self.last_round),
            "finished": self.match_over,
            "winner": self.match_winner,
        }
        if seat is not None:
            public["hand"] = list(self.hands[seat])
            public["hand_value"] = sum(bug_points(code, points) for code in self.hands[seat])
        return public

    @property
    def finished(self) -> bool:
        return self.match_over

    def totals(self) -> list[int]:
        return list(self.totals_by_seat)

    def winner(self) -> int | None:
        return self.match_winner

    def to_json(self) -> JSON:
        return {
            "players": self.players,
            "settings": dict(self.settings),
            "rng": self.rng.to_json(),
            "totals": list(self.totals_by_seat),
            "removed": list(self.removed),
            "round_number": self.round_number,
            "starter": self.starter,
            "start_draw": [dict(draw) for draw in self.start_draw],
            "bag": list(self.bag),
            "discard_pile": list(self.discard_pile),
            "hands": [list(hand) for hand in self.hands],
            "set_aside": list(self.set_aside),
            "table": [sequence.to_json() for sequence in self.table],
            "completed": [list(kinds) for kinds in self.completed],
            "next_sequence_id": self.next_sequence_id,
            "refills_done": self.refills_done,
            "turn": self.turn,
            "phase": self.phase,
            "laid_this_turn": self.laid_this_turn,
            "bids": None if self.bids is None else self.bids.to_json(),
            "last_round": _round_result_copy(self.last_round),
            "match_over": self.match_over,
            "match_winner": self.match_winner,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(
            players=data["players"],
            settings=dict(data["settings"]),
            rng=SeededRandom.from_json(data["rng"]),
            totals_by_seat=list(data["totals"]),
            removed=list(data["removed"]),
            round_number=data["round_number"],
            starter=data["starter"],
            start_draw=[dict(draw) for draw in data["start_draw"]],
            bag=list(data["bag"]),
            discard_pile=list(data["discard_pile"]),
            hands=[list(hand) for hand in data["hands"]],
            set_aside=list(data["set_aside"]),
            table=[TableSequence.from_json(sequence) for sequence in data["table"]],
            completed=[list(kinds) for kinds in data["completed"]],
            next_sequence_id=data["next_sequence_id"],
            refills_done=data["refills_done"],
            turn=data["turn"],
            phase=data["phase"],
            laid_this_turn=data["laid_this_turn"],
            bids=None if data["bids"] is None else BidWindow.from_json(data["bids"]),
            last_round=_round_result_copy(data["last_round"]),
            match_over=data["match_over"],
            match_winner=data["match_winner"],
        )

    # ----------------------------------------------------------------- actions

    def _draw(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        self._require_turn(seat, ("draw",), "draw")
        source = action.get("source")
        if source not in DRAW_SOURCES:
            raise GameError("rumbugz.error.malformed", field="source")
        if source == "discard" and not self.discard_pile:
            raise GameError("rumbugz.error.discard_empty")
        events: list[Event] = []
        bids, self.bids = self.bids, None
        self.phase = "play"
        if source == "discard":
            code = self.discard_pile.pop()
            self._give(seat, [code])
            events.append(Event("rumbugz.event.took_discard", {"seat": seat, "bug": code}))
            if bids is not None and bids.bidders:
                events.append(Event("rumbugz.event.bids_lapsed", {"seat": seat}))
            return events
        if not self._draw_from_bag(seat, 1, events):
            return events
        if bids is not None and bids.bidders:
            bidder = next(other for other in self._seats_after(seat) if other in bids.bidders)
            code = self.discard_pile.pop()
            self._give(bidder, [code])
            events.append(Event("rumbugz.event.bid_won", {"seat": bidder, "bug": code}))
            self._draw_from_bag(bidder, 1, events)
        return events

    def _change(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        self._require_turn(seat, ("play",), "change")
        if not self.completed[seat]:
            raise GameError("rumbugz.error.change_needs_sequence")
        sequence_id = action.get("sequence")
        # Only an int names a sequence: 1.0 or True would equal id 1.
        found = (sequence for sequence in self.table if is_int(sequence_id) and sequence.id == sequence_id)
        sequence = next(found, None)
        if sequence is None:
            raise GameError("rumbugz.error.unknown_sequence", sequence=shown(sequence_id))
        added = self._parse_entries(action.get("add"), "add", self.hands[seat])
        on_table = [code for code, _ in sequence.bugz]
        removed = self._parse_codes(
            action.get("remove", []), "remove", on_table, "rumbugz.error.not_in_sequence"
        )
        sequence.bugz = changed_sequence(sequence.kind, sequence.bugz, added, removed)
        self._take(seat, [code for code, _ in added])
        self._give(seat, removed)
        events = [
            Event(
                "rumbugz.event.changed",
                {
                    "seat": seat,
                    "owner_seat": sequence.owner,
                    "sequence": sequence.id,
                    "added": [code for code, _ in added],
                    "removed": removed,
                },
            )
        ]
        if not self.hands[seat]:
            self._end_turn(seat, False, events)
        return events

    def _lay(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        self._require_turn(seat, ("play",), "lay")
        kind = action.get("kind")
        if kind not in KINDS:
            raise GameError("rumbugz.error.unknown_kind", kind=shown(kind))
        final_phase = len(self.completed[seat]) == len(KINDS)
        if not final_phase and kind in self.completed[seat]:
            raise GameError(f"rumbugz.error.kind_done.{kind}")
        entries = self._parse_entries(action.get("bugz"), "bugz", self.hands[seat])
        check_sequence(kind, entries)
        sequence = TableSequence(self.next_sequence_id, seat, kind, sorted(entries, key=entry_order))
        self.next_sequence_id += 1
        self.table.append(sequence)
        self._take(seat, [code for code, _ in entries])
        self.laid_this_turn = True
        events = [
            Event(
                f"rumbugz.event.laid.{kind}",
                {
                    "seat": seat,
                    "sequence": sequence.id,
                    "bugz": [code for code, _ in sequence.bugz],
                    "values": [value for _, value in sequence.bugz],
                },
            )
        ]
        if kind not in self.completed[seat]:
            self.completed[seat] = [done for done in KINDS if done in self.completed[seat] or done == kind]
            if len(self.completed[seat]) == len(KINDS):
                events.append(Event("rumbugz.event.all_kinds", {"seat": seat}))
        if not final_phase:
            self.phase = "discard"
        if not self.hands[seat]:
            self._end_turn(seat, False, events)
        return events

    def _discard(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        self._require_turn(seat, ("play", "discard"), "discard")
        [code] = self._parse_codes([action.get("bug")], "bug", self.hands[seat], "rumbugz.error.not_in_hand")
        self._take(seat, [code])
        self.discard_pile.append(code)
        events = [Event("rumbugz.event.discarded", {"seat": seat, "bug": code})]
        self._end_turn(seat, True, events)
        return events

    def _bid(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        bids = self._require_bid_window(seat)
        bids.bidders.append(seat)
        return [Event("rumbugz.event.bid", {"seat": seat})]

    def _decline(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        bids = self._require_bid_window(seat)
        bids.declined.append(seat)
        return [Event("rumbugz.event.declined", {"seat": seat})]

    # ----------------------------------------------------------------- checks

    def _require_turn(self, seat: int, phases: tuple[str, ...], action_type: str) -> None:
        if seat != self.turn:
            raise GameError("rumbugz.error.not_your_turn")
        if self.phase not in phases:
            raise GameError("rumbugz.error.wrong_step", action=action_type)

    def _require_bid_window(self, seat: int) -> BidWindow:
        if self.bids is None or seat not in self.bids.eligible:
            raise GameError("rumbugz.error.cannot_bid")
        if seat not in self.bids.undecided():
            raise GameError("rumbugz.error.already_answered")
        return self.bids

    @staticmethod
    def _parse_codes(raw: Any, field_name: str, owned: list[str], missing_error: str) -> list[str]:
        if not isinstance(raw, list):
            raise GameError("rumbugz.error.malformed", field=field_name)
        codes: list[str] = []
        for code in raw:
            if not isinstance(code, str) or code not in NUMBER_OF:
                raise GameError("rumbugz.error.unknown_bug", bug=shown(code))
            if code in codes:
                raise GameError("rumbugz.error.duplicate_bug", bug=code)
            if code not in owned:
                raise GameError(missing_error, bug=code)
            codes.append(code)
        return codes

    def _parse_entries(self, raw: Any, field_name: str, hand: list[str]) -> list[Entry]:
        if not isinstance(raw, list) or not all(isinstance(item, Mapping) for item in raw):
            raise GameError("rumbugz.error.malformed", field=field_name)
        codes = self._parse_codes(
            [item.get("bug") for item in raw], field_name, hand, "rumbugz.error.not_in_hand"
        )
        return [
            (code, self._declared_value(code, item.get("value")))
            for code, item in zip(codes, raw, strict=True)
        ]

    @staticmethod
    def _declared_value(code: str, value: Any) -> int:
        number = NUMBER_OF[code]
        if number is not None:
            if value is not None and (not is_int(value) or value != number):
                raise GameError("rumbugz.error.wrong_value", bug=code)
            return number
        if not is_int(value) or not LOWEST_NUMBER <= value <= HIGHEST_NUMBER:
            raise GameError(
                "rumbugz.error.plyt_value", bug=code, minimum=LOWEST_NUMBER, maximum=HIGHEST_NUMBER
            )
        return value

    # ----------------------------------------------------------------- legal actions

    def _legal_of_type(self, seat: int, action_type: str) -> Iterator[JSON]:
        if action_type == "draw":
            yield {"type": "draw", "source": "bag"}
            if self.discard_pile:
                yield {"type": "draw", "source": "discard"}
        elif action_type in ("bid", "decline"):
            yield {"type": action_type}
        elif action_type == "discard":
            for code in one_of_each(self.hands[seat]).values():
                yield {"type": "discard", "bug": code}
        elif action_type == "lay":
            yield from self._legal_lays(seat)
        else:
            yield from self._legal_changes(seat)

    def _kinds_to_lay(self, seat: int) -> tuple[str, ...]:
        """Every kind in the final phase, else the kinds not completed yet."""
        done = self.completed[seat]
        return KINDS if len(done) == len(KINDS) else tuple(kind for kind in KINDS if kind not in done)

    def _legal_lays(self, seat: int) -> Iterator[JSON]:
        for kind, entries in candidate_lays(self.hands[seat], self._kinds_to_lay(seat)):
            yield {
                "type": "lay",
                "kind": kind,
                "bugz": [self._action_entry(code, value) for code, value in entries],
            }

    def _legal_changes(self, seat: int) -> Iterator[JSON]:
        if not self.completed[seat]:
            return
        stand_ins = one_of_each(self.hands[seat])
        for sequence in self.table:
            for added, removed in legal_changes(sequence.kind, sequence.bugz, stand_ins):
                yield {
                    "type": "change",
                    "sequence": sequence.id,
                    "add": [self._action_entry(code, value) for code, value in added],
                    "remove": removed,
                }

    @staticmethod
    def _action_entry(code: str, value: int) -> JSON:
        return {"bug": code, "value": value} if is_plyt(code) else {"bug": code}

    # ----------------------------------------------------------------- flow

    def _start_round(self) -> list[Event]:
        self.round_number += 1
        events = [Event("rumbugz.event.round_started", {"round": self.round_number})]
        self.bag = list(ALL_BUGZ)
        self.discard_pile = []
        self.hands = [[] for _ in range(self.players)]
        self.set_aside = []
        self.table = []
        self.completed = [[] for _ in range(self.players)]
        self.next_sequence_id = 1
        self.refills_done = 0
        if self.round_number == 1:
            self.starter = self._starting_draw(events)
        else:
            self.start_draw = []
            self.starter = self._next_active(self.starter)
        events.append(Event("rumbugz.event.starter", {"seat": self.starter}))
        self.rng.shuffle(self.bag)
        for seat in [self.starter, *self._seats_after(self.starter)]:
            dealt = [self.bag.pop() for _ in range(HAND_SIZE)]
            self._give(seat, dealt)
            events.append(
                Event("rumbugz.event.dealt", {"seat": seat, "bugz": list(self.hands[seat])}, seats=(seat,))
            )
        self._begin_turn(self.starter, None, events)
        return events

    def _starting_draw(self, events: list[Event]) -> int:
        """Each draws a Bug; a PLYT draws again; players tied for the highest draw again."""
        self.start_draw = []
        contenders = self._active_seats()
        while True:
            bag = list(ALL_BUGZ)
            self.rng.shuffle(bag)
            numbers: dict[int, int] = {}
            for seat in contenders:
                while seat not in numbers:
                    number = NUMBER_OF[bag.pop()]
                    self.start_draw.append({"seat": seat, "number": number})
                    if number is None:
                        events.append(Event("rumbugz.event.start_draw_plyt", {"seat": seat}))
                    else:
                        events.append(Event("rumbugz.event.start_draw", {"seat": seat, "number": number}))
                        numbers[seat] = number
            highest = max(numbers.values())
            contenders = [seat for seat in contenders if numbers[seat] == highest]
            if len(contenders) == 1:
                return contenders[0]

    def _begin_turn(self, seat: int, discarder: int | None, events: list[Event]) -> None:
        self.turn = seat
        self.phase = "draw"
        self.laid_this_turn = False
        self.bids = None
        if discarder is not None and len(self._active_seats()) >= MIN_PLAYERS_FOR_BIDS:
            self.bids = BidWindow([other for other in self._seats_after(seat) if other != discarder])
        if not self.bag and not self._can_refill():
            self._end_round_exhausted(events)

    def _end_turn(self, seat: int, discarded: bool, events: list[Event]) -> None:
        all_kinds = len(self.completed[seat]) == len(KINDS)
        if self.laid_this_turn and not all_kinds and not self._draw_from_bag(seat, REPLACEMENTS, events):
            return
        if all_kinds and not self.hands[seat]:
            events.append(Event("rumbugz.event.went_out", {"seat": seat}))
            self._finish_round([seat], events)
            return
        self._begin_turn(self._next_active(seat), seat if discarded else None, events)

    def _draw_from_bag(self, seat: int, count: int, events: list[Event]) -> bool:
        """Draw ``count`` Bugz, refilling the bag when it runs out; False if the round ended instead."""
        drawn: list[str] = []
        while len(drawn) < count:
            if not self.bag:
                if not self._can_refill():
                    break
                self.refills_done += 1
                self.bag, self.discard_pile = self.discard_pile[:-1], self.discard_pile[-1:]
                self.rng.shuffle(self.bag)
                events.append(
                    Event(
                        "rumbugz.event.bag_refilled",
                        {"count": len(self.bag), "left": self.settings["refills"] - self.refills_done},
                    )
                )
            drawn.append(self.bag.pop())
        self._give(seat, drawn)
        if drawn:
            events.append(Event("rumbugz.event.drew_bag", {"seat": seat, "count": len(drawn)}))
            events.append(
                Event("rumbugz.event.drew_bag_private", {"seat": seat, "bugz": drawn}, seats=(seat,))
            )
        if len(drawn) < count:
            self._end_round_exhausted(events)
            return False
        return True

    def _can_refill(self) -> bool:
        return len(self.discard_pile) > 1 and self.refills_done < self.settings["refills"]

    def _end_round_exhausted(self, events: list[Event]) -> None:
        events.append(Event("rumbugz.event.bag_exhausted"))
        values = {seat: self._hand_value(seat) for seat in self._active_seats()}
        lowest = min(values.values())
        self._finish_round([seat for seat, value in values.items() if value == lowest], events)

    def _finish_round(self, winners: list[int], events: list[Event]) -> None:
        """Score the round (shared equally by tied winners), then deal the next or end the match."""
        values = {seat: self._hand_value(seat) for seat in self._active_seats()}
        points = sum(value for seat, value in values.items() if seat not in winners)
        for seat in winners:
            self.totals_by_seat[seat] += points
            events.append(
                Event("rumbugz.event.round_won", {"seat": seat, "points": points, "round": self.round_number})
            )
        for seat, value in values.items():
            if seat not in winners:
                events.append(Event("rumbugz.event.hand_left", {"seat": seat, "points": value}))
        self.last_round = {
            "round": self.round_number,
            "winners": winners,
            "points": points,
            "hand_values": [values.get(seat) for seat in range(self.players)],
        }
        self.bids = None
        if self._match_complete():
            totals = {seat: self.totals_by_seat[seat] for seat in self._active_seats()}
            best = max(totals.values())
            leaders = [seat for seat, total in totals.items() if total == best]
            if len(leaders) == 1:
                self.match_over = True
                self.match_winner = leaders[0]
                events.append(Event("rumbugz.event.match_won", {"seat": leaders[0], "points": best}))
                return
            events.append(Event("rumbugz.event.tie_break"))
        events.extend(self._start_round())

    def _match_complete(self) -> bool:
        target = self.settings["target"]
        if target:
            return max(self.totals_by_seat[seat] for seat in self._active_seats()) >= target
        return self.round_number >= self.settings["rounds"]

    # ----------------------------------------------------------------- helpers

    def _is_playing(self, seat: Any) -> bool:
        return type(seat) is int and 0 <= seat < self.players and not self.removed[seat]

    def _active_seats(self) -> list[int]:
        return [seat for seat in range(self.players) if not self.removed[seat]]

    def _next_active(self, seat: int) -> int:
        return self._seats_after(seat)[0]

    def _seats_after(self, seat: int) -> list[int]:
        """Active seats in turn order after ``seat``, not including it."""
        order = [(seat + offset) % self.players for offset in range(1, self.players)]
        return [other for other in order if not self.removed[other]]

    def _hand_value(self, seat: int) -> int:
        return sum(bug_points(code, self.settings["plyt_value"]) for code in self.hands[seat])

    def _give(self, seat: int, codes: list[str]) -> None:
        self.hands[seat] = sorted(self.hands[seat] + codes, key=hand_order)

    def _take(self, seat: int, codes: list[str]) -> None:
        self.hands[seat] = [code for code in self.hands[seat] if code not in codes]
