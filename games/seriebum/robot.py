"""Serie Bum!'s computer player, and the uniformly random baseline of the arena.

The robot sees what its seat sees: the view, and the tiles it watched being flipped, which it
keeps in ``memory`` because the view forgets a covered tile once the next player flips.

- ``easy`` forgets some covered tiles (seeded), takes the pairs it remembers, otherwise flips
  at random; it takes the placement with the most points and the steal and BUM! choice of the
  referee's default.
- ``hard`` remembers every tile and plays an expectimax over its own turn: each first and
  second flip is scored by what it takes (a layout value: points, a share of a pair's
  points, the tiles still able to join, the exposure to BUM!), by the chance of a BUM! among
  the unknown tiles, and by what the tiles it leaves known would give the opponent next turn.
  Flipping two known tiles that take nothing is how it stops flipping when uncovering is too
  risky; after a few turns in a row that change nothing it must uncover, so matches end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from statistics import fmean

from games.core import JSON, Event, SeededRandom
from games.robots import Robot
from games.seriebum.series import (
    RUN,
    SET_SIZE,
    Layout,
    Series,
    blast_choices,
    layout_points,
    move_choices,
    series_points,
    single_choices,
    steal_choices,
    take_choices,
    tile_points,
)
from games.seriebum.tiles import (
    BUM,
    COLOURS,
    JOLLY,
    NUMBER,
    RUBA,
    TILE_COUNT,
    TILE_ID,
    TILES,
    VALUE_STEP,
    VALUES,
    is_number,
    kind_of,
)

# Layout value (hard): a pair scores nothing yet, but this share of its points is likely to come.
PAIR_SHARE = 0.3
# Each tile still on the board that could join a series: a future take made easier.
OUT_VALUE = 3.0
# Per BUM! left on the board: the share of the worst blast the robot expects to suffer.
BUM_EXPOSURE = 0.2
# How much of what the opponent can take next turn, from tiles left known, counts against a flip.
THREAT_SHARE = 0.7
# A move before flipping or after taking must gain at least this much, so moves never cycle.
MOVE_MARGIN = 0.5
# After this many turns in a row that uncovered and removed nothing, the hard robot must uncover.
STALL_LIMIT = 2
# After this many, any legal action (moves included) at random, at either level: a last way out
# of a standstill.
STALL_ESCAPE = 30
PASS_PENALTY = -10_000.0
# Easy: the chance (percent) of forgetting a tile when it is covered for good.
FORGET_PERCENT = 40

_EVENT = "seriebum.event."
FLIPPED = _EVENT + "flipped"
EXPLODED = _EVENT + "exploded"
DISCARDED = _EVENT + "discarded"
TURN_EVENTS = (_EVENT + "turn", _EVENT + "manche_started")
VISIBLE = ("up", "seen")


def random_action(view: JSON, random: SeededRandom) -> JSON:
    """A uniformly random legal action: the arena's baseline player."""
    actions = view["actions"]
    return actions[random.randrange(len(actions))]


def _layout(series: Iterable[JSON]) -> Layout:
    return tuple(Series(item["kind"], tuple(TILE_ID[code] for code in item["tiles"])) for item in series)


def _series_tiles(view: JSON) -> set[int]:
    return {
        TILE_ID[code] for player in view["players"] for item in player["series"] for code in item["tiles"]
    }


def _option_ids(view: JSON, kind: str) -> list[str]:
    return [action["option"] for action in view["actions"] if action["type"] == kind]


def _flip_action(cell: str) -> JSON:
    return {"type": "flip", "cell": cell}


