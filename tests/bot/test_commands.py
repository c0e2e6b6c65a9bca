"""The slash commands as Discord receives them when the bot syncs."""

from __future__ import annotations

from discord import AppCommandOptionType


async def test_start_offers_the_game_options_in_the_engine_ranges_then_the_timeout_and_computers(make_bot):
    bot = make_bot()
    await bot.load_extension("bot.games.rummikub")
    (group,) = bot.tree.get_commands()
    start = next(option for option in group.to_dict(bot.tree)["options"] if option["name"] == "start")
    offered = [
        (option["name"], option["type"], option.get("min_value"), option.get("max_value"), option["required"])
        for option in start["options"]
    ]
    assert offered == [
        ("rounds", AppCommandOptionType.integer.value, 1, 20, False),
        ("target", AppCommandOptionType.integer.value, 0, 1000, False),
        ("hints", AppCommandOptionType.boolean.value, None, None, False),
        ("stand_in", AppCommandOptionType.boolean.value, None, None, False),
        ("turn_timeout", AppCommandOptionType.string.value, None, None, False),
        ("clock", AppCommandOptionType.string.value, None, None, False),
        ("computers", AppCommandOptionType.integer.value, 0, 3, False),
        ("computer_level", AppCommandOptionType.string.value, None, None, False),
    ]
    levels = next(option for option in start["options"] if option["name"] == "computer_level")
    assert [choice["value"] for choice in levels["choices"]] == ["easy", "hard"]
    assert start["options"][0]["description"] == "Number of rounds (default 1)"
