"""Tests that kill random mutants of the seed-6 sample (docs/MUTANTS.md, the rows of branch
mutfix6b) in engine code no ruling reaches, so no fixture can: the seeded generator's
algorithm (docs/FORMAT.md §7, a contract of the suite, not a rule of the game), the layer
system's kept result across a rollback (a cache), and the return value of the priority
round's check. Each test names the mutant it was written for."""

from __future__ import annotations

import pytest

from mtg_judge.engine import characteristics as ch
from mtg_judge.engine import sagas
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.rng import SplitMix64
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game


def _game(battlefield: list[dict]):
    """Alice's precombat main phase of turn 3 with ``battlefield`` hers, no input."""
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                          "players": [{"id": "alice", "battlefield": battlefield}, {"id": "bob"}]}}
    return build_game(scenario, "modern", _card_db(None), ScriptInputs([]))


def test_the_generator_is_splitmix64_with_its_published_outputs():
    # engine/rng.py SplitMix64.next `z ^ (z >> 27)` -> `>> 28` (seed 6): no fixture leaves a
    # random outcome to the generator and checks which one came out, but docs/FORMAT.md §7
    # names the algorithm so that another engine reproduces every unscripted shuffle and
    # random discard of a seed. These are SplitMix64's reference outputs for seed 0 (Steele,
    # Lea & Flood 2014; Vigna's splitmix64.c), not values read from the engine.
    r = SplitMix64(0)
    assert [r.next() for _ in range(4)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                             0x06C45D188009454F, 0xF88BB8A8724C81EC]
    assert SplitMix64(1 << 64).next() == 0xE220A8397B1DCDAF  # the state is the seed mod 2**64


# A seed whose first 63-bit draw, next() >> 1, is 2**63 - 2: for n = 3 that is exactly
# (2**63 // 3) * 3, the first value FORMAT §7's rejection sampling refuses. Found by running
# SplitMix64's output function backwards (each step is invertible: xor-shifts and
# multiplications by odd constants), checked below with next() itself.
REJECTED_FIRST = 7257538407534371759


def test_below_rejects_a_draw_at_or_over_the_largest_multiple_of_n():
    # engine/rng.py SplitMix64.below `((1 << 63) // n) * n`: `1` -> `2` and `63` -> `64`
    # (seed 6; both make the limit (2**64 // n) * n, which no 63-bit draw reaches, so nothing
    # is ever rejected). FORMAT §7: `x = next() >> 1` until `x < (2^63 // n) * n`, then
    # `x % n`. With REJECTED_FIRST the first draw is refused and the second one decides.
    limit = ((1 << 63) // 3) * 3
    probe = SplitMix64(REJECTED_FIRST)
    first, second = probe.next() >> 1, probe.next() >> 1
    assert first == limit and second < limit  # the seed is what the comment says
    assert SplitMix64(REJECTED_FIRST).below(3) == second % 3 == 2
    assert first % 3 == 0  # what a generator without the rejection would have answered


def test_the_check_before_priority_says_whether_anything_happened():
    # engine/priority.py Priority.check_state_and_triggers `return anything` -> `return None`
    # (seed 6): the engine's own caller resets its pass count either way, but the method's
    # answer is its documented result (CR 117.5: state-based actions and triggers are checked
    # before a player receives priority): True when a state-based action was performed (a
    # creature with lethal damage is destroyed, CR 704.5g), False when nothing happened.
    game = _game([{"alias": "bears", "card": "Grizzly Bears"}])
    assert game.check_state_and_triggers() is False
    game.find("bears").damage = 2
    assert game.check_state_and_triggers() is True
    assert [o.card for o in game.players["alice"].graveyard] == ["bears"]
    assert game.check_state_and_triggers() is False


def test_a_rolled_back_action_keeps_no_layer_result_the_game_had_outgrown():
    # engine/layers/system.py LayerSystem.checkpoint `if r is None or self._key != ... :`
    # -> `if not (...)` (seed 6): checkpoint gives the kept result only while it is the
    # game's now. Every fixture's game queries the layers after each change before a
    # transaction or a dry run saves the state, so the kept result is never stale there;
    # with the mutant a stale result would be saved and put back by the rollback as if it
    # were current. Here a +1/+1 counter is put on the Bears after their characteristics
    # were computed, and an action is rolled back before anything asks again: the Bears
    # must then be 3/3 (CR 122.1a), not the 2/2 the result kept from before the counter.
    game = _game([{"alias": "bears", "card": "Grizzly Bears"}])
    bears = game.find("bears")
    assert ch.power_toughness(game, bears) == (2, 2)
    assert game.layers.checkpoint() is not None  # the result just computed is the game's now
    sagas.put_counters(game, bears, "+1/+1", 1)
    assert game.layers.checkpoint() is None  # the counter changed the game: nothing to keep
    with pytest.raises(IllegalAction):
        with game.transaction():
            raise IllegalAction("invalid_choice", "an action refused half-way")
    assert ch.power_toughness(game, bears) == (3, 3)
