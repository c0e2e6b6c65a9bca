"""Rummikub in Discord: the table and racks as images, playing by naming rack tiles."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands

from bot.adapter import Click, GameAdapter, Rendered, Viewer, component_view, game_button, game_select
from bot.commands import GameHost, game_group, game_here
from bot.i18n import described, t
from bot.records import within_limit
from bot.render import HIGHLIGHT, MUTED, Canvas, picture
from bot.replies import language, reply, show_panel
from bot.replies import replace as replace_panel
from games.core import JSON, Event, GameError
from games.rummikub import Rummikub
from games.rummikub.robot import RummikubRobot
from games.rummikub.tiles import parse_tiles, sorted_tiles

if TYPE_CHECKING:
    from bot.tables import Table, TableService

TILE_W, TILE_H, TILE_GAP = 40, 56, 4
SET_GAP = 22
TABLE_WIDTH = 1000
TILE_FACE = (246, 240, 224)
NUMBER_INK: dict[str, tuple[int, int, int]] = {
    "k": (30, 30, 30),
    "r": (200, 40, 40),
    "b": (35, 85, 200),
    "o": (225, 130, 10),
    "j": (120, 40, 160),
}
SELECT_LIMIT = 25
FIELD_LIMIT = 1024  # characters in an embed field
# custom_id is at most 100 characters: "gm:<game>:play:" leaves room for about 20 tiles.
CUSTOM_ID_ROOM = 80


def tile_text(code: str) -> str:
    return "J" if code == "j" else code[1:]


class RummikubAdapter(GameAdapter):
    engine = Rummikub
    robot = RummikubRobot
    colour = discord.Colour.from_rgb(225, 130, 10)
    code_params = frozenset({"tile", "tiles"})
    embed_events = frozenset(
        {"rummikub.event.round_won", "rummikub.event.round_blocked", "rummikub.event.match_won"}
    )
    round_end_events = frozenset({"rummikub.event.round_won", "rummikub.event.round_blocked"})
    start_options: ClassVar[Mapping[str, str]] = {
        "rounds": "rummikub.cmd.option.rounds",
        "target": "rummikub.cmd.option.target",
        "hints": "rummikub.cmd.option.hints",
    }

    def own_hand(self, view: JSON) -> object:
        return view.get("rack")

    def settings(self, options: Mapping[str, int], language: str) -> list[str]:
        length = (
            t(language, "rummikub.ui.option.target", target=options["target"])
            if options["target"]
            else t(language, "rummikub.ui.option.rounds", rounds=options["rounds"])
        )
        return [
            length,
            t(
                language,
                "rummikub.ui.option.hints_on" if options["hints"] else "rummikub.ui.option.hints_off",
            ),
        ]

    def label(self, code: str, viewer: Viewer) -> str:
        if code == "j":
            return viewer.t("rummikub.ui.joker")
        return viewer.t(f"rummikub.ui.colour.{code[0]}", number=code[1:])

    # ------------------------------------------------------------------ drawing

    def _tile(
        self, canvas: Canvas, left: int, top: int, code: str, outline: tuple[int, int, int] | None = None
    ) -> None:
        box = (left, top, left + TILE_W, top + TILE_H)
        canvas.face(
            box, tile_text(code), code, TILE_FACE, NUMBER_INK[code[0]], outline=outline or (120, 110, 90)
        )

    def table_image(self, view: JSON, viewer: Viewer) -> Canvas:
        changed = set(view["changed_sets"])
        placed: list[tuple[int, int, int]] = []  # (set index, left, top)
        left, top = 20, 70
        for index, tiles in enumerate(view["table"]):
            width = len(tiles) * (TILE_W + TILE_GAP)
            if left + width > TABLE_WIDTH - 20:
                left, top = 20, top + TILE_H + 40
            placed.append((index, left, top))
            left += width + SET_GAP
        canvas = Canvas(TABLE_WIDTH, max(top + TILE_H + 40, 160))
        canvas.text((20, 16), viewer.t("rummikub.ui.heading", round=view["round"], pool=view["pool"]), 28)
        if not view["table"]:
            canvas.text((20, 80), viewer.t("rummikub.ui.empty_table"), 20, MUTED)
        for index, left, top in placed:
            tiles = view["table"][index]
            if index in changed:
                right = left + len(tiles) * (TILE_W + TILE_GAP) - TILE_GAP
                canvas.rounded_rectangle(
                    (left - 6, top - 6, right + 6, top + TILE_H + 6), radius=8, outline=HIGHLIGHT, width=3
                )
            colour = HIGHLIGHT if index in changed else MUTED
            canvas.text((left, top + TILE_H + 8), str(index + 1), 16, colour)
            for position, code in enumerate(tiles):
                self._tile(canvas, left + position * (TILE_W + TILE_GAP), top, code)
        return canvas

    def rack_image(self, rack: Sequence[str], viewer: Viewer) -> Canvas:
        per_row = 14
        rows = max(1, -(-len(rack) // per_row))
        canvas = Canvas(
            40 + per_row * (TILE_W + TILE_GAP), 30 + rows * (TILE_H + 16), background=(92, 60, 36)
        )
        for index, code in enumerate(rack):
            row, column = divmod(index, per_row)
            self._tile(canvas, 20 + column * (TILE_W + TILE_GAP), 15 + row * (TILE_H + 16), code)
        return canvas

    # ------------------------------------------------------------------ messages

    def table(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        embed = discord.Embed(title=viewer.t("rummikub.ui.title", round=view["round"]), colour=self.colour)
        if view["turn"] is not None:
            embed.description = viewer.t("rummikub.ui.turn", seat=viewer.name(view["turn"]))
        elif view["winner"] is not None:
            embed.description = viewer.t("rummikub.ui.won", seat=viewer.name(view["winner"]))
        for seat in range(view["players"]):
            if view["active"][seat]:
                marker = " ⏳" if seat == view["turn"] else ""
                embed.add_field(
                    name=f"{viewer.name(seat)}{marker}",
                    value=viewer.t(
                        "rummikub.ui.seat",
                        tiles=view["racks"][seat],
                        points=view["totals"][seat],
                        melded="✅" if view["melded"][seat] else "—",
                    ),
                )
        sets = [f"**{i + 1}**: {self.labels(s, viewer)}" for i, s in enumerate(view["table"])]
        if sets:
            embed.add_field(
                name=viewer.t("rummikub.ui.sets"), value=within_limit(sets, "\n", FIELD_LIMIT), inline=False
            )
        embed.set_footer(text=viewer.t("rummikub.ui.footer", pool=view["pool"], sets=len(view["table"])))
        embed.set_image(url="attachment://rummikub-table.png")
        items: list[discord.ui.Item[Any]] = [
            game_button(game_id, "hand", viewer.t("rummikub.ui.button.rack"), emoji="🎴"),
            game_button(
                game_id,
                "choose",
                viewer.t("rummikub.ui.button.play"),
                style=discord.ButtonStyle.primary,
                emoji="✅",
            ),
            game_button(game_id, "draw", viewer.t("rummikub.ui.button.draw"), emoji="🎲"),
        ]
        return Rendered([embed], picture("rummikub-table.png", self.table_image, view, viewer), items)

    def hand(self, view: JSON, viewer: Viewer, game_id: int) -> Rendered:
        rack = view.get("rack", [])
        embed = discord.Embed(
            title=viewer.t("rummikub.ui.rack_title", round=view["round"]),
            description=self.labels(rack, viewer) or viewer.t("rummikub.ui.rack_empty"),
            colour=self.colour,
        )
        embed.add_field(name=viewer.t("rummikub.ui.rack_value_name"), value=str(view.get("rack_value", 0)))
        if not view["melded"][view["me"]]:
            embed.add_field(
                name=viewer.t("rummikub.ui.initial_meld_name"), value=viewer.t("rummikub.ui.initial_meld")
            )
        embed.set_image(url="attachment://rummikub-rack.png")
        return Rendered([embed], picture("rummikub-rack.png", self.rack_image, rack, viewer))

    def results(self, event: Event, viewer: Viewer) -> discord.Embed | None:
        if event.key in ("rummikub.event.round_won", "rummikub.event.round_blocked"):
            points, totals = event.params["points"], event.params["totals"]
            embed = discord.Embed(
                title=viewer.t(event.key, **self.event_params(event, viewer)), colour=self.colour
            )
            order = sorted(range(len(points)), key=lambda seat: -points[seat])
            embed.description = "\n".join(
                viewer.t("rummikub.ui.result_line", seat=viewer.name(s), points=points[s], total=totals[s])
                for s in order
            )
            return embed
        if event.key == "rummikub.event.match_won":
            title = viewer.t("rummikub.ui.match_title", seat=viewer.name(event.params["seat"]))
            return self.match_results(title, viewer, event.params["totals"])
        return None

    # ------------------------------------------------------------------ flows

    def flows(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {"choose": self._choose, "pick": self._choose, "play": self._play, "draw": self._draw}

    async def _my_turn(self, click: Click) -> tuple[Table, int, JSON, Viewer]:
        table, seat, viewer = await click.deciding_player()
        return table, seat, table.game.view(seat), viewer

    async def _choose(self, click: Click) -> None:
        """The private play panel: the rack, menus to pick tiles, and what is picked so far."""
        table, seat, view, viewer = await self._my_turn(click)
        # Selected values look like "r7:1" (the second r7 of the rack).
        chosen = [part for part in click.parts if part]
        chosen += [value.split(":")[0] for value in click.values]
        remaining = Counter(view["rack"])
        remaining.subtract(chosen)
        if any(count < 0 for count in remaining.values()):
            raise GameError("rummikub.ui.error.not_on_rack")
        picked = ".".join(sorted_tiles(chosen))
        if len(picked) > CUSTOM_ID_ROOM:
            raise GameError("rummikub.ui.error.too_many")
        # Two copies of a tile need distinct option values: "r7:0", "r7:1".
        copies: Counter[str] = Counter()
        options = []
        for code in sorted_tiles(remaining.elements()):
            options.append(
                discord.SelectOption(label=self.label(code, viewer), value=f"{code}:{copies[code]}")
            )
            copies[code] += 1
        items: list[discord.ui.Item[Any]] = []
        for start in range(0, min(len(options), 2 * SELECT_LIMIT), SELECT_LIMIT):
            chunk = options[start : start + SELECT_LIMIT]
            select = game_select(
                click.game_id, "pick", viewer.t("rummikub.ui.pick_placeholder"), chunk, picked
            )
            select.max_values = len(chunk)
            items.append(select)
        if chosen:
            items.append(
                game_button(
                    click.game_id,
                    "play",
                    viewer.t("rummikub.ui.button.confirm"),
                    picked,
                    discord.ButtonStyle.success,
                    "✅",
                )
            )
            items.append(
                game_button(
                    click.game_id,
                    "choose",
                    viewer.t("rummikub.ui.button.clear"),
                    "",
                    discord.ButtonStyle.secondary,
                    "↩️",
                )
            )
        lines = [viewer.t("rummikub.ui.pick_prompt")]
        if chosen:
            lines.append(viewer.t("rummikub.ui.picked", tiles=self.labels(sorted_tiles(chosen), viewer)))
        if view["hints"]:
            # In a thread: a search may take a while, and other channels go on meanwhile.
            hint = await asyncio.to_thread(table.game.best_play, seat)
            lines.append(
                viewer.t("rummikub.ui.hint", tiles=self.labels(sorted_tiles(hint["tiles"]), viewer))
                if hint
                else viewer.t("rummikub.ui.no_hint")
            )
        rack = await click.service.render(table, self.hand, view, viewer, click.game_id)
        await show_panel(
            click.interaction,
            "\n".join(lines),
            embeds=rack.embeds,
            file=rack.file,
            view=component_view(items),
        )

    async def _play(self, click: Click) -> None:
        await play_tiles(click.service, click.interaction, click.game_id, ".".join(click.parts), panel=True)

    async def _draw(self, click: Click) -> None:
        await draw_tile(click.service, click.interaction, click.game_id)


ADAPTER = RummikubAdapter()


async def play_tiles(
    service: TableService, interaction: discord.Interaction, game_id: int, tiles: str, *, panel: bool = False
) -> None:
    """Lay the named rack tiles; the engine finds the new table or says why it cannot."""
    codes = parse_tiles(tiles.replace(".", " "))

    async def answer(table: Table, events: list[Event]) -> None:
        viewer = table.viewer(table.seat_of(interaction.user.id), language(interaction))
        # The tiles as the channel names them: in the order of the sets they went into.
        played = next((event.params["tiles"] for event in events if "tiles" in event.params), codes)
        text = viewer.t("rummikub.ui.played", tiles=table.adapter.labels(played, viewer))
        if panel:
            await replace_panel(interaction, text, view=None)
        else:
            await reply(interaction, text)

    await service.act(interaction, game_id, {"type": "play", "tiles": codes}, answer)


async def draw_tile(service: TableService, interaction: discord.Interaction, game_id: int) -> None:
    async def answer(table: Table, events: list[Event]) -> None:
        seat = table.seat_of(interaction.user.id)
        viewer = table.viewer(seat, language(interaction))
        private = [
            line for e in events if e.seats and e.visible_to(seat) if (line := ADAPTER.describe(e, viewer))
        ]
        await reply(interaction, "\n".join(private) or viewer.t("rummikub.ui.passed"))

    await service.act(interaction, game_id, {"type": "draw"}, answer)


async def setup(bot: GameHost) -> None:
    group = game_group(bot, ADAPTER)
    tables = bot.tables

    async def running_game(interaction: discord.Interaction) -> int:
        return await game_here(tables, interaction, ADAPTER.name)

    @group.command(name="play", description=described("rummikub.cmd.play"))
    @app_commands.describe(tiles=described("rummikub.cmd.option.tiles"))
    async def play(interaction: discord.Interaction, tiles: str) -> None:
        # str(): a forged interaction may send any JSON type for the option.
        await play_tiles(tables, interaction, await running_game(interaction), str(tiles))

    @play.autocomplete("tiles")
    async def rack_tiles(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Suggest what was typed plus one more tile still on the player's rack."""
        try:
            table = await tables.load(await running_game(interaction))
        except GameError:
            return []
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return []
        typed = current.strip().split()
        remaining = Counter(table.game.view(seat)["rack"])
        complete = []
        for token in typed[:-1] if typed and not current.endswith(" ") else typed:
            remaining[token.lower()] -= 1
            complete.append(token.lower())
        prefix = "" if not typed or current.endswith(" ") else typed[-1].lower()
        options = [
            code for code in dict.fromkeys(sorted_tiles(remaining.elements())) if code.startswith(prefix)
        ]
        return [
            app_commands.Choice(name=" ".join([*complete, code]), value=" ".join([*complete, code]))
            for code in options[:SELECT_LIMIT]
        ]

    @group.command(name="draw", description=described("rummikub.cmd.draw"))
    async def draw(interaction: discord.Interaction) -> None:
        await draw_tile(tables, interaction, await running_game(interaction))

    bot.register(ADAPTER, group)