class Knowledge:
    """What the seat knows now: its view plus the covered tiles it remembers."""

    def __init__(self, view: JSON, memory: JSON) -> None:
        me = view["me"]
        self.mine = _layout(view["players"][me]["series"])
        self.theirs = _layout(view["players"][1 - me]["series"])
        current = memory.get("manche") == view["manche"]
        remembered: dict[str, str] = memory.get("cells", {}) if current else {}
        gone = {TILE_ID[code] for code in memory.get("gone", [])} if current else set()
        self.up: dict[str, int] = {}
        self.known: dict[str, int] = {}  # covered tiles the seat can name
        self.unknown: list[str] = []
        for cell in view["cells"]:
            name, state = cell["cell"], cell["state"]
            if state == "up":
                self.up[name] = TILE_ID[cell["tile"]]
            elif state == "seen":
                self.known[name] = TILE_ID[cell["tile"]]
            elif state == "down" and name in remembered:
                self.known[name] = TILE_ID[remembered[name]]
            elif state == "down":
                self.unknown.append(name)
        named = _series_tiles(view) | set(self.known.values()) | set(self.up.values()) | gone
        # Tiles that may lie under the unknown cells, all equally likely anywhere.
        self.pool = [tile for tile in range(TILE_COUNT) if tile not in named]

    def takes(self, layout: Layout, first: int, second: int) -> bool:
        return is_number(first) and is_number(second) and bool(take_choices(layout, first, second))


class Judge:
    """Scores a layout for the rest of the manche, given the tiles still on the board."""

    def __init__(self, available: Iterable[int], bums: int) -> None:
        tiles = [TILES[tile] for tile in available]
        self.numbers = {(tile.colour, tile.value) for tile in tiles if tile.kind == NUMBER}
        self.jolly = any(tile.kind == JOLLY for tile in tiles)
        self.bums = bums
        self._series: dict[Series, float] = {}
        self._blast: dict[Series, float] = {}
        self._layouts: dict[Layout, float] = {}

    def series_value(self, series: Series) -> float:
        if series not in self._series:
            outs = self.outs(series)
            if len(series.tiles) >= 3:
                base = float(series_points(series))
            else:
                base = PAIR_SHARE * sum(tile_points(tile) for tile in series.tiles) if outs else 0.0
            self._series[series] = base + OUT_VALUE * outs
        return self._series[series]

    def outs(self, series: Series) -> int:
        """How many tiles still on the board could join ``series`` now."""
        faces = [TILES[tile] for tile in series.tiles]
        numbered = [face for face in faces if face.kind == NUMBER]
        room = len(faces) < SET_SIZE
        if series.kind == RUN:
            start = numbered[0].value - VALUE_STEP * faces.index(numbered[0])
            ends = (start - VALUE_STEP, start + VALUE_STEP * len(faces))
            room = ends[0] >= VALUES[0] or ends[1] <= VALUES[-1]
            fits = sum((numbered[0].colour, value) in self.numbers for value in ends)
        else:
            colours = {face.colour for face in numbered}
            value = numbered[0].value
            fits = (
                sum((colour, value) in self.numbers for colour in COLOURS if colour not in colours)
                if room
                else 0
            )
        jolly = room and self.jolly and len(numbered) == len(faces)
        return fits + jolly

    def blast_loss(self, series: Series) -> float:
        """What the worst BUM! on this series costs (the opponent picks the survivors)."""
        if series not in self._blast:
            survivors = [blast.result[0] for blast in blast_choices((series,))]
            worst = min((self.series_value(pair) for pair in survivors), default=self.series_value(series))
            self._blast[series] = self.series_value(series) - worst
        return self._blast[series]

    def value(self, layout: Layout) -> float:
        if layout not in self._layouts:
            total = sum(self.series_value(series) for series in layout)
            if self.bums:
                total -= BUM_EXPOSURE * self.bums * max((self.blast_loss(s) for s in layout), default=0.0)
            self._layouts[layout] = total
        return self._layouts[layout]


