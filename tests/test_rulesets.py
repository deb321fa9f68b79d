"""The rulesets (DESIGN §3): every switch of ``mtg_judge.engine.rulesets.Ruleset``, documented in its
class docstring, and shown by a tiny scenario whose log or state differs with the switch.

Scenarios are built here from the project's card files (``fixtures/cards``) and run with
``engine.run_scenario(scenario, ruleset)``. A switch that no two rulesets set differently
(``max_hand_size``, ``first_player_skips_draw``) is shown under a
test-only ruleset registered for the test (``custom_ruleset``). The end of the file tests
``mtg_judge.conformance.expect.for_ruleset``, which picks a fixture's expectation per ruleset.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from mtg_judge import engine
from mtg_judge.conformance.expect import check, for_ruleset
from mtg_judge.engine import rulesets
from mtg_judge.engine.cards import CardDefinition, load_card_db
from mtg_judge.engine.rulesets import RULESETS, Ruleset

ALL = ("classic-1999", "timespiral-2006", "modern")
OLD = ("classic-1999", "timespiral-2006")
#: The fields of Ruleset that are not switches.
NOT_SWITCHES = ("name", "description")
SWITCHES = tuple(f.name for f in dataclasses.fields(Ruleset) if f.name not in NOT_SWITCHES)


# --------------------------------------------------------------------------------------------
# Building scenarios


def library(prefix: str, n: int = 6, card: str = "Island") -> list[dict]:
    return [{"alias": f"{prefix}_lib{i}", "card": card} for i in range(1, n + 1)]


def scenario(script: list[dict], alice: dict | None = None, bob: dict | None = None,
             step: str = "precombat_main", turn: int = 3, **setup) -> dict:
    """A two-player scenario, alice active; each player gets a small library of Islands
    unless their dict gives one."""
    players = [{"id": "alice", "library": library("a"), **(alice or {})},
               {"id": "bob", "library": library("b"), **(bob or {})}]
    return {"id": "test.rulesets.scenario", "title": "a ruleset switch",
            "rulings": [], "rulesets": list(ALL),
            "setup": {"seed": 0, "turn": turn, "active_player": "alice", "step": step,
                      "players": players, **setup},
            "script": script}


def run(scen: dict, ruleset: str, cards=None) -> dict:
    return engine.run_scenario(scen, ruleset, cards=cards)


def of_type(result: dict, type_: str, **fields) -> list[dict]:
    """The events of ``type_`` whose fields include ``fields``."""
    return [e for e in result["events"]
            if e["type"] == type_ and all(e.get(k) == v for k, v in fields.items())]


def index(result: dict, type_: str, **fields) -> int:
    """The index of the first event of ``type_`` with ``fields`` (fails if there is none)."""
    for i, e in enumerate(result["events"]):
        if e["type"] == type_ and all(e.get(k) == v for k, v in fields.items()):
            return i
    raise AssertionError(f"no {type_} event with {fields} in the log")


def rejections(result: dict) -> list[tuple[int, str]]:
    return [(e["at"], e["code"]) for e in of_type(result, "action_rejected")]


def advance(to: str) -> dict:
    return {"action": "advance", "to": to}


def attack(*attackers: str) -> list[dict]:
    """From precombat main: go to declare attackers and declare ``attackers``."""
    return [advance("declare_attackers"),
            {"action": "declare_attackers", "player": "alice", "attackers": list(attackers)}]


def block(*pairs: tuple[str, str]) -> list[dict]:
    return [advance("declare_blockers"),
            {"action": "declare_blockers", "player": "bob",
             "blocks": [{"blocker": b, "attacker": a} for b, a in pairs]}]


@pytest.fixture
def custom_ruleset(monkeypatch):
    """Register a test-only ruleset: ``custom_ruleset(base, **switches)`` returns its name
    (``base`` with ``switches`` changed), known to ``engine.get_ruleset`` for this test."""

    def make(base: str = "modern", **switches) -> str:
        name = f"test-{base}-" + "-".join(f"{k}={v}" for k, v in sorted(switches.items()))
        ruleset = dataclasses.replace(RULESETS[base], name=name, **switches)
        monkeypatch.setitem(rulesets.RULESETS, name, ruleset)
        return name

    return make


# --------------------------------------------------------------------------------------------
# The rulesets and their documentation


def test_three_rulesets_with_descriptions():
    assert set(RULESETS) == set(ALL)
    for name, ruleset in RULESETS.items():
        assert ruleset.name == name
        assert len(ruleset.description) > 40


def _documented_switches() -> list[str]:
    """The names of the docstring's bullet list (``- ``name``: ...``)."""
    return re.findall(r"^\s*- ``(\w+)``:", Ruleset.__doc__ or "", flags=re.MULTILINE)


def test_every_switch_is_documented_in_the_class_docstring():
    documented = _documented_switches()
    assert sorted(documented) == sorted(SWITCHES), (
        f"undocumented: {sorted(set(SWITCHES) - set(documented))}; "
        f"documented but not a field: {sorted(set(documented) - set(SWITCHES))}")
    assert len(documented) == len(set(documented))


def test_every_switch_has_a_test_of_its_own():
    tests = {name for name in globals() if name.startswith("test_")}
    for switch in SWITCHES:
        assert any(switch in t for t in tests), (
            f"no test_*{switch}* in this file: show the switch's visible difference with a "
            "tiny scenario")


README = Path(__file__).resolve().parents[1] / "README.md"


def _readme_cell_value(cell: str):
    """A value cell of README's switch table: ``yes``/``no`` (a bool), a number (an int) or
    a backticked word (a str), each optionally followed by a parenthesised remark."""
    cell = cell.strip()
    if m := re.match(r"`([^`]+)`", cell):
        return m.group(1)
    if m := re.match(r"(yes|no)\b", cell):
        return m.group(1) == "yes"
    if m := re.match(r"(-?\d+)\b", cell):
        return int(m.group(1))
    raise AssertionError(f"README Rulesets table: can't read the value {cell!r}")


