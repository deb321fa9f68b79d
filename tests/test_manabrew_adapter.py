"""The manabrew-engine adapter (tools/adapters/manabrew/, docs/MANABREW.md), over protocol v1.

The adapter is a Rust program built by ``tools/adapters/manabrew/build.sh`` (manabrew-engine
from the Rust crate registry, Forge's cardset from the npm package @manabrew/forge-wasm); the
Python install does not build it. These tests run it when it is built, found at
``$MTG_JUDGE_MANABREW`` or at the build's default path, and are skipped otherwise.

* The handshake declares what the adapter gives: the final state only, under ``modern``.
* A few fixtures it plays meet their fixture's ``expect.state`` (the expectation written from
  the ruling; the event checks need the ``events`` capability the adapter does not claim),
  with every message validated against the schemas.
* A scenario with an input it does not translate is skipped, and the message names the field.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_adapters import scenario

from mtg_judge.conformance.expect import check, format_mismatches
from mtg_judge.conformance.protocol import ProtocolEngine, Result, Skipped

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BINARY = ROOT / "tools" / "adapters" / "manabrew" / "target" / "debug" / "mtg-judge-manabrew"


def manabrew_command_path() -> str:
    """The built adapter ($MTG_JUDGE_MANABREW or build.sh's default path); skips the test
    when it is not built."""
    binary = Path(os.environ.get("MTG_JUDGE_MANABREW", DEFAULT_BINARY))
    if not binary.is_file():
        pytest.skip(f"the manabrew adapter is not built ({binary}): tools/adapters/manabrew/build.sh")
    return str(binary)


@pytest.fixture(scope="module")
def manabrew_command() -> str:
    return manabrew_command_path()


def state_only(sc: dict) -> dict:
    """The scenario with only its ``expect.state``: what a state-only engine is judged on
    (PROTOCOL §3, "Checks and capabilities")."""
    return {**sc, "expect": {"state": sc["expect"]["state"]}}


def test_manabrew_handshake_declares_state_only(manabrew_command):
    with ProtocolEngine(manabrew_command, timeout=60, validate=True) as engine:
        impl = engine.implementation
    assert impl["name"] == "manabrew-engine"
    assert impl["language"] == "rust"
    assert impl["capabilities"] == ["state"] and impl["rulesets"] == ["modern"]


@pytest.mark.parametrize("fixture_id", [
    "classic.stack.last-in-first-out",  # two instants, the last cast resolves first (CR 608.1)
    "classic.combat.unblocked-damages-player-blocked-damages-blocker",  # CR 510.1
    "classic.golden-rule.extra-turn-after-this-one",  # Time Walk: an extra turn, then bob's (CR 500.7)
    "timespiral.flashback.cast-from-graveyard-then-exiled",  # alternative: flashback (CR 702.34a)
    "finalfantasy.adventure.exiled-adventurer-is-cast-as-the-creature-not-the-adventure",  # face: adventure (CR 715.4)
    "classic.card-types.aura-goes-to-graveyard-when-its-creature-leaves",  # setup attached_to (CR 303.4c, 704.5m)
    "timespiral.suspend.cast-during-upkeep-with-haste",  # time counters in exile; the cast as suspend's trigger resolves (CR 702.62a)
])
def test_manabrew_meets_the_state_expectation(manabrew_command, fixture_id):
    sc = scenario(fixture_id)
    assert "state" in sc["expect"]
    with ProtocolEngine(manabrew_command, timeout=60, validate=True) as engine:
        reply = engine.run(sc, "modern")
    assert isinstance(reply, Result), reply
    mismatches = check(state_only(sc), reply.result())
    assert not mismatches, format_mismatches(mismatches)


def test_manabrew_skips_what_it_cannot_translate(manabrew_command):
    sc = scenario("classic.stack.last-in-first-out")
    sc["script"] = [{**sc["script"][0], "modes": [0]}, *sc["script"][1:]]
    with ProtocolEngine(manabrew_command, timeout=60, validate=True) as engine:
        reply = engine.run(sc, "modern")
    assert isinstance(reply, Skipped)
    assert reply.message == "script[0].modes is not translated"


@pytest.mark.parametrize(("change", "message"), [
    ({"alternative": "madness"}, 'script[0].alternative "madness" is not translated'),
    ({"face": "omen"}, 'script[0].face "omen" (manabrew offers no mode that casts an Omen) is not translated'),
    ({"face": "adventure", "alternative": "flashback"}, "script[0].face with an alternative cost is not translated"),
])
def test_manabrew_skips_cast_modes_it_cannot_translate(manabrew_command, change, message):
    sc = scenario("classic.stack.last-in-first-out")
    sc["script"] = [{**sc["script"][0], **change}, *sc["script"][1:]]
    with ProtocolEngine(manabrew_command, timeout=60, validate=True) as engine:
        reply = engine.run(sc, "modern")
    assert isinstance(reply, Skipped)
    assert reply.message == message


def test_manabrew_skips_what_a_card_outside_the_battlefield_carries():
    """Only the battlefield's permanents and exile's counters are set up: a field on a card
    in another zone would be dropped silently, so the case skips naming it."""
    sc = scenario("classic.stack.last-in-first-out")
    hand = sc["setup"]["players"][0]["hand"]
    hand[0] = {**hand[0], "counters": {"time": 1}}
    with ProtocolEngine(manabrew_command_path(), timeout=60, validate=True) as engine:
        reply = engine.run(sc, "modern")
    assert isinstance(reply, Skipped)
    assert reply.message == "setup.players[0].hand[0].counters is not translated"
