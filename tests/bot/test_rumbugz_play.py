"""RumBugz end to end through the real bot (SimCord): every step of a turn through the panels.

The engine is the test's oracle: it picks each move (``oracle_move``), and the state the bot
saved after the move must be exactly the state the engine reaches by playing it directly.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from bot.adapter import DrawnAt
from games.core import JSON
from games.rumbugz import RumBugz
from games.rumbugz.bugz import KINDS, NUMBER_OF, candidate_lays, is_plyt, one_of_each
from tests.bot.driver import NAMES, Opened, TableDriver, component_for, components, move_of
from tests.bot.test_bue_play import ephemeral_text
from tests.rumbugz.positions import arrange, seq

# Found by playing ``oracle_move`` with the engine alone: with three players and this seed the
# round ends by a player going out after 52 actions, with 3 bids won and 3 sequences laid with a PLYT.
THREE_PLAYER_SEED = 19
KIND_LABELS = {"simple": "Simple", "double": "Double", "triple": "Triple", "match": "Match"}


def oracle_move(game: RumBugz) -> tuple[int, JSON]:
    """A plain strategy: bid for a discard matching a Bug in hand; take the discard only if it
    makes a new lay; lay the longest sequence; add a Bug to a table sequence; discard the highest
    numbered Bug (the first copy, as the discard panel's buttons offer it)."""
    bids = game.bids
    if bids is not None and not bids.bidders and game.discard_pile:
        wanted = NUMBER_OF[game.discard_pile[-1]]
        for seat in bids.undecided():
            if wanted is not None and any(NUMBER_OF[code] == wanted for code in game.hands[seat]):
                return seat, {"type": "bid"}
    seat = game.turn
    legal = game.legal_actions(seat)
    hand = game.hands[seat]
    if game.phase == "draw":
        if game.discard_pile and bids is None:
            kinds = [kind for kind in KINDS if kind not in game.completed[seat]]
            with_top = list(candidate_lays([*hand, game.discard_pile[-1]], kinds))
            if len(with_top) > len(list(candidate_lays(hand, kinds))):
                return seat, {"type": "draw", "source": "discard"}
        return seat, {"type": "draw", "source": "bag"}
    lays = [action for action in legal if action["type"] == "lay"]
    if lays:
        return seat, max(lays, key=lambda action: len(action["bugz"]))
    additions = [action for action in legal if action["type"] == "change" and not action["remove"]]
    if additions:
        return seat, additions[0]
    numbered = [code for code in hand if not is_plyt(code)] or hand
    return seat, {"type": "discard", "bug": max(numbered, key=lambda code: NUMBER_OF[code] or 0)}


def entry_label(entry: JSON) -> str:
    return f"PLYT={entry['value']}" if is_plyt(entry["bug"]) else str(NUMBER_OF[entry["bug"]])


class RumBugzDriver(TableDriver[RumBugz]):
    engine = RumBugz
    private_markers = ("Your 6 Bugz", "You drew")

    # ------------------------------------------------------------------ moves through the UI

    async def press(self, seat: int, move: str, on: Any = None) -> Any:
        """A step button, found by its move (its label may name the discard's top), on the table
        or on the message ``on`` (a player's hand, which has the buttons of their next step)."""
        message = self.table_message() if on is None else on
        button = component_for(message, self.game_id, move)
        return Opened(await self.members[seat].click(message, custom_id=button.custom_id))

    def menu(self, panel: Any, move: str, ending: str = "") -> Any:
        """The panel's select for ``move`` whose custom_id ends with ``ending``, if it shows one."""
        return next(
            (
                c
                for c in components(panel.response.message)
                if (parsed := move_of(c.custom_id))
                and parsed[:3] == ("gs", self.game_id, move)
                and c.custom_id.endswith(ending)
            ),
            None,
        )

    async def choose(self, seat: int, panel: Any, move: str, values: list[str], ending: str = "") -> Any:
        menu = self.menu(panel, move, ending)
        return await self.members[seat].select(panel.response, values, custom_id=menu.custom_id)

    async def pick_bugz(self, seat: int, panel: Any, move: str, codes: list[str]) -> None:
        """Tick ``codes`` in the hand menus (a hand of more than 25 Bugz has two, parts 0 and 1)."""
        for part in range(2):
            menu = self.menu(panel, move, ending=f".{part}")
            if menu is None:
                return
            offered = {option.value for option in menu.options}
            if chosen := [code for code in codes if code in offered]:
                await self.members[seat].select(panel.response, chosen, custom_id=menu.custom_id)

    async def suggestion(self, seat: int, panel: Any, move: str, label: str) -> None:
        menu = self.menu(panel, move)
        value = next(option.value for option in menu.options if option.label == label)
        await self.members[seat].select(panel.response, [value], custom_id=menu.custom_id)

    async def lay(self, seat: int, action: JSON, suggested: bool, on: Any = None) -> Any:
        member = self.members[seat]
        panel = await self.press(seat, "lay", on)
        if suggested:
            label = f"{KIND_LABELS[action['kind']]}: " + " · ".join(map(entry_label, action["bugz"]))
            await self.suggestion(seat, panel, "layq", label)
        else:
            await self.pick_bugz(seat, panel, "layb", [entry["bug"] for entry in action["bugz"]])
            await member.click(panel.response, label=KIND_LABELS[action["kind"]])
            for entry in action["bugz"]:
                if is_plyt(entry["bug"]):
                    await self.choose(seat, panel, "layv", [str(entry["value"])], ending=f".{entry['bug']}")
        assert "Ready" in panel.response.content, panel.response.content
        await member.click(panel.response, label="Lay it")
        return panel

    async def change(self, seat: int, action: JSON, suggested: bool, on: Any = None) -> Any:
        member = self.members[seat]
        panel = await self.press(seat, "change", on)
        if suggested:
            sequence = next(s for s in self.state().table if s.id == action["sequence"])
            added = " · ".join(map(entry_label, action["add"]))
            await self.suggestion(
                seat, panel, "chgq", f"#{sequence.id} {KIND_LABELS[sequence.kind]}: add {added}"
            )
        else:
            await self.choose(seat, panel, "chgs", [str(action["sequence"])])
            await self.pick_bugz(seat, panel, "chga", [entry["bug"] for entry in action["add"]])
            for entry in action["add"]:
                if is_plyt(entry["bug"]):
                    await self.choose(seat, panel, "chgv", [str(entry["value"])], ending=f".{entry['bug']}")
            if action["remove"]:
                await self.choose(seat, panel, "chgr", list(action["remove"]))
        assert "Ready" in panel.response.content, panel.response.content
        await member.click(panel.response, label="Change it")
        return panel

    def discard_button(self, panel: Any, code: str) -> Any:
        """The discard panel's button for the Bug ``code`` (one per number: the hand's first copy)."""
        return next(
            c
            for c in components(panel.response.message)
            if (parsed := move_of(c.custom_id)) and parsed[2] == "discq" and parsed[3] == code
        )

    async def discard(self, seat: int, code: str) -> Any:
        panel = await self.press(seat, "discard")
        button = self.discard_button(panel, code)
        await self.members[seat].click(panel.response, custom_id=button.custom_id)
        return panel

    async def play(self, seat: int, action: JSON, suggested: bool = False) -> Any:
        """``action`` through the buttons and menus a player would use; a lay or a change picked
        from the Suggested menu, or put together Bug by Bug."""
        kind = action["type"]
        if kind == "bid":
            return await self.press(seat, "bid")
        if kind == "draw":
            return await self.press(seat, "bag" if action["source"] == "bag" else "pile")
        if kind == "lay":
            return await self.lay(seat, action, suggested)
        if kind == "change":
            return await self.change(seat, action, suggested)
        return await self.discard(seat, action["bug"])

    # ------------------------------------------------------------------ privacy checks

    def assert_table_shows_only_public_bugz(self) -> None:
        game = self.state()
        public = Counter(code for sequence in game.table for code, _ in sequence.bugz)
        # The picture shows a long sequence by its ends, its PLYTs and "…" (issue 31): a part of
        # what is public, and nothing else.
        shown = Counter(self.image_faces(self.table_message()))
        assert not shown - public
        assert bool(shown) == bool(public)


@pytest.fixture
def simcord_bot(make_bot):
    bot = make_bot()
    bot.seed_source = lambda: THREE_PLAYER_SEED
    return bot


async def play_round(driver: RumBugzDriver) -> Counter[str]:
    """Play until the match ends, each move checked against the engine playing it directly.

    Lays and changes alternate between being put together Bug by Bug and picked from the
    Suggested menu; those with a PLYT are put together, naming the PLYT's number in its menu.
    """
    played: Counter[str] = Counter()
    while not driver.state().finished:
        game = driver.state()
        seat, action = oracle_move(game)
        expected = copy.deepcopy(game)
        events = expected.apply(seat, action)
        with_plyt = any(is_plyt(entry["bug"]) for entry in action.get("bugz", action.get("add", [])))
        suggested = played[action["type"]] % 2 == 1 and not with_plyt
        await driver.play(seat, action, suggested)
        assert driver.state().to_json() == expected.to_json(), action
        played[action["type"]] += 1
        played.update(event.key for event in events if event.key == "rumbugz.event.bid_won")
        if with_plyt:
            played[f"{action['type']} with a PLYT"] += 1
        if suggested:
            played[f"suggested {action['type']}"] += 1
        driver.assert_table_shows_only_public_bugz()
    return played


async def test_a_full_three_player_round_from_a_seeded_bag(simcord_env, database):
    driver = RumBugzDriver(simcord_env, database, players=3)
    await driver.open(rounds=1)
    dealt = driver.state()
    for seat in range(3):
        first_dm = driver.dm_messages(seat)[0]
        assert "Your 6 Bugz" in first_dm.content
        assert driver.image_faces(first_dm) == dealt.hands[seat]

    played = await play_round(driver)

    assert played["rumbugz.event.bid_won"] >= 1 and played["lay with a PLYT"] >= 1
    assert played["suggested lay"] >= 1 and played["suggested change"] >= 1
    assert played["lay"] > played["suggested lay"] and played["change"] > played["suggested change"]
    game = driver.state()
    assert game.finished and game.winner() is not None
    winner = NAMES[game.winner()]
    final = driver.channel.last_message
    assert any(winner in (embed.title or "") and "wins the match" in embed.title for embed in final.embeds)
    assert any(component.label == "Rematch" for component in components(final))
    driver.assert_channel_has_no_private_lines()
    board = await driver.members[0].slash(driver.channel, "leaderboard")
    assert winner in board.response.embeds[0].description
    await driver.members[1].click(final, label="Rematch")
    lobby = driver.channel.last_message.embeds[0]
    assert all(member.name in lobby.fields[0].value for member in driver.members)
    assert "Rounds: 1" in lobby.fields[1].value


async def play_until(driver: RumBugzDriver, wanted: str) -> tuple[int, JSON]:
    """Play the oracle's moves until its next one is of type ``wanted``; that move is returned."""
    while True:
        seat, action = oracle_move(driver.state())
        if action["type"] == wanted:
            return seat, action
        await driver.play(seat, action)


async def test_a_restart_mid_round_is_finished_with_the_same_components(simcord_env, database, make_bot):
    driver = RumBugzDriver(simcord_env, database, players=3)
    await driver.open(rounds=1)
    seat, action = await play_until(driver, "lay")
    table_id = driver.table_message().id
    # A lay half put together before the restart is finished after it, from the same panel.
    panel = await driver.press(seat, "lay")
    await driver.pick_bugz(seat, panel, "layb", [entry["bug"] for entry in action["bugz"]])
    expected = driver.state()
    expected.apply(seat, action)

    await simcord_env.restart_bot(make_bot())

    member = driver.members[seat]
    await member.click(panel.response, label=KIND_LABELS[action["kind"]])
    for entry in action["bugz"]:
        if is_plyt(entry["bug"]):
            await driver.choose(seat, panel, "layv", [str(entry["value"])], ending=f".{entry['bug']}")
    await member.click(panel.response, label="Lay it")
    assert driver.state().to_json() == expected.to_json()
    assert driver.table_message().id == table_id  # the same table, and its buttons, after the restart
    await play_round(driver)
    assert driver.state().finished


async def test_a_panel_from_an_earlier_position_is_refused(simcord_env, database):
    driver = RumBugzDriver(simcord_env, database, players=3)
    await driver.open()
    seat, action = oracle_move(driver.state())
    await driver.play(seat, action)
    stale = await driver.press(seat, "discard")
    seat, action = oracle_move(driver.state())
    assert action["type"] == "lay"
    await driver.lay(seat, action, suggested=True)
    before = driver.state().to_json()
    button = next(c for c in components(stale.response.message) if move_of(c.custom_id)[2] == "discq")
    refused = await driver.members[seat].click(stale.response, custom_id=button.custom_id)
    assert "out of date" in ephemeral_text(refused)
    assert driver.state().to_json() == before


async def test_the_discard_panel_is_a_button_per_number_in_the_hand_and_one_click_discards(
    simcord_env, database
):
    """No menu to open: in the playground's page a menu at the window's bottom edge, under a
    picture, closes as it opens (SimCord's preview draws the pictures again and the page shifts)."""
    driver = RumBugzDriver(simcord_env, database)
    await driver.open()
    seat = driver.state().turn
    await driver.play(seat, {"type": "draw", "source": "bag"})
    hand = driver.state().hands[seat]
    panel = await driver.press(seat, "discard")
    assert "Discard" in panel.response.content
    offered = components(panel.response.message)
    assert all(c.type.value == 2 for c in offered), "the discard panel shows no menu"
    counts = Counter(NUMBER_OF[code] for code in hand)
    labels = [
        ("PLYT" if number is None else str(number)) + (f" (×{counts[number]})" if counts[number] > 1 else "")
        for number in dict.fromkeys(NUMBER_OF[code] for code in hand)
    ]
    assert [c.label for c in offered] == labels
    code = list(one_of_each(hand).values())[-1]
    game = driver.state()
    game.apply(seat, {"type": "discard", "bug": code})
    await driver.members[seat].click(panel.response, custom_id=driver.discard_button(panel, code).custom_id)
    assert driver.state().to_json() == game.to_json()


async def test_only_eligible_players_may_bid(simcord_env, database):
    driver = RumBugzDriver(simcord_env, database, players=3)
    outsider = driver.guild.add_member(simcord_env.create_user("zoe"))
    await driver.open()
    assert not any((move_of(c.custom_id) or "")[2:3] == ("bid",) for c in components(driver.table_message()))
    discarder = driver.state().turn
    while driver.state().bids is None:
        seat, action = oracle_move(driver.state())
        await driver.play(seat, action)
    game = driver.state()
    (eligible,) = game.bids.eligible
    before = game.to_json()
    assert any(
        c.label == f"Bid for the {NUMBER_OF[game.discard_pile[-1]]}"
        for c in components(driver.table_message())
    )

    for seat in (discarder, game.turn):
        refused = await driver.press(seat, "bid")
        assert "You cannot bid now" in ephemeral_text(refused)
    bid = component_for(driver.table_message(), driver.game_id, "bid")
    stranger = await outsider.click(driver.table_message(), custom_id=bid.custom_id)
    assert "not playing in this game" in ephemeral_text(stranger)
    assert driver.state().to_json() == before

    accepted = await driver.press(eligible, "bid")
    assert "You bid for the" in ephemeral_text(accepted)
    assert f"{NAMES[eligible]} bids for the discard!" in driver.channel.last_message.content
    await driver.press(game.turn, "bag")
    assert f"{NAMES[eligible]} wins the bid" in driver.channel.last_message.content


async def test_a_turn_timeout_draws_from_the_bag_then_discards_the_highest_bug(simcord_env, database):
    """One time limit for the whole turn: its draw and its discard are played together."""
    driver = RumBugzDriver(simcord_env, database, players=3)
    await driver.open(turn_timeout="1h")
    seat = driver.state().turn
    expected = driver.state()
    for step in ("draw", "discard"):
        default = expected.default_action(seat)
        assert default["type"] == step
        expected.apply(seat, default)
    await simcord_env.advance_time(1800 + 1)
    assert "half your time is gone" in driver.channel.last_message.content
    await simcord_env.advance_time(1800)
    assert driver.state().to_json() == expected.to_json()
    timed_out = [m.content for m in driver.channel.history() if "ran out of time" in m.content]
    assert len(timed_out) == 2 and all(NAMES[seat] in text for text in timed_out)
    actions = driver.query("SELECT action FROM actions WHERE game_id = ? AND by_timeout = 1", driver.game_id)
    assert [json.loads(action)["type"] for (action,) in actions] == ["draw", "discard"]
    # The next player's time starts with their turn: a whole time limit.
    assert driver.state().turn != seat and not driver.state().finished


async def test_a_hand_is_shown_only_to_its_owner(simcord_env, database):
    driver = RumBugzDriver(simcord_env, database, players=3)
    await driver.open()
    game = driver.state()
    anna = driver.members[0]
    mine = await anna.click(driver.table_message(), label="My hand")
    assert mine.response.ephemeral and driver.image_faces(mine.response) == game.hands[0]
    slash = await anna.slash(driver.channel, "rumbugz hand")
    assert slash.ephemeral and driver.image_faces(slash.response) == game.hands[0]
    table = await anna.slash(driver.channel, "rumbugz table")
    assert table.ephemeral and driver.image_faces(table.response) == []
    driver.assert_table_shows_only_public_bugz()
    driver.assert_channel_has_no_private_lines()
    for seat in range(3):
        shown = set(driver.image_faces(driver.dm_messages(seat)[0]))
        others = {code for other, hand in enumerate(game.hands) if other != seat for code in hand}
        assert shown == set(game.hands[seat]) and not shown & others
    rules = await anna.slash(driver.channel, "rumbugz rules")
    assert "PLYT" in rules.response.embeds[0].description
    score = await anna.slash(driver.channel, "rumbugz score")
    assert "anna" in score.response.embeds[0].description


async def test_a_plyt_taken_off_the_table_is_laid_again_the_same_turn(simcord_env, database):
    driver = RumBugzDriver(simcord_env, database, players=3)
    await driver.open()
    game = arrange(
        3,
        {0: ["2a", "3a", "5a", "6a", "11a"], 1: ["1a", "1b"], 2: ["1c", "1d"]},
        table=[(1, "simple", ["4a", "5b", ("Pa", 6), "7a"]), (0, "match", ["10a", "10b", "10c", "10d"])],
    )
    driver.arrange(game)
    win_back = {"type": "change", "sequence": 1, "add": [{"bug": "6a"}], "remove": ["Pa"]}
    lay = {"type": "lay", "kind": "simple", "bugz": seq("2a", "3a", ("Pa", 4), "5a")}
    for action in (win_back, lay):
        game.apply(0, action)

    # The table was drawn before the position was arranged: the player's hand has the right buttons.
    hand = await driver.members[0].click(driver.table_message(), label="My hand")
    panel = await driver.change(0, win_back, suggested=False, on=hand.response)
    assert "anna changes sequence #1 of bruno: adds 6, takes off PLYT." in panel.response.content
    assert "PLYT" in panel.response.embeds[0].description
    await driver.lay(0, lay, suggested=False, on=panel.response)
    assert driver.state().to_json() == game.to_json()


@pytest.mark.parametrize("language", ["en", "it", "fr"])
def test_a_change_that_only_adds_says_so_and_the_discard_pile_reads_in_words(language: str) -> None:
    from bot.adapter import Viewer
    from bot.games.rumbugz.adapter import ADAPTER
    from bot.i18n import t
    from games.core import Event

    viewer = Viewer(language, ["anna", "bruno"])
    params = {"seat": 0, "sequence": 1, "owner_seat": 1, "added": ["6a"], "removed": []}
    line = ADAPTER.describe(Event("rumbugz.event.changed", params), viewer)
    assert line == t(
        language, "rumbugz.ui.changed_adding", seat="anna", sequence=1, owner_seat="bruno", added="6"
    )
    game, _ = RumBugz.begin(2, {}, 3)
    view = game.view(None)
    footer = ADAPTER.table(view, viewer, DrawnAt(1)).embeds[0].footer.text
    top = view["discard_top"]
    pile = (
        t(language, "rumbugz.ui.discard_pile", bug=ADAPTER.label(top, viewer), count=view["discard_count"])
        if top
        else t(language, "rumbugz.ui.discard_pile_empty")
    )
    assert footer.endswith(pile), footer