class Planner:
    """One hard decision: the values of flips, placements, steals, blasts and moves."""

    def __init__(self, knowledge: Knowledge, forced: bool) -> None:
        self.k = knowledge
        self.forced = forced
        on_board = [*knowledge.known.values(), *knowledge.up.values(), *knowledge.pool]
        self.judge = Judge(on_board, sum(kind_of(tile) == BUM for tile in on_board))
        self.layouts = (knowledge.mine, knowledge.theirs)
        self.values = (self.judge.value(knowledge.mine), self.judge.value(knowledge.theirs))
        # Tiles on the board the seat can name, the face-up ones included (both players see them).
        self.board_known = [*knowledge.known.values(), *knowledge.up.values()]
        self._takes: dict[tuple[int, int, int], float | None] = {}
        self._specials: dict[tuple[int, int], tuple[float, bool]] = {}
        self._threats: dict[tuple[tuple[int, ...], frozenset[int]], float] = {}
        self.on_board = [*self.board_known, *knowledge.pool]
        self._known_set = frozenset(self.board_known)
        self._pool_set = frozenset(knowledge.pool)
        self._partners: dict[int, dict[int, float]] = {}
        self._threat_base: tuple[list[tuple[float, frozenset[int]]], dict[int, float], float] | None = None

    # ------------------------------------------------------------ gains of one player

    def take_gain(self, who: int, first: int, second: int) -> float | None:
        """The gain of ``who`` (0 the robot, 1 its opponent) taking two tiles; None if it cannot."""
        key = (who, min(first, second), max(first, second))
        if key not in self._takes:
            gain = None
            if is_number(first) and is_number(second):
                results = [choice.result for choice in take_choices(self.layouts[who], first, second)]
                if results:
                    gain = max(self.judge.value(result) for result in results) - self.values[who]
            self._takes[key] = gain
        return self._takes[key]

    def special_gain(self, who: int, tile: int) -> tuple[float, bool]:
        """What flipping a special tile is worth to ``who``, and whether it leaves the board."""
        key = (who, tile)
        if key not in self._specials:
            own, other = self.layouts[who], self.layouts[1 - who]
            kind = kind_of(tile)
            if kind == JOLLY:
                results = [choice.result for choice in single_choices(own, tile)]
                outcome = (self.best_result(who, results), True) if results else (0.0, False)
            elif kind == RUBA:
                steals = steal_choices(own, other)
                outcome = (
                    max((self.steal_gain(who, s.thief_result, s.victim_result) for s in steals), default=0.0),
                    True,
                )
            else:
                results = [blast.result for blast in blast_choices(own)]
                worst = min((self.judge.value(result) for result in results), default=self.values[who])
                outcome = (worst - self.values[who], bool(results))
            self._specials[key] = outcome
        return self._specials[key]

    def best_result(self, who: int, results: Sequence[Layout]) -> float:
        return max(self.judge.value(result) for result in results) - self.values[who]

    def steal_gain(self, who: int, thief: Layout, victim: Layout) -> float:
        return self.judge.value(thief) - self.values[who] + self.values[1 - who] - self.judge.value(victim)

    # ------------------------------------------------------------ the opponent's next turn

    def partners(self, tile: int) -> dict[int, float]:
        """Each tile on the board the opponent would take together with ``tile``, with their gain."""
        if tile not in self._partners:
            gains = ((other, self.take_gain(1, tile, other)) for other in self.on_board if other != tile)
            self._partners[tile] = {other: gain for other, gain in gains if gain is not None}
        return self._partners[tile]

    def _base(self) -> tuple[list[tuple[float, frozenset[int]]], dict[int, float], float]:
        """The opponent's sure gains from known tiles, best first; for each unknown tile the best
        it gives them with a known one (flipped first, then its partner); the sum of those."""
        if self._threat_base is None:
            known = set(self.board_known)
            sure = [
                (gain, frozenset((tile, other)))
                for tile in known
                for other, gain in self.partners(tile).items()
                if other in known and gain > 0
            ]
            sure += [
                (gain, frozenset((tile,)))
                for tile in known
                if not is_number(tile) and (gain := self.special_gain(1, tile)[0]) > 0
            ]
            sure.sort(key=lambda item: -item[0])
            partner = {
                tile: max([0.0, *(g for other, g in self.partners(tile).items() if other in known)])
                for tile in self.k.pool
            }
            self._threat_base = (sure, partner, sum(partner.values()))
        return self._threat_base

    def threat(self, new: tuple[int, ...], removed: frozenset[int]) -> float:
        """What the opponent may expect next turn once ``new`` tiles are known and ``removed``
        ones left the board: a sure take, or an unknown tile flipped first finding a partner."""
        key = (tuple(sorted(new)), removed)
        if key not in self._threats:
            sure, partner, total = self._base()
            best = next((gain for gain, tiles in sure if not tiles & removed), 0.0)
            known = self._known_set.union(new).difference(removed)
            left = self._pool_set.difference(new, removed)
            total -= sum(partner[tile] for tile in {*new, *removed} if tile in self._pool_set)
            better: dict[int, float] = {}
            for tile in new:
                if not is_number(tile):
                    best = max(best, self.special_gain(1, tile)[0])
                for other, gain in self.partners(tile).items():
                    if other in known:
                        best = max(best, gain)
                    elif other in left and gain > max(partner[other], better.get(other, 0.0)):
                        better[other] = gain
            total += sum(gain - partner[other] for other, gain in better.items())
            if left:
                best = max(best, total / len(left))
            self._threats[key] = best
        return self._threats[key]

    def leaf(
        self, gain: float, new: tuple[int, ...] = (), removed: Iterable[int] = (), *, last: bool = False
    ) -> float:
        """The end of the robot's turn: its gain less the opponent's prospects. A turn that
        uncovers nothing and removes nothing is a pass."""
        removed = frozenset(removed)
        value = gain if last else gain - THREAT_SHARE * self.threat(new, removed)
        if self.forced and not new and not removed:
            value += PASS_PENALTY
        return value

    # ------------------------------------------------------------ flips

    def first_values(self) -> dict[str, float]:
        """The value of flipping each covered cell first; all unknown cells are worth the same."""
        down = len(self.k.known) + len(self.k.unknown)
        values = {cell: self._after_first(cell, tile, True, down) for cell, tile in self.k.known.items()}
        if self.k.unknown:
            unknown = fmean([self._after_first(None, tile, False, down) for tile in self.k.pool])
            values.update(dict.fromkeys(self.k.unknown, unknown))
        return values

    def _after_first(self, cell: str | None, tile: int, known: bool, down: int) -> float:
        new = () if known else (tile,)
        last = down == 1
        if not is_number(tile):
            gain, leaves = self.special_gain(0, tile)
            if leaves:
                return self.leaf(gain, removed=(tile,), last=last)
            return self.leaf(0.0, new, last=last)
        if last:
            results = [choice.result for choice in single_choices(self.k.mine, tile)]
            return self.leaf(self.best_result(0, results) if results else 0.0, last=True)
        return max(self.second_values(cell, tile, known, down - 1).values())

    def second_values(
        self, first_cell: str | None, first: int, first_known: bool, down: int
    ) -> dict[str, float]:
        """The value of each second flip after ``first`` (numbered); ``down`` cells are left."""
        last = down == 1
        values = {
            cell: self._second(first, first_known, tile, True, last)
            for cell, tile in self.k.known.items()
            if cell != first_cell
        }
        unknown = [cell for cell in self.k.unknown if cell != first_cell]
        pool = [tile for tile in self.k.pool if tile != first]
        if unknown and pool:
            value = fmean([self._second(first, first_known, tile, False, last) for tile in pool])
            values.update(dict.fromkeys(unknown, value))
        return values

    def _second(self, first: int, first_known: bool, second: int, second_known: bool, last: bool) -> float:
        seen = () if first_known else (first,)
        if not is_number(second):
            gain, leaves = self.special_gain(0, second)
            if leaves:
                return self.leaf(gain, seen, (second,))
            return self.leaf(0.0, seen if second_known else (*seen, second), last=last)
        taken = self.take_gain(0, first, second)
        if taken is not None:
            return self.leaf(taken, removed=(first, second), last=last)
        return self.leaf(0.0, seen if second_known else (*seen, second), last=last)

    # ------------------------------------------------------------ choices

    def best_move(self, view: JSON) -> str | None:
        """The move that raises the layout's value most, if it is worth making."""
        by_id = {choice.id: choice.result for choice in move_choices(self.k.mine)}
        scored = [(self.judge.value(by_id[id_]), id_) for id_ in _option_ids(view, "move") if id_ in by_id]
        if not scored:
            return None
        value, id_ = max(scored, key=lambda item: item[0])
        return id_ if value > self.values[0] + MOVE_MARGIN else None