def readme_switch_table(text: str | None = None) -> tuple[list[str], dict[str, dict[str, object]]]:
    """The switch table of README.md's "Rulesets" section (the table whose header starts
    ``| switch |``): ``(ruleset names in column order, {switch: {ruleset: value}})``. The
    first cell of a row is the backticked switch name (an optional remark may follow)."""
    text = README.read_text(encoding="utf-8") if text is None else text
    section = text[text.index("\n## Rulesets"):]
    section = section[:section.find("\n## ", 1)] if "\n## " in section[1:] else section
    lines = section.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("| switch |"))
    rulesets_ = [re.fullmatch(r"`([^`]+)`", c.strip()).group(1)
                 for c in lines[head].strip().strip("|").split("|")[1:]]
    table: dict[str, dict[str, object]] = {}
    for line in lines[head + 2:]:
        if not line.startswith("|"):
            break
        cells = line.strip().strip("|").split("|")
        switch = re.match(r"\s*`(\w+)`", cells[0]).group(1)
        assert switch not in table, f"README Rulesets table: {switch} has two rows"
        assert len(cells) == 1 + len(rulesets_), f"README Rulesets table: row {switch} has {len(cells)} cells"
        table[switch] = {r: _readme_cell_value(c) for r, c in zip(rulesets_, cells[1:])}
    return rulesets_, table


def test_readme_switch_table_parser():
    text = ("intro\n## Rulesets\n\n| switch | `a` | `b` |\n|---|---|---|\n"
            "| `x` (a remark, with `code`) | yes | no (each phase) |\n| `y` | `london` | 7 |\n\nafter\n"
            "## Next\n| switch | `c` |\n")
    assert readme_switch_table(text) == (["a", "b"], {"x": {"a": True, "b": False},
                                                      "y": {"a": "london", "b": 7}})


def test_readme_rulesets_table_matches_engine_rulesets():
    """README's "Rulesets" switch table, parsed, against every switch of every ruleset of
    engine/rulesets.py: the same rulesets, the same switches, the same values."""
    columns, table = readme_switch_table()
    assert sorted(columns) == sorted(RULESETS), "README Rulesets table: one column per ruleset"
    assert set(table) == set(SWITCHES), (
        f"README Rulesets table lacks rows for {sorted(set(SWITCHES) - set(table))} and has rows "
        f"for no switch: {sorted(set(table) - set(SWITCHES))}; a new switch also needs a "
        "test_<switch> test of its own here")
    for name, ruleset in RULESETS.items():
        for switch in SWITCHES:
            value = switch_value(ruleset, switch)
            assert table[switch][name] == value, (
                f"README Rulesets table says {switch} = {table[switch][name]!r} under {name}; "
                f"engine/rulesets.py sets {value!r}")
            assert type(table[switch][name]) is type(value), (switch, name)


def switch_value(ruleset: Ruleset, switch: str) -> object:
    """The value of a switch as README's table writes it: a bool or an int as it is, a
    strategy object (``legend_rule``, ``mulligan``) by its ``name``."""
    value = getattr(ruleset, switch)
    return value.name if isinstance(value, (rulesets.LegendRule, rulesets.MulliganRule)) else value


# --------------------------------------------------------------------------------------------
# mana_burn


@pytest.mark.parametrize("ruleset, burned", [("classic-1999", 2), ("timespiral-2006", 2),
                                             ("modern", 0)])
def test_mana_burn(ruleset, burned):
    """Two unspent mana at the end of the precombat main phase: 2 life under the old rules."""
    scen = scenario(
        [{"action": "activate", "player": "alice", "source": "forest", "ability": 0},
         {"action": "activate", "player": "alice", "source": "mountain", "ability": 0},
         advance("beginning_of_combat")],
        alice={"battlefield": [{"alias": "forest", "card": "Forest"},
                               {"alias": "mountain", "card": "Mountain"}]})
    result = run(scen, ruleset)
    emptied = index(result, "mana_emptied", player="alice")
    assert result["events"][emptied]["mana"] == {"G": 1, "R": 1}
    assert emptied < index(result, "step_began", step="beginning_of_combat")
    if burned:
        burn = index(result, "mana_burn")
        assert result["events"][burn] == {"type": "mana_burn", "player": "alice", "amount": 2}
        assert result["events"][burn + 1] == {"type": "life_lost", "player": "alice",
                                              "amount": 2, "life": 18}
        assert emptied < burn < index(result, "step_began", step="beginning_of_combat")
    else:
        assert of_type(result, "mana_burn") == [] and of_type(result, "life_lost") == []
    assert result["state"]["players"]["alice"]["life"] == 20 - burned
    assert result["state"]["players"]["alice"]["mana_pool"] == {}


# --------------------------------------------------------------------------------------------
# pool_empties_each_step


@pytest.mark.parametrize("ruleset, kept", [("classic-1999", True), ("timespiral-2006", True),
                                           ("modern", False)])
def test_pool_empties_each_step(ruleset, kept):
    """Mana added in beginning of combat pays for Giant Growth in declare attackers only if
    the pool empties at the end of each phase, not of each step."""
    scen = scenario(
        [{"action": "activate", "player": "alice", "source": "forest", "ability": 0},
         advance("declare_attackers"),
         {"action": "declare_attackers", "player": "alice", "attackers": ["bear"]},
         {"action": "cast", "player": "alice", "card": "growth", "targets": ["bear"]},
         {"action": "resolve"}],
        alice={"hand": [{"alias": "growth", "card": "Giant Growth"}],
               "battlefield": [{"alias": "forest", "card": "Forest"},
                               {"alias": "bear", "card": "Grizzly Bears"}]},
        step="beginning_of_combat")
    result = run(scen, ruleset)
    attackers_step = index(result, "step_began", step="declare_attackers")
    emptied = of_type(result, "mana_emptied", player="alice")
    if kept:
        assert emptied == []  # nothing left to empty: Giant Growth spent it
        cast = index(result, "spell_cast", card="growth")
        assert cast > attackers_step
        assert result["events"][cast]["mana_paid"] == {"G": 1}
        assert rejections(result) == []
        assert result["state"]["battlefield"]["bear"]["power"] == 5
        assert of_type(result, "mana_burn") == []  # the mana was spent, nothing burns
    else:
        assert emptied == [{"type": "mana_emptied", "player": "alice", "mana": {"G": 1}}]
        assert index(result, "mana_emptied") < attackers_step
        assert rejections(result) == [(3, "cannot_pay")]
        assert of_type(result, "spell_cast") == []
        assert result["state"]["battlefield"]["bear"]["power"] == 2


