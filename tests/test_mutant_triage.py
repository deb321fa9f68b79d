"""Tests that kill random mutants (``mtg-judge mutants --random``, docs/MUTANTS.md) in engine
code that no ruling reaches, so no fixture can: each names the mutant it was written for."""

from __future__ import annotations

import copy

import pytest

from mtg_judge.engine.cards import FrozenDict


def test_frozen_card_data_is_shared_by_copy_and_deepcopy():
    # engine/cards.py FrozenDict.__copy__ `return self` -> `return None` (seed 1 sample):
    # card data is read-only and shared by every game, never copied.
    data = FrozenDict({"name": "Grizzly Bears", "power": 2})
    assert copy.copy(data) is data
    assert copy.deepcopy(data) is data
    assert copy.deepcopy({"card": data})["card"] is data
    with pytest.raises(TypeError, match="read-only"):
        data["power"] = 3
