"""The engine contract: JSON round trip, illegal actions, views and translations."""

import json
import random
import re
import string
from pathlib import Path

import pytest

from games.core import GameError
from games.seriebum import SerieBum
from games.seriebum import engine as engine_module

from .builders import build

ROOT = Path(__file__).parents[2]
LOCALES = json.loads((ROOT / "bot/locales/seriebum.json").read_text(encoding="utf-8"))

EVENTS = {
    "manche_started", "turn", "flipped", "not_taken", "first_covered", "jolly_unusable", "bum_harmless",
    "discarded", "choose_placement", "pair_started", "pair_joined", "tile_placed", "ruba_empty",
    "choose_steal", "stolen", "bum_choose", "exploded", "tile_moved", "series_emptied", "board_dead",
    "manche_scored", "tie_extra_manche", "match_won", "player_left", "match_abandoned",
}  # fmt: skip
ERRORS = {
    "player_count", "match_over", "not_your_turn", "unknown_action", "not_now", "unknown_option",
    "bad_cell", "not_face_down", "not_a_player",
}  # fmt: skip


def random_actions(game, rng, count):
    for _ in range(count):
        if game.finished:
            return
        ((seat, _),) = game.to_act().items()
        action = rng.choice(game.legal_actions(seat))
        yield seat, action


def test_json_round_trip_is_exact_and_plays_on_identically():
    game = SerieBum.new(2, {"target": 200}, 2024)
    rng = random.Random(5)
    for seat, action in random_actions(game, rng, 120):
        game.apply(seat, action)
    data = game.to_json()
    text = json.dumps(data)
    clone = SerieBum.from_json(json.loads(text))
    assert json.dumps(clone.to_json()) == text
    assert clone.view(0) == game.view(0)
    follow = random.Random(9)
    for seat, action in random_actions(game, follow, 400):
        assert clone.apply(seat, action) == game.apply(seat, action)
        assert clone.to_json() == game.to_json()


@pytest.mark.parametrize(
    ("seat", "action", "key"),
    [
        (1, {"type": "flip", "cell": "A1"}, "not_your_turn"),
        (5, {"type": "flip", "cell": "A1"}, "not_your_turn"),
        (0, {"type": "flip", "cell": "H1"}, "bad_cell"),
        (0, {"type": "flip", "cell": 3}, "bad_cell"),
        (0, {"type": "flip"}, "bad_cell"),
        (0, {"type": "flip", "cell": "C1"}, "not_face_down"),
        (0, {"type": "dance"}, "unknown_action"),
        (0, {}, "unknown_action"),
        (0, {"type": "end_turn"}, "not_now"),
        (0, {"type": "place", "option": "new"}, "not_now"),
        (0, {"type": "move", "option": "R50>1"}, "unknown_option"),
        (0, {"type": "move"}, "unknown_option"),
    ],
)
def test_illegal_actions_leave_the_state_untouched(seat, action, key):
    game = build({"A1": "Y10", "B1": "W60", "G5": "RUBA1"}, mine=["run:R30 R40 R50", "set:Y30 W30"])
    before = json.dumps(game.to_json())
    with pytest.raises(GameError) as error:
        game.apply(seat, action)
    assert error.value.key == f"seriebum.error.{key}"
    assert json.dumps(game.to_json()) == before


def test_illegal_actions_in_pending_decisions_leave_the_state_untouched():
    game = build({"A1": "BUM1", "B1": "Y10", "G5": "RUBA1"}, mine=["run:R10 R20 R30"])
    game.apply(0, {"type": "flip", "cell": "A1"})
    before = json.dumps(game.to_json())
    for seat, action in [
        (0, {"type": "bum", "option": "0:R10+R20"}),
        (1, {"type": "bum", "option": "0:R10+R30"}),
        (1, {"type": "flip", "cell": "B1"}),
    ]:
        with pytest.raises(GameError):
            game.apply(seat, action)
        assert json.dumps(game.to_json()) == before
    finished = build({"A1": "Y10"})
    finished.remove_player(1)
    with pytest.raises(GameError) as error:
        finished.remove_player(0)
    assert error.value.key == "seriebum.error.match_over"


def test_view_shape_for_the_renderer():
    game = build(
        {"A1": "Y10", "B1": "W60", "G5": "RUBA1"}, mine=["run:R30 R40 R50", "set:Y30 W30"], points=(40, 70)
    )
    view = game.view(0)
    assert view["me"] == 0 and view["turn"] == 0 and view["phase"] == "flip"
    assert view["to_act"] == [{"seat": 0, "actions": ["flip", "move"]}]
    assert view["columns"] == "ABCDEFG" and view["rows"] == 5 and len(view["cells"]) == 35
    assert view["face_down"] == 3 and view["out_of_game"] == 35 - 3 - 5
    assert view["totals"] == [40, 70] and view["target"] == 1000 and view["manche"] == 1
    assert view["players"][0] == {
        "seat": 0,
        "total": 40,
        "manche_points": 120,
        "series": [
            {"kind": "run", "tiles": ["R30", "R40", "R50"], "points": 120},
            {"kind": "set", "tiles": ["Y30", "W30"], "points": 0},
        ],
    }
    assert {"type": "flip", "cell": "A1"} in view["actions"]
    assert {"type": "move", "option": "R30>1"} in view["actions"]
    assert game.view(None)["actions"] == [] and game.view(1)["actions"] == []
    assert view["pending"] is None and view["finished"] is False and view["winner"] is None


def test_every_key_the_engine_can_emit_is_translated():
    source = Path(engine_module.__file__).read_text(encoding="utf-8")
    used = set(re.findall(r'_event\(\s*"(\w+)"', source)) | set(
        re.findall(r'_special_unused\("(\w+)"', source)
    )
    assert used <= EVENTS
    # Game.check_player_count raises player_count for every game.
    assert set(re.findall(r'_error\(\s*"(\w+)"', source)) | {"player_count"} == ERRORS
    for name in EVENTS:
        assert f"seriebum.event.{name}" in LOCALES
    for name in ERRORS:
        assert f"seriebum.error.{name}" in LOCALES


def test_translations_are_complete_and_consistent():
    formatter = string.Formatter()
    for key, texts in LOCALES.items():
        assert key.startswith("seriebum.")
        assert set(texts) == {"en", "it", "fr"}, key
        fields = [{name for _, name, _, _ in formatter.parse(text) if name} for text in texts.values()]
        assert fields[0] == fields[1] == fields[2], key
    for language in ("en", "it", "fr"):
        assert len(LOCALES["seriebum.rules"][language]) < 1800
