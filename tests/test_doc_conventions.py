"""Conventions written in docs/PROTOCOL.md §10.9 and docs/FORMAT.md (§3.1 start of the game
and deck rules, §7 random discards, §8 ``invalid_x``, §10 ``may_cast``, madness and
flashback, §11.9 prepared copies) are checked on the reference engine (issue 27: an engine
written from the documents must not have to learn them from ``mtg-judge show``).

The table ``<!-- table: fixture-conventions -->`` names a fixture per row; its events cell
lists event patterns (the syntax of PROTOCOL §10.4's table) joined by ``→`` (consecutive
once priority events are left out) or ``…`` (later). The other tests read a statement's
values out of the document where it has them (the deck-rules table) and otherwise play the
fixture or the tiny scenario the statement names, each expectation written from the rule
cited, not copied from a log.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from test_protocol_doc import act, card, event_patterns, play_raw, setup, table, ticked

from mtg_judge.conformance import runner
from mtg_judge.engine import run_scenario

ROOT = Path(__file__).resolve().parent.parent
FORMAT = (ROOT / "docs" / "FORMAT.md").read_text(encoding="utf-8")
PROTOCOL = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
PRIORITY = ("priority_received", "priority_passed")


@lru_cache(maxsize=None)
def _cases() -> dict[tuple[str, str], runner.Case]:
    return {(c.fixture_id, c.ruleset): c for c in runner.collect()}


def fixture_log(ref: str, upto: int | None = None) -> dict:
    """The reference engine's result for ``ref`` (``id`` or ``id[ruleset]``: default its
    first ruleset); with ``upto``, only the script's first ``upto`` inputs are played."""
    m = re.fullmatch(r"([\w.-]+)(?:\[([\w-]+)\])?", ref)
    assert m, ref
    fixture_id, ruleset = m.group(1), m.group(2)
    found = [c for (fid, rs), c in _cases().items() if fid == fixture_id and ruleset in (None, rs)]
    assert found, f"no fixture case {ref}"
    case = found[0]
    scenario = dict(case.scenario)
    if upto is not None:
        scenario["script"] = scenario["script"][:upto]
        scenario.pop("expect", None)
    return run_scenario(scenario, case.ruleset, cards=case.scenario["cards"])


def _matches(fields: dict, event: dict) -> bool:
    return all(event.get(k) == v for k, v in fields.items())


def _find_run(log: list[dict], patterns: list[tuple[str, dict]], start: int) -> int | None:
    """The first index >= ``start`` where ``patterns`` match consecutive events of ``log``."""
    for k in range(start, len(log) - len(patterns) + 1):
        if all(log[k + j]["type"] == t and _matches(f, log[k + j]) for j, (t, f) in enumerate(patterns)):
            return k
    return None


def _groups(cell: str) -> list[list[tuple[str, dict]]]:
    return [event_patterns(part) for part in cell.split("…")]


def _shown(log: list[dict]) -> str:
    return "\n".join(f"#{i} {e}" for i, e in enumerate(log))


# ------------------------------------------------------------- PROTOCOL §10.9's table
ROWS = table("fixture-conventions")


def test_the_table_reads():
    ids = [ticked(r["id"])[0] for r in ROWS]
    assert len(ids) == len(set(ids)) and len(ids) >= 15


@pytest.mark.parametrize("row", ROWS, ids=lambda r: ticked(r["id"])[0])
def test_fixture_convention(row):
    fixture, = ticked(row["fixture"])
    log = [e for e in fixture_log(fixture)["events"] if e["type"] not in PRIORITY]
    at = 0
    for group in _groups(row["events"]):
        assert group
        found = _find_run(log, group, at)
        assert found is not None, (f"{fixture}: no consecutive {[t for t, _ in group]} with those fields "
                                   f"after event {at}:\n{_shown(log)}")
        at = found + len(group)


