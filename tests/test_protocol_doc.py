"""docs/PROTOCOL.md §10 (playing a scenario) is backed by the reference engine.

Each table of §10 carries a marker ``<!-- table: NAME -->``; the tests read the table out
of the document and run the reference engine in-process (docs/FORMAT.md §9) on tiny
scenarios built here from the cards of fixtures/cards, so the document can't drift from the
engine: a row whose rule the engine does not follow fails, and so does a scenario here
without its row.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mtg_judge.conformance import loader
from mtg_judge.engine import load_card_db, run_scenario
from mtg_judge.engine.legal import DECISION_ACTIONS

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
CARDS = load_card_db()


# ------------------------------------------------------------------ reading the document
def table(name: str) -> list[dict[str, str]]:
    """The rows of the markdown table after ``<!-- table: name -->``, as {header: cell}."""
    marker = f"<!-- table: {name} -->"
    assert marker in DOC, f"docs/PROTOCOL.md has no {marker}"
    lines = DOC.split(marker, 1)[1].lstrip("\n").splitlines()
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    header, rows = rows[0], rows[2:]
    assert all(len(r) == len(header) for r in rows), f"table {name}: ragged rows"
    return [dict(zip(header, r)) for r in rows]


def ticked(cell: str) -> list[str]:
    """The `backticked` words of a cell, in order."""
    return re.findall(r"`([^`]*)`", cell)


def _value(text: str):
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_value(v.strip()) for v in inner.split(";")] if inner else []
    if text == "{}":
        return {}
    if text in ("true", "false"):
        return text == "true"
    if text == "null":
        return None
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


def event_patterns(cell: str) -> list[tuple[str, dict]]:
    """``type(field=value, …)`` items of a cell (separated by →) as (type, fields)."""
    out = []
    for item in ticked(cell):
        m = re.fullmatch(r"(\w+)(?:\((.*)\))?", item)
        assert m, f"not an event pattern: {item!r}"
        fields = {}
        for part in filter(None, (p.strip() for p in (m.group(2) or "").split(","))):
            key, _, value = part.partition("=")
            fields[key.strip()] = _value(value.strip())
        out.append((m.group(1), fields))
    return out


# ------------------------------------------------------------------------- scenarios
def setup(alice=None, bob=None, **kw) -> dict:
    s = {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main",
         "players": [{"id": "alice", **(alice or {})}, {"id": "bob", **(bob or {})}]}
    s.update(kw)
    return s


def card(alias: str, name: str, **kw) -> dict:
    return {"alias": alias, "card": name, **kw}


def act(action: str, player: str | None = None, **kw) -> dict:
    return {"action": action, **({"player": player} if player else {}), **kw}


PASS_BOTH = [act("pass", "alice"), act("pass", "bob")]
BOLT_BOB = act("cast", "alice", card="bolt", targets=["bob"], pay_with=["m1"])
BEAR_SPELL = setup({"hand": [card("bear", "Grizzly Bears")], "mana_pool": {"G": 2},
                    "battlefield": [card("sw", "Soul Warden")]})
APE = setup({"hand": [card("ape", "Uktabi Orangutan")], "mana_pool": {"G": 3},
             "battlefield": [card("sw", "Soul Warden")]},
            {"battlefield": [card("orni", "Ornithopter")]})
COMBAT = setup({"battlefield": [card("bear", "Grizzly Bears"), card("giant", "Hill Giant")]},
               {"battlefield": [card("bbear", "Grizzly Bears")]}, step="declare_attackers")
ATTACK = [act("declare_attackers", "alice", attackers=["bear", "giant"]), act("resolve")]
BLOCK_GIANT = act("declare_blockers", "bob", blocks=[{"blocker": "bbear", "attacker": "giant"}])
END_STEP = setup({"library": [card("a1", "Forest")], "battlefield": [card("m1", "Mountain", tapped=True)]},
                 {"library": [card("b1", "Forest")], "battlefield": [card("m2", "Mountain", tapped=True)]},
                 step="end")
EIGHT = setup({"hand": [card(f"c{i}", "Forest") for i in range(8)]}, step="end")
MEGRIM = setup({"hand": [card(f"c{i}", "Forest") for i in range(8)]}, {"battlefield": [card("meg", "Megrim")]},
               step="end")

#: event-order row id -> (setup, script, ruleset)
SCENARIOS: dict[str, tuple[dict, list, str]] = {
    "game-start": (setup(), [], "modern"),
    "play-land": (setup({"hand": [card("f", "Forest")]}), [act("play_land", "alice", card="f")], "modern"),
    "cast-spell": (setup({"hand": [card("bolt", "Lightning Bolt")], "battlefield": [card("m1", "Mountain")]}),
                   [BOLT_BOB], "modern"),
    "cast-from-pool": (setup({"hand": [card("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}}),
                       [act("cast", "alice", card="bolt", targets=["bob"])], "modern"),
    "resolve-instant": (setup({"hand": [card("bolt", "Lightning Bolt")], "battlefield": [card("m1", "Mountain")]}),
                        [BOLT_BOB, *PASS_BOTH], "modern"),
    "resolve-permanent": (setup({"hand": [card("bear", "Grizzly Bears")], "mana_pool": {"G": 2}}),
                          [act("cast", "alice", card="bear"), act("resolve")], "modern"),
    "counter-spell": (setup({"hand": [card("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}},
                            {"hand": [card("cs", "Counterspell")], "mana_pool": {"U": 2}}),
                      [act("cast", "alice", card="bolt", targets=["bob"]), act("pass", "alice"),
                       act("cast", "bob", card="cs", targets=["bolt"]), act("resolve")], "modern"),
    "empty-stack-passes": (setup(), PASS_BOTH, "modern"),
    "activate-ability": (setup({"battlefield": [card("sorc", "Prodigal Sorcerer")]}),
                         [act("activate", "alice", source="sorc", ability=0, targets=["bob"])], "modern"),
    "resolve-ability": (setup({"battlefield": [card("sorc", "Prodigal Sorcerer")]}),
                        [act("activate", "alice", source="sorc", ability=0, targets=["bob"]), act("resolve")],
                        "modern"),
    "sacrifice-cost": (setup({"battlefield": [card("gn", "Bottle Gnomes")]}),
                       [act("activate", "alice", source="gn", ability=0)], "modern"),
    "sacrifice-cost-trigger": (setup({"battlefield": [card("net", "Soul Net"), card("gn", "Bottle Gnomes")]}),
                               [act("activate", "alice", source="gn", ability=0)], "modern"),
    "damage-trigger": (setup({"battlefield": [card("looter", "Looter il-Kor")]}, step="declare_attackers"),
                       [act("declare_attackers", "alice", attackers=["looter"]), act("resolve"),
                        act("declare_blockers", "bob", blocks=[]), act("resolve")], "modern"),
    "mana-ability-sacrifice": (setup({"hand": [card("sarkhan", "Sarkhan, Dragon Ascendant"), card("dragon", "Shivan Dragon")],
                                      "battlefield": [card("m1", "Mountain"), card("m2", "Mountain")]}),
                               [act("cast", "alice", card="sarkhan", pay_with=["m1", "m2"]), act("resolve"), act("resolve"),
                                act("choose", "alice", choice="dragon"),
                                act("activate", "alice", source="token#1", ability=0, color="R")], "modern"),
    "mana-ability": (setup({"battlefield": [card("f", "Forest")]}),
                     [act("activate", "alice", source="f", ability=0)], "modern"),
    "rejected-input": (setup({"hand": [card("bolt", "Lightning Bolt")]}),
                       [act("cast", "alice", card="bolt", targets=["bob"]), act("pass", "alice")], "modern"),
    "trigger": (BEAR_SPELL, [act("cast", "alice", card="bear"), act("resolve")], "modern"),
    "trigger-with-target": (setup({"hand": [card("ape", "Uktabi Orangutan")], "mana_pool": {"G": 3}},
                                  {"battlefield": [card("orni", "Ornithopter")]}),
                            [act("cast", "alice", card="ape"), act("resolve"),
                             act("choose_targets", "alice", targets=["orni"])], "modern"),
    "order-triggers": (APE, [act("cast", "alice", card="ape"), act("resolve"),
                             act("order_triggers", "alice", order=["ape", "sw"]),
                             act("choose_targets", "alice", targets=["orni"]), act("resolve")], "modern"),
    "search-fails": (setup({"hand": [card("ss", "Sylvan Scrying")], "mana_pool": {"G": 2},
                           "library": [card("g1", "Grizzly Bears")]}),
                     [act("cast", "alice", card="ss"), act("resolve"), act("choose", "alice", choice="none")],
                     "modern"),
    "sba-lethal-damage": (setup({"hand": [card("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}},
                                {"battlefield": [card("bear", "Grizzly Bears")]}),
                          [act("cast", "alice", card="bolt", targets=["bear"]), act("resolve")], "modern"),
    "sba-zero-life": (setup({"battlefield": [card("sorc", "Prodigal Sorcerer")]}, {"life": 1}),
                      [act("activate", "alice", source="sorc", ability=0, targets=["bob"]), act("resolve")],
                      "modern"),
    "declare-attackers": (COMBAT, ATTACK[:1], "modern"),
    "no-attackers": (COMBAT, [act("declare_attackers", "alice", attackers=[]), *PASS_BOTH], "modern"),
    "declare-blockers": (COMBAT, [*ATTACK, BLOCK_GIANT], "modern"),
    "no-blockers": (COMBAT, [*ATTACK, act("declare_blockers", "bob", blocks=[])], "modern"),
    "combat-damage": (COMBAT, [*ATTACK, BLOCK_GIANT, act("resolve")], "modern"),
    "assign-damage": (setup({"battlefield": [card("giant", "Hill Giant")]},
                            {"battlefield": [card("e1", "Llanowar Elves"), card("e2", "Llanowar Elves")]},
                            step="declare_attackers"),
                      [act("declare_attackers", "alice", attackers=["giant"]), act("resolve"),
                       act("declare_blockers", "bob", blocks=[{"blocker": "e1", "attacker": "giant"},
                                                               {"blocker": "e2", "attacker": "giant"}]),
                       act("resolve"), act("assign_damage", "alice", attacker="giant", assignment={"e1": 1, "e2": 2})],
                      "modern"),
    "combat-damage-on-stack": (COMBAT, [*ATTACK, BLOCK_GIANT, act("resolve")], "classic-1999"),
    "combat-damage-resolves": (COMBAT, [*ATTACK, BLOCK_GIANT, act("resolve"), act("resolve")], "classic-1999"),
    "end-of-turn": (END_STEP, [act("advance", to="upkeep")], "modern"),
    "draw-step": (END_STEP, [act("advance", to="draw")], "modern"),
    "cleanup-discard": (EIGHT, [act("advance", to="cleanup"), act("discard", "alice", cards=["c0"])], "modern"),
    "cleanup-priority": (MEGRIM, [act("advance", to="cleanup"), act("discard", "alice", cards=["c0"])], "modern"),
    "cleanup-again": (MEGRIM, [act("advance", to="cleanup"), act("discard", "alice", cards=["c0"]),
                               act("resolve"), act("resolve"), act("advance", to="upkeep")], "modern"),
    # a card with suspend in exile with a time counter is suspended (CR 702.62b): no flag (FORMAT §10)
    "suspend-cast": (setup({"exile": [card("rb", "Rift Bolt", counters={"time": 1})]}, step="upkeep"),
                     [act("resolve"), act("resolve"), act("cast", "alice", card="rb", targets=["bob"])], "modern"),
    "suspend": (setup({"hand": [card("rb", "Rift Bolt")], "battlefield": [card("m1", "Mountain")]}),
                [act("suspend", "alice", card="rb", pay_with=["m1"])], "modern"),
    "cast-triggers": (setup({"hand": [card("blaze", "Blaze")], "mana_pool": {"R": 6},
                             "battlefield": [card("graf", "Hungry Graffalon")]},
                            {"battlefield": [card("bst", "Thornfist Striker")]}),
                      [act("cast", "alice", card="blaze", x=4, targets=["bst"], mana={"R": 5})], "modern"),
    "token-created": (setup({"hand": [card("ra", "Raise the Alarm")], "mana_pool": {"W": 2}}),
                      [act("cast", "alice", card="ra"), act("resolve")], "modern"),
    "mana-from-spell": (setup({"hand": [card("dr", "Dark Ritual")], "mana_pool": {"B": 1}}),
                        [act("cast", "alice", card="dr"), act("resolve")], "modern"),
    "start-of-game": ({"seed": 1, "start_of_game": True, "active_player": "alice",
                       "players": [{"id": "alice", "library": [card(f"a{i}", "Forest") for i in range(8)]},
                                   {"id": "bob", "library": [card(f"b{i}", "Forest") for i in range(8)]}]},
                      [act("keep", "alice"), act("keep", "bob")], "modern"),
    "first-turn": (setup(turn=1, step="upkeep"), PASS_BOTH, "modern"),
    "mana-empties": (setup({"mana_pool": {"R": 1}}), PASS_BOTH, "modern"),
    "mana-burn": (setup({"mana_pool": {"R": 1}}), PASS_BOTH, "classic-1999"),
}


def play(scenario_id: str, expect: dict | None = None) -> dict:
    s, script, ruleset = SCENARIOS[scenario_id]
    return play_raw(s, script, ruleset, expect)


def play_raw(s: dict, script: list, ruleset: str = "modern", expect: dict | None = None) -> dict:
    scenario = {"id": "doc.test", "setup": s, "script": script, **({"expect": expect} if expect else {})}
    return run_scenario(scenario, ruleset, CARDS)


def _matches(fields: dict, event: dict) -> bool:
    return all(event.get(k) == v for k, v in fields.items())


def _run_of(log: list[dict], patterns: list[tuple[str, dict]]) -> int | None:
    """The index where ``patterns`` match a contiguous run of ``log``, or None."""
    n = len(patterns)
    for k in range(len(log) - n + 1):
        if all(log[k + j]["type"] == t and _matches(f, log[k + j]) for j, (t, f) in enumerate(patterns)):
            return k
    return None


def _show(log: list[dict]) -> str:
    return "\n".join(f"#{i} {e}" for i, e in enumerate(log))


# ------------------------------------------------------------------------ event order
ORDER = table("event-order") if "<!-- table: event-order -->" in DOC else []


def test_every_event_order_row_has_a_scenario_and_back():
    ids = [ticked(r["id"])[0] for r in ORDER]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(SCENARIOS), "rows of §10.4 and SCENARIOS here differ"


@pytest.mark.parametrize("row", ORDER, ids=lambda r: ticked(r["id"])[0])
def test_event_order(row):
    patterns = event_patterns(row["events, in order"])
    assert patterns
    log = play(ticked(row["id"])[0])["events"]
    assert _run_of(log, patterns) is not None, (
        f"the engine does not log {[t for t, _ in patterns]} contiguously with those fields:\n{_show(log)}")


def test_game_ended_is_the_last_event():
    log = play("sba-zero-life")["events"]
    assert log[-1]["type"] == "game_ended"


def test_priority_is_not_announced_again_after_a_rejection():
    log = play("rejected-input")["events"]
    k = next(i for i, e in enumerate(log) if e["type"] == "action_rejected")
    assert log[k]["action"] == "cast"  # the action's name, not the whole input
    assert [e["type"] for e in log[k + 1:]] == ["priority_passed", "priority_received"]


# ------------------------------------------------------------- required even when empty
def test_required_empty_events():
    for row in table("required-empty"):
        (etype, _), = event_patterns(row["event"])
        field, value = ticked(row["field"])[0], _value(ticked(row["empty value"])[0])
        scenario_id = ticked(row["shown by"])[0]
        if scenario_id in SCENARIOS:
            log = play(scenario_id)["events"]
        else:
            log = EXTRA_LOGS[scenario_id]()["events"]
        assert any(e["type"] == etype and field in e and e[field] == value for e in log), (
            f"{etype}.{field} = {value!r} not in the log of {scenario_id}:\n{_show(log)}")


def _draw_game():
    # both players at 1 life, Hurricane deals 1 damage to each player: a draw (CR 104.4a)
    s = setup({"hand": [card("storm", "Hurricane")], "mana_pool": {"G": 2}, "life": 1}, {"life": 1})
    return play_raw(s, [act("cast", "alice", card="storm", x=1), act("resolve")])


def _free_spell():
    return play_raw(setup({"hand": [card("orni", "Ornithopter")]}), [act("cast", "alice", card="orni")])


def _legal_deck():
    lib = [card(f"a{i}", "Forest") for i in range(40)]
    blib = [card(f"b{i}", "Forest") for i in range(40)]
    s = {"seed": 1, "start_of_game": True, "deck_rules": "limited", "active_player": "alice",
         "players": [{"id": "alice", "library": lib}, {"id": "bob", "library": blib}]}
    return play_raw(s, [act("keep", "alice"), act("keep", "bob")])


EXTRA_LOGS = {"draw-game": _draw_game, "free-spell": _free_spell,
              "legal-deck": _legal_deck}


def test_every_step_begins_and_ends_even_without_priority():
    log = play("end-of-turn")["events"]
    steps = [(e["type"], e["step"]) for e in log if e["type"] in ("step_began", "step_ended")]
    for step in ("cleanup", "untap"):
        assert ("step_began", step) in steps and ("step_ended", step) in steps


# ----------------------------------------------------------------------- turn-1 draw
def test_first_turn_has_no_draw_step_in_every_ruleset():
    for ruleset in ("modern", "timespiral-2006", "classic-1999"):
        s = setup({"library": [card("a1", "Forest")]}, {"library": [card("b1", "Forest")]}, turn=1, step="untap")
        log = play_raw(s, [act("advance", to="precombat_main", turn=2)], ruleset)["events"]
        draws = [(e["turn"]) for e in log if e["type"] == "step_began" and e["step"] == "draw"]
        assert draws == [2], ruleset  # no draw step on turn 1; bob's turn 2 has one
        drawn = [e["player"] for e in log if e["type"] == "card_drawn"]
        assert drawn == ["bob"], ruleset


def test_a_setup_that_starts_in_the_draw_step_of_turn_1_draws():
    # the skip applies when the turn moves on to its draw step, not to a setup's first step
    s = setup({"library": [card("a1", "Forest")]}, turn=1, step="draw")
    log = play_raw(s, [])["events"]
    assert [e["type"] for e in log[:4]] == ["game_started", "step_began", "zone_changed", "card_drawn"]


# ------------------------------------------------------------------------- decisions
ENGINE = ROOT / "engine"


def _asked_kinds() -> set[str]:
    kinds = set()
    for path in ENGINE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        kinds |= set(re.findall(r"\.(?:decide|ask)\(\s*\"(\w+)\"", text))
    return kinds


def test_decision_table_lists_every_decision_kind():
    rows = table("decisions")
    documented = {ticked(r["kind"])[0]: ticked(r["answered by"]) for r in rows}
    assert set(documented) == set(DECISION_ACTIONS)
    assert _asked_kinds() <= set(documented), "a decision kind the engine asks is not documented"
    for kind, actions in DECISION_ACTIONS.items():
        assert set(actions) <= set(documented[kind]), kind


def _choose_reasons() -> set[str]:
    reasons = set()
    for path in ENGINE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"decide\(\"choose\"[^\n]*?reason=(?:eff\.get\(\"reason\", )?\"(\w+)\"", text):
            reasons.add(m.group(1))
        reasons |= set(re.findall(r"_choose_on_resolution\(ctx, \"(\w+)\"", text))
        reasons |= set(re.findall(r"_yes\([^\n]*?\"(\w+)\", ", text))
        reasons |= set(re.findall(r"\"reason\": \"(\w+)\"", text))  # an effect's reason (echo, ward)
    return reasons


def test_choose_reasons_are_documented():
    documented = {ticked(r["reason"])[0] for r in table("choose-reasons")}
    missing = _choose_reasons() - documented
    assert not missing, f"choose decisions the engine asks but §10.2 does not list: {sorted(missing)}"


def test_advance_answers_declarations_with_nothing():
    log = play_raw(COMBAT, [act("advance", to="postcombat_main")])["events"]
    assert {"type": "attackers_declared", "player": "alice", "attackers": []} in log
    assert not any(e["type"] == "step_began" and e["step"] == "declare_blockers" for e in log)


def test_resolve_meeting_a_declaration_is_a_script_error():
    log = play_raw(COMBAT, [act("resolve")])["events"]
    assert log[-1]["type"] == "script_error" and log[-1]["code"] == "unanswered_decision"


def test_advance_meeting_a_discard_is_a_script_error():
    log = play_raw(EIGHT, [act("advance", to="upkeep")])["events"]
    assert log[-1]["type"] == "script_error" and log[-1]["code"] == "unanswered_decision"


def test_advance_stops_at_the_first_decision_of_the_step():
    result = play("draw-step", expect={"checkpoints": [{"after": 0}]})
    state = result["checkpoints"][0]["state"]
    assert (state["turn"], state["step"], state["priority"]) == (4, "draw", "bob")


LIBRARIES = setup({"library": [card(f"a{i}", "Forest") for i in range(3)]},
                  {"library": [card(f"b{i}", "Forest") for i in range(3)]})


def test_advance_to_the_untap_step_never_stops_there():
    # no decision is asked in the untap step: advance goes on until it gives up
    log = play_raw(LIBRARIES, [act("advance", to="untap")])["events"]
    assert {"type": "step_began", "turn": 4, "phase": "beginning", "step": "untap"} in log
    assert log[-1]["type"] == "script_error" and log[-1]["code"] == "advance_not_reached"


def test_advance_gives_up_two_turns_later():
    log = play_raw(LIBRARIES, [act("advance", to="cleanup")])["events"]
    assert log[-1]["type"] == "script_error" and log[-1]["code"] == "advance_not_reached"
    assert max(e["turn"] for e in log if e["type"] == "turn_began") == 6


def test_advance_to_the_current_step_goes_to_its_next_occurrence():
    result = play_raw(LIBRARIES, [act("advance", to="precombat_main")], expect={"checkpoints": [{"after": 0}]})
    state = result["checkpoints"][0]["state"]
    assert (state["turn"], state["active_player"], state["step"]) == (4, "bob", "precombat_main")


def test_resolve_is_one_pass_per_player():
    s, script, _ = SCENARIOS["resolve-instant"]
    log = play_raw(s, [script[0], act("resolve")])["events"]
    assert [e["player"] for e in log if e["type"] == "priority_passed"] == ["alice", "bob"]
    assert log[-1] == {"type": "priority_received", "player": "alice"}


def test_inputs_after_the_end_of_the_game_are_rejected_but_macros_are_dropped():
    s, script, _ = SCENARIOS["sba-zero-life"]
    log = play_raw(s, script + [act("resolve"), act("pass", "alice")])["events"]
    rejected = [e for e in log if e["type"] == "action_rejected"]
    assert [(e["at"], e["code"]) for e in rejected] == [(len(script) + 1, "game_over")]


# ---------------------------------------------------------------- rejection precedence
def _code(s: dict, script: list, ruleset: str = "modern") -> str:
    log = play_raw(s, script, ruleset)["events"]
    codes = [e["code"] for e in log if e["type"] in ("action_rejected", "script_error")]
    assert codes, _show(log)
    return codes[0]


HAND = {"hand": [card("bolt", "Lightning Bolt"), card("f", "Forest"), card("bear", "Grizzly Bears")]}
ZERO = SCENARIOS["sba-zero-life"]
#: (the input's row of the precedence table, winning code, losing code, setup, script)
PRECEDENCE = [
    ("`cast`", "bad_input", "not_your_priority", setup(HAND), [act("cast", "bob", card=5)]),
    ("`cast`", "game_over", "not_your_priority", ZERO[0], ZERO[1] + [act("cast", "bob", card="x")]),
    ("`declare_attackers`", "wrong_decision", "not_your_priority", setup(HAND),
     [act("declare_attackers", "bob", attackers=[])]),
    ("`cast`", "not_your_priority", "is_a_land", setup(HAND), [act("cast", "bob", card="f")]),
    ("`play_land`", "not_in_hand", "sorcery_timing", setup({"battlefield": [card("f0", "Forest")]}, step="upkeep"),
     [act("play_land", "alice", card="f0")]),
    ("`play_land`", "not_a_land", "sorcery_timing", setup(HAND, step="upkeep"),
     [act("play_land", "alice", card="bear")]),
    ("`play_land`", "sorcery_timing", "land_already_played", setup(HAND, step="upkeep", lands_played=1),
     [act("play_land", "alice", card="f")]),
    ("`cast`", "is_a_land", "sorcery_timing", setup(HAND, step="upkeep"), [act("cast", "alice", card="f")]),
    ("`cast`", "sorcery_timing", "cannot_pay", setup(HAND, step="upkeep"), [act("cast", "alice", card="bear")]),
    ("`cast`", "missing_targets", "cannot_pay", setup(HAND), [act("cast", "alice", card="bolt")]),
    ("`cast`", "invalid_target", "cannot_pay", setup(HAND), [act("cast", "alice", card="bolt", targets=["f"])]),
    ("`activate`", "not_controller", "summoning_sick",
     setup(bob={"battlefield": [card("sorc", "Prodigal Sorcerer", summoning_sick=True)]}),
     [act("activate", "alice", source="sorc", ability=0, targets=["bob"])]),
    ("`activate`", "invalid_target", "summoning_sick",
     setup({"battlefield": [card("sorc", "Prodigal Sorcerer", summoning_sick=True)]}),
     [act("activate", "alice", source="sorc", ability=0, targets=["nobody"])]),
    ("`activate`", "already_tapped", "summoning_sick",
     setup({"battlefield": [card("sorc", "Prodigal Sorcerer", summoning_sick=True, tapped=True)]}),
     [act("activate", "alice", source="sorc", ability=0, targets=["bob"])]),
    ("`declare_attackers`", "cannot_attack", "summoning_sick",
     setup({"battlefield": [card("bear", "Grizzly Bears", summoning_sick=True, tapped=True)]},
           step="declare_attackers"),
     [act("declare_attackers", "alice", attackers=["bear"])]),
    ("`declare_blockers`", "invalid_block", "cannot_block",
     setup({"battlefield": [card("bear", "Grizzly Bears"), card("giant", "Hill Giant")]},
           {"battlefield": [card("bbear", "Grizzly Bears", tapped=True)]}, step="declare_attackers"),
     [act("declare_attackers", "alice", attackers=["bear"]), act("resolve"),
      act("declare_blockers", "bob", blocks=[{"blocker": "bbear", "attacker": "giant"}])]),
    ("`cast`", "invalid_payment", "invalid_target",
     setup({"hand": [card("ex", "Caustic Exhale"), card("tr", "Dragon Trainer")],
            "battlefield": [card("s1", "Swamp"), card("s2", "Swamp")]}),
     [act("cast", "alice", card="ex", behold="tr", targets=["nobody"])]),
    ("`cast`", "not_controller", "invalid_target",
     setup({"graveyard": [card("wr", "Wild Ride")],
            "battlefield": [card("m1", "Mountain")]},
           {"battlefield": [card("bb", "Grizzly Bears")]}),
     [act("cast", "alice", card="wr", alternative="harmonize", harmonize_tap="bb",
          targets=["nobody"])]),
    ("`discard`", "invalid_choice", "not_in_hand", EIGHT,
     [act("advance", to="cleanup"), act("discard", "alice", cards=["c0", "zzz"])]),
]


def _precedence(row: str) -> list[str]:
    """The codes of the checks an input of ``row`` goes through, in order: the checks of
    any input, the row's own, then the costs for a cast or an activation."""
    rows = {r["input"]: ticked(r["checks, in order (the first that fails gives the code)"])
            for r in table("rejection-precedence")}
    return rows["any input"] + rows[row] + (rows["costs"] if row in ("`cast`", "`activate`") else [])