def test_pool_empties_each_step_mana_survives_into_the_next_step_of_the_phase():
    """The pool itself: after beginning of combat ends, the G is still there in declare
    attackers under classic-1999 and gone under modern."""
    scen = scenario([{"action": "activate", "player": "alice", "source": "forest",
                      "ability": 0}, advance("declare_attackers")],
                    alice={"battlefield": [{"alias": "forest", "card": "Forest"}]},
                    step="beginning_of_combat")
    classic, modern = run(scen, "classic-1999"), run(scen, "modern")
    for result in (classic, modern):
        assert result["state"]["step"] == "declare_attackers"
    assert classic["state"]["players"]["alice"]["mana_pool"] == {"G": 1}
    assert of_type(classic, "mana_emptied") == []
    assert modern["state"]["players"]["alice"]["mana_pool"] == {}
    assert of_type(modern, "mana_emptied") == [
        {"type": "mana_emptied", "player": "alice", "mana": {"G": 1}}]


@pytest.mark.parametrize("ruleset, burned", [("classic-1999", 1), ("timespiral-2006", 1),
                                             ("modern", 0)])
def test_pool_empties_each_step_beginning_phase_of_turn_one_ends_with_upkeep(ruleset, burned):
    """Turn 1: the player who plays first skips the draw step, so the upkeep is the last
    step of the beginning phase and mana added in it empties (and burns, under the old
    rules) before the precombat main phase, as in any other phase change."""
    scen = scenario([{"action": "activate", "player": "alice", "source": "forest",
                      "ability": 0}, advance("precombat_main")],
                    alice={"battlefield": [{"alias": "forest", "card": "Forest"}]},
                    step="upkeep", turn=1)
    result = run(scen, ruleset)
    main = index(result, "step_began", turn=1, step="precombat_main")
    assert result["state"]["players"]["alice"]["mana_pool"] == {}, (
        f"under {ruleset}, the G added in the upkeep of turn 1 is still in the pool in the "
        "precombat main phase: the beginning phase ended (its draw step skipped, CR 103.8a) "
        "without emptying the pool")
    assert index(result, "mana_emptied", player="alice") < main
    assert [e["amount"] for e in of_type(result, "mana_burn")] == ([burned] if burned else [])
    assert result["state"]["players"]["alice"]["life"] == 20 - burned


# --------------------------------------------------------------------------------------------
# exile_zone_name


@pytest.mark.parametrize("ruleset, zone", [("classic-1999", "removed_from_game"),
                                           ("timespiral-2006", "removed_from_game"),
                                           ("modern", "exile")])
def test_exile_zone_name(ruleset, zone):
    """Final Reward exiles Bob's bear: the zone's name in the log and in the state."""
    scen = scenario([{"action": "cast", "player": "alice", "card": "reward",
                      "targets": ["bear"]}, {"action": "resolve"}],
                    alice={"hand": [{"alias": "reward", "card": "Final Reward"}],
                           "mana_pool": {"B": 5}},
                    bob={"battlefield": [{"alias": "bear", "card": "Grizzly Bears"}]})
    result = run(scen, ruleset)
    moved = of_type(result, "zone_changed", card="bear")
    assert [(e["from"], e["to"]) for e in moved] == [("battlefield", zone)]
    other = "exile" if zone == "removed_from_game" else "removed_from_game"
    assert of_type(result, "zone_changed", to=other) == []
    bob = result["state"]["players"]["bob"]
    assert bob[zone] == ["bear"]
    assert other not in bob
    assert "bear" not in result["state"]["battlefield"]


# --------------------------------------------------------------------------------------------
# max_hand_size


def _nine_cards_at_end_of_turn(discard: list[str]) -> dict:
    hand = [{"alias": f"h{i}", "card": "Island"} for i in range(9)]
    return scenario([advance("end"), {"action": "resolve"},
                     {"action": "discard", "player": "alice", "cards": discard}],
                    alice={"hand": hand}, step="postcombat_main")


@pytest.mark.parametrize("ruleset", ALL)
def test_max_hand_size_is_seven_in_every_era(ruleset):
    result = run(_nine_cards_at_end_of_turn(["h0", "h1"]), ruleset)
    assert [e["card"] for e in of_type(result, "card_discarded")] == ["h0", "h1"]
    assert index(result, "step_began", step="cleanup") < index(result, "card_discarded")
    assert rejections(result) == []
    assert result["state"]["players"]["alice"]["hand"] == [f"h{i}" for i in range(2, 9)]
    assert result["state"]["players"]["alice"]["graveyard"] == ["h0", "h1"]


def test_max_hand_size_switch(custom_ruleset):
    """A ruleset with a maximum of five: the cleanup discard asks for four cards, and two
    are not enough."""
    name = custom_ruleset("modern", max_hand_size=5)
    scen = _nine_cards_at_end_of_turn(["h0", "h1"])
    scen["script"].append({"action": "discard", "player": "alice",
                           "cards": ["h0", "h1", "h2", "h3"]})
    result = run(scen, name)
    assert rejections(result) == [(2, "invalid_choice")]
    assert [e["card"] for e in of_type(result, "card_discarded")] == ["h0", "h1", "h2", "h3"]
    assert result["state"]["players"]["alice"]["hand"] == ["h4", "h5", "h6", "h7", "h8"]


# --------------------------------------------------------------------------------------------
# first_player_skips_draw


def _first_turns() -> dict:
    """From the untap step of turn 1 (alice's) to bob's first main phase (turn 2)."""
    return scenario([advance("precombat_main"),
                     {"action": "advance", "to": "precombat_main", "turn": 2}],
                    step="untap", turn=1)


@pytest.mark.parametrize("ruleset", ALL)
def test_first_player_skips_draw_in_every_era(ruleset):
    result = run(_first_turns(), ruleset)
    assert of_type(result, "step_began", turn=1, step="draw") == []
    assert of_type(result, "step_began", turn=2, step="draw") != []
    drawn = of_type(result, "card_drawn")
    assert [(e["player"], e["card"]) for e in drawn] == [("bob", "b_lib1")]
    assert result["state"]["players"]["alice"]["hand"] == []
    assert result["state"]["players"]["bob"]["hand"] == ["b_lib1"]


def test_first_player_skips_draw_switch(custom_ruleset):
    name = custom_ruleset("modern", first_player_skips_draw=False)
    result = run(_first_turns(), name)
    first_draw = index(result, "step_began", turn=1, step="draw")
    assert index(result, "card_drawn", player="alice") > first_draw
    assert [(e["player"], e["card"]) for e in of_type(result, "card_drawn")] == [
        ("alice", "a_lib1"), ("bob", "b_lib1")]
    assert result["state"]["players"]["alice"]["hand"] == ["a_lib1"]