def test_the_legend_rule_choice_comes_before_any_event_of_the_check():
    # classic.legend.controller-chooses-which-to-keep: the `choose` is input 2; cut before it,
    # the game waits for it and no state-based action is logged yet (CR 704.5j, §10.9 row legend-rule)
    log = fixture_log("classic.legend.controller-chooses-which-to-keep", upto=2)["events"]
    shown = [e for e in log if e["type"] not in PRIORITY]
    assert shown[-1]["type"] == "permanent_entered"
    assert not any(e["type"] == "state_based_action" for e in log)


def test_flashbacks_exile_after_resolving_has_no_cause_and_after_a_counter_keeps_it():
    log = fixture_log("timespiral.flashback.cast-from-graveyard-then-exiled")["events"]
    k = next(i for i, e in enumerate(log) if e["type"] == "replacement_applied")
    assert log[k + 1]["type"] == "zone_changed" and log[k + 1]["to"] == "exile" and "cause" not in log[k + 1]
    log = fixture_log("timespiral.flashback.mana-cost-unchanged-and-countered-is-exiled")["events"]
    k = next(i for i, e in enumerate(log) if e["type"] == "replacement_applied")
    assert log[k + 1]["to"] == "exile" and log[k + 1]["cause"] == "countered"


def test_each_copys_targets_are_asked_before_its_spell_copied():
    # the fixture answers copy targets with inputs 6 (rejected), 7 and 8
    fixture = "timespiral.storm.each-copy-may-get-new-targets[timespiral-2006]"
    for upto, copies in ((6, 0), (7, 0), (8, 1), (9, 2)):
        log = fixture_log(fixture, upto=upto)["events"]
        assert sum(e["type"] == "spell_copied" for e in log) == copies, upto


def test_mulligans_a_player_finishes_before_the_next_is_asked():
    log = fixture_log("classic.game.opening-hand-and-mulligans")["events"]
    order = [(e["type"], e["player"]) for e in log if e["type"] in ("mulligan_taken", "hand_kept")]
    assert order == [("mulligan_taken", "alice"), ("mulligan_taken", "alice"), ("hand_kept", "alice"),
                     ("hand_kept", "bob")]
    assert sum(e["type"] == "turn_began" and e["turn"] == 1 for e in log) == 1  # logged at the start of the game


# -------------------------------------------------------------------- FORMAT §3.1
def _format_table(name: str) -> list[dict[str, str]]:
    marker = f"<!-- table: {name} -->"
    assert marker in FORMAT
    lines = FORMAT.split(marker, 1)[1].lstrip("\n").splitlines()
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    header = rows[0]
    return [dict(zip(header, r)) for r in rows[2:]]


DECK_ROWS = _format_table("deck-rules")


def _deck_start(alice_lib: list, bob_lib: list, rules: str) -> dict:
    s = {"seed": 1, "start_of_game": True, "deck_rules": rules, "active_player": "alice",
         "players": [{"id": "alice", "library": alice_lib}, {"id": "bob", "library": bob_lib}]}
    return play_raw(s, [act("keep", "alice"), act("keep", "bob")])


def test_deck_rules_table_names_the_engines_values():
    assert [ticked(r["`deck_rules`"])[0] for r in DECK_ROWS] == ["constructed", "limited"]


@pytest.mark.parametrize("row", DECK_ROWS, ids=lambda r: ticked(r["`deck_rules`"])[0])
def test_deck_rules(row):
    rules = ticked(row["`deck_rules`"])[0]
    least = int(re.match(r"(\d+) cards", row["a deck has at least"]).group(1))
    most = re.match(r"at most (\d+)", row["copies of one card"])
    forests = [card(f"f{i}", "Forest") for i in range(least)]
    bob_forests = [card(f"g{i}", "Forest") for i in range(least)]
    # exactly the minimum is legal; one card fewer is not (CR 100.2a, 100.2b)
    result = _deck_start(forests, bob_forests[:-1], rules)
    checked = {e["player"]: e for e in result["events"] if e["type"] == "deck_checked"}
    assert checked["alice"]["legal"] and checked["alice"]["problems"] == [] and checked["alice"]["rules"] == rules
    assert not checked["bob"]["legal"] and str(least) in checked["bob"]["problems"][0]
    played = [e for e in result["events"] if e["type"] != "action_rejected"]
    assert played[-1] == {"type": "game_not_started", "reason": "illegal_deck", "players": ["bob"]}
    # every input left is rejected with game_over (FORMAT §3.1, PROTOCOL §10.1)
    assert [e["code"] for e in result["events"] if e["type"] == "action_rejected"] == ["game_over", "game_over"]
    assert result["state"]["game_over"] == {"winners": [], "losers": [], "draw": False, "not_started": True}
    # copies of a card other than a basic land
    n = int(most.group(1)) if most else 5
    bolts = [card(f"b{i}", "Lightning Bolt") for i in range(n + 1)]
    result = _deck_start(forests, bolts + bob_forests[n + 1:], rules)
    bob = next(e for e in result["events"] if e["type"] == "deck_checked" and e["player"] == "bob")
    assert bob["legal"] is (most is None), bob
    for fixture in ticked(row["shown by"]):
        log = fixture_log(fixture)["events"]
        assert any(e["type"] == "deck_checked" and e["rules"] == rules for e in log), fixture