def placement_results(knowledge: Knowledge) -> dict[str, Layout]:
    """Each placement id of the tiles face up, with the layout it makes (either flip order)."""
    tiles = list(knowledge.up.values())
    if len(tiles) == 1:
        choices = single_choices(knowledge.mine, tiles[0])
    else:
        choices = take_choices(knowledge.mine, tiles[1], tiles[0]) + take_choices(knowledge.mine, *tiles)
    return {choice.id: choice.result for choice in choices}


def steal_results(knowledge: Knowledge) -> dict[str, tuple[Layout, Layout, int]]:
    return {
        s.id: (s.thief_result, s.victim_result, s.tile)
        for s in steal_choices(knowledge.mine, knowledge.theirs)
    }


def blast_results(knowledge: Knowledge) -> dict[str, tuple[Layout, int, int]]:
    """The BUM! choices on the opponent's series: result, points lost, value removed."""
    return {b.id: (b.result, b.points_lost, b.value_removed) for b in blast_choices(knowledge.theirs)}


class SerieBumRobot(Robot):
    """The Serie Bum! computer player (see the module docstring for its levels)."""

    game = "seriebum"

    # ------------------------------------------------------------ memory

    def observe(self, view: JSON, events: Sequence[Event]) -> None:
        """Remember every tile flipped (easy forgets some once covered for good), every tile
        that left the game, the cells ever flipped, and whether the last turn changed anything."""
        memory = self.memory
        if memory.get("manche") != view["manche"]:
            # A new deal: the old manche's tiles and flips mean nothing now.
            memory.clear()
            memory.update(manche=view["manche"], cells={}, visible=[], gone=[], met=[], stall=0, mark=None)
        else:
            for event in events:
                if event.key == FLIPPED:
                    memory["cells"][event.params["cell"]] = event.params["tile"]
                    memory["met"] = sorted({*memory["met"], event.params["cell"]})
                elif event.key == EXPLODED:
                    memory["gone"] += event.params["removed"]
                elif event.key == DISCARDED:
                    memory["gone"] += event.params["tiles"]
        self._sync_cells(view)
        if any(event.key in TURN_EVENTS for event in events):
            # Progress: a tile left the board, or a cell nobody had flipped this manche was flipped.
            mark = [sum(c["state"] != "empty" for c in view["cells"]), len(memory["met"])]
            memory["stall"] = memory["stall"] + 1 if mark == memory["mark"] else 0
            memory["mark"] = mark

    def _sync_cells(self, view: JSON) -> None:
        memory = self.memory
        cells: dict[str, str] = memory["cells"]
        in_series = {TILES[tile].code for tile in _series_tiles(view)}
        gone = set(memory["gone"])
        was_visible = set(memory["visible"])
        visible = []
        for cell in view["cells"]:
            name, state = cell["cell"], cell["state"]
            if state in VISIBLE:
                cells[name] = cell["tile"]
                visible.append(name)
            elif name in cells and state == "empty":
                # Taken tiles are in a series; the others (specials spent, discards) left the game.
                if cells[name] not in in_series:
                    gone.add(cells[name])
                del cells[name]
            elif (
                name in cells
                and name in was_visible
                and self.level == "easy"
                and self.random.randrange(100) < FORGET_PERCENT
            ):
                # Covered for good: an easy player may not keep it in mind.
                del cells[name]
        memory["gone"] = sorted(gone)
        memory["visible"] = visible

    # ------------------------------------------------------------ decisions

    def decide(self, view: JSON) -> JSON:
        actions = view["actions"]
        if len(actions) == 1:
            return actions[0]
        knowledge = Knowledge(view, self.memory)
        if self.memory.get("stall", 0) >= STALL_ESCAPE:
            # The board is alive only through moves nobody wants (say, to make a BUM! bite).
            action = random_action(view, self.random)
        elif self.level == "easy":
            action = self._decide_easy(view, knowledge)
        else:
            action = self._decide_hard(view, knowledge)
        return action if action in actions else actions[0]

    def _pick(self, options: Sequence[str]) -> str:
        return options[self.random.randrange(len(options))]

    def _best(self, values: dict[str, float]) -> str:
        """The best-valued key; a tie is broken at random (seeded) among the best."""
        top = max(values.values())
        return self._pick([key for key, value in values.items() if value >= top - 1e-9])

    def _decide_hard(self, view: JSON, knowledge: Knowledge) -> JSON:
        phase = view["phase"]
        planner = Planner(knowledge, forced=self.memory.get("stall", 0) >= STALL_LIMIT)
        judge = planner.judge
        if phase in ("flip", "rearrange"):
            move = planner.best_move(view)
            if move is not None:
                return {"type": "move", "option": move}
            if phase == "rearrange":
                return {"type": "end_turn"}
            values = planner.first_values()
            moves = _option_ids(view, "move")
            if max(values.values()) < PASS_PENALTY / 2 and moves and self.random.randrange(2):
                # No flip can change the board: a move might (a run growing to three, say).
                return {"type": "move", "option": self._pick(moves)}
            return _flip_action(self._best(values))
        if phase == "flip_second":
            ((cell, tile),) = knowledge.up.items()
            down = len(knowledge.known) + len(knowledge.unknown)
            return _flip_action(self._best(planner.second_values(cell, tile, True, down)))
        if phase == "place":
            results = placement_results(knowledge)
            values = {id_: judge.value(results[id_]) for id_ in _option_ids(view, "place") if id_ in results}
            return {"type": "place", "option": self._best(values)}
        if phase == "steal":
            steals = steal_results(knowledge)
            values = {
                id_: planner.steal_gain(0, steals[id_][0], steals[id_][1])
                for id_ in _option_ids(view, "steal")
                if id_ in steals
            }
            return {"type": "steal", "option": self._best(values)}
        blasts = blast_results(knowledge)
        values = {id_: -judge.value(blasts[id_][0]) for id_ in _option_ids(view, "bum") if id_ in blasts}
        return {"type": "bum", "option": self._best(values)}

    def _decide_easy(self, view: JSON, knowledge: Knowledge) -> JSON:
        """Greedy on points with a leaky memory: takes what it remembers, else flips blind."""
        phase = view["phase"]
        if phase == "rearrange":
            return {"type": "end_turn"}
        if phase == "flip":
            return _flip_action(self._easy_first(knowledge))
        if phase == "flip_second":
            (first,) = knowledge.up.values()
            partners = [
                cell for cell, tile in knowledge.known.items() if knowledge.takes(knowledge.mine, first, tile)
            ]
            return _flip_action(self._pick(partners or knowledge.unknown or list(knowledge.known)))
        if phase == "place":
            results = placement_results(knowledge)
            scores = {
                id_: float(layout_points(results[id_]))
                for id_ in _option_ids(view, "place")
                if id_ in results
            }
            return {"type": "place", "option": self._best(scores)}
        if phase == "steal":
            steals = steal_results(knowledge)
            scores = {
                id_: float(tile_points(steals[id_][2])) for id_ in _option_ids(view, "steal") if id_ in steals
            }
            return {"type": "steal", "option": self._best(scores)}
        blasts = blast_results(knowledge)
        scores = {
            id_: float(blasts[id_][1] * 1000 + blasts[id_][2])
            for id_ in _option_ids(view, "bum")
            if id_ in blasts
        }
        return {"type": "bum", "option": self._best(scores)}

    def _easy_first(self, knowledge: Knowledge) -> str:
        known = list(knowledge.known.items())
        pairs = [
            first
            for index, (first, tile) in enumerate(known)
            for _, other in known[index + 1 :]
            if knowledge.takes(knowledge.mine, tile, other)
        ]
        if pairs:
            return self._pick(pairs)
        jollies = [
            cell for cell, tile in known if kind_of(tile) == JOLLY and single_choices(knowledge.mine, tile)
        ]
        if jollies:
            return self._pick(jollies)
        harmless = [cell for cell, tile in known if kind_of(tile) != BUM]
        return self._pick(knowledge.unknown or harmless or [cell for cell, _ in known])