# --------------------------------------------------------------------------------------------
# dividing combat damage among blockers (no era orders blockers)


def _two_blockers(assignment: dict) -> dict:
    """Alice's Grizzly Bears (2/2) is blocked by two of Bob's; she splits its damage (then
    the damage, on the stack under the old rules, resolves)."""
    return scenario(
        [*attack("bear"), *block(("b1", "bear"), ("b2", "bear")), advance("combat_damage"),
         {"action": "assign_damage", "player": "alice", "attacker": "bear",
          "assignment": assignment}, {"action": "resolve"}],
        alice={"battlefield": [{"alias": "bear", "card": "Grizzly Bears"}]},
        bob={"battlefield": [{"alias": "b1", "card": "Grizzly Bears"},
                             {"alias": "b2", "card": "Grizzly Bears"}]})


@pytest.mark.parametrize("ruleset", ALL)
def test_blocked_attacker_divides_damage_freely_in_every_era(ruleset):
    """No era here orders blockers: 1 damage to each blocker is a legal division (CR 510.1c
    today; the 1999 rulebook: the attacking player decides how the damage is divided)."""
    result = run(_two_blockers({"b1": 1, "b2": 1}), ruleset)
    assert rejections(result) == []
    assert of_type(result, "combat_damage_assigned")[0]["assignment"] == {"b1": 1, "b2": 1}
    dealt = [(e["target"], e["amount"]) for e in of_type(result, "damage_dealt", source="bear")]
    assert dealt == [("b1", 1), ("b2", 1)]
    assert result["state"]["battlefield"]["b1"]["damage"] == 1
    assert result["state"]["battlefield"]["b2"]["damage"] == 1


# --------------------------------------------------------------------------------------------
# combat_damage_uses_stack


@pytest.mark.parametrize("ruleset, stack", [("classic-1999", True), ("timespiral-2006", True),
                                            ("modern", False)])
def test_combat_damage_uses_stack(ruleset, stack):
    """Hill Giant unblocked: the damage goes on the stack and players get priority before it
    is dealt (old rules), or it is dealt at once (modern)."""
    scen = scenario([*attack("giant"), advance("combat_damage")],
                    alice={"battlefield": [{"alias": "giant", "card": "Hill Giant"}]})
    paused = run(scen, ruleset)
    begun = index(paused, "step_began", step="combat_damage")
    after = paused["events"][begun + 1:]
    if stack:
        assert after[0] == {"type": "combat_damage_put_on_stack", "object": "combat_damage#1",
                            "assignments": [{"source": "giant", "source_card": "giant",
                                             "target": "bob", "amount": 3}]}
        assert after[1] == {"type": "priority_received", "player": "alice"}
        assert of_type(paused, "damage_dealt") == []
        assert paused["state"]["players"]["bob"]["life"] == 20
        assert [o["object"] for o in paused["state"]["stack"]] == ["combat_damage#1"]
    else:
        assert of_type(paused, "combat_damage_put_on_stack") == []
        assert after[0]["type"] == "damage_dealt" and after[0]["amount"] == 3
        assert paused["state"]["players"]["bob"]["life"] == 17
        assert paused["state"]["stack"] == []
    done = run(scen | {"script": scen["script"] + [{"action": "resolve"}]}, ruleset)
    assert done["state"]["players"]["bob"]["life"] == 17
    if stack:
        resolved = index(done, "combat_damage_resolved", object="combat_damage#1")
        assert done["events"][resolved + 1]["type"] == "damage_dealt"


@pytest.mark.parametrize("ruleset", ALL)
def test_combat_damage_uses_stack_sacrificed_blocker_still_deals_it(ruleset):
    """Alice's Grizzly Bears is blocked by Bob's Bottle Gnomes (1/3). Bob sacrifices the
    Gnomes once combat damage has started. Old rules: the damage on the stack is dealt by
    the Gnomes anyway (1 to the bear), and the bear's 2 damage to the Gnomes, gone, is not
    dealt. Modern: the damage was dealt before Bob could act; he sacrifices a damaged Gnomes."""
    scen = scenario(
        [*attack("bear"), *block(("gnomes", "bear")), advance("combat_damage"),
         {"action": "pass", "player": "alice"},
         {"action": "activate", "player": "bob", "source": "gnomes", "ability": 0},
         {"action": "resolve"}, {"action": "resolve"}],
        alice={"battlefield": [{"alias": "bear", "card": "Grizzly Bears"}]},
        bob={"battlefield": [{"alias": "gnomes", "card": "Bottle Gnomes"}]})
    result = run(scen, ruleset)
    assert rejections(result) == []
    sacrificed = index(result, "sacrificed", card="gnomes")
    from_gnomes = index(result, "damage_dealt", source="gnomes", target="bear")
    assert result["events"][from_gnomes]["amount"] == 1
    to_gnomes = of_type(result, "damage_dealt", target="gnomes")
    if ruleset in OLD:
        assert sacrificed < from_gnomes  # dealt by a creature no longer in play
        assert to_gnomes == []
        assert of_type(result, "combat_damage_not_dealt") == [
            {"type": "combat_damage_not_dealt", "source": "bear", "target": "gnomes",
             "reason": "target_left_play"}]
    else:
        assert from_gnomes < sacrificed
        assert [e["amount"] for e in to_gnomes] == [2]
        assert of_type(result, "combat_damage_not_dealt") == []
    assert result["state"]["battlefield"]["bear"]["damage"] == 1
    assert "gnomes" not in result["state"]["battlefield"]
    assert result["state"]["players"]["bob"]["graveyard"] == ["gnomes"]
    assert result["state"]["players"]["bob"]["life"] == 23


@pytest.mark.parametrize("ruleset", ALL)
def test_combat_damage_uses_stack_destroyed_attacker_still_deals_it(ruleset):
    """Bob Terrors the unblocked Hill Giant once combat damage has started: under the old
    rules its 3 damage, already on the stack, is still dealt to Bob after it is destroyed."""
    scen = scenario(
        [*attack("giant"), advance("combat_damage"), {"action": "pass", "player": "alice"},
         {"action": "cast", "player": "bob", "card": "terror", "targets": ["giant"],
          "pay_with": ["swamp1", "swamp2"]},
         {"action": "resolve"}, {"action": "resolve"}],
        alice={"battlefield": [{"alias": "giant", "card": "Hill Giant"}]},
        bob={"hand": [{"alias": "terror", "card": "Terror"}],
             "battlefield": [{"alias": "swamp1", "card": "Swamp"},
                             {"alias": "swamp2", "card": "Swamp"}]})
    result = run(scen, ruleset)
    assert rejections(result) == []
    destroyed = index(result, "destroyed", card="giant")
    dealt = index(result, "damage_dealt", source="giant", target="bob")
    assert result["events"][dealt]["amount"] == 3
    assert (destroyed < dealt) == (ruleset in OLD)
    assert result["state"]["players"]["bob"]["life"] == 17
    assert result["state"]["players"]["alice"]["graveyard"] == ["giant"]