def test_game_over_has_not_started_only_when_the_game_did_not_start():
    assert fixture_log("classic.game.constructed-deck-at-least-sixty-cards")["state"]["game_over"]["not_started"] is True
    ended = fixture_log("classic.game-end.both-players-at-zero-life-is-a-draw")["state"]["game_over"]
    assert ended["draw"] is True and "not_started" not in ended


# ----------------------------------------------------------------------- FORMAT §7
MASK = (1 << 64) - 1


class SplitMix64:
    """FORMAT §7's PRNG, written here from the document (not imported from the engine)."""

    def __init__(self, seed: int) -> None:
        self.x = seed & MASK

    def next(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) & MASK
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = ((1 << 63) // n) * n
        while True:
            x = self.next() >> 1
            if x < limit:
                return x % n


def test_the_documented_random_discard_example():
    assert "seed 1, a hand of three: the third card, then the second" in FORMAT
    rng, hand = SplitMix64(1), ["x1", "x2", "x3"]
    assert [hand.pop(rng.below(3)), hand.pop(rng.below(2))] == ["x3", "x2"]


@pytest.mark.parametrize("seed", range(6))
def test_a_random_discard_is_one_below_n_per_card_in_hand_order(seed):
    hand = [card("x1", "Forest"), card("x2", "Island"), card("x3", "Swamp"), card("x4", "Mountain")]
    s = setup({"hand": [card("hymn", "Hymn to Tourach")], "mana_pool": {"B": 2}}, {"hand": hand}, seed=seed)
    log = play_raw(s, [act("cast", "alice", card="hymn", targets=["bob"]), act("resolve")])["events"]
    got = [e["result"] for e in log if e["type"] == "random_outcome"]
    rng, left = SplitMix64(seed), [c["alias"] for c in hand]
    assert got == [left.pop(rng.below(len(left))) for _ in range(2)]


# ------------------------------------------------------------------ FORMAT §10, §8
RIFT = setup({"exile": [card("rb", "Rift Bolt", counters={"time": 1})]}, step="upkeep")


@pytest.mark.parametrize("alternative", [None, "without_paying"])
def test_a_cast_answering_may_cast_is_the_cast_the_trigger_offers(alternative):
    extra = {"alternative": alternative} if alternative else {}
    log = play_raw(RIFT, [act("resolve"), act("resolve"),
                          act("cast", "alice", card="rb", targets=["bob"], **extra)])["events"]
    cast, = [e for e in log if e["type"] == "spell_cast"]
    assert cast["alternative"] == "without_paying" and cast["mana_paid"] == {}  # CR 702.62a


def test_x_above_zero_for_a_free_cast_is_invalid_x():
    log = play_raw(RIFT, [act("resolve"), act("resolve"),
                          act("cast", "alice", card="rb", targets=["bob"], x=1)])["events"]
    assert [e["code"] for e in log if e["type"] == "action_rejected"] == ["invalid_x"]  # CR 107.3b


def test_madness_is_asked_even_when_the_cost_cannot_be_paid():
    # FORMAT §10: for madness the cost is not looked at; an unpayable cast is rejected until `no`
    s = setup({"hand": [card("study", "Careful Study"), card("withering", "Dark Withering")], "mana_pool": {"U": 1},
               "library": [card("l1", "Island"), card("l2", "Island")]},
              {"battlefield": [card("bears", "Grizzly Bears")]})
    script = [act("cast", "alice", card="study"), act("resolve"),
              act("discard", "alice", cards=["withering", "l1"]), act("resolve"),
              act("cast", "alice", card="withering", targets=["bears"]), act("choose", "alice", choice="no")]
    log = play_raw(s, script)["events"]
    assert [e["code"] for e in log if e["type"] == "action_rejected"] == ["cannot_pay"]
    assert {"type": "cast_declined", "player": "alice", "card": "withering", "reason": "madness"} in log


def test_flashback_rejection_codes():
    # FORMAT §10 "Flashback": from the hand, or a card without flashback: invalid_alternative;
    # a flashback card in the graveyard cast without it: not_in_hand
    cases = [({"hand": [card("t", "Think Twice")], "mana_pool": {"U": 3}}, {"alternative": "flashback"},
              "invalid_alternative"),
             ({"graveyard": [card("t", "Lightning Bolt")], "mana_pool": {"R": 1}},
              {"alternative": "flashback", "targets": ["bob"]}, "invalid_alternative"),
             ({"graveyard": [card("t", "Think Twice")], "mana_pool": {"U": 3}}, {}, "not_in_hand")]
    for alice, extra, code in cases:
        log = play_raw(setup(alice), [act("cast", "alice", card="t", **extra)])["events"]
        assert [e["code"] for e in log if e["type"] == "action_rejected"] == [code], (alice, extra)


# ------------------------------------------------------------------ FORMAT §11.9
@pytest.mark.parametrize("alternative", ["flashback", "without_paying", "madness"])
def test_a_prepared_copy_takes_no_alternative_but_a_permanents(alternative):
    s = setup({"battlefield": [card("emc", "Emeritus of Conflict", prepared=True)], "mana_pool": {"R": 1}})
    log = play_raw(s, [act("cast", "alice", card="prepared#1", targets=["bob"], alternative=alternative)])["events"]
    assert [e["code"] for e in log if e["type"] == "action_rejected"] == ["invalid_alternative"]
    assert "It is not an alternative cost (`.19`): `spell_cast` has no" not in FORMAT  # the old contradiction


# ----------------------------------------------------------------- the documents' shape
def _numbers(text: str) -> list[tuple[int, ...]]:
    return [tuple(int(n) for n in m.group(1).split(".")) for m in re.finditer(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", text,
                                                                                  flags=re.M)]


@pytest.mark.parametrize("name", ["FORMAT.md", "PROTOCOL.md"])
def test_section_numbers_run_in_order(name):
    numbers = _numbers((ROOT / "docs" / name).read_text(encoding="utf-8"))
    assert numbers and numbers == sorted(numbers), numbers
    assert len(numbers) == len(set(numbers))


def test_no_remark_calls_another_section_out_of_date():
    assert "is out of date" not in FORMAT


# ------------------------------------------------------------- FORMAT §3.2 keep, mulligan
def _start(script: list, ruleset: str = "modern") -> dict:
    s = {"seed": 1, "start_of_game": True, "active_player": "alice",
         "players": [{"id": "alice", "library": [card(f"a{i}", "Forest") for i in range(12)]},
                     {"id": "bob", "library": [card(f"b{i}", "Forest") for i in range(12)]}]}
    return play_raw(s, script, ruleset)


def _rejections(result: dict) -> list[str]:
    return [e["code"] for e in result["events"] if e["type"] == "action_rejected"]


def test_keep_puts_one_card_per_mulligan_on_the_bottom_under_the_london_mulligan():
    # CR 103.5: after one mulligan, seven cards and one on the bottom
    new_hand = _start([act("mulligan", "alice")])["state"]["players"]["alice"]["hand"]
    assert len(new_hand) == 7
    bottom = new_hand[3]
    result = _start([act("mulligan", "alice"), act("keep", "alice", bottom=[]),
                     act("keep", "alice", bottom=["zz"]), act("keep", "alice", bottom=[bottom])])
    assert _rejections(result) == ["invalid_choice", "not_in_hand"], result["events"][-5:]
    hand = result["state"]["players"]["alice"]["hand"]
    kept = next(e for e in result["events"] if e["type"] == "hand_kept")
    assert kept == {"type": "hand_kept", "player": "alice", "mulligans": 1, "hand_size": 6} and len(hand) == 6
    assert bottom not in hand and result["state"]["players"]["alice"]["library"][-1] == bottom  # on the bottom


def test_the_older_mulligan_draws_one_fewer_and_puts_nothing_on_the_bottom():
    result = _start([act("mulligan", "alice"), act("keep", "alice", bottom=["a0"]), act("keep", "alice")],
                    "classic-1999")
    assert _rejections(result) == ["invalid_choice"]
    assert next(e for e in result["events"] if e["type"] == "hand_kept")["hand_size"] == 6


# ----------------------------------------------------- FORMAT §3.1 deck_checked, not started
def test_deck_problems_are_the_documented_sentences():
    # FORMAT §3.1 `deck_rules`: the templates, in their order (count first, then card names sorted)
    forests = [card(f"f{i}", "Forest") for i in range(60)]
    bob = ([card(f"s{i}", "Shock") for i in range(5)] + [card(f"b{i}", "Lightning Bolt") for i in range(6)]
           + [card(f"g{i}", "Forest") for i in range(30)])
    result = _deck_start(forests, bob, "constructed")
    problems = next(e["problems"] for e in result["events"] if e["type"] == "deck_checked" and e["player"] == "bob")
    assert problems == ["41 cards; a constructed deck has at least 60",
                        "6 copies of Lightning Bolt; at most 4 of a card other than basic lands",
                        "5 copies of Shock; at most 4 of a card other than basic lands"]
    assert '"<N> cards; a <rules> deck has at least <min>"' in FORMAT


def test_a_game_not_started_shows_the_untap_step_of_the_beginning_phase():
    # FORMAT §2 (CR 501.1: untap is a step of the beginning phase), §3.1 `deck_rules`
    for fixture in ("classic.game.constructed-deck-at-least-sixty-cards", "classic.game.sealed-deck-at-least-forty-cards"):
        state = fixture_log(fixture)["state"]
        assert (state["turn"], state["phase"], state["step"]) == (1, "beginning", "untap"), fixture


# --------------------------------------------- PROTOCOL §10.4, §10.5, §10.9; FORMAT §4, §5.1
def test_a_destroy_effect_is_regenerated_like_lethal_damage():
    # §10.9 row `regenerate`: CR 701.19a, 614.8: the shield replaces the destruction
    s = setup({"battlefield": [card("skel", "Drudge Skeletons"), card("sw", "Swamp")]
               + [card(f"p{i}", "Plains") for i in range(4)], "hand": [card("doj", "Day of Judgment")]})
    log = play_raw(s, [act("activate", "alice", source="skel", ability=0, pay_with=["sw"]), act("resolve"),
                       act("cast", "alice", card="doj", pay_with=["p0", "p1", "p2", "p3"]), act("resolve")])["events"]
    shown = [e["type"] for e in log if e["type"] not in PRIORITY]
    k = shown.index("spell_resolved", shown.index("spell_cast"))
    assert shown[k:k + 4] == ["spell_resolved", "regenerated", "tapped", "zone_changed"]
    assert "destroyed" not in shown


def test_state_based_actions_of_one_check_come_in_the_documented_order():
    # §10.4 (CR 704.3 leaves it open): 704.5q as the pass meets it, then 704.5f/g moves in
    # battlefield order, then the legend rule
    assert "704.5q's\n  counters are removed as it is met" in PROTOCOL
    s = setup({"battlefield": [card("bg", "Grizzly Bears", damage=2),
                               card("bq", "Grizzly Bears", counters={"+1/+1": 1, "-1/-1": 1}),
                               card("bf", "Grizzly Bears", counters={"-1/-1": 2})]},
              {"battlefield": [card("isa1", "Isamaru, Hound of Konda"), card("isa2", "Isamaru, Hound of Konda")]})
    log = play_raw(s, [act("choose", "bob", choice="isa1")])["events"]
    assert [(e["rule"], e["object"]) for e in log if e["type"] == "state_based_action"] == [
        ("704.5q", "bq"), ("704.5g", "bg"), ("704.5f", "bf"), ("704.5j", "isa2")]


def test_turning_a_face_up_permanent_face_up_is_not_on_battlefield():
    # §10.5 row `turn_face_up`
    s = setup({"battlefield": [card("mawcor", "Fledgling Mawcor")], "mana_pool": {"U": 2}})
    log = play_raw(s, [act("turn_face_up", "alice", card="mawcor")])["events"]
    assert [e["code"] for e in log if e["type"] == "action_rejected"] == ["not_on_battlefield"]


def test_mana_pool_and_summoning_sick_in_the_state():
    # FORMAT §4: only symbols with mana; summoning_sick is CR 302.6's raw flag, lands and haste too
    s = setup({"battlefield": [card("f", "Forest", summoning_sick=True), card("m", "Mountain")],
               "hand": [card("hast", "Raging Goblin")], "mana_pool": {"R": 1, "G": 0}})
    state = play_raw(s, [act("cast", "alice", card="hast"), act("resolve"),
                         act("activate", "alice", source="f", ability=0)])["state"]
    assert state["players"]["alice"]["mana_pool"] == {"G": 1}
    assert state["battlefield"]["f"]["summoning_sick"] is True and state["battlefield"]["m"]["summoning_sick"] is False
    assert state["battlefield"]["hast"]["summoning_sick"] is True


def test_a_saga_without_chapter_data_enters_with_a_lore_counter():
    # FORMAT §5.1 Entering (CR 714.3a)
    state = fixture_log("finalfantasy.transform.exiled-then-returned-transformed")["state"]
    assert state["battlefield"]["terra"]["name"] == "Esper Terra" and state["battlefield"]["terra"]["counters"] == {"lore": 1}


def test_show_says_a_start_of_game_setup_starts_at_the_start_of_the_game():
    # FORMAT §3.1: with start_of_game, turn, step and lands_played are not used
    from click.testing import CliRunner

    from mtg_judge.tools.cli import main
    out = CliRunner().invoke(main, ["show", "classic.game.constructed-deck-at-least-sixty-cards"]).output
    assert "Start: the start of the game (CR 103), alice plays first, seed 7, constructed deck rules" in out
    assert "precombat main" not in out.split("Play", 1)[0]


@pytest.mark.parametrize("alternative", ["without_paying", "madness"])
def test_an_alternative_nothing_permits_is_invalid_alternative(alternative):
    # FORMAT §8 `invalid_alternative`: only a may_cast offers these (CR 118.9: a cost needs a permission)
    s = setup({"hand": [card("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}})
    log = play_raw(s, [act("cast", "alice", card="bolt", targets=["bob"], alternative=alternative)])["events"]
    assert [e["code"] for e in log if e["type"] == "action_rejected"] == ["invalid_alternative"]


# ------------------------------------------- issue 27, the second from-docs trial's findings
def test_the_zone_decides_not_in_hand_before_invalid_alternative():
    # PROTOCOL §10.5 `cast`, FORMAT §8: madness from the hand is invalid_alternative (CR 702.35a:
    # only as its trigger resolves); from a graveyard nothing lets it be cast at all: not_in_hand
    for zone, code in (("hand", "invalid_alternative"), ("graveyard", "not_in_hand")):
        s = setup({zone: [card("w", "Dark Withering")], "mana_pool": {"B": 7}},
                  {"battlefield": [card("bears", "Grizzly Bears")]})
        log = play_raw(s, [act("cast", "alice", card="w", targets=["bears"], alternative="madness")])["events"]
        assert [e["code"] for e in log if e["type"] == "action_rejected"] == [code], zone
    log = fixture_log("timespiral.madness.declined-cast-goes-to-graveyard-for-good[modern]")["events"]
    assert "not_in_hand" in [e["code"] for e in log if e["type"] == "action_rejected"]


def _combat(attacker: str, blockers: list[str], assignments: list[dict]) -> list[dict]:
    s = setup({"battlefield": [card("att", attacker)]},
              {"battlefield": [card(b, name) for b, name in blockers]}, step="declare_attackers")
    script = [act("declare_attackers", "alice", attackers=["att"]), act("resolve"),
              act("declare_blockers", "bob", blocks=[{"blocker": b, "attacker": "att"} for b, _ in blockers]),
              act("resolve")] + [act("assign_damage", "alice", attacker="att", assignment=a) for a in assignments]
    return play_raw(s, script)["events"]


def test_damage_is_divided_freely_without_an_assignment_order():
    # CR 510.1c-d as of November 2024 (PROTOCOL §10.2, FORMAT §8): Craw Wurm (6/4) blocked by
    # Grizzly Bears (2/2) then Hill Giant (3/3) may give the first blocker less than lethal
    assert "no damage assignment order" in PROTOCOL and "no damage assignment order" in FORMAT
    log = _combat("Craw Wurm", [("bears", "Grizzly Bears"), ("giant", "Hill Giant")], [{"bears": 1, "giant": 5}])
    assert not any(e["type"] == "action_rejected" for e in log)
    dealt = {e["target"]: e["amount"] for e in log if e["type"] == "damage_dealt" and e["source"] == "att"}
    assert dealt == {"bears": 1, "giant": 5}


def test_trample_still_needs_lethal_damage_to_every_blocker_first():
    # CR 702.19c: War Mammoth (3/3 trample) blocked by two 1/1 Elves
    elves = [("e1", "Llanowar Elves"), ("e2", "Llanowar Elves")]
    log = _combat("War Mammoth", elves, [{"e1": 1, "e2": 0, "bob": 2}, {"e1": 1, "e2": 1, "bob": 1}])
    assert [e["code"] for e in log if e["type"] == "action_rejected"] == ["invalid_damage_assignment"]
    dealt = {e["target"]: e["amount"] for e in log if e["type"] == "damage_dealt" and e["source"] == "att"}
    assert dealt == {"e1": 1, "e2": 1, "bob": 1}


def test_counters_named_plus_n_plus_m_change_power_and_toughness():
    # FORMAT §4, §6 `counters_added` (CR 613.4c, 122.1a); only +1/+1 and -1/-1 annihilate (CR 704.5q)
    s = setup({"battlefield": [card("b1", "Grizzly Bears", counters={"+1/+0": 2, "+0/+1": 1, "-0/-1": 1}),
                               card("b2", "Grizzly Bears", counters={"+1/+0": 1, "-1/-1": 1})]})
    result = play_raw(s, [])
    b1, b2 = result["state"]["battlefield"]["b1"], result["state"]["battlefield"]["b2"]
    assert (b1["power"], b1["toughness"]) == (4, 2)
    assert (b2["power"], b2["toughness"]) == (2, 1) and b2["counters"] == {"+1/+0": 1, "-1/-1": 1}
    assert not any(e["type"] == "state_based_action" for e in result["events"])


def test_a_shuffles_result_is_the_new_library_order_top_first():
    # FORMAT §6 `random_outcome`: the 12 Forests shuffled, then the top 7 drawn (CR 103.4)
    result = _start([act("keep", "alice"), act("keep", "bob")])
    shuffle = next(e for e in result["events"] if e["type"] == "random_outcome" and e["player"] == "alice")
    alice = result["state"]["players"]["alice"]
    assert shuffle["kind"] == "shuffle" and shuffle["result"] == alice["hand"] + alice["library"]


def test_lifelink_gains_right_after_the_damage():
    # FORMAT §6 `life_gained` (CR 702.15b): Felidar Sovereign (4/6 lifelink) unblocked
    s = setup({"battlefield": [card("fs", "Felidar Sovereign")]}, step="declare_attackers")
    log = play_raw(s, [act("declare_attackers", "alice", attackers=["fs"]), act("resolve"),
                       act("declare_blockers", "bob", blocks=[]), act("resolve")])["events"]
    k = next(i for i, e in enumerate(log) if e["type"] == "damage_dealt")
    assert [e["type"] for e in log[k:k + 3]] == ["damage_dealt", "life_lost", "life_gained"]
    assert log[k + 2]["player"] == "alice" and log[k + 2]["amount"] == 4


def test_suspends_cast_trigger_removed_asks_nothing():
    # PROTOCOL §10.9 row suspend-cast-condition-false (CR 702.62a): no may_cast, no cast_declined
    log = fixture_log("timespiral.suspend.card-that-left-exile-is-not-cast")["events"]
    assert not any(e["type"] == "cast_declined" for e in log)
    assert not any(e["type"] == "ability_resolved" and e["object"] == "ability#2" for e in log)


def test_the_stale_texts_are_gone():
    assert '`"name":\n"Spirit"`' not in FORMAT and '"Spirit Token"' in FORMAT  # CR 111.4, modern
    assert "outside the `may_cast` that offers it |" not in FORMAT  # the permission of §8
    step11 = next(line for line in (ROOT / "docs" / "WRITING_AN_ENGINE.md").read_text(encoding="utf-8").splitlines()
                  if line.startswith("| 11 |"))
    assert "§13" in step11


def test_an_exported_case_file_wraps_the_run_messages_scenario(tmp_path):
    # `mtg-judge export --help`: the case file is a wrapper; its `scenario` key is what `run` sends
    from click.testing import CliRunner

    from mtg_judge.tools.cli import main

    help_text = CliRunner().invoke(main, ["export", "--help"]).output
    assert "'scenario' key" in " ".join(help_text.split())
    out = tmp_path / "b"
    done = CliRunner().invoke(main, ["export", str(out), "--ruleset", "modern",
                                     "-k", "timespiral.counter-annihilation.plus-one-and-minus-one-counters-cancel"])
    assert done.exit_code == 0, done.output
    path, = (out / "cases").rglob("*.json")
    wrapper = json.loads(path.read_text(encoding="utf-8"))
    assert {"id", "ruleset", "scenario"} <= set(wrapper) and "players" not in wrapper
    log = run_scenario(wrapper["scenario"], wrapper["ruleset"], cards=wrapper["scenario"]["cards"])["events"]
    assert any(e["type"] == "state_based_action" and e["rule"] == "704.5q" for e in log)


def test_an_omen_copy_ceases_to_exist_after_the_shuffle():
    # FORMAT §6 `copy_ceased_to_exist`, §11.2 (CR 707.10a)
    log = fixture_log("tarkir.omen.copy-of-an-omen-is-shuffled-and-ceases-to-exist")["events"]
    k = next(i for i, e in enumerate(log) if e["type"] == "copy_ceased_to_exist")
    assert log[k]["after"] == "shuffled_into_library"
    assert [e["type"] for e in log[k - 2:k]] == ["random_outcome", "library_shuffled"]


def test_an_effects_permission_to_cast_free_requires_without_paying():
    # FORMAT §8 `invalid_alternative`, PROTOCOL §10.5 `cast`: Spelljack exiles the countered Bolt and
    # its controller may cast it without paying its mana cost; only bob has that permission
    s = setup({"hand": [card("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}},
              {"hand": [card("jack", "Spelljack")], "mana_pool": {"U": 6}})
    script = [act("cast", "alice", card="bolt", targets=["bob"]), act("pass", "alice"),
              act("cast", "bob", card="jack", targets=["bolt#2"]), act("resolve"),
              act("cast", "alice", card="bolt#3", targets=["bob"], alternative="without_paying"),
              act("pass", "alice"), act("cast", "bob", card="bolt#3", targets=["alice"]),
              act("cast", "bob", card="bolt#3", targets=["alice"], alternative="flashback"),
              act("cast", "bob", card="bolt#3", targets=["alice"], alternative="without_paying")]
    log = play_raw(s, script)["events"]
    assert [e["code"] for e in log if e["type"] == "action_rejected"] == [
        "not_in_hand", "invalid_alternative", "invalid_alternative"]
    cast = [e for e in log if e["type"] == "spell_cast"][-1]
    assert (cast["player"], cast["alternative"], cast["mana_paid"]) == ("bob", "without_paying", {})
