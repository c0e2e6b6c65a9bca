"""Plays Serie Bum! through the real bot as users would: the Flip panel, its column select and
row buttons, and the menus of every choice.

The players below have a perfect memory: the database, the test's oracle, tells them the
whole board.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.seriebum.text import TILE_MARKS
from bot.render import MARKS
from games.seriebum import SerieBum
from games.seriebum.engine import BUM_CHOICE, FLIP, PLACE, REARRANGE, STEAL
from games.seriebum.series import Layout, blast_choices, single_choices, steal_choices, take_choices
from games.seriebum.tiles import CELLS, JOLLY, RUBA, TILES, is_number, kind_of
from tests.bot.driver import Opened, TableDriver, component_for, components, move_of

COLOUR_SQUARES = {"R": "🟥", "Y": "🟨", "W": "⬜", "B": "🟦"}


def hidden_tiles(game: SerieBum) -> dict[str, str]:
    """Cell -> code of every tile nobody may see now: face down and no longer remembered."""
    return {
        CELLS[cell]: TILES[tile].code
        for cell, tile in enumerate(game.board)
        if tile is not None and cell not in game.face_up and cell not in game.seen
    }


def number_texts(code: str) -> tuple[str, ...]:
    """How a numbered tile could be named in text: its code and its labels ('R40', '🟥40',
    '🟥●40')."""
    square, number = COLOUR_SQUARES[code[0]], code[1:]
    return (code, square + number, square + MARKS[TILE_MARKS[code[0]]] + number)


# ---------------------------------------------------------------------------- the players' plan


@dataclass(frozen=True)
class Flip:
    cell: str


@dataclass(frozen=True)
class Choose:
    """Option ``index`` of the ``kind`` menu (place, steal, bum, move)."""

    kind: str
    index: int


@dataclass(frozen=True)
class EndTurn:
    pass


Move = Flip | Choose | EndTurn


def special_acts(tile: int, mine: Layout, theirs: Layout) -> bool:
    """Whether a special tile flipped now would do something worth testing."""
    kind = kind_of(tile)
    if kind == JOLLY:
        return bool(single_choices(mine, tile))
    if kind == RUBA:
        return len(steal_choices(mine, theirs)) >= 2
    return bool(blast_choices(mine))


class MemoryPlayers:
    """Both players, with a perfect memory of the board.

    Of the options of a menu they choose the last (so a menu's order matters to the tests). They
    take a pair when they can, but every ``miss_every``-th turn they flip two tiles that
    cannot be taken (so tiles are covered again and remembered); a special tile is flipped
    only when it acts (a usable JOLLY, a BUM! that hits, a RUBA with a real choice); each
    player makes one move between their series as soon as they can.
    """

    def __init__(self, miss_every: int = 3) -> None:
        self.miss_every = miss_every
        self.turns = 0
        self.moved: set[int] = set()
        self.partner: int | None = None

    def next(self, game: SerieBum) -> Move:
        ((seat, actions),) = game.to_act().items()
        if game.phase in (PLACE, STEAL, BUM_CHOICE):
            return Choose(game.phase, len(game.view(None)["pending"]["options"]) - 1)
        if "move" in actions and seat not in self.moved:
            self.moved.add(seat)
            return Choose("move", len(game.view(seat)["moves"]) - 1)
        if game.phase == REARRANGE:
            return EndTurn()
        if game.phase == FLIP:
            self.turns += 1
            return Flip(CELLS[self._first(game, seat)])
        return Flip(CELLS[self._second(game)])

    @staticmethod
    def _face_down(game: SerieBum) -> Iterator[tuple[int, int]]:
        for cell in game.face_down_cells():
            tile = game.board[cell]
            assert tile is not None
            yield cell, tile

    def _first(self, game: SerieBum, seat: int) -> int:
        mine, theirs = game.layouts[seat], game.layouts[1 - seat]
        for cell, tile in self._face_down(game):
            if not is_number(tile) and special_acts(tile, mine, theirs):
                return cell
        numbered = [(cell, tile) for cell, tile in self._face_down(game) if is_number(tile)]
        takeable = self.turns % self.miss_every != 0
        for wanted in (takeable, True):
            for cell, tile in numbered:
                for other_cell, other in numbered:
                    if other_cell != cell and bool(take_choices(mine, tile, other)) == wanted:
                        self.partner = other_cell
                        return cell
        self.partner = None
        # Nothing to take: a special (even one that does nothing), else whatever is left.
        cells = game.face_down_cells()
        return next((cell for cell, tile in self._face_down(game) if not is_number(tile)), cells[0])

    def _second(self, game: SerieBum) -> int:
        cells = game.face_down_cells()
        if self.partner in cells:
            return self.partner
        return next((cell for cell in cells if is_number(game.board[cell] or 0)), cells[0])


def apply_move(game: SerieBum, move: Move) -> list[Any]:
    """Play ``move`` on an engine directly (to find a seed whose manche shows what a test needs)."""
    ((seat, _),) = game.to_act().items()
    if isinstance(move, Flip):
        return game.apply(seat, {"type": "flip", "cell": move.cell})
    if isinstance(move, EndTurn):
        return game.apply(seat, {"type": "end_turn"})
    view = game.view(seat)
    options = view["moves"] if move.kind == "move" else view["pending"]["options"]
    return game.apply(seat, {"type": move.kind, "option": options[move.index]["id"]})


# ---------------------------------------------------------------------------- the driver


class SerieBumDriver(TableDriver[SerieBum]):
    engine = SerieBum
    default_players = 2

    def __init__(self, env: Any, database: str, *, guild: Any = None, members: Sequence[Any] = ()) -> None:
        super().__init__(env, database, guild=guild, members=members)
        self.panels: dict[int, Any] = {}  # each player's last ephemeral panel

    @property
    def table(self) -> Any:
        """The table message the game keeps now (a busy channel's is posted anew at the bottom)."""
        return self.table_message()

    # ------------------------------------------------------------------ moves through the UI

    def deciding_seat(self) -> int:
        ((seat, _),) = self.state().to_act().items()
        return seat

    async def open_panel(self, seat: int) -> Any:
        """The table's main button: Flip, Place the tiles, Steal a tile, Choose what blows up..."""
        button = component_for(self.table_message(), self.game_id, "panel")
        result = Opened(await self.members[seat].click(self.table, custom_id=button.custom_id))
        self.panels[seat] = result.response
        return result

    async def flip(self, seat: int, cell: str) -> Any:
        """Column from the select, then the row button; the panel stays open for the second flip."""
        member = self.members[seat]
        panel = self.panels.get(seat)
        if panel is None or not self._has(panel, "column"):
            panel = (await self.open_panel(seat)).response
        if not self._has(panel, "flip", arg=cell):
            panel = (await member.select(panel, [cell[0]])).response or panel
        result = await member.click(panel, label=cell)
        self.panels[seat] = result.response or panel
        return result

    async def choose(self, seat: int, kind: str, index: int) -> Any:
        member = self.members[seat]
        panel = self.panels.get(seat)
        if panel is None or not self._has(panel, kind, "gs"):
            if kind == "move" and self.state().phase == FLIP:
                panel = Opened(await member.click(self.table, label="Move tiles")).response
            else:
                panel = (await self.open_panel(seat)).response
        chunk = index // 25
        select = next(
            child.custom_id
            for child in components(panel)
            if move_of(child.custom_id) == ("gs", self.game_id, kind, str(chunk))
        )
        result = await member.select(panel, [str(index)], custom_id=select)
        self.panels[seat] = result.response or panel
        return result

    async def end_turn(self, seat: int) -> Any:
        return await self.members[seat].click(self.table, label="End turn")

    async def play(self, move: Move) -> Any:
        seat = self.deciding_seat()
        if isinstance(move, Flip):
            return await self.flip(seat, move.cell)
        if isinstance(move, Choose):
            return await self.choose(seat, move.kind, move.index)
        return await self.end_turn(seat)

    @staticmethod
    def _has(message: Any, move: str, kind: str | None = None, arg: str | None = None) -> bool:
        """Whether ``message`` offers an enabled component for ``move`` (of that kind, with that argument)."""
        for child in components(message):
            parsed = move_of(child.custom_id)
            if parsed is None or getattr(child, "disabled", False) or parsed[2] != move:
                continue
            if (kind is None or parsed[0] == kind) and (arg is None or parsed[3] == arg):
                return True
        return False

    # ------------------------------------------------------------------ what users can see

    def everything_shown(self) -> list[tuple[str, list[str]]]:
        """(text, image faces) of every message either player can see: the channel with their
        ephemeral panels, and their DMs."""
        seen: dict[int, Any] = {}
        for member in self.members:
            for message in self.channel.history(viewer=member):
                seen[message.id] = message
            for message in member.user.dm_channel.history():
                seen[message.id] = message
        shown = []
        for message in seen.values():
            texts = [message.content]
            for embed in message.embeds:
                texts += [embed.title or "", embed.description or "", embed.footer.text or ""]
                texts += [f"{field.name} {field.value}" for field in embed.fields]
            for child in components(message):
                texts.append(getattr(child, "label", None) or "")
                texts += [f"{o.label} {o.description or ''}" for o in getattr(child, "options", [])]
            shown.append(("\n".join(texts), self.image_faces(message)))
        return shown

    def assert_no_hidden_tile_shown(self) -> None:
        """No message, embed, menu or image shows a tile that is face down and forgotten.

        Numbered tiles are looked for by code and label in every text. Specials are looked for
        in the images, where each copy has its own code ('JOLLY2'); in text 'JOLLY' would name
        either copy, and the rules and the status lines name them anyway.
        """
        hidden = set(hidden_tiles(self.state()).values())
        for text, faces in self.everything_shown():
            assert not hidden & set(faces), hidden & set(faces)
            for code in hidden:
                if code[1:].isdigit():
                    assert not any(name in text for name in number_texts(code)), (code, text)