# --------------------------------------------------------------------------------------------
# walls_cant_attack

#: A Wall without defender (every Wall of the card files has defender in its Oracle text).
OLD_WALL = {"name": "Test Wall Without Defender", "mana_cost": "{2}",
            "type_line": "Creature — Wall", "supertypes": [], "types": ["Creature"],
            "subtypes": ["Wall"], "oracle_text": "", "power": 2, "toughness": 4,
            "layout": "normal", "keywords": [], "abilities": []}


@pytest.fixture(scope="module")
def cards_with_old_wall() -> dict:
    db = dict(load_card_db())
    db[OLD_WALL["name"]] = CardDefinition.from_dict(OLD_WALL)
    return db


@pytest.mark.parametrize("ruleset, can_attack", [("classic-1999", False),
                                                 ("timespiral-2006", True),
                                                 ("modern", True)])
def test_walls_cant_attack(ruleset, can_attack, cards_with_old_wall):
    scen = scenario(attack("wall"),
                    alice={"battlefield": [{"alias": "wall", "card": OLD_WALL["name"]}]})
    result = run(scen, ruleset, cards_with_old_wall)
    declared = of_type(result, "attackers_declared")
    if can_attack:
        assert rejections(result) == []
        assert declared[0]["attackers"] == [{"object": "wall", "card": "wall",
                                             "defender": "bob"}]
        assert result["state"]["battlefield"]["wall"]["tapped"] is True
    else:
        assert rejections(result) == [(1, "cannot_attack")]
        assert "Wall" in of_type(result, "action_rejected")[0]["message"]
        assert declared == []
        assert result["state"]["battlefield"]["wall"]["tapped"] is False


@pytest.mark.parametrize("ruleset", ALL)
def test_walls_cant_attack_defender_is_another_rule(ruleset):
    """Wall of Stone has defender: it can't attack in any era, switch or not."""
    scen = scenario(attack("wall"),
                    alice={"battlefield": [{"alias": "wall", "card": "Wall of Stone"}]})
    result = run(scen, ruleset)
    assert rejections(result) == [(1, "cannot_attack")]
    assert "defender" in of_type(result, "action_rejected")[0]["message"]


# --------------------------------------------------------------------------------------------
# legend_rule

ISAMARU = "Isamaru, Hound of Konda"


def _second_isamaru(bob_has_the_first: bool, choose: str | None) -> dict:
    """Alice casts Isamaru (``isamaru2``) while ``isamaru1`` is on the battlefield under
    alice's control (or bob's)."""
    first = {"alias": "isamaru1", "card": ISAMARU}
    script = [{"action": "cast", "player": "alice", "card": "isamaru2"}, {"action": "resolve"}]
    if choose:
        script.append({"action": "choose", "player": "alice", "choice": choose})
    return scenario(script,
                    alice={"hand": [{"alias": "isamaru2", "card": ISAMARU}],
                           "mana_pool": {"W": 1},
                           "battlefield": [] if bob_has_the_first else [first]},
                    bob={"battlefield": [first] if bob_has_the_first else []})


def _legend_sbas(result: dict) -> list[tuple[str, str]]:
    return [(e["rule"], e["card"]) for e in of_type(result, "state_based_action")]


@pytest.mark.parametrize("ruleset, choose, rule, dead", [
    ("modern", "isamaru1", "704.5j", ["isamaru2"]),        # the controller keeps one
    ("modern", "isamaru2", "704.5j", ["isamaru1"]),
    ("timespiral-2006", None, "420.5e", ["isamaru1", "isamaru2"]),   # all of them
    ("classic-1999", None, "legend-1999", ["isamaru2"]),   # the newcomer
])
def test_legend_rule(ruleset, choose, rule, dead):
    result = run(_second_isamaru(False, choose), ruleset)
    assert rejections(result) == []
    assert index(result, "permanent_entered", card="isamaru2") < index(
        result, "state_based_action")
    assert sorted(_legend_sbas(result)) == [(rule, card) for card in dead]
    assert of_type(result, "destroyed") == []  # put into the graveyard, not destroyed
    assert sorted(result["state"]["players"]["alice"]["graveyard"]) == dead
    alive = sorted({"isamaru1", "isamaru2"} - set(dead))
    assert sorted(k for k in result["state"]["battlefield"] if k.startswith("isamaru")) == alive


@pytest.mark.parametrize("ruleset, dead", [("modern", []),
                                           ("timespiral-2006", ["isamaru1", "isamaru2"]),
                                           ("classic-1999", ["isamaru2"])])
def test_legend_rule_across_controllers(ruleset, dead):
    """Bob controls the first Isamaru, alice casts the second: the modern rule looks at each
    player's own legends only; in 2006 both die; in 1999 the newcomer dies."""
    result = run(_second_isamaru(True, None), ruleset)
    assert rejections(result) == []
    assert sorted(card for _, card in _legend_sbas(result)) == dead
    graveyards = (result["state"]["players"]["alice"]["graveyard"]
                  + result["state"]["players"]["bob"]["graveyard"])
    assert sorted(graveyards) == dead


# --------------------------------------------------------------------------------------------
# mulligan

A_DECK = [f"a{i}" for i in range(10)]
B_DECK = [f"b{i}" for i in range(10)]


def _one_mulligan(keep: dict) -> dict:
    """Start of game (CR 103): scripted shuffles, alice mulligans once, then keeps ``keep``;
    bob keeps his seven."""
    script = [{"action": "random", "outcome": A_DECK}, {"action": "random", "outcome": B_DECK},
              {"action": "mulligan", "player": "alice"},
              {"action": "random", "outcome": A_DECK[::-1]},  # a9 a8 … a0
              {"action": "keep", "player": "alice", **keep},
              {"action": "keep", "player": "bob"}]
    return {"id": "test.rulesets.mulligan", "setup": {
        "start_of_game": True,
        "players": [{"id": "alice", "library": [{"alias": a, "card": "Island"} for a in A_DECK]},
                    {"id": "bob", "library": [{"alias": b, "card": "Forest"} for b in B_DECK]}]},
        "script": script}


