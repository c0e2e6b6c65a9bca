"""Plays Bué through the real bot as users would: slash commands and clicks."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.bue import Bue
from games.bue.cards import DECK
from tests.bot.driver import Opened, TableDriver, components, move_of


class BueDriver(TableDriver[Bue]):
    engine = Bue
    private_markers = ("You drew", "You gave", "took your", "Your new cards")

    # ------------------------------------------------------------------ moves through the UI

    def card_button(self, panel: Any, move: str, position: int) -> str:
        """The custom_id of the panel's button for the hidden card at ``position``."""
        return next(
            c.custom_id
            for c in components(panel.response.message)
            if (parsed := move_of(c.custom_id))
            and parsed[2] == move
            and parsed[3].rsplit(".", 1)[-1] == str(position)
        )

    async def exchange_with_deck(self, seat: int, give: int) -> Any:
        member = self.members[seat]
        panel = Opened(await member.click(self.table_message(), label="Exchange"))
        await member.click(panel.response, custom_id=self.card_button(panel, "give", give))
        return await member.click(panel.response, label="The deck")

    async def exchange_with_player(self, seat: int, give: int, target: int, take: int) -> Any:
        member = self.members[seat]
        panel = Opened(await member.click(self.table_message(), label="Exchange"))
        await member.click(panel.response, custom_id=self.card_button(panel, "give", give))
        name, stand_in = self.query(
            "SELECT name, stand_in FROM seats WHERE game_id = ? AND seat = ?", self.game_id, target
        )[0]
        # A seat a computer plays for its person is named after them.
        await member.click(panel.response, label=f"🤖 for {name}" if stand_in else name)
        return await member.click(panel.response, label=f"Card {take + 1}")

    async def reveal(self, seat: int, position: int) -> Any:
        member = self.members[seat]
        panel = Opened(await member.click(self.table_message(), label="Reveal a card"))
        return await member.click(panel.response, custom_id=self.card_button(panel, "reveal_card", position))

    async def play_one(self, rng: random.Random, seat: int | None = None) -> None:
        """One decision of ``seat`` (by default the first who must decide), chosen at random among
        its legal moves."""
        game = self.state()
        to_act = game.to_act()
        seat = min(to_act) if seat is None else seat
        actions = to_act[seat]
        if "reveal" in actions:
            await self.reveal(seat, rng.choice(game.hidden_positions(seat)))
            return
        move = rng.choice(game.legal_exchanges(seat))
        if move["type"] == "deck":
            await self.exchange_with_deck(seat, move["give"])
        else:
            await self.exchange_with_player(seat, move["give"], move["target"], move["take"])

    # ------------------------------------------------------------------ privacy checks

    @staticmethod
    def public_faces(game: Bue) -> Counter[str]:
        faces = Counter(
            DECK[slot.card].code
            for seat, hand in enumerate(game.hands)
            if game.active[seat]
            for slot in hand
            if slot.revealed
        )
        if game.discard:
            faces[DECK[game.discard[-1]].code] += 1
        return faces

    def assert_table_shows_only_public_cards(self) -> None:
        assert Counter(self.image_faces(self.table_message())) == self.public_faces(self.state())
