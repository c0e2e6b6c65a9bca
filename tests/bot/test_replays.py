"""Replays through the real bot: a finished match, position by position, from /history and /replay;
what is refused; the match file and its offline replay."""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from PIL import Image

from bot import replay as offline
from bot.adapter import Viewer
from bot.games.bue.adapter import ADAPTER as BUE
from bot.render import faces_in
from tests.bot.bue_driver import BueDriver
from tests.bot.driver import components
from tests.bot.forging import forge_click
from tests.bot.seriebum_driver import SerieBumDriver
from tests.bot.test_bue_play import ephemeral_text
from tests.bot.test_records_play import italian  # noqa: F401 - the fixture

VIEWER = Viewer("en", ["anna", "bruno"])


async def finished_bue_match(env: Any, database: str, target: int = 10) -> BueDriver:
    driver = BueDriver(env, database, players=2)
    rng = random.Random(21)
    await driver.open(target=target)
    while driver.status() == "running":
        await driver.play_one(rng)
    return driver


def position(panel: Any) -> tuple[int, int]:
    found = re.search(r"position (\d+) of (\d+)", panel.content)
    assert found, panel.content
    return int(found[1]), int(found[2])


def hands_shown(panel: Any) -> dict[str, str]:
    """The hands a panel lists, by seat name."""
    titles = ("Every hand", "Your hand")
    return {
        field.name: field.value for embed in panel.embeds if embed.title in titles for field in embed.fields
    }


def picture_faces(env: Any, panel: Any) -> Counter[str]:
    (picture,) = [a for a in panel.attachments if a.filename.endswith(".png")]
    return Counter(faces_in(env.backend.cdn.get(picture.url)))


def custom_id(panel: Any, label: str) -> str:
    return next(c.custom_id for c in components(panel) if getattr(c, "label", None) == label)


async def test_a_bue_match_is_replayed_from_history_to_its_end_hands_hidden_then_shown(simcord_env, database):
    driver = await finished_bue_match(simcord_env, database, target=110)
    anna = driver.members[0]
    watcher = driver.guild.add_member(simcord_env.create_user("watcher"))
    history = await anna.slash(driver.channel, "history")
    assert history.response.embeds[0].description.startswith("`1.` **Bué**")

    # Someone who only watched: the table, no hand.
    opened = await watcher.click(history.response, label="Replay 1")
    panel = opened.response
    assert panel.ephemeral and position(panel)[0] == 0
    assert hands_shown(panel) == {}
    game = driver.state()

    # A player sees their own hand at every position, and only theirs until hands are shown.
    panel = (await anna.click(history.response, label="Replay 1")).response
    assert list(hands_shown(panel)) == ["anna"]
    step, last = position(panel)
    while step < last:
        panel = (await anna.click(panel, label="Next")).response
        assert position(panel)[0] == step + 1
        step += 1
        assert list(hands_shown(panel)) == ["anna"]
    assert "wins the match" in panel.content
    # The last position is the match as it finished: the table shows only what the channel saw.
    assert picture_faces(simcord_env, panel) == driver.public_faces(game)
    assert hands_shown(panel)["anna"] == BUE.labels(game.hand(0), VIEWER)

    shown = (await anna.click(panel, label="Show hands")).response
    assert position(shown) == (last, last)
    hands = hands_shown(shown)
    assert list(hands) == ["anna", "bruno"]
    assert hands == {name: BUE.labels(game.hand(seat), VIEWER) for seat, name in enumerate(["anna", "bruno"])}
    first = (await anna.click(shown, label="First")).response
    assert position(first)[0] == 0 and len(hands_shown(first)) == 2
    hidden = (await anna.click(first, label="Hide hands")).response
    assert list(hands_shown(hidden)) == ["anna"]

    # A jump to the start of a round: the position after the previous round was scored.
    (select,) = [c for c in components(hidden) if c.custom_id.startswith("rs:")]
    rounds = driver.query("SELECT COUNT(DISTINCT number) FROM round_totals")[0][0]
    assert [option.label for option in select.options] == [f"Game {n}" for n in range(1, rounds + 1)]
    second = select.options[1]
    jumped = (await anna.select(hidden, [second.value], custom_id=select.custom_id)).response
    assert position(jumped)[0] == int(second.value) > 0
    assert re.search(r"Game 2 of \d+", jumped.content) and "Game 1: result" in jumped.content
    assert not any("<@" in line for line in hidden.content.splitlines())


async def test_the_results_of_a_match_carry_its_table_round_by_round(simcord_env, database):
    driver = await finished_bue_match(simcord_env, database)
    (message_id,) = driver.query("SELECT results_message_id FROM games")[0]
    results = next(m for m in driver.channel.history() if m.id == message_id)
    animation = next(a for a in results.attachments if a.filename == "match.gif")
    rounds = driver.query("SELECT COUNT(DISTINCT number) FROM round_totals")[0][0]
    with Image.open(io.BytesIO(simcord_env.backend.cdn.get(animation.url))) as gif:
        assert gif.n_frames == rounds > 0