def _drawn_after_mulligan(result: dict) -> list[str]:
    start = index(result, "mulligan_taken", player="alice")
    return [e["card"] for e in result["events"][start:]
            if e["type"] == "card_drawn" and e["player"] == "alice"]


@pytest.mark.parametrize("ruleset", OLD)
def test_mulligan_draw_one_fewer(ruleset):
    result = run(_one_mulligan({}), ruleset)
    assert rejections(result) == []
    assert _drawn_after_mulligan(result) == ["a9", "a8", "a7", "a6", "a5", "a4"]
    assert of_type(result, "hand_kept") == [
        {"type": "hand_kept", "player": "alice", "mulligans": 1, "hand_size": 6},
        {"type": "hand_kept", "player": "bob", "mulligans": 0, "hand_size": 7}]
    assert result["state"]["players"]["alice"]["hand"] == ["a9", "a8", "a7", "a6", "a5", "a4"]
    # no London bottom: naming a card to put on the bottom is refused
    refused = run(_one_mulligan({"bottom": ["a9"]}), ruleset)
    assert rejections(refused)[0] == (4, "invalid_choice")


def test_mulligan_london():
    result = run(_one_mulligan({"bottom": ["a9"]}), "modern")
    assert rejections(result) == []
    assert _drawn_after_mulligan(result) == ["a9", "a8", "a7", "a6", "a5", "a4", "a3"]
    assert of_type(result, "hand_kept")[0] == {"type": "hand_kept", "player": "alice",
                                               "mulligans": 1, "hand_size": 6}
    alice = result["state"]["players"]["alice"]
    assert alice["hand"] == ["a8", "a7", "a6", "a5", "a4", "a3"]
    assert alice["library"][-1] == "a9"  # on the bottom
    # keeping seven after a mulligan is refused: one card must go to the bottom
    refused = run(_one_mulligan({}), "modern")
    assert rejections(refused)[0] == (4, "invalid_choice")


# --------------------------------------------------------------------------------------------
# buyback_owner_only

#: Spelljack (Judgment), not among the card files: it lets alice cast bob's countered spell.
SPELLJACK = {
    "name": "Spelljack", "mana_cost": "{3}{U}{U}{U}", "type_line": "Instant",
    "supertypes": [], "types": ["Instant"], "subtypes": [],
    "oracle_text": "Counter target spell. If that spell is countered this way, exile it "
                   "instead of putting it into its owner's graveyard. You may cast that card "
                   "without paying its mana cost for as long as it remains exiled. (If it has "
                   "X in its mana cost, X is 0.)",
    "layout": "normal", "keywords": [], "abilities": [],
    "spell": {"targets": [{"kind": "spell"}],
              "effects": [{"type": "counter", "what": {"target": 0}, "exile_instead": True,
                           "may_cast_free": True}]}}


@pytest.fixture(scope="module")
def cards_with_spelljack() -> dict:
    db = dict(load_card_db())
    db[SPELLJACK["name"]] = CardDefinition.from_dict(SPELLJACK)
    return db


@pytest.mark.parametrize("ruleset, back_to_hand", [("modern", True),
                                                   ("timespiral-2006", False),
                                                   ("classic-1999", True)])
def test_buyback_owner_only(ruleset, back_to_hand, cards_with_spelljack):
    """Bob casts Lightning Bolt, then Reiterate copying it; alice Spelljacks the Reiterate
    and casts it from exile with buyback. Bob owns it, alice controls it: today it returns
    to its owner's hand (CR 702.27a); under the 2006 wording ("into your hand") buyback does
    nothing and it goes to bob's graveyard."""
    scen = scenario(
        [{"action": "pass", "player": "alice"},
         {"action": "cast", "player": "bob", "card": "bolt", "targets": ["alice"]},
         {"action": "cast", "player": "bob", "card": "reiterate", "targets": ["bolt"]},
         {"action": "pass", "player": "bob"},
         {"action": "cast", "player": "alice", "card": "jack", "targets": ["reiterate"]},
         {"action": "resolve"},
         {"action": "cast", "player": "alice", "card": "reiterate",
          "alternative": "without_paying", "buyback": True, "targets": ["bolt"]},
         {"action": "resolve"},
         {"action": "choose_targets", "player": "alice", "targets": ["bob"]}],
        alice={"hand": [{"alias": "jack", "card": "Spelljack"}], "mana_pool": {"U": 6, "C": 3}},
        bob={"hand": [{"alias": "bolt", "card": "Lightning Bolt"},
                      {"alias": "reiterate", "card": "Reiterate"}], "mana_pool": {"R": 4}})
    result = run(scen, ruleset, cards_with_spelljack)
    assert rejections(result) == []
    cast = of_type(result, "spell_cast", card="reiterate", player="alice")
    assert len(cast) == 1 and cast[0]["buyback"] is True
    assert of_type(result, "spell_copied")[0]["targets"] == ["bob"]
    [left] = [e for e in of_type(result, "zone_changed", card="reiterate")
              if e["from"] == "stack" and e["object"] == cast[0]["object"]]
    bob = result["state"]["players"]["bob"]
    if back_to_hand:
        assert (left["to"], left.get("cause")) == ("hand", "buyback")
        assert (bob["hand"], bob["graveyard"]) == (["reiterate"], [])
    else:
        assert (left["to"], left.get("cause")) == ("graveyard", None)
        assert (bob["hand"], bob["graveyard"]) == ([], ["reiterate"])
    assert result["state"]["players"]["alice"]["hand"] == []


@pytest.mark.parametrize("ruleset", ALL)
def test_buyback_owner_only_an_owned_spell_comes_back_in_every_era(ruleset):
    """Alice casts her own Reiterate with buyback: back to her hand under every ruleset."""
    scen = scenario(
        [{"action": "pass", "player": "alice"},
         {"action": "cast", "player": "bob", "card": "bolt", "targets": ["alice"]},
         {"action": "pass", "player": "bob"},
         {"action": "cast", "player": "alice", "card": "reiterate", "buyback": True,
          "targets": ["bolt"]},
         {"action": "resolve"},
         {"action": "choose_targets", "player": "alice", "targets": ["bob"]}],
        alice={"hand": [{"alias": "reiterate", "card": "Reiterate"}],
               "mana_pool": {"R": 2, "C": 4}},
        bob={"hand": [{"alias": "bolt", "card": "Lightning Bolt"}], "mana_pool": {"R": 1}})
    result = run(scen, ruleset)
    assert rejections(result) == []
    assert of_type(result, "spell_cast", card="reiterate")[0]["mana_paid"] == {"C": 4, "R": 2}
    assert result["state"]["players"]["alice"]["hand"] == ["reiterate"]
    assert result["state"]["players"]["alice"]["graveyard"] == []


