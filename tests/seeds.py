"""Seeded playouts split into batches: one test per batch, so that test workers share them."""

from __future__ import annotations

from typing import Any

import pytest


def seed_batches(count: int, size: int) -> list[Any]:
    """``count`` seeds from 0 as pytest parameters of at most ``size`` consecutive seeds each."""
    batches = [range(first, min(first + size, count)) for first in range(0, count, size)]
    return [pytest.param(seeds, id=f"seeds-{seeds.start}-{seeds.stop - 1}") for seeds in batches]