async def seriebum_finished_by_stand_ins(env: Any, database: str) -> SerieBumDriver:
    """Two people who let their turns run out: computers stand in and finish the match."""
    driver = SerieBumDriver(env, database)
    await driver.open(target=10, turn_timeout="10m")
    for _ in range(2000):
        if driver.status() != "running":
            return driver
        await env.advance_time(601 if not driver.query("SELECT 1 FROM timers WHERE kind = 'robot'") else 2.1)
    raise AssertionError("the stand-ins never finished the match")


@pytest.mark.simcord(settle_timeout=30)
async def test_a_seriebum_match_is_replayed_by_name_and_a_panel_survives_a_restart(
    simcord_env, database, make_bot
):
    driver = await seriebum_finished_by_stand_ins(simcord_env, database)
    anna = driver.members[0]
    offered = await anna.autocomplete(driver.channel, "replay", "match", "")
    assert len(offered) == 1 and offered[0]["name"].startswith("Serie Bum! · ")
    assert await anna.autocomplete(driver.channel, "replay", "match", "rummikub") == []
    panel = (await anna.slash(driver.channel, "replay", match=offered[0]["value"])).response
    assert panel.ephemeral and position(panel)[0] == 0
    labels = [getattr(c, "label", None) for c in components(panel)]
    assert "Show hands" not in labels  # Serie Bum! keeps no hands
    last = (await anna.click(panel, label="Last")).response
    assert "wins the match" in last.content
    end, _ = position(last)

    # The panel's state is in its ids: it goes on after a restart.
    await simcord_env.restart_bot(make_bot())
    previous = (await anna.click(last, label="Previous")).response
    assert position(previous)[0] == end - 1

    # Who played a seat changed during the match: the replay says so where it happened.
    (stand_in, *_) = [
        step
        for (step,) in driver.query(
            "SELECT number FROM actions WHERE game_id = ? AND action LIKE '%stand_in%' ORDER BY number",
            driver.game_id,
        )
    ]
    there = await forge_click(
        simcord_env, anna, driver.channel, driver.channel.last_message, f"rp:{driver.game_id}:{stand_in}:0:n"
    )
    assert position(there.response)[0] == stand_in
    assert "A computer plays for **anna**, who is away." in there.response.content

    forged = await forge_click(
        simcord_env, anna, driver.channel, driver.channel.last_message, f"rp:{driver.game_id}:99999:0:n"
    )
    assert forged.response.ephemeral and "not in the match" in ephemeral_text(forged)


async def test_what_has_no_replay_is_refused_privately(simcord_env, database, caplog, italian):  # noqa: F811
    driver = await finished_bue_match(simcord_env, database)
    finished = driver.game_id
    anna = driver.members[0]
    await driver.open(target=10)
    running = await anna.slash(driver.channel, "replay", match=str(driver.game_id))
    assert running.response.ephemeral and "a running match has no replay" in running.response.content

    for forged in ("abc", "99999", "-1", "1" * 40):
        unknown = await anna.slash(driver.channel, "replay", match=forged)
        assert unknown.response.ephemeral and "no finished match" in unknown.response.content

    elsewhere = BueDriver(simcord_env, database, players=1)
    other = await elsewhere.members[0].slash(elsewhere.channel, "replay", match=str(finished))
    assert other.response.ephemeral and "another server" in other.response.content
    assert await elsewhere.members[0].autocomplete(elsewhere.channel, "replay", "match", "") == []

    # A log that no longer replays to the match is never shown wrong.
    driver.query(
        "DELETE FROM actions WHERE game_id = ?"
        " AND number = (SELECT MAX(number) FROM actions WHERE game_id = ?)",
        finished,
        finished,
    )
    broken = await anna.slash(driver.channel, "replay", match=str(finished))
    assert broken.response.ephemeral and "cannot be replayed" in broken.response.content

    italian()
    in_italian = await anna.slash(driver.channel, "replay", match=str(driver.game_id))
    assert "una sfida in corso non si può rivedere" in in_italian.response.content
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


async def test_the_match_file_replays_offline_and_a_changed_file_is_refused(
    simcord_env, database, tmp_path, capsys
):
    driver = await finished_bue_match(simcord_env, database)
    anna = driver.members[0]
    panel = (await anna.slash(driver.channel, "replay", match=str(driver.game_id))).response
    exported = (await anna.click(panel, label="Match file")).response
    assert exported.ephemeral and "python -m bot.replay" in exported.content
    (attachment,) = exported.attachments
    data = json.loads(simcord_env.backend.cdn.get(attachment.url))
    game = driver.state()
    assert data["game"] == "bue" and data["result"] == {"totals": game.totals(), "winner": game.winner()}
    assert len(data["actions"]) == driver.query("SELECT COUNT(*) FROM actions")[0][0]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data))

    assert offline.main([str(path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len([line for line in printed if re.match(r"\s*\d+ ", line)]) == len(data["actions"]) + 1
    assert f"Winner: {['anna', 'bruno'][game.winner()]}" in printed

    changed = dict(data, seed=data["seed"] + 1)
    path.write_text(json.dumps(changed))
    assert offline.main([str(path)]) == 1
    assert "changed since it was exported" in capsys.readouterr().err