# --------------------------------------------------------------------------------------------
# for_ruleset: one fixture, an expectation per era


def _burn_fixture() -> dict:
    scen = scenario([{"action": "activate", "player": "alice", "source": "forest",
                      "ability": 0}, advance("beginning_of_combat")],
                    alice={"battlefield": [{"alias": "forest", "card": "Forest"}]})
    scen["expect"] = {"events": [{"type": "mana_emptied", "player": "alice"}],
                      "absent": [{"type": "mana_burn"}],
                      "state": {"players": {"alice": {"life": 20}}}}
    scen["expect_by_ruleset"] = {
        "classic-1999": {"events": [{"type": "mana_emptied", "player": "alice"},
                                    {"type": "mana_burn", "player": "alice", "amount": 1}],
                         "state": {"players": {"alice": {"life": 19}}}}}
    return scen


def test_for_ruleset_picks_the_expectation_of_the_era():
    fixture = _burn_fixture()
    classic, modern = for_ruleset(fixture, "classic-1999"), for_ruleset(fixture, "modern")
    assert classic["expect"] == fixture["expect_by_ruleset"]["classic-1999"]
    assert modern["expect"] == fixture["expect"]  # no entry for modern: the default
    assert for_ruleset(fixture, "timespiral-2006")["expect"] == fixture["expect"]
    for resolved in (classic, modern):
        assert "expect_by_ruleset" not in resolved
        assert resolved["setup"] == fixture["setup"] and resolved["script"] == fixture["script"]
    assert "expect_by_ruleset" in fixture  # the fixture itself is left alone


def test_for_ruleset_expectations_hold_under_their_era_only():
    fixture = _burn_fixture()
    results = {r: run(fixture, r) for r in ("classic-1999", "modern")}
    assert check(for_ruleset(fixture, "classic-1999"), results["classic-1999"]) == []
    assert check(for_ruleset(fixture, "modern"), results["modern"]) == []
    # swapped, each era's expectation fails: the mana burn is the difference
    wrong = check(for_ruleset(fixture, "modern"), results["classic-1999"])
    assert {m.where for m in wrong} == {"expect.absent[0]", "expect.state"}
    wrong = check(for_ruleset(fixture, "classic-1999"), results["modern"])
    assert {m.where for m in wrong} == {"expect.events[1]", "expect.state"}


def test_for_ruleset_names_the_exile_zone_of_the_era():
    fixture = {"id": "x", "expect": {
        "events": [{"type": "zone_changed", "card": "bear", "to": "$exile"}],
        "state": {"players": {"bob": {"$exile": ["bear"]}}}}}
    classic = for_ruleset(fixture, "classic-1999")["expect"]
    assert classic["events"][0]["to"] == "removed_from_game"
    assert classic["state"]["players"]["bob"] == {"removed_from_game": ["bear"]}
    modern = for_ruleset(fixture, "modern")["expect"]
    assert modern["events"][0]["to"] == "exile"
    assert modern["state"]["players"]["bob"] == {"exile": ["bear"]}
    assert fixture["expect"]["events"][0]["to"] == "$exile"


# --------------------------------------------------------------------------------------------
# madness_exile_optional


def _discard_madness_card(extra: list[dict]) -> dict:
    """Alice casts Mind Rot on herself, holding Dark Withering (madness {B}) and a Forest."""
    return scenario(
        [{"action": "cast", "player": "alice", "card": "rot", "targets": ["alice"]},
         {"action": "resolve"},
         {"action": "discard", "player": "alice", "cards": ["withering", "forest"]},
         *extra],
        alice={"hand": [{"alias": "rot", "card": "Mind Rot"},
                        {"alias": "withering", "card": "Dark Withering"},
                        {"alias": "forest", "card": "Forest"}],
               "mana_pool": {"B": 1, "C": 2}})


@pytest.mark.parametrize("ruleset", ALL)
def test_madness_exile_optional(ruleset):
    """2006 (502.24a): the discarding player *may* exile the madness card instead; today
    (CR 702.35a) it is exiled, no choice asked, and its madness ability triggers."""
    if RULESETS[ruleset].madness_exile_optional:
        result = run(_discard_madness_card([{"action": "choose", "player": "alice", "choice": "no"}]), ruleset)
        assert rejections(result) == []
        assert result["state"]["players"]["alice"]["graveyard"] == ["withering", "forest", "rot"]
        assert of_type(result, "ability_triggered", ability="madness") == []
    else:
        result = run(_discard_madness_card([]), ruleset)
        assert rejections(result) == []
        exiled = of_type(result, "zone_changed", card="withering", to=RULESETS[ruleset].exile_zone_name)
        assert exiled and exiled[0]["cause"] == "discard"
        assert of_type(result, "card_discarded", card="withering")[0]["madness"] is True
        assert len(of_type(result, "ability_triggered", ability="madness")) == 1


# --------------------------------------------------------------------------------------------
# counter_annihilation


@pytest.mark.parametrize("ruleset", ALL)
def test_counter_annihilation(ruleset):
    """A Grizzly Bears with two +1/+1 counters and one -1/-1 counter: since 2006 (420.5n,
    ruling timespiral.counter-annihilation.01; CR 704.5q) one of each is removed as a
    state-based action; under the 1999 rules all three stay. It is a 3/3 either way."""
    scen = scenario([{"action": "pass", "player": "alice"}],
                    alice={"battlefield": [{"alias": "bears", "card": "Grizzly Bears",
                                            "counters": {"+1/+1": 2, "-1/-1": 1}}]})
    result = run(scen, ruleset)
    bears = result["state"]["battlefield"]["bears"]
    removed = of_type(result, "counters_removed", card="bears")
    if RULESETS[ruleset].counter_annihilation:
        assert [(e["counter"], e["count"]) for e in removed] == [("+1/+1", 1), ("-1/-1", 1)]
        assert bears["counters"] == {"+1/+1": 1}
    else:
        assert removed == []
        assert bears["counters"] == {"+1/+1": 2, "-1/-1": 1}
    assert (bears["power"], bears["toughness"]) == (3, 3)


