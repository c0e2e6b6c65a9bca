"""The check every engine's rule tests share: an illegal action is refused and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from games.core import Game, GameError


def refused(game: Game, seat: int, action: Mapping[str, Any], key: str) -> GameError:
    """``action`` raises the error ``key`` and leaves the state as it was; returns the error."""
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(GameError) as error:
        game.apply(seat, action)
    assert error.value.key == key
    assert json.dumps(game.to_json(), sort_keys=True) == before
    return error.value