@pytest.mark.parametrize("row,wins,loses,s,script", PRECEDENCE,
                         ids=[f"{w}-over-{lo}" for _, w, lo, _, _ in PRECEDENCE])
def test_rejection_precedence(row, wins, loses, s, script):
    codes = _precedence(row)
    assert wins in codes and loses in codes, (row, wins, loses)
    assert codes.index(wins) < codes.index(loses), f"§10.5 lists {loses} before {wins} for {row}"
    assert _code(s, script) == wins


def test_the_first_bad_entry_of_a_declaration_decides():
    s = setup({"battlefield": [card("bear", "Grizzly Bears", summoning_sick=True)]}, step="declare_attackers")
    assert _code(s, [act("declare_attackers", "alice", attackers=["bear", "ghost"])]) == "summoning_sick"
    assert _code(s, [act("declare_attackers", "alice", attackers=["ghost", "bear"])]) == "unknown_object"


def test_no_priority_is_never_produced():
    # an input "sent during" the cleanup step answers the next decision: bob's upkeep priority
    s = setup({"hand": [card("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}}, step="end")
    log = play_raw(s, [*PASS_BOTH, act("cast", "alice", card="bolt", targets=["bob"])])["events"]
    rejected = [e for e in log if e["type"] == "action_rejected"]
    assert [e["code"] for e in rejected] == ["not_your_priority"]


# ------------------------------------------------------------------------ state.combat
def _state_at(s: dict, script: list, after: int, ruleset: str = "modern") -> dict:
    result = play_raw(s, script, ruleset, expect={"checkpoints": [{"after": after}]})
    return result["checkpoints"][0]["state"]


def test_combat_shape():
    main = _state_at(setup(), [act("pass", "alice")], 0)
    assert main["combat"] is None
    begin = _state_at(setup(step="beginning_of_combat"), [act("pass", "alice")], 0)
    assert begin["combat"] == {"attackers": {}, "blockers": {}}
    script = [*ATTACK, BLOCK_GIANT]
    declared = _state_at(COMBAT, script, 1)
    assert declared["combat"] == {"attackers": {"bear": "bob", "giant": "bob"}, "blockers": {}}
    blocked = _state_at(COMBAT, script + [act("pass", "alice")], 2)
    assert blocked["combat"] == {"attackers": {"bear": "bob", "giant": "bob"}, "blockers": {"bbear": "giant"}}
    after = _state_at(COMBAT, script + [act("advance", to="postcombat_main")], 3)
    assert after["combat"] is None
    for state in (main, begin, declared, blocked, after):
        assert not loader.validate(state, "state", "state"), loader.validate(state, "state", "state")


def test_a_creature_leaving_combat_takes_only_its_own_key():
    # §10.7, CR 506.4, 509.1h: the Giant (blocked by bbear) or bbear dies to a Bolt after the blocks
    s = setup({"battlefield": [card("bear", "Grizzly Bears"), card("giant", "Hill Giant"),
                              card("m1", "Mountain")], "hand": [card("bolt", "Lightning Bolt")]},
              {"battlefield": [card("bbear", "Grizzly Bears")]}, step="declare_attackers")
    for victim, combat in (("giant", {"attackers": {"bear": "bob"}, "blockers": {"bbear": "giant"}}),
                           ("bbear", {"attackers": {"bear": "bob", "giant": "bob"}, "blockers": {}})):
        script = [*ATTACK, BLOCK_GIANT, act("cast", "alice", card="bolt", targets=[victim], pay_with=["m1"]),
                  act("resolve")]
        state = _state_at(s, script, 4)
        assert victim not in state["battlefield"] and state["step"] == "declare_blockers"
        assert state["combat"] == combat, victim


def test_the_state_schema_pins_combat():
    bad = _state_at(COMBAT, [*ATTACK], 1)
    bad["combat"] = {"attackers": ["bear"]}
    assert loader.validate(bad, "state", "state")
    assert "not fixed yet" not in (ROOT / "schema" / "state.schema.json").read_text(encoding="utf-8")
    assert "not fixed yet" not in DOC


# ----------------------------------------------------------------------------- probes
def test_probe_shapes():
    s = setup({"hand": [card("bolt", "Lightning Bolt"), card("f", "Forest"), card("f2", "Forest")],
               "mana_pool": {"R": 1}})
    legal = act("cast", "alice", card="bolt", targets=["bob"])
    illegal = {"action": act("play_land", "alice", card="f2"), "code": "land_already_played"}
    other = {"action": act("pass", "bob"), "code": "not_your_priority"}
    result = play_raw(s, [act("play_land", "alice", card="f"), act("pass", "alice")], expect={"checkpoints": [
        {"after": 0, "legal": [legal], "illegal": [illegal, other]}]})
    cp, = result["checkpoints"]
    assert set(cp) == {"after", "state", "probes"} and cp["after"] == 0
    assert cp["probes"] == [
        {"action": legal, "legal": True, "code": None},
        {"action": illegal["action"], "legal": False, "code": "land_already_played"},
        {"action": other["action"], "legal": False, "code": "not_your_priority"},
    ]
    # probing changes nothing: the game went on with the script's own input
    assert cp["state"]["players"]["alice"]["hand"] == ["bolt", "f2"]
    assert result["state"]["players"]["alice"]["hand"] == ["bolt", "f2"]
    assert not any(e["type"] == "spell_cast" for e in result["events"])


def test_a_checkpoint_is_the_state_when_the_next_input_is_read():
    result = play("resolve-instant", expect={"checkpoints": [{"after": 0}, {"after": 2}]})
    first, last = result["checkpoints"]
    assert first["state"]["stack"][0]["object"] == "bolt#2" and first["state"]["priority"] == "alice"
    assert last["state"] == result["state"]


# ------------------------------------------------------------------- more of §10's rules
def test_the_game_stops_when_the_script_runs_out():
    result = play("cast-spell")
    assert result["events"][-1] == {"type": "priority_received", "player": "alice"}
    assert result["state"]["priority"] == "alice" and result["state"]["stack"][0]["object"] == "bolt#2"


def test_no_turn_began_for_the_setup_turn():
    log = play("game-start")["events"]
    assert not any(e["type"] == "turn_began" for e in log)


def test_a_trigger_without_a_legal_target_is_removed_without_a_decision():
    s = setup({"hand": [card("ape", "Uktabi Orangutan")], "mana_pool": {"G": 3}})
    log = play_raw(s, [act("cast", "alice", card="ape"), act("resolve")])["events"]
    assert {"type": "ability_removed", "object": "ability#1", "card": "ability#1",
            "reason": "no_legal_targets"} in log
    assert log[-1] == {"type": "priority_received", "player": "alice"}


def test_advance_to_an_unknown_step_is_a_script_error():
    log = play_raw(setup(), [act("advance", to="second_main")])["events"]
    assert log[-1]["type"] == "script_error" and log[-1]["code"] == "bad_input"


def test_another_players_answer_to_a_declaration_is_wrong_decision():
    assert _code(COMBAT, [act("declare_attackers", "bob", attackers=[])]) == "wrong_decision"
    assert _code(COMBAT, [act("pass", "alice")]) == "wrong_decision"


def test_a_creature_leaving_the_battlefield_leaves_combat():
    s = setup({"battlefield": [card("bear", "Grizzly Bears"), card("giant", "Hill Giant")]},
              {"hand": [card("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}}, step="declare_attackers")
    script = [act("declare_attackers", "alice", attackers=["bear", "giant"]), act("pass", "alice"),
              act("cast", "bob", card="bolt", targets=["bear"]), act("resolve")]
    state = _state_at(s, script, 3)
    assert state["combat"] == {"attackers": {"giant": "bob"}, "blockers": {}}


def test_a_probe_ending_in_a_script_error_is_illegal_with_its_code():
    probe = act("advance", to="nowhere")
    result = play_raw(setup(), [act("pass", "alice")], expect={"checkpoints": [{"after": 0, "legal": [probe]}]})
    assert result["checkpoints"][0]["probes"] == [{"action": probe, "legal": False, "code": "bad_input"}]


def test_a_setup_cannot_start_after_attackers_are_declared():
    for step in ("declare_blockers", "combat_damage"):
        with pytest.raises(Exception):
            play_raw(setup({"battlefield": [card("bear", "Grizzly Bears")]}, step=step), [])


def test_triggers_go_on_the_stack_active_player_first():
    # bob's Soul Warden is first on the battlefield, so it triggers first (ability#1), but
    # alice's trigger goes on the stack first (CR 603.3b)
    s = setup({"hand": [card("bear", "Grizzly Bears")], "mana_pool": {"G": 2},
               "battlefield": [card("bsw", "Soul Warden", controller="bob"), card("sw", "Soul Warden")]})
    log = play_raw(s, [act("cast", "alice", card="bear"), act("resolve")])["events"]
    triggered = [(e["object"], e["controller"]) for e in log if e["type"] == "ability_triggered"]
    stacked = [(e["object"], e["controller"]) for e in log if e["type"] == "ability_put_on_stack"]
    assert triggered == [("ability#1", "bob"), ("ability#2", "alice")]
    assert stacked == [("ability#2", "alice"), ("ability#1", "bob")]


def test_priority_again_after_a_special_action():
    s = setup({"hand": [card("rb", "Rift Bolt")], "mana_pool": {"R": 1}})
    log = play_raw(s, [act("suspend", "alice", card="rb")])["events"]
    assert log[-1] == {"type": "priority_received", "player": "alice"}
    assert any(e["type"] == "special_action" for e in log)


def test_no_blockers_declared_when_every_attacker_has_left_combat():
    s = setup({"battlefield": [card("bear", "Grizzly Bears")]},
              {"hand": [card("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}}, step="declare_attackers")
    log = play_raw(s, [act("declare_attackers", "alice", attackers=["bear"]), act("pass", "alice"),
                       act("cast", "bob", card="bolt", targets=["bear"]), act("resolve"),
                       act("advance", to="postcombat_main")])["events"]
    steps = [e["step"] for e in log if e["type"] == "step_began"]
    assert steps == ["declare_attackers", "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main"]
    assert not any(e["type"] == "blockers_declared" for e in log)
    assert not any(e["type"] == "damage_dealt" and e["combat"] for e in log)


def test_no_cause_on_casting_resolving_or_drawing():
    for scenario_id in ("resolve-instant", "resolve-permanent", "draw-step", "play-land"):
        log = play(scenario_id)["events"]
        assert not any("cause" in e for e in log if e["type"] == "zone_changed"), scenario_id


def test_ability_numbers():
    # the Orangutan's trigger (removed: no artifact) is ability#1; a rejected activation
    # uses no number; the Sorcerer's ability is ability#2
    s = setup({"hand": [card("ape", "Uktabi Orangutan")], "mana_pool": {"G": 3},
               "battlefield": [card("sorc", "Prodigal Sorcerer")]})
    log = play_raw(s, [act("cast", "alice", card="ape"), act("resolve"),
                       act("activate", "alice", source="sorc", ability=0, targets=["nobody"]),
                       act("activate", "alice", source="sorc", ability=0, targets=["bob"])])["events"]
    assert [e["object"] for e in log if e["type"] in ("ability_triggered", "ability_activated")] == \
        ["ability#1", "ability#2"]
    assert any(e["type"] == "ability_removed" and e["object"] == "ability#1" for e in log)
    assert any(e["type"] == "action_rejected" and e["at"] == 2 for e in log)


def test_a_triggered_mana_ability_is_numbered():
    s = setup({"battlefield": [card("f", "Forest"), card("fg", "Fertile Ground", attached_to="f")]})
    log = play_raw(s, [act("activate", "alice", source="f", ability=0, extra_color="R")])["events"]
    assert [e["object"] for e in log if e["type"] == "ability_triggered"] == ["ability#1"]


def test_assign_damage_for_a_trampler_with_one_blocker_not_for_one_without_blockers():
    s = setup({"battlefield": [card("wm", "War Mammoth")]},
              {"battlefield": [card("e1", "Llanowar Elves"), card("m2", "Mountain")],
               "hand": [card("bolt", "Lightning Bolt")]}, step="declare_attackers")
    attack = [act("declare_attackers", "alice", attackers=["wm"]), act("resolve"),
              act("declare_blockers", "bob", blocks=[{"blocker": "e1", "attacker": "wm"}])]
    log = play_raw(s, attack + [act("resolve")])["events"]
    assert log[-1]["type"] == "step_began" and log[-1]["step"] == "combat_damage"  # waiting for assign_damage
    log = play_raw(s, attack + [act("resolve"), act("assign_damage", "alice", attacker="wm",
                                                    assignment={"e1": 1, "bob": 2})])["events"]
    assert {"type": "damage_dealt", "source": "wm", "source_card": "wm", "target": "bob", "amount": 2,
            "combat": True} in log
    # its blocker gone (bob bolts his own Elves), all its damage goes to bob without a decision
    log = play_raw(s, attack + [act("pass", "alice"), act("cast", "bob", card="bolt", targets=["e1"], pay_with=["m2"]),
                                act("resolve"), act("resolve")])["events"]
    assert not any(e["type"] == "combat_damage_assigned" for e in log)
    assert {"type": "damage_dealt", "source": "wm", "source_card": "wm", "target": "bob", "amount": 3,
            "combat": True} in log


def test_a_discard_effect_asks_the_discarding_player():
    s = setup({"hand": [card("rot", "Mind Rot")], "mana_pool": {"B": 3}},
              {"hand": [card("x1", "Forest"), card("x2", "Forest"), card("x3", "Forest")]})
    script = [act("cast", "alice", card="rot", targets=["bob"]), act("resolve")]
    log = play_raw(s, script)["events"]
    assert log[-1] == {"type": "spell_resolved", "object": "rot#2", "card": "rot"}  # waiting for bob
    log = play_raw(s, script + [act("discard", "bob", cards=["x1", "x3"])])["events"]
    assert [e["card"] for e in log if e["type"] == "card_discarded"] == ["x1", "x3"]


def test_combat_when_no_attackers_were_declared():
    state = _state_at(COMBAT, [act("declare_attackers", "alice", attackers=[]), act("pass", "alice")], 0)
    assert state["combat"] == {"attackers": {}, "blockers": {}}


# ------------------------------------------------------------- §11 comparable state parts
def test_state_parts_table_is_the_harness_list_and_each_part_compares_its_fields():
    """§11.1 lists exactly ``protocol.STATE_PARTS``, in order; the reference engine declares
    them all; each part, alone, sees a change of the fields its row names and nothing else
    (``fuzz.comparable_state``)."""
    from mtg_judge.conformance import fuzz, protocol
    rows = table("state-parts")
    assert [ticked(r["part"])[0] for r in rows] == list(protocol.STATE_PARTS)
    assert protocol.reference_implementation()["state_parts"] == list(protocol.STATE_PARTS)
    assert "library_order" not in protocol.DEFAULT_STATE_PARTS
    s = setup({"hand": [card("bolt", "Lightning Bolt")], "library": [card("f1", "Forest"), card("f2", "Mountain")],
               "battlefield": [card("bear", "Grizzly Bears"), card("m1", "Mountain")]})
    state = run_scenario({"id": "x", "setup": s, "script": []}, "modern", cards=CARDS)["state"]
    names = fuzz.alias_names(s)
    changes = {"turn": lambda st: st.update(turn=9), "priority": lambda st: st.update(priority="bob"),
               "life": lambda st: st["players"]["bob"].update(life=3),
               "zones": lambda st: st["players"]["alice"]["hand"].clear(),
               "library_order": lambda st: st["players"]["alice"]["library"].reverse(),
               "mana_pool": lambda st: st["players"]["alice"].update(mana_pool={"R": 1}),
               "lands_played": lambda st: st["players"]["alice"].update(lands_played=1),
               "battlefield": lambda st: st["battlefield"]["bear"].update(tapped=True),
               "damage": lambda st: st["battlefield"]["bear"].update(damage=1),
               "counters": lambda st: st["battlefield"]["bear"].update(counters={"+1/+1": 1}),
               "attachments": lambda st: st["battlefield"]["m1"].update(attached_to="bear"),
               "characteristics": lambda st: st["battlefield"]["bear"].update(power=5),
               "summoning_sick": lambda st: st["battlefield"]["bear"].update(summoning_sick=True),
               "stack": lambda st: st["stack"].append({"object": "ability#1", "card": "ability#1", "kind": "ability",
                                                       "source": "bear", "controller": "alice", "targets": []}),
               "combat": lambda st: st.update(combat={"attackers": {}, "blockers": {}}),
               "game_over": lambda st: st.update(game_over={"winners": ["alice"], "losers": ["bob"], "draw": False})}
    assert set(changes) == set(protocol.STATE_PARTS)
    import copy
    for part, change in changes.items():
        changed = copy.deepcopy(state)
        change(changed)
        for other in protocol.STATE_PARTS:
            differs = fuzz.comparable_state(state, names, [other]) != fuzz.comparable_state(changed, names, [other])
            assert differs == (other == part), (part, other)
    # what is never compared: references and aliases, hand order
    renamed = copy.deepcopy(state)
    renamed["battlefield"]["bear"]["object"] = "bear#7"
    renamed["players"]["alice"]["hand"].reverse()
    assert fuzz.comparable_state(state, names, list(protocol.STATE_PARTS)) == \
        fuzz.comparable_state(renamed, names, list(protocol.STATE_PARTS))