# --------------------------------------------------------------------------------------------
# phasing_in_is_coming_under_control


@pytest.mark.parametrize("ruleset", ALL)
def test_phasing_in_is_coming_under_control(ruleset):
    """Alice's long-held Basalt Gargoyle is phased out by Vanishing in her turn 3 and phases in
    in her turn 5 untap step. 2006 (ruling timespiral.echo.04): it came under her control
    then, so echo triggers at that upkeep; today (CR 702.26d) phasing changes neither zone nor
    control, and echo doesn't trigger."""
    scen = scenario(
        [{"action": "activate", "player": "alice", "source": "van", "ability": 0, "pay_with": ["i1", "i2"]},
         {"action": "resolve"},
         {"action": "advance", "to": "upkeep", "turn": 5}],
        alice={"battlefield": [{"alias": "garg", "card": "Basalt Gargoyle"},
                               {"alias": "van", "card": "Vanishing", "attached_to": "garg"},
                               {"alias": "i1", "card": "Island"}, {"alias": "i2", "card": "Island"}]})
    result = run(scen, ruleset)
    assert len(of_type(result, "phased_in", card="garg")) == 1
    triggered = of_type(result, "ability_triggered", source_card="garg")
    assert len(triggered) == (1 if RULESETS[ruleset].phasing_in_is_coming_under_control else 0)


# --------------------------------------------------------------------------------------------
# suspend_cast_mandatory


@pytest.mark.parametrize("ruleset", ALL)
def test_suspend_cast_mandatory(ruleset):
    """The last time counter comes off Corpulent Corpse in alice's upkeep; she answers the
    cast offer with 'no'. 2006 (502.59a): she must cast it if able — 'no' is refused and she
    then casts it; today (CR 702.62a) she may decline and it stays exiled with no counters."""
    scen = scenario(
        [{"action": "resolve"},   # the upkeep trigger removes the last time counter
         {"action": "resolve"},   # the cast trigger resolves: the cast is offered
         {"action": "choose", "player": "alice", "choice": "no"},
         {"action": "cast", "player": "alice", "card": "corpse"}],
        alice={"exile": [{"alias": "corpse", "card": "Corpulent Corpse", "counters": {"time": 1}}]},
        step="upkeep", turn=5)
    result = run(scen, ruleset)
    zone = RULESETS[ruleset].exile_zone_name
    if RULESETS[ruleset].suspend_cast_mandatory:
        assert rejections(result) == [(2, "invalid_choice")]
        cast = of_type(result, "spell_cast", card="corpse")
        assert len(cast) == 1 and cast[0]["alternative"] == "without_paying"
    else:
        assert rejections(result) == [(3, "not_in_hand")]
        assert of_type(result, "spell_cast", card="corpse") == []
        assert result["state"]["players"]["alice"][zone] == ["corpse"]
        assert "exile_counters" not in result["state"]["players"]["alice"]


# --------------------------------------------------------------------------------------------
# an orphaned Aura is put into the graveyard, not destroyed, in every era


@pytest.mark.parametrize("ruleset", ALL)
def test_orphaned_aura_is_not_destroyed(ruleset):
    """Alice Terrors bob's Grizzly Bears enchanted by her Holy Strength: the Aura is put
    into its owner's graveyard as a state-based action (CR 704.5m; in 1999 the state-based
    effect of the Sixth Edition rules), never destroyed, though the 1999 rulebook's
    beginner's text says it "is destroyed"."""
    scen = scenario(
        [{"action": "cast", "player": "alice", "card": "terror", "targets": ["bear"]},
         {"action": "resolve"}],
        alice={"hand": [{"alias": "terror", "card": "Terror"}], "mana_pool": {"B": 1, "C": 1},
               "battlefield": [{"alias": "aura", "card": "Holy Strength", "attached_to": "bear"}]},
        bob={"battlefield": [{"alias": "bear", "card": "Grizzly Bears"}]})
    result = run(scen, ruleset)
    assert rejections(result) == []
    assert of_type(result, "state_based_action", card="aura")[0]["rule"] == "704.5m"
    assert "aura" in result["state"]["players"]["alice"]["graveyard"]
    assert of_type(result, "destroyed", card="aura") == []


# --------------------------------------------------------------------------------------------
# planeswalkers (engine/planeswalkers.py, FORMAT §12.1): the card type exists since 2007


@pytest.mark.parametrize("ruleset, code", [("modern", None), ("timespiral-2006", "not_in_ruleset"),
                                           ("classic-1999", "not_in_ruleset")])
def test_planeswalkers(ruleset, code):
    from mtg_judge.engine.scenario import run_scenario
    lib = [{"alias": f"l{i}", "card": "Forest"} for i in range(3)]
    scenario = {"setup": {"turn": 3, "players": [
        {"id": "alice", "library": lib, "hand": [{"alias": "garruk", "card": "Garruk Wildspeaker"}],
         "mana_pool": {"G": 4}},
        {"id": "bob", "library": [dict(e, alias="b" + e["alias"]) for e in lib]}]},
        "script": [{"action": "cast", "player": "alice", "card": "garruk"}, {"action": "resolve"}]}
    r = run_scenario(scenario, ruleset)
    codes = [e["code"] for e in r["events"] if e["type"] == "action_rejected"]
    assert codes == ([code] if code else [])
    assert ("garruk" in r["state"]["battlefield"]) == (code is None)


# --------------------------------------------------------------------------------------------
# token_name_adds_token


@pytest.mark.parametrize("ruleset", ALL)
def test_token_name_adds_token(ruleset):
    """Raise the Alarm ("create two 1/1 white Soldier creature tokens") names no token: the
    current CR 111.4 names each "Soldier Token" (its subtype plus the word "Token"); the
    older rules named it after its creature type alone, "Soldier" (tests/test_token_names.py
    has CR 111.4's own examples)."""
    scen = scenario([{"action": "cast", "player": "alice", "card": "ra"}, {"action": "resolve"}],
                    alice={"hand": [{"alias": "ra", "card": "Raise the Alarm"}], "mana_pool": {"W": 1, "C": 1}})
    result = run(scen, ruleset)
    names = [e["name"] for e in of_type(result, "token_created")]
    assert names == (["Soldier Token"] * 2 if RULESETS[ruleset].token_name_adds_token else ["Soldier"] * 2)
