"""Serie Bum!: a two-player match of manches to a points target (docs/rules/seriebum.md).

Codes in views, actions and events:
- tile: "R30" (colour R red, Y yellow, W white, B light blue; value 10..70), "JOLLY1", "RUBA2",
  "BUM3" (see ``tiles.py``).
- cell: column A-G and row 1-5, e.g. "C3". "A1..G5 order" is reading order (A1, B1, ..., G1, A2, ...).
- series: 0-based index in the owner's list of series.
- choice id: an opaque string listed in the view and in ``legal_actions``; send it back unchanged.
  Placements read "<tile>><series>[@low|@high]" joined by commas ("R40>0@high,R50>0@high"), or
  "new" for a new series; a BUM! choice reads "<series>:<survivor>+<survivor>" ("1:R20+R30").

Actions (JSON):
- ``{"type": "flip", "cell": "C3"}``: turn a face-down tile up; one action per tile.
- ``{"type": "move", "option": id}``: before flipping, or after taking tiles, move one tile between
  one's own series or empty one series into the others.
- ``{"type": "end_turn"}``: after taking tiles, stop moving.
- ``{"type": "place", "option": id}``: where taken tiles go, when there is more than one way.
- ``{"type": "steal", "option": id}``: which tile RUBA takes, and where it goes.
- ``{"type": "bum", "option": id}``: the opponent of a BUM!'s flipper picks the series and its
  two surviving tiles.

Memory: a tile flipped and covered again stays visible ("seen") to everyone until the next
player flips their first tile. Nothing in the state keeps a log, so no view or later event can
repeat a covered tile.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from games.core import JSON, Event, Game, GameError, Option, SeededRandom, action_type, shown
from games.seriebum.series import (
    Blast,
    Choice,
    Layout,
    Series,
    Steal,
    Step,
    blast_choices,
    board_can_still_give,
    has_moves,
    layout_points,
    move_choices,
    series_points,
    single_choices,
    steal_choices,
    take_choices,
    tile_points,
)
from games.seriebum.tiles import (
    CELL_INDEX,
    CELLS,
    COLUMNS,
    JOLLY,
    ROWS,
    RUBA,
    TILE_COUNT,
    TILE_ID,
    code_of,
    codes,
    is_number,
    kind_of,
)

PLAYERS = 2

FLIP = "flip"  # the turn starts: flip a first tile, or move tiles first
FLIP_SECOND = "flip_second"
PLACE = "place"
STEAL = "steal"
BUM_CHOICE = "bum"
REARRANGE = "rearrange"  # tiles were taken: move tiles or end the turn
OVER = "over"

PHASE_ACTIONS = {
    FLIP: frozenset({"flip"}),
    FLIP_SECOND: frozenset({"flip"}),
    PLACE: frozenset({"place"}),
    STEAL: frozenset({"steal"}),
    BUM_CHOICE: frozenset({"bum"}),
    REARRANGE: frozenset({"end_turn"}),
}
MOVING_PHASES = (FLIP, REARRANGE)


def _event(name: str, **params: Any) -> Event:
    return Event(f"seriebum.event.{name}", params)


def _error(name: str, **params: Any) -> GameError:
    return GameError(f"seriebum.error.{name}", **params)


def _step_json(step: Step) -> JSON:
    return {"tile": code_of(step.tile), "series": step.series, "end": step.end}


def _series_json(series: Series) -> JSON:
    return {"kind": series.kind, "tiles": codes(series.tiles)}


def _series_from_json(data: Mapping[str, Any]) -> Series:
    return Series(data["kind"], tuple(TILE_ID[code] for code in data["tiles"]))


@dataclass
class SerieBum(Game):
    name: ClassVar[str] = "seriebum"
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    options: ClassVar[tuple[Option, ...]] = (Option("target", 1000, 10, 10000),)

    target: int
    rng: SeededRandom
    manche: int = 0
    first_seat: int = 0
    turn: int = 0
    phase: str = FLIP
    board: list[int | None] = field(default_factory=list)  # tile per cell index, None once gone
    face_up: list[int] = field(default_factory=list)  # cells flipped this turn, in flip order
    seen: list[int] = field(default_factory=list)  # cells covered again, visible until the next first flip
    layouts: list[Layout] = field(default_factory=lambda: [(), ()])
    out: list[int] = field(default_factory=list)  # tiles out of the game this manche
    points: list[int] = field(default_factory=lambda: [0, 0])
    manche_scores: list[list[int]] = field(default_factory=list)
    left: int | None = None  # the seat that left; the match then ends with no result
    result: int | None = None

    # ------------------------------------------------------------------ creation

    @classmethod
    def begin(cls, players: int, options: Mapping[str, int], seed: int) -> tuple[Self, list[Event]]:
        """A new match and its first "manche started" event (who flips first)."""
        cls.check_player_count(players)
        game = cls(target=cls.resolve_options(options)["target"], rng=SeededRandom(seed))
        return game, game._deal(game.rng.randrange(PLAYERS))

    def _deal(self, first_seat: int) -> list[Event]:
        self.manche += 1
        self.first_seat = self.turn = first_seat
        self.phase = FLIP
        tiles: list[int | None] = list(range(TILE_COUNT))
        self.rng.shuffle(tiles)
        self.board = tiles
        self.face_up, self.seen, self.out = [], [], []
        self.layouts = [(), ()]
        return [_event("manche_started", manche=self.manche, seat=first_seat)]

    # ------------------------------------------------------------------ queries

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    def totals(self) -> list[int]:
        return list(self.points)

    def winner(self) -> int | None:
        return self.result

    def face_down_cells(self) -> list[int]:
        """Cells holding a covered tile, in A1..G5 order."""
        return [cell for cell, tile in enumerate(self.board) if tile is not None and cell not in self.face_up]

    def tiles_on_board(self) -> list[int]:
        return [tile for tile in self.board if tile is not None]

    def _opponent(self) -> int:
        return 1 - self.turn

    def _moves(self) -> tuple[Choice, ...]:
        return move_choices(self.layouts[self.turn]) if self.phase in MOVING_PHASES else ()

    def _may_move(self) -> bool:
        return self.phase in MOVING_PHASES and has_moves(self.layouts[self.turn])

    def to_act(self) -> dict[int, frozenset[str]]:
        if self.phase == OVER:
            return {}
        actions = PHASE_ACTIONS[self.phase]
        if self._may_move():
            actions |= {"move"}
        return {self._opponent() if self.phase == BUM_CHOICE else self.turn: actions}

    def _face_up_tiles(self) -> list[int]:
        return [tile for cell in self.face_up if (tile := self.board[cell]) is not None]

    def placement_choices(self) -> list[Choice]:
        """Ways to place the tiles face up now (a taken pair, a jolly, the last tile)."""
        tiles = self._face_up_tiles()
        layout = self.layouts[self.turn]
        if len(tiles) == 2:
            return take_choices(layout, tiles[0], tiles[1])
        return single_choices(layout, tiles[0])

    def steal_options(self) -> list[Steal]:
        return steal_choices(self.layouts[self.turn], self.layouts[self._opponent()])

    def blast_options(self) -> list[Blast]:
        return blast_choices(self.layouts[self.turn])

    def _pending_ids(self) -> list[str]:
        if self.phase == PLACE:
            return [choice.id for choice in self.placement_choices()]
        if self.phase == STEAL:
            return [steal.id for steal in self.steal_options()]
        if self.phase == BUM_CHOICE:
            return [blast.id for blast in self.blast_options()]
        return []

    def legal_actions(self, seat: int) -> list[JSON]:
        """Every action ``seat`` may send now, for menus and bots (empty when it may do nothing)."""
        open_types = self.to_act().get(seat, frozenset())
        actions: list[JSON] = []
        if "flip" in open_types:
            actions += [{"type": "flip", "cell": CELLS[cell]} for cell in self.face_down_cells()]
        for kind in ("place", "steal", "bum"):
            if kind in open_types:
                actions += [{"type": kind, "option": option} for option in self._pending_ids()]
        if "move" in open_types:
            actions += [{"type": "move", "option": choice.id} for choice in self._moves()]
        if "end_turn" in open_types:
            actions.append({"type": "end_turn"})
        return actions

    def turn_goes_on(self, seat: int) -> bool:
        """The second flip, placing or stealing what was taken, and what follows a take."""
        return self.turn == seat and self.phase in (FLIP_SECOND, PLACE, STEAL, REARRANGE)

    def default_action(self, seat: int) -> JSON:
        """Flip the first face-down tile in A1..G5 order; the first placement; the most valuable
        steal; the BUM! choice removing the most points; end the turn when only moves are left."""
        open_types = self.to_act().get(seat)
        if open_types is None:
            raise _error("not_your_turn")
        if "flip" in open_types:
            return {"type": "flip", "cell": CELLS[self.face_down_cells()[0]]}
        if self.phase == PLACE:
            return {"type": "place", "option": self.placement_choices()[0].id}
        if self.phase == STEAL:
            best = max(self.steal_options(), key=lambda steal: tile_points(steal.tile))
            return {"type": "steal", "option": best.id}
        if self.phase == BUM_CHOICE:
            worst = max(self.blast_options(), key=lambda blast: (blast.points_lost, blast.value_removed))
            return {"type": "bum", "option": worst.id}
        return {"type": "end_turn"}

    # ------------------------------------------------------------------ actions

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        kind = action_type(seat, action)
        if self.phase == OVER:
            raise _error("match_over")
        open_types = self.to_act().get(seat)
        if open_types is None:
            raise _error("not_your_turn")
        handlers: dict[str, Callable[[Mapping[str, Any]], list[Event]]] = {
            "flip": self._flip,
            "move": self._move,
            "end_turn": lambda _: self._end_turn(),
            "place": self._place_chosen,
            "steal": self._steal_chosen,
            "bum": self._bum_chosen,
        }
        if kind not in handlers:
            raise _error("unknown_action", action=shown(kind))
        if kind not in open_types:
            raise _error("not_now", action=str(kind))
        return handlers[kind](action)

    def _option(self, action: Mapping[str, Any], ids: list[str]) -> int:
        option = action.get("option")
        if option not in ids:
            raise _error("unknown_option", option=shown(option))
        return ids.index(option)

    def _flip(self, action: Mapping[str, Any]) -> list[Event]:
        cell = action.get("cell")
        index = CELL_INDEX.get(cell) if isinstance(cell, str) else None
        if index is None:
            raise _error("bad_cell", cell=shown(cell))
        tile = self.board[index]
        if tile is None or index in self.face_up:
            raise _error("not_face_down", cell=cell)
        seat = self.turn
        first = self.face_up[0] if self.face_up else None
        if first is None:
            self.seen = []  # memory fades when the next player flips their first tile
        self.face_up.append(index)
        events = [_event("flipped", seat=seat, cell=cell, tile=code_of(tile))]
        # Every tile left is face up: this is the last single tile or the last two.
        closing = not self.face_down_cells()
        if not is_number(tile):
            return events + self._special(tile, closing)
        if first is None and not closing:
            self.phase = FLIP_SECOND
            return events
        choices = self.placement_choices()
        if choices:
            return events + self._offer_placement(choices)
        if closing:
            return events + self._discard_face_up()
        # Two flipped tiles that cannot be taken (``first`` is set: a lone tile is always closing).
        events.append(_event("not_taken", seat=seat, cell=CELLS[self.face_up[0]], other_cell=cell))
        return events + self._cover_face_up()

    def _special(self, tile: int, closing: bool) -> list[Event]:
        kind = kind_of(tile)
        if kind == RUBA:
            # RUBA leaves the game whatever happens; a first tile flipped before it is covered again.
            events = self._cover_first()
            self.out += self._lift_face_up()
            return events + self._offer_steal()
        if kind == JOLLY:
            choices = single_choices(self.layouts[self.turn], tile)
            if not choices:
                return self._special_unused("jolly_unusable", closing)
            return self._cover_first() + self._offer_placement(choices)
        blasts = self.blast_options()
        if not blasts:
            return self._special_unused("bum_harmless", closing)
        # A series of three or more always leaves at least two surviving pairs: a real choice.
        self.phase = BUM_CHOICE
        return [*self._cover_first(), _event("bum_choose", seat=self._opponent(), victim_seat=self.turn)]

    def _special_unused(self, name: str, closing: bool) -> list[Event]:
        """A JOLLY or BUM! with nothing to act on is covered again, or discarded if nothing else is left."""
        if closing:
            return self._discard_face_up()
        return [_event(name, seat=self.turn), *self._cover_face_up()]

    def _cover_first(self) -> list[Event]:
        """A special came second: the first tile is covered again (and stays seen)."""
        if len(self.face_up) < 2:
            return []
        first = self.face_up.pop(0)
        self.seen.append(first)
        return [_event("first_covered", seat=self.turn, cell=CELLS[first])]

    def _cover_face_up(self) -> list[Event]:
        self.seen += self.face_up
        self.face_up = []
        return self._end_turn()

    def _lift_face_up(self) -> list[int]:
        """Take the face-up tiles off the board: taken, spent or discarded."""
        tiles = self._face_up_tiles()
        for cell in self.face_up:
            self.board[cell] = None
        self.face_up = []
        return tiles

    def _discard_face_up(self) -> list[Event]:
        tiles = self._lift_face_up()
        self.out += tiles
        return [_event("discarded", seat=self.turn, tiles=codes(tiles)), *self._end_turn()]

    def _offer_placement(self, choices: list[Choice]) -> list[Event]:
        if len(choices) == 1:
            return self._place(choices[0])
        self.phase = PLACE
        return [_event("choose_placement", seat=self.turn, ways=len(choices))]

    def _place_chosen(self, action: Mapping[str, Any]) -> list[Event]:
        choices = self.placement_choices()
        return self._place(choices[self._option(action, [choice.id for choice in choices])])

    def _place(self, choice: Choice) -> list[Event]:
        placed = codes(self._lift_face_up())
        self.layouts[self.turn] = choice.result
        if len(placed) == 2:
            name = "pair_started" if choice.new_series else "pair_joined"
            event = _event(name, seat=self.turn, tile=placed[0], other_tile=placed[1])
        else:
            event = _event("tile_placed", seat=self.turn, tile=placed[0])
        return [event, *self._after_take()]

    def _offer_steal(self) -> list[Event]:
        steals = self.steal_options()
        if not steals:
            return [_event("ruba_empty", seat=self.turn), *self._end_turn()]
        if len(steals) == 1:
            return self._steal(steals[0])
        self.phase = STEAL
        return [_event("choose_steal", seat=self.turn, ways=len(steals))]

    def _steal_chosen(self, action: Mapping[str, Any]) -> list[Event]:
        steals = self.steal_options()
        return self._steal(steals[self._option(action, [steal.id for steal in steals])])

    def _steal(self, steal: Steal) -> list[Event]:
        victim = self._opponent()
        self.layouts[self.turn] = steal.thief_result
        self.layouts[victim] = steal.victim_result
        event = _event("stolen", seat=self.turn, victim_seat=victim, tile=code_of(steal.tile))
        return [event, *self._after_take()]

    def _bum_chosen(self, action: Mapping[str, Any]) -> list[Event]:
        blasts = self.blast_options()
        return self._explode(blasts[self._option(action, [blast.id for blast in blasts])])

    def _explode(self, blast: Blast) -> list[Event]:
        self.out += [*blast.removed, *self._lift_face_up()]
        self.layouts[self.turn] = blast.result
        event = _event(
            "exploded",
            seat=self.turn,
            chooser_seat=self._opponent(),
            removed=codes(blast.removed),
            survivors=codes(blast.survivors),
        )
        return [event, *self._end_turn()]

    def _move(self, action: Mapping[str, Any]) -> list[Event]:
        moves = self._moves()
        move = moves[self._option(action, [choice.id for choice in moves])]
        emptied = len(move.result) < len(self.layouts[self.turn])
        self.layouts[self.turn] = move.result
        tiles = codes([step.tile for step in move.steps])
        if emptied:
            return [_event("series_emptied", seat=self.turn, tiles=tiles)]
        return [_event("tile_moved", seat=self.turn, tile=tiles[0])]

    def _after_take(self) -> list[Event]:
        if has_moves(self.layouts[self.turn]):
            self.phase = REARRANGE
            return []
        return self._end_turn()

    def _end_turn(self) -> list[Event]:
        board = self.tiles_on_board()
        if not board:
            return self._end_manche()
        if not board_can_still_give(tuple(sorted(board)), tuple(self.layouts)):
            self.out += board
            self.board = [None] * TILE_COUNT
            self.seen = []
            return [_event("board_dead", count=len(board)), *self._end_manche()]
        self.turn = self._opponent()
        self.phase = FLIP
        return [_event("turn", seat=self.turn)]

    def _end_manche(self) -> list[Event]:
        scores = [layout_points(layout) for layout in self.layouts]
        self.points = [total + score for total, score in zip(self.points, scores, strict=True)]
        self.manche_scores.append(scores)
        events = [
            _event("manche_scored", seat=seat, points=scores[seat], total=self.points[seat])
            for seat in range(PLAYERS)
        ]
        best = max(self.points)
        if best >= self.target and self.points.count(best) == 1:
            self.result = self.points.index(best)
            self.phase = OVER
            return [*events, _event("match_won", seat=self.result, total=best)]
        if best >= self.target:
            events.append(_event("tie_extra_manche", total=best))
        return events + self._deal(1 - self.first_seat)

    # ------------------------------------------------------------------ leaving

    def remove_player(self, seat: int) -> list[Event]:
        if self.phase == OVER:
            raise _error("match_over")
        if seat not in range(PLAYERS):
            raise _error("not_a_player")
        # The leaver's series are set aside; one player is too few, so the match has no result.
        self.out += [tile for series in self.layouts[seat] for tile in series.tiles]
        self.layouts[seat] = ()
        self.left = seat
        self.phase = OVER
        return [_event("player_left", seat=seat), _event("match_abandoned")]

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> JSON:
        """The table as ``seat`` sees it (everything is public but covered tiles).

        ``cells``: 35 entries in A1..G5 order, ``{"cell", "state", "tile"}`` with state "down"
        (tile None), "seen" (covered again, still remembered), "up" (flipped this turn) or
        "empty". ``players``: per seat its series (kind "run"/"set", tile codes low to high,
        points), this manche's points and the match total. ``pending``: the open choice
        (place/steal/bum), who makes it and its options. ``moves``: the moves open to the player
        in turn. ``actions``: ``legal_actions(seat)``, empty for the public view.
        """
        return {
            "game": self.name,
            "me": seat,
            "target": self.target,
            "totals": list(self.points),
            "manche": self.manche,
            "manche_scores": [list(scores) for scores in self.manche_scores],
            "first_seat": self.first_seat,
            "turn": None if self.phase == OVER else self.turn,
            "phase": self.phase,
            "to_act": [
                {"seat": who, "actions": sorted(types)} for who, types in sorted(self.to_act().items())
            ],
            "columns": COLUMNS,
            "rows": ROWS,
            "cells": [self._cell_view(cell) for cell in range(TILE_COUNT)],
            "face_down": len(self.face_down_cells()),
            "out_of_game": len(self.out),
            "players": [self._player_view(who) for who in range(PLAYERS)],
            "pending": self._pending_view(),
            "moves": [self._move_view(move) for move in self._moves()],
            "actions": self.legal_actions(seat) if seat is not None else [],
            "finished": self.finished,
            "winner": self.result,
            "left_seat": self.left,
        }

    def _cell_view(self, cell: int) -> JSON:
        tile = self.board[cell]
        if tile is None:
            state, shown = "empty", None
        elif cell in self.face_up:
            state, shown = "up", code_of(tile)
        elif cell in self.seen:
            state, shown = "seen", code_of(tile)
        else:
            state, shown = "down", None
        return {"cell": CELLS[cell], "state": state, "tile": shown}

    def _player_view(self, seat: int) -> JSON:
        layout = self.layouts[seat]
        return {
            "seat": seat,
            "total": self.points[seat],
            "manche_points": layout_points(layout),
            "series": [{**_series_json(series), "points": series_points(series)} for series in layout],
        }

    def _pending_view(self) -> JSON | None:
        if self.phase == PLACE:
            options: list[JSON] = [
                {
                    "id": choice.id,
                    "new_series": choice.new_series,
                    "steps": [_step_json(s) for s in choice.steps],
                }
                for choice in self.placement_choices()
            ]
        elif self.phase == STEAL:
            options = [
                {
                    "id": steal.id,
                    "tile": code_of(steal.tile),
                    "from_series": steal.victim_series,
                    "to_series": steal.step.series,
                    "end": steal.step.end,
                }
                for steal in self.steal_options()
            ]
        elif self.phase == BUM_CHOICE:
            options = [
                {
                    "id": blast.id,
                    "series": blast.series,
                    "survivors": codes(blast.survivors),
                    "removed": codes(blast.removed),
                    "points_lost": blast.points_lost,
                }
                for blast in self.blast_options()
            ]
        else:
            return None
        decider = self.to_act()
        (seat,) = decider
        return {"type": self.phase, "seat": seat, "owner_seat": self.turn, "options": options}

    @staticmethod
    def _move_view(move: Choice) -> JSON:
        return {"id": move.id, "from_series": move.source, "steps": [_step_json(step) for step in move.steps]}

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> JSON:
        return {
            "target": self.target,
            "rng": self.rng.to_json(),
            "manche": self.manche,
            "first_seat": self.first_seat,
            "turn": self.turn,
            "phase": self.phase,
            "board": [None if tile is None else code_of(tile) for tile in self.board],
            "face_up": [CELLS[cell] for cell in self.face_up],
            "seen": [CELLS[cell] for cell in self.seen],
            "layouts": [[_series_json(series) for series in layout] for layout in self.layouts],
            "out": codes(self.out),
            "points": list(self.points),
            "manche_scores": [list(scores) for scores in self.manche_scores],
            "left": self.left,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(
            target=data["target"],
            rng=SeededRandom.from_json(data["rng"]),
            manche=data["manche"],
            first_seat=data["first_seat"],
            turn=data["turn"],
            phase=data["phase"],
            board=[None if code is None else TILE_ID[code] for code in data["board"]],
            face_up=[CELL_INDEX[cell] for cell in data["face_up"]],
            seen=[CELL_INDEX[cell] for cell in data["seen"]],
            layouts=[tuple(_series_from_json(series) for series in layout) for layout in data["layouts"]],
            out=[TILE_ID[code] for code in data["out"]],
            points=list(data["points"]),
            manche_scores=[list(scores) for scores in data["manche_scores"]],
            left=data["left"],
            result=data["result"],
        )
